// Original file: ../../proto/quansu/v1/service.proto


/**
 * A short structured reason for a move that an app can render in any language from `code`
 * and `cards`; `text` is a rendering in the request's `language` (English by default,
 * Vietnamese with "vi").  Codes and cards do not change with the language.
 * 
 * The one list of codes, with the games that emit them and both texts, is
 * server/reasons.py (reason_table) and the table "Reason codes" of docs/api.md; this list is
 * checked against it (tests/service/test_i18n.py).
 * The search's codes (the ranking rule of docs/api.md): "only_move", "best_value" (the top
 * move: the highest expected payoff among the measured moves; no other move has it),
 * "tied" (statistically as good as the top move: `group` 0), "most_visited" (the move the
 * search examined most, when it is not the top move), "safest" (highest lower bound, when
 * not the top move), "few_visits" (too few visits to rank by its payoff), "not_measured" (a
 * hint's move outside the candidates its paired evaluation measured).
 * Each game's own codes (games/<game>/reasons.py): "finishes" (empties the hand),
 * "keeps_bomb" (keeps a bomb, a four of a kind or consecutive pairs: cards), "breaks_bomb",
 * "plays_bomb", "plays_two", "sheds_lowest", "holds_twos" (passes while holding 2s)
 * (Tiến lên and Sâm); "declares", "declines" (Sâm); "forms_meld" (eats to complete a meld:
 * cards), "lays_melds", "sends", "discards_loose", "discards_high" (discards the high loose
 * card), "draws", "declares_u" (Phỏm); "takes", "trump_used", "low_trump_kept",
 * "attacks_low" (Tấn).
 */
export interface Reason {
  'code'?: (string);
  'cards'?: (string)[];
  'combo'?: (string);
  'text'?: (string);
}

/**
 * A short structured reason for a move that an app can render in any language from `code`
 * and `cards`; `text` is a rendering in the request's `language` (English by default,
 * Vietnamese with "vi").  Codes and cards do not change with the language.
 * 
 * The one list of codes, with the games that emit them and both texts, is
 * server/reasons.py (reason_table) and the table "Reason codes" of docs/api.md; this list is
 * checked against it (tests/service/test_i18n.py).
 * The search's codes (the ranking rule of docs/api.md): "only_move", "best_value" (the top
 * move: the highest expected payoff among the measured moves; no other move has it),
 * "tied" (statistically as good as the top move: `group` 0), "most_visited" (the move the
 * search examined most, when it is not the top move), "safest" (highest lower bound, when
 * not the top move), "few_visits" (too few visits to rank by its payoff), "not_measured" (a
 * hint's move outside the candidates its paired evaluation measured).
 * Each game's own codes (games/<game>/reasons.py): "finishes" (empties the hand),
 * "keeps_bomb" (keeps a bomb, a four of a kind or consecutive pairs: cards), "breaks_bomb",
 * "plays_bomb", "plays_two", "sheds_lowest", "holds_twos" (passes while holding 2s)
 * (Tiến lên and Sâm); "declares", "declines" (Sâm); "forms_meld" (eats to complete a meld:
 * cards), "lays_melds", "sends", "discards_loose", "discards_high" (discards the high loose
 * card), "draws", "declares_u" (Phỏm); "takes", "trump_used", "low_trump_kept",
 * "attacks_low" (Tấn).
 */
export interface Reason__Output {
  'code'?: (string);
  'cards'?: (string)[];
  'combo'?: (string);
  'text'?: (string);
}
