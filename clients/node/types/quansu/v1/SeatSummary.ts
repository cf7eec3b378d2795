// Original file: ../../proto/quansu/v1/service.proto

import type { Decision as _quansu_v1_Decision, Decision__Output as _quansu_v1_Decision__Output } from '../../quansu/v1/Decision';

export interface SeatSummary {
  'seat'?: (number);
  /**
   * Decisions judged (forced ones included).
   */
  'decisions'?: (number);
  'total_loss'?: (number | string);
  /**
   * total_loss / decisions with a choice.
   */
  'average_loss'?: (number | string);
  /**
   * Mean over the decisions with a choice of 2^(-loss / thresholds.mistake): 1 for no loss,
   * 0.5 at the mistake threshold (0..1; 1 when there is none).
   */
  'accuracy'?: (number | string);
  /**
   * The worst decisions with a mark (not "unclear"), largest loss first (at most 3).
   */
  'worst'?: (_quansu_v1_Decision)[];
  /**
   * Mark name ("best", "good", "inaccuracy", "mistake", "blunder", "unclear") -> count.
   */
  'marks'?: ({[key: string]: number});
  /**
   * The seat's payoff in the finished game, in bets (absent when unknown).
   */
  'payoff'?: (number | string);
  '_payoff'?: "payoff";
}

export interface SeatSummary__Output {
  'seat'?: (number);
  /**
   * Decisions judged (forced ones included).
   */
  'decisions'?: (number);
  'total_loss'?: (number);
  /**
   * total_loss / decisions with a choice.
   */
  'average_loss'?: (number);
  /**
   * Mean over the decisions with a choice of 2^(-loss / thresholds.mistake): 1 for no loss,
   * 0.5 at the mistake threshold (0..1; 1 when there is none).
   */
  'accuracy'?: (number);
  /**
   * The worst decisions with a mark (not "unclear"), largest loss first (at most 3).
   */
  'worst'?: (_quansu_v1_Decision__Output)[];
  /**
   * Mark name ("best", "good", "inaccuracy", "mistake", "blunder", "unclear") -> count.
   */
  'marks'?: ({[key: string]: number});
  /**
   * The seat's payoff in the finished game, in bets (absent when unknown).
   */
  'payoff'?: (number);
  '_payoff'?: "payoff";
}
