// Original file: ../../proto/quansu/v1/service.proto


export interface DescribeGamesRequest {
}

export interface DescribeGamesRequest__Output {
}
