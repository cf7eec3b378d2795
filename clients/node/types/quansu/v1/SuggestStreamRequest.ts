// Original file: ../../proto/quansu/v1/service.proto

import type { SuggestRequest as _quansu_v1_SuggestRequest, SuggestRequest__Output as _quansu_v1_SuggestRequest__Output } from '../../quansu/v1/SuggestRequest';

export interface SuggestStreamRequest {
  'request'?: (_quansu_v1_SuggestRequest | null);
  /**
   * Period of the partial rankings (0: the server default).
   */
  'interval_ms'?: (number);
}

export interface SuggestStreamRequest__Output {
  'request'?: (_quansu_v1_SuggestRequest__Output);
  /**
   * Period of the partial rankings (0: the server default).
   */
  'interval_ms'?: (number);
}
