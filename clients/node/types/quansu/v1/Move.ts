// Original file: ../../proto/quansu/v1/service.proto

import type { Meld as _quansu_v1_Meld, Meld__Output as _quansu_v1_Meld__Output } from '../../quansu/v1/Meld';

/**
 * A move in structured form and in canonical text.
 */
export interface Move {
  /**
   * Canonical text (docs/notation.md), e.g. "9D 9H", "pass", "eat 7H",
   * "lay 4D 5D 6D / 7S 7C 7H", "send 8H to 3".
   */
  'text'?: (string);
  /**
   * "play", "pass", "draw", "eat", "lay", "send", "discard", "u", "swap", "done", "attack",
   * "defend", "throw", "take", "declare" or "decline".
   */
  'kind'?: (string);
  /**
   * The cards the move moves, in notation order.
   */
  'cards'?: (string)[];
  /**
   * Tấn "defend": the card defended against.
   */
  'target_card'?: (string);
  /**
   * Phỏm "send": the id of the meld sent to (laid melds counted from 0 in the order laid).
   */
  'target_meld'?: (number);
  /**
   * Phỏm "lay": the melds laid.
   */
  'melds'?: (_quansu_v1_Meld)[];
  /**
   * Shedding games: the combination type ("single", "pair", "straight", ...).
   */
  'combo'?: (string);
  /**
   * The move as a player says it, in the request's `language`, with the game's own terms and
   * the cards written as players write them (rank then suit symbol, 10 for the ten): "đánh đôi
   * 9♦ 9♥", "bỏ lượt", "ăn 7♥", "hạ phỏm 4♦ 5♦ 6♦", "đỡ 7♠ bằng 9♠" ("pair 9♦ 9♥", "pass",
   * "eat 7♥" in English).  For people only: `text` is what an app sends back.
   */
  'label'?: (string);
  /**
   * The group a player lists the move under (docs/api.md, "LegalMoves"), a stable name:
   * "declare", "single", "pair", "triple", "straight", "bomb", "pass" (Tiến lên, Sâm lốc);
   * "u", "draw", "lay", "discard" (Phỏm); "swap", "attack", "defend", "take", "done" (Tấn).
   */
  'group'?: (string);
  /**
   * The group's name in the request's `language` ("đôi", "hạ phỏm, gửi", "đỡ").
   */
  'group_label'?: (string);
  '_target_meld'?: "target_meld";
}

/**
 * A move in structured form and in canonical text.
 */
export interface Move__Output {
  /**
   * Canonical text (docs/notation.md), e.g. "9D 9H", "pass", "eat 7H",
   * "lay 4D 5D 6D / 7S 7C 7H", "send 8H to 3".
   */
  'text'?: (string);
  /**
   * "play", "pass", "draw", "eat", "lay", "send", "discard", "u", "swap", "done", "attack",
   * "defend", "throw", "take", "declare" or "decline".
   */
  'kind'?: (string);
  /**
   * The cards the move moves, in notation order.
   */
  'cards'?: (string)[];
  /**
   * Tấn "defend": the card defended against.
   */
  'target_card'?: (string);
  /**
   * Phỏm "send": the id of the meld sent to (laid melds counted from 0 in the order laid).
   */
  'target_meld'?: (number);
  /**
   * Phỏm "lay": the melds laid.
   */
  'melds'?: (_quansu_v1_Meld__Output)[];
  /**
   * Shedding games: the combination type ("single", "pair", "straight", ...).
   */
  'combo'?: (string);
  /**
   * The move as a player says it, in the request's `language`, with the game's own terms and
   * the cards written as players write them (rank then suit symbol, 10 for the ten): "đánh đôi
   * 9♦ 9♥", "bỏ lượt", "ăn 7♥", "hạ phỏm 4♦ 5♦ 6♦", "đỡ 7♠ bằng 9♠" ("pair 9♦ 9♥", "pass",
   * "eat 7♥" in English).  For people only: `text` is what an app sends back.
   */
  'label'?: (string);
  /**
   * The group a player lists the move under (docs/api.md, "LegalMoves"), a stable name:
   * "declare", "single", "pair", "triple", "straight", "bomb", "pass" (Tiến lên, Sâm lốc);
   * "u", "draw", "lay", "discard" (Phỏm); "swap", "attack", "defend", "take", "done" (Tấn).
   */
  'group'?: (string);
  /**
   * The group's name in the request's `language` ("đôi", "hạ phỏm, gửi", "đỡ").
   */
  'group_label'?: (string);
  '_target_meld'?: "target_meld";
}
