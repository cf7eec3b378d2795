// Original file: ../../proto/quansu/v1/service.proto


/**
 * A strength level of SuggestRequest.strength (bot play).  A level is its iteration budget:
 * it never stops early on wall time unless the request sets a budget in milliseconds or a
 * deadline (then SearchStats.stopped_by says so).
 */
export interface LevelInfo {
  /**
   * 1 (weakest) .. 5 (full strength).
   */
  'level'?: (number);
  /**
   * ISMCTS iterations per decision.
   */
  'iterations'?: (number);
  /**
   * Temperature of the final choice: 0 = the top-ranked move; above 0 the move is sampled
   * with weights visits ^ (1 / temperature) (levels 1-3 make human-like mistakes).
   */
  'temperature'?: (number | string);
  /**
   * In games with an improvement step (GameInfo.improve_worlds > 0): the share of the game's
   * worlds this level's step plays (0: no step at this level), after a search of
   * `improve_iterations` iterations instead of `iterations`.
   */
  'improve_share'?: (number | string);
  'improve_iterations'?: (number);
  /**
   * Whether this level's search uses the game's anchor (GameInfo.search_anchor); levels 1-2
   * search without it, and a level's improvement step starts from the sparring bot's move
   * itself (its search goes unanchored).
   */
  'anchored'?: (boolean);
}

/**
 * A strength level of SuggestRequest.strength (bot play).  A level is its iteration budget:
 * it never stops early on wall time unless the request sets a budget in milliseconds or a
 * deadline (then SearchStats.stopped_by says so).
 */
export interface LevelInfo__Output {
  /**
   * 1 (weakest) .. 5 (full strength).
   */
  'level'?: (number);
  /**
   * ISMCTS iterations per decision.
   */
  'iterations'?: (number);
  /**
   * Temperature of the final choice: 0 = the top-ranked move; above 0 the move is sampled
   * with weights visits ^ (1 / temperature) (levels 1-3 make human-like mistakes).
   */
  'temperature'?: (number);
  /**
   * In games with an improvement step (GameInfo.improve_worlds > 0): the share of the game's
   * worlds this level's step plays (0: no step at this level), after a search of
   * `improve_iterations` iterations instead of `iterations`.
   */
  'improve_share'?: (number);
  'improve_iterations'?: (number);
  /**
   * Whether this level's search uses the game's anchor (GameInfo.search_anchor); levels 1-2
   * search without it, and a level's improvement step starts from the sparring bot's move
   * itself (its search goes unanchored).
   */
  'anchored'?: (boolean);
}
