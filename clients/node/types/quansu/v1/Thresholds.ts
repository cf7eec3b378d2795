// Original file: ../../proto/quansu/v1/service.proto


/**
 * Loss thresholds in bets.  They cut the losses into four bands: [0, good], (good,
 * inaccuracy], (inaccuracy, mistake] and above mistake.  A decision gets a mark only when its
 * loss interval (Decision.loss_low .. loss_high) lies inside one band (see Mark).  Zero fields
 * take the game's defaults (see DescribeGames and docs/api.md).
 */
export interface Thresholds {
  'good'?: (number | string);
  'inaccuracy'?: (number | string);
  'mistake'?: (number | string);
}

/**
 * Loss thresholds in bets.  They cut the losses into four bands: [0, good], (good,
 * inaccuracy], (inaccuracy, mistake] and above mistake.  A decision gets a mark only when its
 * loss interval (Decision.loss_low .. loss_high) lies inside one band (see Mark).  Zero fields
 * take the game's defaults (see DescribeGames and docs/api.md).
 */
export interface Thresholds__Output {
  'good'?: (number);
  'inaccuracy'?: (number);
  'mistake'?: (number);
}
