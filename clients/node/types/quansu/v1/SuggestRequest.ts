// Original file: ../../proto/quansu/v1/service.proto

import type { View as _quansu_v1_View, View__Output as _quansu_v1_View__Output } from '../../quansu/v1/View';
import type { Budget as _quansu_v1_Budget, Budget__Output as _quansu_v1_Budget__Output } from '../../quansu/v1/Budget';
import type { Long } from '@grpc/proto-loader';

export interface SuggestRequest {
  'view'?: (_quansu_v1_View | null);
  'budget'?: (_quansu_v1_Budget | null);
  /**
   * How many ranked moves to return (0: the server default).
   */
  'top_k'?: (number);
  /**
   * Bot strength 1..5 (search/levels.py: the level's budget unless `budget` is set, and a
   * choice temperature for `chosen`); 0: a hint (the budget above, `chosen` = the best move).
   */
  'strength'?: (number);
  /**
   * Seed of every random choice; the same request with the same seed and an iteration-only
   * budget gives the same answer.
   */
  'seed'?: (number | string | Long);
  /**
   * Language of the reasons' `text` and of an INVALID_ARGUMENT's description (field paths
   * unchanged): "en" (also ""), or "vi" (Vietnamese); anything else is INVALID_ARGUMENT.
   * Codes and cards are the same in every language.
   */
  'language'?: (string);
  '_seed'?: "seed";
}

export interface SuggestRequest__Output {
  'view'?: (_quansu_v1_View__Output);
  'budget'?: (_quansu_v1_Budget__Output);
  /**
   * How many ranked moves to return (0: the server default).
   */
  'top_k'?: (number);
  /**
   * Bot strength 1..5 (search/levels.py: the level's budget unless `budget` is set, and a
   * choice temperature for `chosen`); 0: a hint (the budget above, `chosen` = the best move).
   */
  'strength'?: (number);
  /**
   * Seed of every random choice; the same request with the same seed and an iteration-only
   * budget gives the same answer.
   */
  'seed'?: (string);
  /**
   * Language of the reasons' `text` and of an INVALID_ARGUMENT's description (field paths
   * unchanged): "en" (also ""), or "vi" (Vietnamese); anything else is INVALID_ARGUMENT.
   * Codes and cards are the same in every language.
   */
  'language'?: (string);
  '_seed'?: "seed";
}
