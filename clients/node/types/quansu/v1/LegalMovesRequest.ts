// Original file: ../../proto/quansu/v1/service.proto

import type { Record as _quansu_v1_Record, Record__Output as _quansu_v1_Record__Output } from '../../quansu/v1/Record';
import type { View as _quansu_v1_View, View__Output as _quansu_v1_View__Output } from '../../quansu/v1/View';

export interface LegalMovesRequest {
  'record'?: (_quansu_v1_Record | null);
  'view'?: (_quansu_v1_View | null);
  /**
   * Language of an INVALID_ARGUMENT's description (the referee's reason a record or view is
   * refused): "en" (also "") or "vi"; anything else is INVALID_ARGUMENT naming `language`.
   */
  'language'?: (string);
  'game'?: "record"|"view";
}

export interface LegalMovesRequest__Output {
  'record'?: (_quansu_v1_Record__Output);
  'view'?: (_quansu_v1_View__Output);
  /**
   * Language of an INVALID_ARGUMENT's description (the referee's reason a record or view is
   * refused): "en" (also "") or "vi"; anything else is INVALID_ARGUMENT naming `language`.
   */
  'language'?: (string);
  'game'?: "record"|"view";
}
