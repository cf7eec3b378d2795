// Original file: ../../proto/quansu/v1/service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AnalyzeRequest as _quansu_v1_AnalyzeRequest, AnalyzeRequest__Output as _quansu_v1_AnalyzeRequest__Output } from '../../quansu/v1/AnalyzeRequest';
import type { AnalyzeResponse as _quansu_v1_AnalyzeResponse, AnalyzeResponse__Output as _quansu_v1_AnalyzeResponse__Output } from '../../quansu/v1/AnalyzeResponse';
import type { DescribeGamesRequest as _quansu_v1_DescribeGamesRequest, DescribeGamesRequest__Output as _quansu_v1_DescribeGamesRequest__Output } from '../../quansu/v1/DescribeGamesRequest';
import type { DescribeGamesResponse as _quansu_v1_DescribeGamesResponse, DescribeGamesResponse__Output as _quansu_v1_DescribeGamesResponse__Output } from '../../quansu/v1/DescribeGamesResponse';
import type { LegalMovesRequest as _quansu_v1_LegalMovesRequest, LegalMovesRequest__Output as _quansu_v1_LegalMovesRequest__Output } from '../../quansu/v1/LegalMovesRequest';
import type { LegalMovesResponse as _quansu_v1_LegalMovesResponse, LegalMovesResponse__Output as _quansu_v1_LegalMovesResponse__Output } from '../../quansu/v1/LegalMovesResponse';
import type { SuggestRequest as _quansu_v1_SuggestRequest, SuggestRequest__Output as _quansu_v1_SuggestRequest__Output } from '../../quansu/v1/SuggestRequest';
import type { SuggestResponse as _quansu_v1_SuggestResponse, SuggestResponse__Output as _quansu_v1_SuggestResponse__Output } from '../../quansu/v1/SuggestResponse';
import type { SuggestStreamRequest as _quansu_v1_SuggestStreamRequest, SuggestStreamRequest__Output as _quansu_v1_SuggestStreamRequest__Output } from '../../quansu/v1/SuggestStreamRequest';

