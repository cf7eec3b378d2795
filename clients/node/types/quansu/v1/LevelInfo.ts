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
   * In games with GameInfo.improve: after a search of `improve_iterations` iterations (instead
   * of `iterations`), its best moves are measured against the game's sparring bot's own move
   * on this many sampled worlds with sparring rollouts, and the bot leaves the sparring bot's
   * move only for a move measured better.  0: no improvement step at this level.
   */
  'improve_worlds'?: (number);
  'improve_iterations'?: (number);
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
   * In games with GameInfo.improve: after a search of `improve_iterations` iterations (instead
   * of `iterations`), its best moves are measured against the game's sparring bot's own move
   * on this many sampled worlds with sparring rollouts, and the bot leaves the sparring bot's
   * move only for a move measured better.  0: no improvement step at this level.
   */
  'improve_worlds'?: (number);
  'improve_iterations'?: (number);
}
