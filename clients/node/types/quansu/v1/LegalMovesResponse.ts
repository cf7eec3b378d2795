// Original file: ../../proto/quansu/v1/service.proto

import type { Move as _quansu_v1_Move, Move__Output as _quansu_v1_Move__Output } from '../../quansu/v1/Move';
import type { Result as _quansu_v1_Result, Result__Output as _quansu_v1_Result__Output } from '../../quansu/v1/Result';

export interface LegalMovesResponse {
  'game'?: (string);
  /**
   * The seat to act, or -1 when the game is over.
   */
  'to_act'?: (number);
  /**
   * In a player's order (docs/api.md, "LegalMoves"): grouped by `group` in the game's order
   * of groups, and within a group from the lowest to the highest by the game's rank order
   * (Phỏm's ace low; Tấn's trumps last).
   */
  'moves'?: (_quansu_v1_Move)[];
  'terminal'?: (boolean);
  /**
   * Number of moves replayed.
   */
  'history_length'?: (number);
  /**
   * The settlement when a record's game is over.
   */
  'result'?: (_quansu_v1_Result | null);
  /**
   * A view in which another seat is to act: that seat's legal moves depend on cards the
   * view's seat cannot see, so `moves` is empty.
   */
  'hidden'?: (boolean);
}

export interface LegalMovesResponse__Output {
  'game'?: (string);
  /**
   * The seat to act, or -1 when the game is over.
   */
  'to_act'?: (number);
  /**
   * In a player's order (docs/api.md, "LegalMoves"): grouped by `group` in the game's order
   * of groups, and within a group from the lowest to the highest by the game's rank order
   * (Phỏm's ace low; Tấn's trumps last).
   */
  'moves'?: (_quansu_v1_Move__Output)[];
  'terminal'?: (boolean);
  /**
   * Number of moves replayed.
   */
  'history_length'?: (number);
  /**
   * The settlement when a record's game is over.
   */
  'result'?: (_quansu_v1_Result__Output);
  /**
   * A view in which another seat is to act: that seat's legal moves depend on cards the
   * view's seat cannot see, so `moves` is empty.
   */
  'hidden'?: (boolean);
}
