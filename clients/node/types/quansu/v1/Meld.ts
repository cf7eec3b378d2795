// Original file: ../../proto/quansu/v1/service.proto


export interface Meld {
  'cards'?: (string)[];
}

export interface Meld__Output {
  'cards'?: (string)[];
}
