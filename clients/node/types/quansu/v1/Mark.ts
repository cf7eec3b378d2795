// Original file: ../../proto/quansu/v1/service.proto

/**
 * The verdict on one decision, given only when the loss interval supports it.
 */
export const Mark = {
  MARK_UNSPECIFIED: 'MARK_UNSPECIFIED',
  /**
   * Interval inside [0, good] and no candidate measurably better than the played move (the
   * interval's low end is 0); also every forced decision.
   */
  MARK_BEST: 'MARK_BEST',
  /**
   * Interval inside [0, good] but some move measurably better (by at most `good`).
   */
  MARK_GOOD: 'MARK_GOOD',
  /**
   * Interval inside (good, inaccuracy].
   */
  MARK_INACCURACY: 'MARK_INACCURACY',
  /**
   * Interval inside (inaccuracy, mistake].
   */
  MARK_MISTAKE: 'MARK_MISTAKE',
  /**
   * Interval above mistake.
   */
  MARK_BLUNDER: 'MARK_BLUNDER',
  /**
   * The interval still crosses a threshold after the evaluation's cap (or its share of the
   * deadline): the loss and its interval are reported without a verdict.
   */
  MARK_UNCLEAR: 'MARK_UNCLEAR',
} as const;

/**
 * The verdict on one decision, given only when the loss interval supports it.
 */
export type Mark =
  | 'MARK_UNSPECIFIED'
  | 0
  /**
   * Interval inside [0, good] and no candidate measurably better than the played move (the
   * interval's low end is 0); also every forced decision.
   */
  | 'MARK_BEST'
  | 1
  /**
   * Interval inside [0, good] but some move measurably better (by at most `good`).
   */
  | 'MARK_GOOD'
  | 2
  /**
   * Interval inside (good, inaccuracy].
   */
  | 'MARK_INACCURACY'
  | 3
  /**
   * Interval inside (inaccuracy, mistake].
   */
  | 'MARK_MISTAKE'
  | 4
  /**
   * Interval above mistake.
   */
  | 'MARK_BLUNDER'
  | 5
  /**
   * The interval still crosses a threshold after the evaluation's cap (or its share of the
   * deadline): the loss and its interval are reported without a verdict.
   */
  | 'MARK_UNCLEAR'
  | 6

/**
 * The verdict on one decision, given only when the loss interval supports it.
 */
export type Mark__Output = typeof Mark[keyof typeof Mark]
