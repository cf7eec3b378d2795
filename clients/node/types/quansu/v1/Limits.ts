// Original file: ../../proto/quansu/v1/service.proto

import type { Budget as _quansu_v1_Budget, Budget__Output as _quansu_v1_Budget__Output } from '../../quansu/v1/Budget';

export interface Limits {
  'default_budget'?: (_quansu_v1_Budget | null);
  'max_budget'?: (_quansu_v1_Budget | null);
  'default_top_k'?: (number);
  'max_top_k'?: (number);
  'workers'?: (number);
  /**
   * The largest request body the server reads (bytes); a larger one is INVALID_ARGUMENT
   * naming the field "request".
   */
  'max_request_bytes'?: (number);
}

export interface Limits__Output {
  'default_budget'?: (_quansu_v1_Budget__Output);
  'max_budget'?: (_quansu_v1_Budget__Output);
  'default_top_k'?: (number);
  'max_top_k'?: (number);
  'workers'?: (number);
  /**
   * The largest request body the server reads (bytes); a larger one is INVALID_ARGUMENT
   * naming the field "request".
   */
  'max_request_bytes'?: (number);
}
