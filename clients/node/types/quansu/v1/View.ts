// Original file: ../../proto/quansu/v1/records.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../google/protobuf/Struct';
import type { Deal as _quansu_v1_Deal, Deal__Output as _quansu_v1_Deal__Output } from '../../quansu/v1/Deal';
import type { Event as _quansu_v1_Event, Event__Output as _quansu_v1_Event__Output } from '../../quansu/v1/Event';
import type { Result as _quansu_v1_Result, Result__Output as _quansu_v1_Result__Output } from '../../quansu/v1/Result';

/**
 * What one seat knows ("format": "quansu-view/1"): its own hand as dealt, the other hands as
 * counts, its own draws, and the public history.
 */
export interface View {
  'format'?: (string);
  'game'?: (string);
  'players'?: (number);
  'options'?: (_google_protobuf_Struct | null);
  /**
   * The seat whose view this is (0-based).
   */
  'seat'?: (number);
  'deal'?: (_quansu_v1_Deal | null);
  /**
   * The cards this seat drew from the stock, in order (Phỏm draws, Tấn refills).
   */
  'drawn'?: (string)[];
  /**
   * The public history up to now.
   */
  'moves'?: (_quansu_v1_Event)[];
  /**
   * Optional settlement when the view is of a finished game.
   */
  'result'?: (_quansu_v1_Result | null);
  '_seat'?: "seat";
}

/**
 * What one seat knows ("format": "quansu-view/1"): its own hand as dealt, the other hands as
 * counts, its own draws, and the public history.
 */
export interface View__Output {
  'format'?: (string);
  'game'?: (string);
  'players'?: (number);
  'options'?: (_google_protobuf_Struct__Output);
  /**
   * The seat whose view this is (0-based).
   */
  'seat'?: (number);
  'deal'?: (_quansu_v1_Deal__Output);
  /**
   * The cards this seat drew from the stock, in order (Phỏm draws, Tấn refills).
   */
  'drawn'?: (string)[];
  /**
   * The public history up to now.
   */
  'moves'?: (_quansu_v1_Event__Output)[];
  /**
   * Optional settlement when the view is of a finished game.
   */
  'result'?: (_quansu_v1_Result__Output);
  '_seat'?: "seat";
}
