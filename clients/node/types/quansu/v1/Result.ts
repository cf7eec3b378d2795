// Original file: ../../proto/quansu/v1/records.proto

import type { Transfer as _quansu_v1_Transfer, Transfer__Output as _quansu_v1_Transfer__Output } from '../../quansu/v1/Transfer';

/**
 * The settlement of a finished game.
 */
export interface Result {
  /**
   * net[s]: seat s's payoff in bets; sums to zero.
   */
  'net'?: (number | string)[];
  'transfers'?: (_quansu_v1_Transfer)[];
}

/**
 * The settlement of a finished game.
 */
export interface Result__Output {
  /**
   * net[s]: seat s's payoff in bets; sums to zero.
   */
  'net'?: (number)[];
  'transfers'?: (_quansu_v1_Transfer__Output)[];
}
