// Original file: ../../proto/quansu/v1/records.proto

import type { Hand as _quansu_v1_Hand, Hand__Output as _quansu_v1_Hand__Output } from '../../quansu/v1/Hand';

/**
 * All chance of one game, fixed up front.
 */
export interface Deal {
  /**
   * hands[s]: seat s's hand as dealt, seat 0 first.
   */
  'hands'?: (_quansu_v1_Hand)[];
  /**
   * The face-down stock, top card first (Phỏm, Tấn; records only, never in a view).
   */
  'stock'?: (string)[];
  /**
   * Cards dealt to nobody (records only).
   */
  'set_aside'?: (string)[];
  /**
   * Tấn's face-up trump card under the stock.
   */
  'trump'?: (string);
  /**
   * The seat that acts first where the rules leave it to chance or to the table.
   */
  'first'?: (number);
  '_trump'?: "trump";
  '_first'?: "first";
}

/**
 * All chance of one game, fixed up front.
 */
export interface Deal__Output {
  /**
   * hands[s]: seat s's hand as dealt, seat 0 first.
   */
  'hands'?: (_quansu_v1_Hand__Output)[];
  /**
   * The face-down stock, top card first (Phỏm, Tấn; records only, never in a view).
   */
  'stock'?: (string)[];
  /**
   * Cards dealt to nobody (records only).
   */
  'set_aside'?: (string)[];
  /**
   * Tấn's face-up trump card under the stock.
   */
  'trump'?: (string);
  /**
   * The seat that acts first where the rules leave it to chance or to the table.
   */
  'first'?: (number);
  '_trump'?: "trump";
  '_first'?: "first";
}
