import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value';
import type { AnalyzeRequest as _quansu_v1_AnalyzeRequest, AnalyzeRequest__Output as _quansu_v1_AnalyzeRequest__Output } from './quansu/v1/AnalyzeRequest';
import type { AnalyzeResponse as _quansu_v1_AnalyzeResponse, AnalyzeResponse__Output as _quansu_v1_AnalyzeResponse__Output } from './quansu/v1/AnalyzeResponse';
import type { Budget as _quansu_v1_Budget, Budget__Output as _quansu_v1_Budget__Output } from './quansu/v1/Budget';
import type { Deal as _quansu_v1_Deal, Deal__Output as _quansu_v1_Deal__Output } from './quansu/v1/Deal';
import type { Decision as _quansu_v1_Decision, Decision__Output as _quansu_v1_Decision__Output } from './quansu/v1/Decision';
import type { DescribeGamesRequest as _quansu_v1_DescribeGamesRequest, DescribeGamesRequest__Output as _quansu_v1_DescribeGamesRequest__Output } from './quansu/v1/DescribeGamesRequest';
import type { DescribeGamesResponse as _quansu_v1_DescribeGamesResponse, DescribeGamesResponse__Output as _quansu_v1_DescribeGamesResponse__Output } from './quansu/v1/DescribeGamesResponse';
import type { Event as _quansu_v1_Event, Event__Output as _quansu_v1_Event__Output } from './quansu/v1/Event';
import type { GameInfo as _quansu_v1_GameInfo, GameInfo__Output as _quansu_v1_GameInfo__Output } from './quansu/v1/GameInfo';
import type { Hand as _quansu_v1_Hand, Hand__Output as _quansu_v1_Hand__Output } from './quansu/v1/Hand';
import type { LegalMovesRequest as _quansu_v1_LegalMovesRequest, LegalMovesRequest__Output as _quansu_v1_LegalMovesRequest__Output } from './quansu/v1/LegalMovesRequest';
import type { LegalMovesResponse as _quansu_v1_LegalMovesResponse, LegalMovesResponse__Output as _quansu_v1_LegalMovesResponse__Output } from './quansu/v1/LegalMovesResponse';
import type { LevelInfo as _quansu_v1_LevelInfo, LevelInfo__Output as _quansu_v1_LevelInfo__Output } from './quansu/v1/LevelInfo';
import type { Limits as _quansu_v1_Limits, Limits__Output as _quansu_v1_Limits__Output } from './quansu/v1/Limits';
import type { Meld as _quansu_v1_Meld, Meld__Output as _quansu_v1_Meld__Output } from './quansu/v1/Meld';
import type { Move as _quansu_v1_Move, Move__Output as _quansu_v1_Move__Output } from './quansu/v1/Move';
import type { OptionInfo as _quansu_v1_OptionInfo, OptionInfo__Output as _quansu_v1_OptionInfo__Output } from './quansu/v1/OptionInfo';
import type { QuansuServiceClient as _quansu_v1_QuansuServiceClient, QuansuServiceDefinition as _quansu_v1_QuansuServiceDefinition } from './quansu/v1/QuansuService';
import type { Reason as _quansu_v1_Reason, Reason__Output as _quansu_v1_Reason__Output } from './quansu/v1/Reason';
import type { Record as _quansu_v1_Record, Record__Output as _quansu_v1_Record__Output } from './quansu/v1/Record';
import type { Result as _quansu_v1_Result, Result__Output as _quansu_v1_Result__Output } from './quansu/v1/Result';
import type { SearchStats as _quansu_v1_SearchStats, SearchStats__Output as _quansu_v1_SearchStats__Output } from './quansu/v1/SearchStats';
import type { SeatSummary as _quansu_v1_SeatSummary, SeatSummary__Output as _quansu_v1_SeatSummary__Output } from './quansu/v1/SeatSummary';
import type { SuggestRequest as _quansu_v1_SuggestRequest, SuggestRequest__Output as _quansu_v1_SuggestRequest__Output } from './quansu/v1/SuggestRequest';
import type { SuggestResponse as _quansu_v1_SuggestResponse, SuggestResponse__Output as _quansu_v1_SuggestResponse__Output } from './quansu/v1/SuggestResponse';
import type { SuggestStreamRequest as _quansu_v1_SuggestStreamRequest, SuggestStreamRequest__Output as _quansu_v1_SuggestStreamRequest__Output } from './quansu/v1/SuggestStreamRequest';
import type { Suggestion as _quansu_v1_Suggestion, Suggestion__Output as _quansu_v1_Suggestion__Output } from './quansu/v1/Suggestion';
import type { Thresholds as _quansu_v1_Thresholds, Thresholds__Output as _quansu_v1_Thresholds__Output } from './quansu/v1/Thresholds';
import type { Transfer as _quansu_v1_Transfer, Transfer__Output as _quansu_v1_Transfer__Output } from './quansu/v1/Transfer';
import type { View as _quansu_v1_View, View__Output as _quansu_v1_View__Output } from './quansu/v1/View';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
  quansu: {
    v1: {
      AnalyzeRequest: MessageTypeDefinition<_quansu_v1_AnalyzeRequest, _quansu_v1_AnalyzeRequest__Output>
      AnalyzeResponse: MessageTypeDefinition<_quansu_v1_AnalyzeResponse, _quansu_v1_AnalyzeResponse__Output>
      Budget: MessageTypeDefinition<_quansu_v1_Budget, _quansu_v1_Budget__Output>
      Deal: MessageTypeDefinition<_quansu_v1_Deal, _quansu_v1_Deal__Output>
      Decision: MessageTypeDefinition<_quansu_v1_Decision, _quansu_v1_Decision__Output>
      DescribeGamesRequest: MessageTypeDefinition<_quansu_v1_DescribeGamesRequest, _quansu_v1_DescribeGamesRequest__Output>
      DescribeGamesResponse: MessageTypeDefinition<_quansu_v1_DescribeGamesResponse, _quansu_v1_DescribeGamesResponse__Output>
      Event: MessageTypeDefinition<_quansu_v1_Event, _quansu_v1_Event__Output>
      GameInfo: MessageTypeDefinition<_quansu_v1_GameInfo, _quansu_v1_GameInfo__Output>
      Hand: MessageTypeDefinition<_quansu_v1_Hand, _quansu_v1_Hand__Output>
      LegalMovesRequest: MessageTypeDefinition<_quansu_v1_LegalMovesRequest, _quansu_v1_LegalMovesRequest__Output>
      LegalMovesResponse: MessageTypeDefinition<_quansu_v1_LegalMovesResponse, _quansu_v1_LegalMovesResponse__Output>
      LevelInfo: MessageTypeDefinition<_quansu_v1_LevelInfo, _quansu_v1_LevelInfo__Output>
      Limits: MessageTypeDefinition<_quansu_v1_Limits, _quansu_v1_Limits__Output>
      Mark: EnumTypeDefinition
      Meld: MessageTypeDefinition<_quansu_v1_Meld, _quansu_v1_Meld__Output>
      Move: MessageTypeDefinition<_quansu_v1_Move, _quansu_v1_Move__Output>
      OptionInfo: MessageTypeDefinition<_quansu_v1_OptionInfo, _quansu_v1_OptionInfo__Output>
      QuansuService: SubtypeConstructor<typeof grpc.Client, _quansu_v1_QuansuServiceClient> & { service: _quansu_v1_QuansuServiceDefinition }
      Reason: MessageTypeDefinition<_quansu_v1_Reason, _quansu_v1_Reason__Output>
      Record: MessageTypeDefinition<_quansu_v1_Record, _quansu_v1_Record__Output>
      Result: MessageTypeDefinition<_quansu_v1_Result, _quansu_v1_Result__Output>
      SearchStats: MessageTypeDefinition<_quansu_v1_SearchStats, _quansu_v1_SearchStats__Output>
      SeatSummary: MessageTypeDefinition<_quansu_v1_SeatSummary, _quansu_v1_SeatSummary__Output>
      SuggestRequest: MessageTypeDefinition<_quansu_v1_SuggestRequest, _quansu_v1_SuggestRequest__Output>
      SuggestResponse: MessageTypeDefinition<_quansu_v1_SuggestResponse, _quansu_v1_SuggestResponse__Output>
      SuggestStreamRequest: MessageTypeDefinition<_quansu_v1_SuggestStreamRequest, _quansu_v1_SuggestStreamRequest__Output>
      Suggestion: MessageTypeDefinition<_quansu_v1_Suggestion, _quansu_v1_Suggestion__Output>
      Thresholds: MessageTypeDefinition<_quansu_v1_Thresholds, _quansu_v1_Thresholds__Output>
      Transfer: MessageTypeDefinition<_quansu_v1_Transfer, _quansu_v1_Transfer__Output>
      View: MessageTypeDefinition<_quansu_v1_View, _quansu_v1_View__Output>
    }
  }
}

