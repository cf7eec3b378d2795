// Original file: ../../proto/quansu/v1/service.proto

import type { Suggestion as _quansu_v1_Suggestion, Suggestion__Output as _quansu_v1_Suggestion__Output } from '../../quansu/v1/Suggestion';
import type { Move as _quansu_v1_Move, Move__Output as _quansu_v1_Move__Output } from '../../quansu/v1/Move';
import type { SearchStats as _quansu_v1_SearchStats, SearchStats__Output as _quansu_v1_SearchStats__Output } from '../../quansu/v1/SearchStats';

export interface SuggestResponse {
  'game'?: (string);
  /**
   * The seat to act (the view's seat).
   */
  'seat'?: (number);
  /**
   * Best first.
   */
  'moves'?: (_quansu_v1_Suggestion)[];
  /**
   * The move a bot of the requested strength plays (the best move at strength 5).
   */
  'chosen'?: (_quansu_v1_Move | null);
  'stats'?: (_quansu_v1_SearchStats | null);
  /**
   * The evaluator used ("uniform" when no network is loaded for the game).
   */
  'model'?: (string);
  /**
   * False for the partial rankings of SuggestStream, true for the last message.
   */
  'final'?: (boolean);
}

export interface SuggestResponse__Output {
  'game'?: (string);
  /**
   * The seat to act (the view's seat).
   */
  'seat'?: (number);
  /**
   * Best first.
   */
  'moves'?: (_quansu_v1_Suggestion__Output)[];
  /**
   * The move a bot of the requested strength plays (the best move at strength 5).
   */
  'chosen'?: (_quansu_v1_Move__Output);
  'stats'?: (_quansu_v1_SearchStats__Output);
  /**
   * The evaluator used ("uniform" when no network is loaded for the game).
   */
  'model'?: (string);
  /**
   * False for the partial rankings of SuggestStream, true for the last message.
   */
  'final'?: (boolean);
}
