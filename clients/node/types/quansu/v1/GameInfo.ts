// Original file: ../../proto/quansu/v1/service.proto

import type { OptionInfo as _quansu_v1_OptionInfo, OptionInfo__Output as _quansu_v1_OptionInfo__Output } from '../../quansu/v1/OptionInfo';
import type { Thresholds as _quansu_v1_Thresholds, Thresholds__Output as _quansu_v1_Thresholds__Output } from '../../quansu/v1/Thresholds';

export interface GameInfo {
  'name'?: (string);
  'title'?: (string);
  'min_players'?: (number);
  'max_players'?: (number);
  'options'?: (_quansu_v1_OptionInfo)[];
  /**
   * The evaluator loaded for this game ("uniform" when no network is loaded).
   */
  'model'?: (string);
  'rules_version'?: (number);
  /**
   * Default Analyze thresholds for this game, in bets.
   */
  'thresholds'?: (_quansu_v1_Thresholds | null);
  /**
   * Whether strength levels with an improvement step (LevelInfo.improve_worlds) use it in
   * this game (docs/search.md: where it measured stronger and fits the levels' time).
   */
  'improve'?: (boolean);
}

export interface GameInfo__Output {
  'name'?: (string);
  'title'?: (string);
  'min_players'?: (number);
  'max_players'?: (number);
  'options'?: (_quansu_v1_OptionInfo__Output)[];
  /**
   * The evaluator loaded for this game ("uniform" when no network is loaded).
   */
  'model'?: (string);
  'rules_version'?: (number);
  /**
   * Default Analyze thresholds for this game, in bets.
   */
  'thresholds'?: (_quansu_v1_Thresholds__Output);
  /**
   * Whether strength levels with an improvement step (LevelInfo.improve_worlds) use it in
   * this game (docs/search.md: where it measured stronger and fits the levels' time).
   */
  'improve'?: (boolean);
}
