// Original file: ../../proto/quansu/v1/service.proto


export interface SearchStats {
  'iterations'?: (number);
  'elapsed_ms'?: (number | string);
  /**
   * Nodes in the search tree.
   */
  'nodes'?: (number);
  /**
   * Moves in the longest principal line reported.
   */
  'max_depth'?: (number);
  /**
   * Why the search stopped: "iterations", "time", "deadline", "cancelled", or "forced" (one
   * legal move: answered at once, no search).
   */
  'stopped_by'?: (string);
  'legal_moves'?: (number);
  /**
   * Share (0..1) of iterations whose walk went through an existing tree node at depth >= 2,
   * below a root move's first reply: how much the search plans beyond the move itself.
   */
  'deep_share'?: (number | string);
  /**
   * The deepest existing tree node an iteration chose a move from (root = 0).
   */
  'tree_depth'?: (number);
  /**
   * Bot play at a level with the improvement step in this game (GameInfo.improve_worlds,
   * LevelInfo.improve_share): the sampled worlds on which the search's best moves were measured
   * against the sparring bot's own move (0: no improvement step ran).
   */
  'improve_worlds'?: (number);
  /**
   * True when `chosen` is a search candidate measured better than the sparring bot's move;
   * false when the level kept the sparring bot's move (or no step ran).
   */
  'improve_changed'?: (boolean);
  /**
   * A hint (no `strength`): the sampled worlds on which the search's best moves and the
   * sparring bot's move were measured against each other to rank them (GameInfo.hint_worlds;
   * fewer when the budget or deadline cut it short; 0: no measurement ran).
   */
  'hint_worlds'?: (number);
}

export interface SearchStats__Output {
  'iterations'?: (number);
  'elapsed_ms'?: (number);
  /**
   * Nodes in the search tree.
   */
  'nodes'?: (number);
  /**
   * Moves in the longest principal line reported.
   */
  'max_depth'?: (number);
  /**
   * Why the search stopped: "iterations", "time", "deadline", "cancelled", or "forced" (one
   * legal move: answered at once, no search).
   */
  'stopped_by'?: (string);
  'legal_moves'?: (number);
  /**
   * Share (0..1) of iterations whose walk went through an existing tree node at depth >= 2,
   * below a root move's first reply: how much the search plans beyond the move itself.
   */
  'deep_share'?: (number);
  /**
   * The deepest existing tree node an iteration chose a move from (root = 0).
   */
  'tree_depth'?: (number);
  /**
   * Bot play at a level with the improvement step in this game (GameInfo.improve_worlds,
   * LevelInfo.improve_share): the sampled worlds on which the search's best moves were measured
   * against the sparring bot's own move (0: no improvement step ran).
   */
  'improve_worlds'?: (number);
  /**
   * True when `chosen` is a search candidate measured better than the sparring bot's move;
   * false when the level kept the sparring bot's move (or no step ran).
   */
  'improve_changed'?: (boolean);
  /**
   * A hint (no `strength`): the sampled worlds on which the search's best moves and the
   * sparring bot's move were measured against each other to rank them (GameInfo.hint_worlds;
   * fewer when the budget or deadline cut it short; 0: no measurement ran).
   */
  'hint_worlds'?: (number);
}
