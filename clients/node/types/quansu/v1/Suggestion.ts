// Original file: ../../proto/quansu/v1/service.proto

import type { Move as _quansu_v1_Move, Move__Output as _quansu_v1_Move__Output } from '../../quansu/v1/Move';
import type { Event as _quansu_v1_Event, Event__Output as _quansu_v1_Event__Output } from '../../quansu/v1/Event';
import type { Reason as _quansu_v1_Reason, Reason__Output as _quansu_v1_Reason__Output } from '../../quansu/v1/Reason';

/**
 * One ranked move.
 */
export interface Suggestion {
  'move'?: (_quansu_v1_Move | null);
  /**
   * Share of the root visits (0..1).
   */
  'visit_share'?: (number | string);
  'visits'?: (number);
  /**
   * Expected payoff of this move for the seat to act, in bets.
   */
  'expected_payoff'?: (number | string);
  /**
   * The evaluator's prior probability of the move (0..1).
   */
  'prior'?: (number | string);
  /**
   * A lower confidence bound of the expected payoff, in bets; absent when the move has too
   * few visits (fewer than 2) for one.
   */
  'lower_bound'?: (number | string);
  /**
   * The most visited continuation after this move (seat and move text).
   */
  'principal_line'?: (_quansu_v1_Event)[];
  'reasons'?: (_quansu_v1_Reason)[];
  /**
   * Equal-choice group: 0 for the top move and the moves whose payoffs are statistically tied
   * with it, 1 for the next tied group, and so on (moves with too few visits come last).
   */
  'group'?: (number);
  /**
   * The same play in other suits, folded into this row because it measured exactly the same
   * value in the same group (Tiến lên's and Sâm lốc's plays: the combination and its ranks);
   * `move` holds the suits chosen for the player (the ranking's first).  Empty for most rows.
   */
  'variants'?: (_quansu_v1_Move)[];
  /**
   * The row as a player reads it, in the request's `language`: `move.label`, or with
   * `variants` the play without its suits when the row holds every legal choice of suits
   * ("straight 3-4-5-6-7, any suits", "đánh sảnh 3-4-5-6-7 bất kỳ chất"), else the move with
   * the suits chosen and how many other choices the row holds ("pair 9♦ 9♥ (+2 in other
   * suits)": other choices measured differently or were not measured).
   */
  'label'?: (string);
  '_lower_bound'?: "lower_bound";
}

/**
 * One ranked move.
 */
export interface Suggestion__Output {
  'move'?: (_quansu_v1_Move__Output);
  /**
   * Share of the root visits (0..1).
   */
  'visit_share'?: (number);
  'visits'?: (number);
  /**
   * Expected payoff of this move for the seat to act, in bets.
   */
  'expected_payoff'?: (number);
  /**
   * The evaluator's prior probability of the move (0..1).
   */
  'prior'?: (number);
  /**
   * A lower confidence bound of the expected payoff, in bets; absent when the move has too
   * few visits (fewer than 2) for one.
   */
  'lower_bound'?: (number);
  /**
   * The most visited continuation after this move (seat and move text).
   */
  'principal_line'?: (_quansu_v1_Event__Output)[];
  'reasons'?: (_quansu_v1_Reason__Output)[];
  /**
   * Equal-choice group: 0 for the top move and the moves whose payoffs are statistically tied
   * with it, 1 for the next tied group, and so on (moves with too few visits come last).
   */
  'group'?: (number);
  /**
   * The same play in other suits, folded into this row because it measured exactly the same
   * value in the same group (Tiến lên's and Sâm lốc's plays: the combination and its ranks);
   * `move` holds the suits chosen for the player (the ranking's first).  Empty for most rows.
   */
  'variants'?: (_quansu_v1_Move__Output)[];
  /**
   * The row as a player reads it, in the request's `language`: `move.label`, or with
   * `variants` the play without its suits when the row holds every legal choice of suits
   * ("straight 3-4-5-6-7, any suits", "đánh sảnh 3-4-5-6-7 bất kỳ chất"), else the move with
   * the suits chosen and how many other choices the row holds ("pair 9♦ 9♥ (+2 in other
   * suits)": other choices measured differently or were not measured).
   */
  'label'?: (string);
  '_lower_bound'?: "lower_bound";
}
