// Original file: ../../proto/quansu/v1/service.proto

import type { Record as _quansu_v1_Record, Record__Output as _quansu_v1_Record__Output } from '../../quansu/v1/Record';
import type { View as _quansu_v1_View, View__Output as _quansu_v1_View__Output } from '../../quansu/v1/View';
import type { Budget as _quansu_v1_Budget, Budget__Output as _quansu_v1_Budget__Output } from '../../quansu/v1/Budget';
import type { Thresholds as _quansu_v1_Thresholds, Thresholds__Output as _quansu_v1_Thresholds__Output } from '../../quansu/v1/Thresholds';
import type { Long } from '@grpc/proto-loader';

export interface AnalyzeRequest {
  'record'?: (_quansu_v1_Record | null);
  'view'?: (_quansu_v1_View | null);
  /**
   * Seats to judge (empty: every seat of a record, the view's seat of a view).
   */
  'seats'?: (number)[];
  /**
   * Budget per decision of the search that proposes the candidate moves.
   */
  'budget'?: (_quansu_v1_Budget | null);
  'thresholds'?: (_quansu_v1_Thresholds | null);
  'seed'?: (number | string | Long);
  /**
   * The most sampled worlds per decision for the paired evaluation (0: the server default,
   * the game's GameInfo.analysis_worlds; the server's maximum is 65536).  Fewer are used once the interval lies inside one
   * band or is narrow enough (Decision.stopped_by).
   */
  'max_worlds'?: (number);
  /**
   * Language of the reasons' `text` in `Decision.top` and of an INVALID_ARGUMENT's
   * description: "en" (also "") or "vi".
   */
  'language'?: (string);
  'game'?: "record"|"view";
  '_seed'?: "seed";
}

export interface AnalyzeRequest__Output {
  'record'?: (_quansu_v1_Record__Output);
  'view'?: (_quansu_v1_View__Output);
  /**
   * Seats to judge (empty: every seat of a record, the view's seat of a view).
   */
  'seats'?: (number)[];
  /**
   * Budget per decision of the search that proposes the candidate moves.
   */
  'budget'?: (_quansu_v1_Budget__Output);
  'thresholds'?: (_quansu_v1_Thresholds__Output);
  'seed'?: (string);
  /**
   * The most sampled worlds per decision for the paired evaluation (0: the server default,
   * the game's GameInfo.analysis_worlds; the server's maximum is 65536).  Fewer are used once the interval lies inside one
   * band or is narrow enough (Decision.stopped_by).
   */
  'max_worlds'?: (number);
  /**
   * Language of the reasons' `text` in `Decision.top` and of an INVALID_ARGUMENT's
   * description: "en" (also "") or "vi".
   */
  'language'?: (string);
  'game'?: "record"|"view";
  '_seed'?: "seed";
}
