// Original file: ../../proto/quansu/v1/service.proto

import type { GameInfo as _quansu_v1_GameInfo, GameInfo__Output as _quansu_v1_GameInfo__Output } from '../../quansu/v1/GameInfo';
import type { Limits as _quansu_v1_Limits, Limits__Output as _quansu_v1_Limits__Output } from '../../quansu/v1/Limits';
import type { LevelInfo as _quansu_v1_LevelInfo, LevelInfo__Output as _quansu_v1_LevelInfo__Output } from '../../quansu/v1/LevelInfo';

export interface DescribeGamesResponse {
  'games'?: (_quansu_v1_GameInfo)[];
  'limits'?: (_quansu_v1_Limits | null);
  'api_version'?: (string);
  /**
   * The strength levels, weakest first.
   */
  'levels'?: (_quansu_v1_LevelInfo)[];
}

export interface DescribeGamesResponse__Output {
  'games'?: (_quansu_v1_GameInfo__Output)[];
  'limits'?: (_quansu_v1_Limits__Output);
  'api_version'?: (string);
  /**
   * The strength levels, weakest first.
   */
  'levels'?: (_quansu_v1_LevelInfo__Output)[];
}
