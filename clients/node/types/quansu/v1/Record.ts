// Original file: ../../proto/quansu/v1/records.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../google/protobuf/Struct';
import type { Deal as _quansu_v1_Deal, Deal__Output as _quansu_v1_Deal__Output } from '../../quansu/v1/Deal';
import type { Event as _quansu_v1_Event, Event__Output as _quansu_v1_Event__Output } from '../../quansu/v1/Event';
import type { Result as _quansu_v1_Result, Result__Output as _quansu_v1_Result__Output } from '../../quansu/v1/Result';

/**
 * A full game record ("format": "quansu-record/1").
 */
export interface Record {
  'format'?: (string);
  /**
   * "tienlen", "phom", "samloc" or "tan".
   */
  'game'?: (string);
  /**
   * Player count, 2..4.
   */
  'players'?: (number);
  /**
   * Only the options that differ from the defaults (name -> JSON value).
   */
  'options'?: (_google_protobuf_Struct | null);
  'deal'?: (_quansu_v1_Deal | null);
  /**
   * Every decision in order.
   */
  'moves'?: (_quansu_v1_Event)[];
  /**
   * Optional; when present it is checked against the engine's settlement.
   */
  'result'?: (_quansu_v1_Result | null);
}

/**
 * A full game record ("format": "quansu-record/1").
 */
export interface Record__Output {
  'format'?: (string);
  /**
   * "tienlen", "phom", "samloc" or "tan".
   */
  'game'?: (string);
  /**
   * Player count, 2..4.
   */
  'players'?: (number);
  /**
   * Only the options that differ from the defaults (name -> JSON value).
   */
  'options'?: (_google_protobuf_Struct__Output);
  'deal'?: (_quansu_v1_Deal__Output);
  /**
   * Every decision in order.
   */
  'moves'?: (_quansu_v1_Event__Output)[];
  /**
   * Optional; when present it is checked against the engine's settlement.
   */
  'result'?: (_quansu_v1_Result__Output);
}
