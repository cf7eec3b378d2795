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
}
