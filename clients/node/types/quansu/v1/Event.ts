// Original file: ../../proto/quansu/v1/records.proto


/**
 * One decision: the seat that made it and the move in canonical text (docs/notation.md).  Every
 * seat that the rules ask is asked, so forced and moot answers are events too (docs/records.md).
 */
export interface Event {
  'seat'?: (number);
  'move'?: (string);
  '_seat'?: "seat";
}

/**
 * One decision: the seat that made it and the move in canonical text (docs/notation.md).  Every
 * seat that the rules ask is asked, so forced and moot answers are events too (docs/records.md).
 */
export interface Event__Output {
  'seat'?: (number);
  'move'?: (string);
  '_seat'?: "seat";
}
