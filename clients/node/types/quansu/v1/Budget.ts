// Original file: ../../proto/quansu/v1/service.proto


/**
 * How much search to spend.  Zero fields take the server's defaults; a value above the
 * server's maximum is rejected.  When both are set, the search stops at whichever comes first.
 * The call's deadline also stops the search (it then answers with its best so far).
 */
export interface Budget {
  'iterations'?: (number);
  'milliseconds'?: (number);
}

/**
 * How much search to spend.  Zero fields take the server's defaults; a value above the
 * server's maximum is rejected.  When both are set, the search stops at whichever comes first.
 * The call's deadline also stops the search (it then answers with its best so far).
 */
export interface Budget__Output {
  'iterations'?: (number);
  'milliseconds'?: (number);
}
