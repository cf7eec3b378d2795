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
   * Best first: in the order of the value they show (the ranked moves, then the rest by their
   * payoff), suit variants of equal value folded into one row (Suggestion.variants).
   */
  'moves'?: (_quansu_v1_Suggestion)[];
  /**
   * The move a bot of the requested strength plays (the best move at strength 5); for a hint
   * (no strength), the first row's move.
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
  /**
   * A hint's one line of advice in the request's `language` (docs/api.md, "A hint in a
   * player's words"): the first row's move in the game's terms, what it does, and how much
   * better it is than the next row in bets (or "about as good as" it when tied); for a forced
   * move, that it is forced and the position's value.  Empty for bot play (`strength`).
   */
  'advice'?: (string);
}

export interface SuggestResponse__Output {
  'game'?: (string);
  /**
   * The seat to act (the view's seat).
   */
  'seat'?: (number);
  /**
   * Best first: in the order of the value they show (the ranked moves, then the rest by their
   * payoff), suit variants of equal value folded into one row (Suggestion.variants).
   */
  'moves'?: (_quansu_v1_Suggestion__Output)[];
  /**
   * The move a bot of the requested strength plays (the best move at strength 5); for a hint
   * (no strength), the first row's move.
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
  /**
   * A hint's one line of advice in the request's `language` (docs/api.md, "A hint in a
   * player's words"): the first row's move in the game's terms, what it does, and how much
   * better it is than the next row in bets (or "about as good as" it when tied); for a forced
   * move, that it is forced and the position's value.  Empty for bot play (`strength`).
   */
  'advice'?: (string);
}
