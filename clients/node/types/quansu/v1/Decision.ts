// Original file: ../../proto/quansu/v1/service.proto

import type { Move as _quansu_v1_Move, Move__Output as _quansu_v1_Move__Output } from '../../quansu/v1/Move';
import type { Mark as _quansu_v1_Mark, Mark__Output as _quansu_v1_Mark__Output } from '../../quansu/v1/Mark';
import type { Suggestion as _quansu_v1_Suggestion, Suggestion__Output as _quansu_v1_Suggestion__Output } from '../../quansu/v1/Suggestion';

/**
 * One judged decision.
 */
export interface Decision {
  /**
   * Index of the move in the record's `moves`.
   */
  'index'?: (number);
  'seat'?: (number);
  'played'?: (_quansu_v1_Move | null);
  /**
   * The top move of the ranking (the highest paired value among the candidates; the played
   * move itself when nothing beats it).
   */
  'best'?: (_quansu_v1_Move | null);
  /**
   * max(0, best_value - played_value), in bets: the point estimate of the loss.
   */
  'loss'?: (number | string);
  'mark'?: (_quansu_v1_Mark);
  /**
   * Expected payoff for `seat`, in bets, of the played and of the best move, measured on the
   * same sampled worlds with the same random numbers (paired evaluation, docs/api.md).
   */
  'played_value'?: (number | string);
  'best_value'?: (number | string);
  'legal_moves'?: (number);
  /**
   * Only one legal move: loss 0, mark best, not counted in accuracy, no evaluation.
   */
  'forced'?: (boolean);
  /**
   * The candidates (the played move and the search's best few), ranked by the ranking rule
   * of docs/api.md on the paired evaluation: `visits` = worlds played, `expected_payoff` =
   * paired value, `lower_bound` = payoff minus its 95 % margin, `group` = equal choices.
   */
  'top'?: (_quansu_v1_Suggestion)[];
  /**
   * The loss's interval, in bets: loss_low <= true loss <= loss_high with 95 % confidence,
   * jointly over the comparisons of the played move with every candidate.  Both 0 for a
   * forced decision.
   */
  'loss_low'?: (number | string);
  'loss_high'?: (number | string);
  /**
   * Standard error of the paired difference best - played, in bets (0 when the played move
   * is the best).
   */
  'loss_stderr'?: (number | string);
  /**
   * Sampled worlds (determinizations from `seat`'s information) the played move was
   * evaluated on (0 for a forced decision).
   */
  'worlds'?: (number);
  /**
   * Why the evaluation stopped: "settled" (the interval lies inside one band), "precise"
   * (the interval's half-width is at most half the good threshold), "cap" (max_worlds
   * reached), "deadline", "cancelled", or "forced".
   */
  'stopped_by'?: (string);
}

/**
 * One judged decision.
 */
export interface Decision__Output {
  /**
   * Index of the move in the record's `moves`.
   */
  'index'?: (number);
  'seat'?: (number);
  'played'?: (_quansu_v1_Move__Output);
  /**
   * The top move of the ranking (the highest paired value among the candidates; the played
   * move itself when nothing beats it).
   */
  'best'?: (_quansu_v1_Move__Output);
  /**
   * max(0, best_value - played_value), in bets: the point estimate of the loss.
   */
  'loss'?: (number);
  'mark'?: (_quansu_v1_Mark__Output);
  /**
   * Expected payoff for `seat`, in bets, of the played and of the best move, measured on the
   * same sampled worlds with the same random numbers (paired evaluation, docs/api.md).
   */
  'played_value'?: (number);
  'best_value'?: (number);
  'legal_moves'?: (number);
  /**
   * Only one legal move: loss 0, mark best, not counted in accuracy, no evaluation.
   */
  'forced'?: (boolean);
  /**
   * The candidates (the played move and the search's best few), ranked by the ranking rule
   * of docs/api.md on the paired evaluation: `visits` = worlds played, `expected_payoff` =
   * paired value, `lower_bound` = payoff minus its 95 % margin, `group` = equal choices.
   */
  'top'?: (_quansu_v1_Suggestion__Output)[];
  /**
   * The loss's interval, in bets: loss_low <= true loss <= loss_high with 95 % confidence,
   * jointly over the comparisons of the played move with every candidate.  Both 0 for a
   * forced decision.
   */
  'loss_low'?: (number);
  'loss_high'?: (number);
  /**
   * Standard error of the paired difference best - played, in bets (0 when the played move
   * is the best).
   */
  'loss_stderr'?: (number);
  /**
   * Sampled worlds (determinizations from `seat`'s information) the played move was
   * evaluated on (0 for a forced decision).
   */
  'worlds'?: (number);
  /**
   * Why the evaluation stopped: "settled" (the interval lies inside one band), "precise"
   * (the interval's half-width is at most half the good threshold), "cap" (max_worlds
   * reached), "deadline", "cancelled", or "forced".
   */
  'stopped_by'?: (string);
}
