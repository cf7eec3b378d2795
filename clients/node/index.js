// quansu Node client: the gRPC service quansu.v1.QuansuService from its .proto files alone.
//
//   const {QuansuClient} = require("quansu-client");
//   const c = new QuansuClient("localhost:50051", {token: process.env.QUANSU_TOKEN});
//   const answer = await c.suggest({view, budget: {iterations: 400}, top_k: 3});
//   for await (const msg of c.analyze({record, seats: [0]})) console.log(msg);
//
// Messages are plain objects with the field names of the .proto files (keepCase), which are
// the names of the quansu-record/1 and quansu-view/1 files: a view or record read with
// JSON.parse can be sent as it is.  64-bit integers (seed) are strings, enums (Decision.mark)
// their names.  Errors are grpc-js errors (err.code: grpc.status.*, err.details); for
// INVALID_ARGUMENT, fieldViolations(err) reads the BadRequest detail's [{field, description}].
"use strict";

const path = require("path");
const fs = require("fs");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

// The .proto files: $QUANSU_PROTO_DIR, else the checkout's proto/ folder beside clients/.
const PROTO_DIR = process.env.QUANSU_PROTO_DIR || path.resolve(__dirname, "..", "..", "proto");

const LOADER_OPTIONS = {
  keepCase: true, // field names as in the .proto (and in record/view files)
  longs: String,
  enums: String,
  defaults: false,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

let cached = null;

// The loaded package quansu.v1 (service constructor and message types).
function loadProto(protoDir) {
  if (!protoDir && cached) return cached;
  const dir = protoDir || PROTO_DIR;
  const file = path.join(dir, "quansu", "v1", "service.proto");
  if (!fs.existsSync(file)) {
    throw new Error(`quansu: cannot find ${file}; set QUANSU_PROTO_DIR to the folder that holds quansu/v1/service.proto`);
  }
  const def = protoLoader.loadSync(file, Object.assign({}, LOADER_OPTIONS, {includeDirs: [dir]}));
  const pkg = grpc.loadPackageDefinition(def).quansu.v1;
  const out = {pkg, def};
  if (!protoDir) cached = out;
  return out;
}

// google.rpc.Status / BadRequest, decoded from the trailing metadata grpc-status-details-bin
// with a tiny protobuf reader (no extra dependency): [{field, description}].
function fieldViolations(err) {
  const md = err && err.metadata;
  if (!md || typeof md.get !== "function") return [];
  const raw = md.get("grpc-status-details-bin")[0];
  if (!raw) return [];
  const out = [];
  for (const [num, any] of fields(Buffer.from(raw))) {
    if (num !== 3) continue; // Status.details: repeated google.protobuf.Any
    let type = "";
    let value = null;
    for (const [n, v] of fields(any)) {
      if (n === 1) type = v.toString("utf8");
      if (n === 2) value = v;
    }
    if (!type.endsWith("google.rpc.BadRequest") || !value) continue;
    for (const [n, violation] of fields(value)) {
      if (n !== 1) continue;
      const fv = {field: "", description: ""};
      for (const [k, v] of fields(violation)) {
        if (k === 1) fv.field = v.toString("utf8");
        if (k === 2) fv.description = v.toString("utf8");
      }
      out.push(fv);
    }
  }
  return out;
}

// The length-delimited fields of a protobuf message: [[number, Buffer]] (others skipped).
function fields(buf) {
  const out = [];
  let i = 0;
  const varint = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (i >= buf.length) throw new Error("truncated protobuf");
      const b = buf[i++];
      result += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return result;
      shift += 7;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const num = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) varint();
    else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else if (wire === 2) {
      const len = varint();
      out.push([num, buf.subarray(i, i + len)]);
      i += len;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

class QuansuClient {
  // address: "host:port" (port 50051 when left out).  options: token (sent as
  // "authorization: Bearer TOKEN"), tlsCa (PEM text or Buffer of the CA that signed the
  // server's certificate: TLS; omitted: plaintext), timeoutMs (each call's deadline; default
  // 60000), protoDir.
  constructor(address, options = {}) {
    const {pkg} = loadProto(options.protoDir);
    const target = /:\d+$/.test(address) ? address : `${address}:50051`;
    const creds = options.tlsCa
      ? grpc.credentials.createSsl(Buffer.from(options.tlsCa))
      : grpc.credentials.createInsecure();
    this.stub = new pkg.QuansuService(target, creds);
    this.token = options.token || null;
    this.timeoutMs = options.timeoutMs === undefined ? 60000 : options.timeoutMs;
  }

  _meta() {
    const md = new grpc.Metadata();
    if (this.token) md.set("authorization", `Bearer ${this.token}`);
    return md;
  }

  _options(timeoutMs) {
    const ms = timeoutMs === undefined ? this.timeoutMs : timeoutMs;
    return ms ? {deadline: new Date(Date.now() + ms)} : {};
  }

  _unary(method, request, timeoutMs) {
    return new Promise((resolve, reject) => {
      this.stub[method](request, this._meta(), this._options(timeoutMs), (err, resp) => {
        if (err) reject(err);
        else resolve(resp);
      });
    });
  }

  // An async iterator over a server stream; breaking out of the loop cancels the call.
  async* _stream(method, request, timeoutMs) {
    const call = this.stub[method](request, this._meta(), this._options(timeoutMs));
    let finished = false;
    try {
      for await (const msg of call) yield msg;
      finished = true;
    } finally {
      if (!finished) call.cancel();
    }
  }

  // Ranked moves for the seat to act: {view, budget: {iterations, milliseconds}, top_k,
  // strength (1..5: a bot's move in `chosen`; 0: a hint), seed}.
  suggest(request, timeoutMs) { return this._unary("Suggest", request, timeoutMs); }

  // Partial rankings every interval_ms, then the final one (final: true).
  suggestStream(request, intervalMs = 250, timeoutMs) {
    return this._stream("SuggestStream", {request, interval_ms: intervalMs}, timeoutMs);
  }

  // One {decision} per judged move, then one {summary} per seat: {record | view, seats,
  // budget, thresholds, seed}.
  analyze(request, timeoutMs) { return this._stream("Analyze", request, timeoutMs); }

  // The referee: {record} or {view}.
  legalMoves(request, timeoutMs) { return this._unary("LegalMoves", request, timeoutMs); }

  describeGames(timeoutMs) { return this._unary("DescribeGames", {}, timeoutMs); }

  close() { this.stub.close(); }
}

module.exports = {QuansuClient, fieldViolations, loadProto, status: grpc.status, PROTO_DIR};
