// Original file: ../../proto/quansu/v1/service.proto


/**
 * Loss thresholds in bets.  They cut the losses into four bands: [0, good], (good,
 * inaccuracy], (inaccuracy, mistake] and above mistake.  A decision's mark is the band of its
 * loss estimate, given when its interval (Decision.loss_low .. loss_high) stays within that
 * band and its neighbours (see Mark).  Zero fields take the game's defaults (see DescribeGames
 * and docs/api.md).
 */
export interface Thresholds {
  'good'?: (number | string);
  'inaccuracy'?: (number | string);
  'mistake'?: (number | string);
}

/**
 * Loss thresholds in bets.  They cut the losses into four bands: [0, good], (good,
 * inaccuracy], (inaccuracy, mistake] and above mistake.  A decision's mark is the band of its
 * loss estimate, given when its interval (Decision.loss_low .. loss_high) stays within that
 * band and its neighbours (see Mark).  Zero fields take the game's defaults (see DescribeGames
 * and docs/api.md).
 */
export interface Thresholds__Output {
  'good'?: (number);
  'inaccuracy'?: (number);
  'mistake'?: (number);
}
