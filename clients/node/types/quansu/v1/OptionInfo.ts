// Original file: ../../proto/quansu/v1/service.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../google/protobuf/Value';

export interface OptionInfo {
  'name'?: (string);
  'default_value'?: (_google_protobuf_Value | null);
  'description'?: (string);
  /**
   * Allowed values of an enumerated option (empty: any value of the type).
   */
  'choices'?: (_google_protobuf_Value)[];
  /**
   * "bool", "int", "float", "str" or "tuple".
   */
  'type'?: (string);
  /**
   * The allowed range of a numeric option (every number of a "tuple"), inclusive; absent for
   * the others.  Numbers are always finite; a value outside the range is INVALID_ARGUMENT
   * naming view.options.<name> (or record.options.<name>).
   */
  'minimum'?: (number | string);
  'maximum'?: (number | string);
  '_minimum'?: "minimum";
  '_maximum'?: "maximum";
}

export interface OptionInfo__Output {
  'name'?: (string);
  'default_value'?: (_google_protobuf_Value__Output);
  'description'?: (string);
  /**
   * Allowed values of an enumerated option (empty: any value of the type).
   */
  'choices'?: (_google_protobuf_Value__Output)[];
  /**
   * "bool", "int", "float", "str" or "tuple".
   */
  'type'?: (string);
  /**
   * The allowed range of a numeric option (every number of a "tuple"), inclusive; absent for
   * the others.  Numbers are always finite; a value outside the range is INVALID_ARGUMENT
   * naming view.options.<name> (or record.options.<name>).
   */
  'minimum'?: (number);
  'maximum'?: (number);
  '_minimum'?: "minimum";
  '_maximum'?: "maximum";
}
