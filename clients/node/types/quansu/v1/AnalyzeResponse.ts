// Original file: ../../proto/quansu/v1/service.proto

import type { Decision as _quansu_v1_Decision, Decision__Output as _quansu_v1_Decision__Output } from '../../quansu/v1/Decision';
import type { SeatSummary as _quansu_v1_SeatSummary, SeatSummary__Output as _quansu_v1_SeatSummary__Output } from '../../quansu/v1/SeatSummary';
import type { Thresholds as _quansu_v1_Thresholds, Thresholds__Output as _quansu_v1_Thresholds__Output } from '../../quansu/v1/Thresholds';

export interface AnalyzeResponse {
  'decision'?: (_quansu_v1_Decision | null);
  'summary'?: (_quansu_v1_SeatSummary | null);
  /**
   * Decisions done so far and in all.
   */
  'done'?: (number);
  'total'?: (number);
  /**
   * The thresholds in force (after defaults).
   */
  'thresholds'?: (_quansu_v1_Thresholds | null);
  'model'?: (string);
  'item'?: "decision"|"summary";
}

export interface AnalyzeResponse__Output {
  'decision'?: (_quansu_v1_Decision__Output);
  'summary'?: (_quansu_v1_SeatSummary__Output);
  /**
   * Decisions done so far and in all.
   */
  'done'?: (number);
  'total'?: (number);
  /**
   * The thresholds in force (after defaults).
   */
  'thresholds'?: (_quansu_v1_Thresholds__Output);
  'model'?: (string);
  'item'?: "decision"|"summary";
}
