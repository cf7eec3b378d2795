// Types of the quansu Node client (index.js), written over the message types that
// `npm run gen-types` generates from proto/quansu/v1/*.proto into types/ (proto-loader-gen-types
// with the loader options of index.js: keepCase, longs and enums as strings, oneofs, no
// defaults).  Requests are the generated input types, answers the `__Output` types.
import type * as grpc from "@grpc/grpc-js";
import type {AnalyzeRequest} from "./types/quansu/v1/AnalyzeRequest";
import type {AnalyzeResponse__Output} from "./types/quansu/v1/AnalyzeResponse";
import type {DescribeGamesResponse__Output} from "./types/quansu/v1/DescribeGamesResponse";
import type {LegalMovesRequest} from "./types/quansu/v1/LegalMovesRequest";
import type {LegalMovesResponse__Output} from "./types/quansu/v1/LegalMovesResponse";
import type {QuansuServiceClient} from "./types/quansu/v1/QuansuService";
import type {SuggestRequest} from "./types/quansu/v1/SuggestRequest";
import type {SuggestResponse__Output} from "./types/quansu/v1/SuggestResponse";
import type {ProtoGrpcType} from "./types/service";

export type {ProtoGrpcType, QuansuServiceClient};
export type {AnalyzeRequest, AnalyzeResponse__Output, DescribeGamesResponse__Output,
  LegalMovesRequest, LegalMovesResponse__Output, SuggestRequest, SuggestResponse__Output};
export type {Decision__Output} from "./types/quansu/v1/Decision";
export type {SeatSummary__Output} from "./types/quansu/v1/SeatSummary";
export type {Suggestion__Output} from "./types/quansu/v1/Suggestion";
export type {Move__Output} from "./types/quansu/v1/Move";
export type {Mark__Output} from "./types/quansu/v1/Mark";
export type {View} from "./types/quansu/v1/View";
export type {Record} from "./types/quansu/v1/Record";

export interface ClientOptions {
  /** Sent as `authorization: Bearer TOKEN`. */
  token?: string | null;
  /** The PEM of the CA that signed a TLS server's certificate; without it: plaintext. */
  tlsCa?: string | Buffer;
  /** Each call's deadline in milliseconds (default 60000; 0: none). */
  timeoutMs?: number;
  /** A folder holding quansu/v1/service.proto and records.proto. */
  protoDir?: string;
}

/** A field violation of an INVALID_ARGUMENT (the google.rpc.BadRequest detail). */
export interface FieldViolation {
  field: string;
  description: string;
}

export class QuansuClient {
  constructor(address: string, options?: ClientOptions);
  readonly stub: QuansuServiceClient;
  /** Ranked moves for the seat to act (strength 1..5: a bot's move in `chosen`). */
  suggest(request: SuggestRequest, timeoutMs?: number): Promise<SuggestResponse__Output>;
  /** Partial rankings every `intervalMs`, then the final one (`final: true`). */
  suggestStream(request: SuggestRequest, intervalMs?: number,
                timeoutMs?: number): AsyncGenerator<SuggestResponse__Output, void, undefined>;
  /** One `decision` per judged move, then one `summary` per seat. */
  analyze(request: AnalyzeRequest,
          timeoutMs?: number): AsyncGenerator<AnalyzeResponse__Output, void, undefined>;
  /** The referee: the legal moves of the seat to act of a record or a view. */
  legalMoves(request: LegalMovesRequest, timeoutMs?: number): Promise<LegalMovesResponse__Output>;
  describeGames(timeoutMs?: number): Promise<DescribeGamesResponse__Output>;
  close(): void;
}

/** The loaded package quansu.v1 (service constructor and message types). */
export function loadProto(protoDir?: string): {
  pkg: ProtoGrpcType["quansu"]["v1"];
  def: import("@grpc/proto-loader").PackageDefinition;
};

/** The field violations of an INVALID_ARGUMENT error (none for other errors). */
export function fieldViolations(err: unknown): FieldViolation[];

export const status: typeof grpc.status;
export const PROTO_DIR: string;
