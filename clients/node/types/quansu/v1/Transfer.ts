// Original file: ../../proto/quansu/v1/records.proto


/**
 * One end-of-game transfer: payer pays payee `amount` bets.
 */
export interface Transfer {
  'payer'?: (number);
  'payee'?: (number);
  'amount'?: (number | string);
  '_payer'?: "payer";
  '_payee'?: "payee";
}

/**
 * One end-of-game transfer: payer pays payee `amount` bets.
 */
export interface Transfer__Output {
  'payer'?: (number);
  'payee'?: (number);
  'amount'?: (number);
  '_payer'?: "payer";
  '_payee'?: "payee";
}
