// Original file: ../../proto/quansu/v1/service.proto

import type { OptionInfo as _quansu_v1_OptionInfo, OptionInfo__Output as _quansu_v1_OptionInfo__Output } from '../../quansu/v1/OptionInfo';
import type { Thresholds as _quansu_v1_Thresholds, Thresholds__Output as _quansu_v1_Thresholds__Output } from '../../quansu/v1/Thresholds';

export interface GameInfo {
  'name'?: (string);
  'title'?: (string);
  'min_players'?: (number);
  'max_players'?: (number);
  'options'?: (_quansu_v1_OptionInfo)[];
  /**
   * The evaluator loaded for this game ("uniform" when no network is loaded).
   */
  'model'?: (string);
  'rules_version'?: (number);
  /**
   * Default Analyze thresholds for this game, in bets.
   */
  'thresholds'?: (_quansu_v1_Thresholds | null);
  /**
   * The improvement step of strength levels 4-5 in this game (docs/search.md; where it
   * measured stronger and fits the levels' time): after the level's search, its first
   * `improve_candidates` moves are measured against the game's sparring bot's own move on
   * `improve_worlds` sampled worlds at level 5 (LevelInfo.improve_share of them at a level)
   * with `improve_playout` rollouts, and the bot leaves the sparring bot's move only for a
   * move measured better.  0: no improvement step in this game.
   */
  'improve_worlds'?: (number);
  'improve_candidates'?: (number);
  /**
   * Analyze's default cap of sampled worlds per decision in this game (an AnalyzeRequest's
   * max_worlds 0, unless the server sets its own default).
   */
  'analysis_worlds'?: (number);
  /**
   * The sampled worlds a hint's candidate moves are measured on in this game
   * (SearchStats.hint_worlds; 0: hints are the search's own ranking).
   */
  'hint_worlds'?: (number);
  /**
   * The share of the search's root prior put on the sparring bot's own move in this game
   * (its careful rule-based choice from the seat's information): the search starts from that
   * move and leaves it only where its playouts measure better.  0: no anchor in this game.
   * Used at the levels with LevelInfo.anchored and by hints.
   */
  'search_anchor'?: (number | string);
  /**
   * The rest of the game's search tuning (one record per game: docs/search.md, "Per-game
   * tuning"): the playout policy of the search ("random" or "heuristic"), how opponents'
   * nodes are keyed ("own", "observer" or "model"), the card count at or below which leaves
   * are valued by the exact endgame solver (0: never), and the network-guided search's leaf
   * values ("rollout": playouts, "evaluator": the value head) and prior temperature.
   */
  'search_playout'?: (string);
  'search_opponent_keys'?: (string);
  'search_endgame_cards'?: (number);
  'guided_leaf'?: (string);
  'guided_prior_temperature'?: (number | string);
  /**
   * The rollout policy of every seat in the improvement step, as this server plays it:
   * "sparring" (the game's sparring bot) or "evaluator" (the game's loaded network, its top
   * move; a game set to it rolls out with the sparring bot when no network is loaded).
   */
  'improve_playout'?: (string);
}

export interface GameInfo__Output {
  'name'?: (string);
  'title'?: (string);
  'min_players'?: (number);
  'max_players'?: (number);
  'options'?: (_quansu_v1_OptionInfo__Output)[];
  /**
   * The evaluator loaded for this game ("uniform" when no network is loaded).
   */
  'model'?: (string);
  'rules_version'?: (number);
  /**
   * Default Analyze thresholds for this game, in bets.
   */
  'thresholds'?: (_quansu_v1_Thresholds__Output);
  /**
   * The improvement step of strength levels 4-5 in this game (docs/search.md; where it
   * measured stronger and fits the levels' time): after the level's search, its first
   * `improve_candidates` moves are measured against the game's sparring bot's own move on
   * `improve_worlds` sampled worlds at level 5 (LevelInfo.improve_share of them at a level)
   * with `improve_playout` rollouts, and the bot leaves the sparring bot's move only for a
   * move measured better.  0: no improvement step in this game.
   */
  'improve_worlds'?: (number);
  'improve_candidates'?: (number);
  /**
   * Analyze's default cap of sampled worlds per decision in this game (an AnalyzeRequest's
   * max_worlds 0, unless the server sets its own default).
   */
  'analysis_worlds'?: (number);
  /**
   * The sampled worlds a hint's candidate moves are measured on in this game
   * (SearchStats.hint_worlds; 0: hints are the search's own ranking).
   */
  'hint_worlds'?: (number);
  /**
   * The share of the search's root prior put on the sparring bot's own move in this game
   * (its careful rule-based choice from the seat's information): the search starts from that
   * move and leaves it only where its playouts measure better.  0: no anchor in this game.
   * Used at the levels with LevelInfo.anchored and by hints.
   */
  'search_anchor'?: (number);
  /**
   * The rest of the game's search tuning (one record per game: docs/search.md, "Per-game
   * tuning"): the playout policy of the search ("random" or "heuristic"), how opponents'
   * nodes are keyed ("own", "observer" or "model"), the card count at or below which leaves
   * are valued by the exact endgame solver (0: never), and the network-guided search's leaf
   * values ("rollout": playouts, "evaluator": the value head) and prior temperature.
   */
  'search_playout'?: (string);
  'search_opponent_keys'?: (string);
  'search_endgame_cards'?: (number);
  'guided_leaf'?: (string);
  'guided_prior_temperature'?: (number);
  /**
   * The rollout policy of every seat in the improvement step, as this server plays it:
   * "sparring" (the game's sparring bot) or "evaluator" (the game's loaded network, its top
   * move; a game set to it rolls out with the sparring bot when no network is loaded).
   */
  'improve_playout'?: (string);
}
