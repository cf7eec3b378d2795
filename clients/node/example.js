// Example: a hint for a seat's view, a streamed analysis of a game record, and a refused
// request with its field path.
//
//   node example.js [HOST:PORT] [--token TOKEN] [--view FILE] [--record FILE]
//
// Defaults: localhost:50051 and the examples in docs/examples/ of the checkout.
// Type-checked (tsconfig.json: checkJs, strict) against index.d.ts and the types generated from
// the .proto files: `npm run check-types`.
"use strict";

const fs = require("fs");
const path = require("path");
const {QuansuClient, fieldViolations, status} = require("./index");

/** @param {string[]} argv */
function parseArgs(argv) {
  const examples = path.resolve(__dirname, "..", "..", "docs", "examples");
  const args = {
    server: "localhost:50051", token: process.env.QUANSU_TOKEN || null,
    view: path.join(examples, "tienlen.view.json"), record: path.join(examples, "tienlen.record.json"),
    iterations: 200,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--token") args.token = argv[++i];
    else if (a === "--view") args.view = argv[++i];
    else if (a === "--record") args.record = argv[++i];
    else if (a === "--iterations") args.iterations = Number(argv[++i]);
    else args.server = a;
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const client = new QuansuClient(args.server, {token: args.token});
  try {
    const view = JSON.parse(fs.readFileSync(args.view, "utf8"));
    const record = JSON.parse(fs.readFileSync(args.record, "utf8"));

    // 1. a hint: quansu's ranked moves for the seat to act
    const hint = await client.suggest({view, budget: {iterations: args.iterations}, top_k: 3, seed: "7"});
    for (const s of hint.moves ?? []) {
      const reasons = (s.reasons || []).map((r) => r.code).join(",");
      console.log(`hint ${s.move?.text} payoff=${(s.expected_payoff || 0).toFixed(2)} reasons=${reasons}`);
    }

    // 2. the analysis of a whole game, streamed: one decision per move, then one summary per seat
    for await (const msg of client.analyze({record, seats: [0], budget: {iterations: 50}, seed: "1"})) {
      if (msg.decision) {
        const d = msg.decision;
        console.log(`decision #${d.index || 0} seat ${d.seat || 0} played ${d.played?.text} best ${d.best?.text} loss=${(d.loss || 0).toFixed(2)} ${d.mark}`);
      } else if (msg.summary) {
        const s = msg.summary;
        console.log(`summary seat ${s.seat || 0} accuracy=${(s.accuracy || 0).toFixed(2)} total_loss=${(s.total_loss || 0).toFixed(2)}`);
      }
    }

    // 3. a bad request: INVALID_ARGUMENT with the field at fault
    try {
      await client.suggest({view: Object.assign({}, view, {seat: 9})});
    } catch (e) {
      const err = /** @type {import("@grpc/grpc-js").ServiceError} */ (e);
      if (err.code !== status.INVALID_ARGUMENT) throw err;
      for (const v of fieldViolations(err)) console.log(`refused ${v.field}: ${v.description}`);
    }
  } finally {
    client.close();
  }
}

main().catch((err) => {
  console.error(`error: ${err.details || err.message}`);
  process.exit(1);
});
