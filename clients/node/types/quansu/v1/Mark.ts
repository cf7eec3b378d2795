// Original file: ../../proto/quansu/v1/service.proto

/**
 * The verdict on one decision: the band that holds the loss estimate (Decision.loss), given
 * only when the loss interval stays within that band and its neighbours (the interval may cross
 * one threshold next to the estimate: the mark is then right or one band off at 95 %
 * confidence, and the interval shows which way).
 */
export const Mark = {
  MARK_UNSPECIFIED: 'MARK_UNSPECIFIED',
  /**
   * Estimate in [0, good] and either no candidate measurably better than the played move (the
   * interval's low end is 0) or the estimate at most good / 2 (a negligible loss); also every
   * forced decision.
   */
  MARK_BEST: 'MARK_BEST',
  /**
   * Estimate in (good / 2, good] and some move measurably better.
   */
  MARK_GOOD: 'MARK_GOOD',
  /**
   * Estimate in (good, inaccuracy].
   */
  MARK_INACCURACY: 'MARK_INACCURACY',
  /**
   * Estimate in (inaccuracy, mistake].
   */
  MARK_MISTAKE: 'MARK_MISTAKE',
  /**
   * Estimate above mistake.
   */
  MARK_BLUNDER: 'MARK_BLUNDER',
  /**
   * The interval reaches two bands away from the estimate's (too few worlds for a verdict):
   * the loss and its interval are reported without one.
   */
  MARK_UNCLEAR: 'MARK_UNCLEAR',
} as const;

/**
 * The verdict on one decision: the band that holds the loss estimate (Decision.loss), given
 * only when the loss interval stays within that band and its neighbours (the interval may cross
 * one threshold next to the estimate: the mark is then right or one band off at 95 %
 * confidence, and the interval shows which way).
 */
export type Mark =
  | 'MARK_UNSPECIFIED'
  | 0
  /**
   * Estimate in [0, good] and either no candidate measurably better than the played move (the
   * interval's low end is 0) or the estimate at most good / 2 (a negligible loss); also every
   * forced decision.
   */
  | 'MARK_BEST'
  | 1
  /**
   * Estimate in (good / 2, good] and some move measurably better.
   */
  | 'MARK_GOOD'
  | 2
  /**
   * Estimate in (good, inaccuracy].
   */
  | 'MARK_INACCURACY'
  | 3
  /**
   * Estimate in (inaccuracy, mistake].
   */
  | 'MARK_MISTAKE'
  | 4
  /**
   * Estimate above mistake.
   */
  | 'MARK_BLUNDER'
  | 5
  /**
   * The interval reaches two bands away from the estimate's (too few worlds for a verdict):
   * the loss and its interval are reported without one.
   */
  | 'MARK_UNCLEAR'
  | 6

/**
 * The verdict on one decision: the band that holds the loss estimate (Decision.loss), given
 * only when the loss interval stays within that band and its neighbours (the interval may cross
 * one threshold next to the estimate: the mark is then right or one band off at 95 %
 * confidence, and the interval shows which way).
 */
export type Mark__Output = typeof Mark[keyof typeof Mark]