export interface QuansuServiceClient extends grpc.Client {
  /**
   * A record (or a view) -> one message per decision of the requested seats, in game order,
   * then one summary per seat.  Each decision is judged from that seat's information at that
   * time only.
   */
  Analyze(argument: _quansu_v1_AnalyzeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_quansu_v1_AnalyzeResponse__Output>;
  Analyze(argument: _quansu_v1_AnalyzeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_quansu_v1_AnalyzeResponse__Output>;
  /**
   * A record (or a view) -> one message per decision of the requested seats, in game order,
   * then one summary per seat.  Each decision is judged from that seat's information at that
   * time only.
   */
  analyze(argument: _quansu_v1_AnalyzeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_quansu_v1_AnalyzeResponse__Output>;
  analyze(argument: _quansu_v1_AnalyzeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_quansu_v1_AnalyzeResponse__Output>;
  
  /**
   * The games, their player counts and options, the loaded model per game and the limits.
   */
  DescribeGames(argument: _quansu_v1_DescribeGamesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_DescribeGamesResponse__Output>): grpc.ClientUnaryCall;
  DescribeGames(argument: _quansu_v1_DescribeGamesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quansu_v1_DescribeGamesResponse__Output>): grpc.ClientUnaryCall;
  DescribeGames(argument: _quansu_v1_DescribeGamesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_DescribeGamesResponse__Output>): grpc.ClientUnaryCall;
  DescribeGames(argument: _quansu_v1_DescribeGamesRequest, callback: grpc.requestCallback<_quansu_v1_DescribeGamesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The games, their player counts and options, the loaded model per game and the limits.
   */
  describeGames(argument: _quansu_v1_DescribeGamesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_DescribeGamesResponse__Output>): grpc.ClientUnaryCall;
  describeGames(argument: _quansu_v1_DescribeGamesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quansu_v1_DescribeGamesResponse__Output>): grpc.ClientUnaryCall;
  describeGames(argument: _quansu_v1_DescribeGamesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_DescribeGamesResponse__Output>): grpc.ClientUnaryCall;
  describeGames(argument: _quansu_v1_DescribeGamesRequest, callback: grpc.requestCallback<_quansu_v1_DescribeGamesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * A record or a view -> the legal moves of the seat to act (the referee).
   */
  LegalMoves(argument: _quansu_v1_LegalMovesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_LegalMovesResponse__Output>): grpc.ClientUnaryCall;
  LegalMoves(argument: _quansu_v1_LegalMovesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quansu_v1_LegalMovesResponse__Output>): grpc.ClientUnaryCall;
  LegalMoves(argument: _quansu_v1_LegalMovesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_LegalMovesResponse__Output>): grpc.ClientUnaryCall;
  LegalMoves(argument: _quansu_v1_LegalMovesRequest, callback: grpc.requestCallback<_quansu_v1_LegalMovesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * A record or a view -> the legal moves of the seat to act (the referee).
   */
  legalMoves(argument: _quansu_v1_LegalMovesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_LegalMovesResponse__Output>): grpc.ClientUnaryCall;
  legalMoves(argument: _quansu_v1_LegalMovesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quansu_v1_LegalMovesResponse__Output>): grpc.ClientUnaryCall;
  legalMoves(argument: _quansu_v1_LegalMovesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_LegalMovesResponse__Output>): grpc.ClientUnaryCall;
  legalMoves(argument: _quansu_v1_LegalMovesRequest, callback: grpc.requestCallback<_quansu_v1_LegalMovesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * A seat's view -> ranked suggested moves for the seat to act.
   */
  Suggest(argument: _quansu_v1_SuggestRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_SuggestResponse__Output>): grpc.ClientUnaryCall;
  Suggest(argument: _quansu_v1_SuggestRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quansu_v1_SuggestResponse__Output>): grpc.ClientUnaryCall;
  Suggest(argument: _quansu_v1_SuggestRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_SuggestResponse__Output>): grpc.ClientUnaryCall;
  Suggest(argument: _quansu_v1_SuggestRequest, callback: grpc.requestCallback<_quansu_v1_SuggestResponse__Output>): grpc.ClientUnaryCall;
  /**
   * A seat's view -> ranked suggested moves for the seat to act.
   */
  suggest(argument: _quansu_v1_SuggestRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_SuggestResponse__Output>): grpc.ClientUnaryCall;
  suggest(argument: _quansu_v1_SuggestRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_quansu_v1_SuggestResponse__Output>): grpc.ClientUnaryCall;
  suggest(argument: _quansu_v1_SuggestRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_quansu_v1_SuggestResponse__Output>): grpc.ClientUnaryCall;
  suggest(argument: _quansu_v1_SuggestRequest, callback: grpc.requestCallback<_quansu_v1_SuggestResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The same, streaming a partial ranking every `interval_ms` and then the final one
   * (`final` = true).  Cancelling the call stops the search.
   */
  SuggestStream(argument: _quansu_v1_SuggestStreamRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_quansu_v1_SuggestResponse__Output>;
  SuggestStream(argument: _quansu_v1_SuggestStreamRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_quansu_v1_SuggestResponse__Output>;
  /**
   * The same, streaming a partial ranking every `interval_ms` and then the final one
   * (`final` = true).  Cancelling the call stops the search.
   */
  suggestStream(argument: _quansu_v1_SuggestStreamRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_quansu_v1_SuggestResponse__Output>;
  suggestStream(argument: _quansu_v1_SuggestStreamRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_quansu_v1_SuggestResponse__Output>;
  
}

export interface QuansuServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * A record (or a view) -> one message per decision of the requested seats, in game order,
   * then one summary per seat.  Each decision is judged from that seat's information at that
   * time only.
   */
  Analyze: grpc.handleServerStreamingCall<_quansu_v1_AnalyzeRequest__Output, _quansu_v1_AnalyzeResponse>;
  
  /**
   * The games, their player counts and options, the loaded model per game and the limits.
   */
  DescribeGames: grpc.handleUnaryCall<_quansu_v1_DescribeGamesRequest__Output, _quansu_v1_DescribeGamesResponse>;
  
  /**
   * A record or a view -> the legal moves of the seat to act (the referee).
   */
  LegalMoves: grpc.handleUnaryCall<_quansu_v1_LegalMovesRequest__Output, _quansu_v1_LegalMovesResponse>;
  
  /**
   * A seat's view -> ranked suggested moves for the seat to act.
   */
  Suggest: grpc.handleUnaryCall<_quansu_v1_SuggestRequest__Output, _quansu_v1_SuggestResponse>;
  
  /**
   * The same, streaming a partial ranking every `interval_ms` and then the final one
   * (`final` = true).  Cancelling the call stops the search.
   */
  SuggestStream: grpc.handleServerStreamingCall<_quansu_v1_SuggestStreamRequest__Output, _quansu_v1_SuggestResponse>;
  
}

export interface QuansuServiceDefinition extends grpc.ServiceDefinition {
  Analyze: MethodDefinition<_quansu_v1_AnalyzeRequest, _quansu_v1_AnalyzeResponse, _quansu_v1_AnalyzeRequest__Output, _quansu_v1_AnalyzeResponse__Output>
  DescribeGames: MethodDefinition<_quansu_v1_DescribeGamesRequest, _quansu_v1_DescribeGamesResponse, _quansu_v1_DescribeGamesRequest__Output, _quansu_v1_DescribeGamesResponse__Output>
  LegalMoves: MethodDefinition<_quansu_v1_LegalMovesRequest, _quansu_v1_LegalMovesResponse, _quansu_v1_LegalMovesRequest__Output, _quansu_v1_LegalMovesResponse__Output>
  Suggest: MethodDefinition<_quansu_v1_SuggestRequest, _quansu_v1_SuggestResponse, _quansu_v1_SuggestRequest__Output, _quansu_v1_SuggestResponse__Output>
  SuggestStream: MethodDefinition<_quansu_v1_SuggestStreamRequest, _quansu_v1_SuggestResponse, _quansu_v1_SuggestStreamRequest__Output, _quansu_v1_SuggestResponse__Output>
}
