// Original file: ../../proto/quansu/v1/records.proto


/**
 * One seat's hand as dealt: its cards (a record, or the viewing seat in a view), or only how
 * many cards it was dealt (another seat in a view).
 */
export interface Hand {
  'cards'?: (string)[];
  'count'?: (number);
  '_count'?: "count";
}

/**
 * One seat's hand as dealt: its cards (a record, or the viewing seat in a view), or only how
 * many cards it was dealt (another seat in a view).
 */
export interface Hand__Output {
  'cards'?: (string)[];
  'count'?: (number);
  '_count'?: "count";
}
