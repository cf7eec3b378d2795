// quansu web page: play against quansu bots, ask for hints, analyze a game, review a record.
// Talks only to the quansu server that served it (the HTTP/JSON gateway, docs/api.md).
"use strict";

// ---------------------------------------------------------------------------------------------
// texts (Vietnamese and English)

const TEXTS = {
  en: {
    tab_play: "Play", tab_review: "Review a game", token: "Token", game: "Game",
    players: "Players", level: "Bot level", your_seat: "Your seat", seed: "Deal number",
    options: "Rule options (JSON)", new_game: "New game", play_selected: "Play the selected cards",
    clear: "Clear", hint: "Hint", log: "Moves of this game", game_over: "Game over",
    analyze_seats: "Analyze", my_seat: "my seat", all_seats: "every seat",
    iterations: "Iterations per move", analyze: "Analyze the game", download: "Download the record",
    review_help: "Paste a quansu-record/1 game record (or a quansu-view/1 view), or open a file.",
    analysis: "Analysis", mistakes: "Mistakes and the better move",
    footer: "Every request goes to this quansu server only.",
    seat: "Seat", you: "you", bot: "bot", cards: "cards", to_act: "to act",
    your_turn: "Your turn", waiting: "Waiting for seat {s}", thinking: "Seat {s} is thinking…",
    legal_moves: "Legal moves:", no_selection: "Select cards first, or click a legal move.",
    choose_one: "These legal moves use the selected cards; click one:",
    refused: "Refused: {m}", not_legal: "“{m}” is not legal now.",
    hint_title: "quansu's ranked moves (from your seat's information only)",
    col_move: "Move", col_payoff: "Expected payoff", col_interval: "95% interval",
    col_share: "Visits", col_reasons: "Why", deals: "{n} deals", hint_running: "searching… {n} iterations",
    hint_done: "{n} iterations, done",
    net: "Result (bets)", analyzing: "Analyzing… {p}", analysis_done: "Analysis done.",
    worlds: "Deals per decision, at most", worlds_default: "game default", cancel: "Cancel",
    progress: "judged {d} of {t} decisions", time_left: "about {time} left", seconds: "{n} s",
    minutes: "{n} min", analysis_cancelled: "Analysis cancelled: judged {d} of {t} decisions.",
    judged_so_far: "decisions judged so far: {n}", no_mistakes_yet: "No mistakes or blunders so far.",
    accuracy: "accuracy", total_loss: "total loss", decisions: "decisions",
    played: "played", better: "better", loss: "loss", no_mistakes: "No mistakes or blunders.",
    cumulative: "cumulative loss", move_no: "move", bad_json: "Not valid JSON: {m}",
    empty_record: "Paste a record or choose a file first.", starting: "Dealing…",
    table: "Table", stock: "stock", played_zone: "played", discard: "discard",
    set_aside: "set aside", trump: "trump", hidden: "hidden",
    MARK_BEST: "best", MARK_GOOD: "good", MARK_INACCURACY: "inaccuracy", MARK_MISTAKE: "mistake",
    MARK_BLUNDER: "blunder", MARK_UNCLEAR: "unclear", forced: "forced",
    level_names: ["", "1 (beginner)", "2", "3", "4", "5 (full strength)"],
    w_pass: "pass", w_draw: "draw", w_eat: "eat", w_lay: "lay", w_send: "send", w_to: "to",
    w_discard: "discard", w_u: "u", w_swap: "swap", w_done: "done", w_attack: "attack",
    w_defend: "defend", w_with: "with", w_throw: "throw", w_take: "take",
    w_declare: "declare", w_decline: "decline",
    setup: "Game setup", replay: "Replay this deal", autoplay: "Play forced moves for me",
    resign: "Resign", details: "Details", deal_no: "deal {n}",
    auto_played: "Played for you: {m} (your only legal move).",
    hint_queued: "The hint comes as soon as it is your turn.",
    declare_first: "Declare Sâm or decline first: no card is played before that.",
    resigned: "You resigned. A resignation is settled as a lost game: you pay the stake " +
      "({stake} bets) to each other seat.",
    resigned_record: "The record keeps the moves played, without a result: the game was not " +
      "finished.",
    to_beat: "To beat", leads: "{who} leads a new round", you_lead: "You lead a new round",
    just_discarded: "Just discarded: eat it or draw", passed: "passed",
    attacker: "attacker", defender: "defender", thrown_in: "thrown in", attack_card: "attack",
    bout: "The bout", swap_round: "Trump swap round: swap for the face-up card, or done",
    no_cards_yet: "no card played yet", under_stock: "under the stock", drawn: "drawn",
    declaring: "Sâm declarations: declare or decline", declarer: "{who} declared Sâm",
    happened: "Since your last move: {m}",
    plan: "{d} decisions to judge, at most {w} deals each", plan_time: "about {time}",
    plan_unknown: "the time left shows after the first {n} decisions",
    plan_estimating: "estimating the time…", plan_forced: "every move was forced: no wait",
    loss_help: "Loss: the bets a move gave up against the best move of its decision, " +
      "measured over many deals the seat could not tell apart. It is not the deal's result: " +
      "a seat can lose a deal with no loss (the cards decided) or win one with a large loss.",
    loss_note: "bets given up against the best moves", result_note: "this deal's result",
    scale: "One scale for every seat: 0 to {top} bets",
    advice_play: "quansu's move:",
  },
  vi: {
    tab_play: "Chơi", tab_review: "Xem lại ván", token: "Mã truy cập", game: "Trò chơi",
    players: "Số người", level: "Trình độ máy", your_seat: "Ghế của bạn", seed: "Số ván chia",
    options: "Luật chơi (JSON)", new_game: "Ván mới", play_selected: "Đánh các lá đã chọn",
    clear: "Bỏ chọn", hint: "Gợi ý", log: "Các nước đi của ván", game_over: "Hết ván",
    analyze_seats: "Phân tích", my_seat: "ghế của tôi", all_seats: "mọi ghế",
    iterations: "Số lần thử mỗi nước", analyze: "Phân tích ván", download: "Tải biên bản ván",
    review_help: "Dán biên bản ván quansu-record/1 (hoặc góc nhìn quansu-view/1), hoặc mở tệp.",
    analysis: "Phân tích", mistakes: "Nước sai và nước tốt hơn",
    footer: "Mọi yêu cầu chỉ gửi tới máy chủ quansu này.",
    seat: "Ghế", you: "bạn", bot: "máy", cards: "lá", to_act: "đến lượt",
    your_turn: "Đến lượt bạn", waiting: "Chờ ghế {s}", thinking: "Ghế {s} đang nghĩ…",
    legal_moves: "Nước hợp lệ:", no_selection: "Hãy chọn bài trước, hoặc bấm một nước hợp lệ.",
    choose_one: "Các nước hợp lệ dùng những lá đã chọn; bấm một nước:",
    refused: "Không được: {m}", not_legal: "“{m}” không hợp lệ lúc này.",
    hint_title: "Các nước quansu xếp hạng (chỉ từ thông tin của ghế bạn)",
    col_move: "Nước đi", col_payoff: "Lợi kỳ vọng", col_interval: "Khoảng 95%",
    col_share: "Lượt thử", col_reasons: "Lý do", deals: "{n} ván", hint_running: "đang tìm… {n} lần thử",
    hint_done: "xong {n} lần thử",
    net: "Kết quả (tiền cược)", analyzing: "Đang phân tích… {p}",
    worlds: "Số ván thử tối đa mỗi nước", worlds_default: "mặc định của trò chơi", cancel: "Hủy",
    progress: "đã đánh giá {d} trên {t} quyết định", time_left: "còn khoảng {time}",
    seconds: "{n} giây", minutes: "{n} phút",
    analysis_cancelled: "Đã hủy phân tích: đã đánh giá {d} trên {t} quyết định.",
    judged_so_far: "đã đánh giá {n} quyết định", no_mistakes_yet: "Chưa có nước sai nào.",
    analysis_done: "Phân tích xong.", accuracy: "độ chính xác", total_loss: "tổng thiệt",
    decisions: "quyết định", played: "đã đánh", better: "nên đánh", loss: "thiệt",
    no_mistakes: "Không có nước sai nào.", cumulative: "thiệt cộng dồn", move_no: "nước",
    bad_json: "JSON không hợp lệ: {m}", empty_record: "Hãy dán biên bản hoặc chọn tệp trước.",
    starting: "Đang chia bài…", table: "Trên bàn", stock: "nọc", played_zone: "đã đánh",
    discard: "bài bỏ", set_aside: "bài để riêng", trump: "chủ", hidden: "úp",
    MARK_BEST: "tốt nhất", MARK_GOOD: "tốt", MARK_INACCURACY: "chưa chuẩn",
    MARK_MISTAKE: "sai", MARK_BLUNDER: "sai nặng", MARK_UNCLEAR: "chưa rõ", forced: "bắt buộc",
    level_names: ["", "1 (mới chơi)", "2", "3", "4", "5 (mạnh nhất)"],
    w_pass: "bỏ lượt", w_draw: "bốc", w_eat: "ăn", w_lay: "hạ", w_send: "gửi", w_to: "vào",
    w_discard: "đánh", w_u: "ù", w_swap: "đổi chủ", w_done: "xong", w_attack: "đánh",
    w_defend: "chặn", w_with: "bằng", w_throw: "thêm", w_take: "nhặt",
    w_declare: "báo sâm", w_decline: "không báo",
    setup: "Thiết lập ván", replay: "Chơi lại ván bài này", autoplay: "Tự đánh nước bắt buộc",
    resign: "Chịu thua", details: "Chi tiết", deal_no: "ván chia {n}",
    auto_played: "Đã tự đánh cho bạn: {m} (nước hợp lệ duy nhất).",
    hint_queued: "Gợi ý sẽ hiện ngay khi đến lượt bạn.",
    declare_first: "Hãy báo Sâm hoặc không báo trước: chưa đánh bài được.",
    resigned: "Bạn đã chịu thua. Chịu thua tính như thua ván: bạn trả tiền cược của ván " +
      "({stake}) cho mỗi ghế khác.",
    resigned_record: "Biên bản giữ các nước đã đánh, không có kết quả: ván chưa kết thúc.",
    to_beat: "Phải chặn", leads: "{who} đi đầu vòng mới", you_lead: "Bạn đi đầu vòng mới",
    just_discarded: "Bài vừa đánh: ăn hoặc bốc", passed: "bỏ lượt",
    attacker: "người đánh", defender: "người đỡ", thrown_in: "đánh thêm", attack_card: "đánh",
    bout: "Lượt đánh", swap_round: "Vòng đổi chủ: đổi lấy lá chủ lật, hoặc xong",
    no_cards_yet: "chưa có lá nào", under_stock: "dưới nọc", drawn: "đã bốc",
    declaring: "Báo Sâm: báo hoặc không báo", declarer: "{who} đã báo Sâm",
    happened: "Từ nước trước của bạn: {m}",
    plan: "{d} quyết định cần đánh giá, tối đa {w} ván thử mỗi quyết định",
    plan_time: "khoảng {time}",
    plan_unknown: "thời gian còn lại hiện sau {n} quyết định đầu",
    plan_estimating: "đang ước tính thời gian…", plan_forced: "mọi nước đều bắt buộc: không phải chờ",
    loss_help: "Thiệt: số tiền cược một nước để mất so với nước tốt nhất của quyết định đó, " +
      "đo trên nhiều ván mà ghế không phân biệt được. Đây không phải kết quả ván: một ghế có " +
      "thể thua ván mà không thiệt gì (do bài) hoặc thắng ván mà thiệt nhiều.",
    loss_note: "tiền cược để mất so với nước tốt nhất", result_note: "kết quả ván này",
    scale: "Một thang cho mọi ghế: 0 đến {top} tiền cược",
    advice_play: "Nên chọn:",
  },
};

const MARKS = ["MARK_BEST", "MARK_GOOD", "MARK_INACCURACY", "MARK_MISTAKE", "MARK_BLUNDER",
  "MARK_UNCLEAR"];
const MARK_CLASS = {MARK_BEST: "best", MARK_GOOD: "good", MARK_INACCURACY: "inaccuracy",
  MARK_MISTAKE: "mistake", MARK_BLUNDER: "blunder", MARK_UNCLEAR: "unclear"};

// Rank order of each game, low to high (docs/notation.md); suits print S C D H.
const RANK_ORDER = {
  tienlen: "3456789TJQKA2", samloc: "3456789TJQKA2", phom: "A23456789TJQK",
  tan: "23456789TJQKA",
};
const SUIT_ORDER = "SCDH";
const SUIT_SYMBOL = {S: "♠", C: "♣", D: "♦", H: "♥"};
const CARD_RE = /^([2-9TJQKA])([SCDH])$/;

// ---------------------------------------------------------------------------------------------
// page state

const S = {
  lang: "en", games: [], gameInfo: null, record: null, human: 0, level: 3, seed: null,
  legal: [], toAct: -1, terminal: false, selected: new Set(), busy: false, table: null,
  finalTable: null, runId: 0, reviewRecord: null, lastAnalysis: null, analysis: null,
  resigned: false, hintQueued: false, hintController: null, autoPlayed: [], lastManual: 0,
};

const $ = (id) => document.getElementById(id);

function t(key, vars) {
  const table = TEXTS[S.lang] || TEXTS.en;
  let text = key in table ? table[key] : (TEXTS.en[key] !== undefined ? TEXTS.en[key] : key);
  if (vars && typeof text === "string") {
    for (const [k, v] of Object.entries(vars)) text = text.split("{" + k + "}").join(String(v));
  }
  return text;
}

// el("div", {class: "x"}, child, "text", ...): a DOM node (text is never parsed as HTML).
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

function say(text, kind) {
  const m = $("message");
  m.textContent = text || "";
  m.className = "message" + (kind ? " " + kind : "");
}

function num(x, digits) {
  const v = typeof x === "number" ? x : Number(x || 0);
  return (v >= 0 ? "+" : "") + v.toFixed(digits === undefined ? 2 : digits);
}

// ---------------------------------------------------------------------------------------------
// the server

class ApiError extends Error {
  constructor(httpStatus, error) {
    super((error && error.message) || ("HTTP " + httpStatus));
    this.httpStatus = httpStatus;
    this.status = (error && error.status) || "";
    this.violations = (error && error.violations) || [];
  }
  // the rule's own words: the first violation's description, else the message
  get reason() {
    return this.violations.length ? this.violations[0].description : this.message;
  }
}

function headers() {
  const h = {"Content-Type": "application/json"};
  const token = $("token").value.trim();
  if (token) h.Authorization = "Bearer " + token;
  return h;
}

async function failure(resp) {
  let body = null;
  try { body = await resp.json(); } catch (e) { body = null; }
  return new ApiError(resp.status, body && body.error);
}

async function api(path, body) {
  const init = body === undefined ? {method: "GET", headers: headers()}
    : {method: "POST", headers: headers(), body: JSON.stringify(body)};
  const resp = await fetch(path, init);
  if (!resp.ok) throw await failure(resp);
  return resp.json();
}

// A streaming call (NDJSON): onItem(object) for every line; an {"error"} line throws.
// `signal` (an AbortSignal) cancels it: the fetch rejects with an AbortError and the connection
// closes, which the server takes as a cancelled call (its work stops).  A stream the page stops
// reading for any other reason (an error line, a bug in onItem) is cancelled the same way.
async function apiStream(path, body, onItem, signal) {
  const resp = await fetch(path, {method: "POST", headers: headers(), body: JSON.stringify(body),
    signal});
  if (!resp.ok) throw await failure(resp);
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let finished = false;
  try {
    for (;;) {
      const {value, done} = await reader.read();
      if (value) buffer += decoder.decode(value, {stream: true});
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const item = JSON.parse(line);
        if (item.error) throw new ApiError(item.error.code, item.error);
        onItem(item);
      }
      if (done) break;
    }
    finished = true;
  } finally {
    if (!finished) reader.cancel().catch(() => {});
  }
  if (buffer.trim()) {
    const item = JSON.parse(buffer);
    if (item.error) throw new ApiError(item.error.code, item.error);
    onItem(item);
  }
}

// ---------------------------------------------------------------------------------------------
// cards and moves

function cardNode(text, extra) {
  const m = CARD_RE.exec(text);
  if (!m) return el("span", {class: "word"}, text);
  const rank = m[1] === "T" ? "10" : m[1];
  const red = m[2] === "D" || m[2] === "H";
  return el("span", Object.assign({class: "card" + (red ? " red" : ""), "data-card": text,
    title: text}, extra || {}), el("span", {class: "rank"}, rank),
  el("span", {class: "suit"}, SUIT_SYMBOL[m[2]]));
}

// A move's canonical text drawn with suit symbols and the words in the page's language.
function moveNode(text) {
  const span = el("span", {class: "move"});
  for (const token of String(text).split(/\s+/)) {
    if (!token) continue;
    if (span.firstChild) span.append(" ");
    if (CARD_RE.test(token)) span.append(cardNode(token));
    else if (token === "/") span.append(el("span", {class: "word"}, "/"));
    else if (/^\d+$/.test(token)) span.append(el("span", {class: "word"}, token));
    else span.append(el("span", {class: "word"}, t("w_" + token.toLowerCase()) || token));
  }
  return span;
}

// A card as a label writes it ("10♥", "3♠") drawn as a card.
const LABEL_CARD_RE = /^(10|[2-9JQKA])([♠♣♦♥])$/;
const SYMBOL_SUIT = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"};

// A move as a player says it (the server's `label`, in the language the page asked for), its
// cards drawn as cards; without a label (an older server), its notation (`moveNode`).
function labelNode(label) {
  const span = el("span", {class: "move"});
  for (const token of String(label).split(/\s+/)) {
    if (!token) continue;
    if (span.firstChild) span.append(" ");
    const m = LABEL_CARD_RE.exec(token);
    if (m) span.append(cardNode((m[1] === "10" ? "T" : m[1]) + SYMBOL_SUIT[m[2]]));
    else span.append(el("span", {class: "word"}, token));
  }
  return span;
}

// A move object ({text, label}: a legal move, a suggestion, a played move of the history).
function moveView(m) {
  if (!m) return "";
  return m.label ? labelNode(m.label) : moveNode(m.text || "");
}

// A move's words as plain text (messages): its label, else its notation.
function moveWords(m) {
  return (m && (m.label || m.text)) || "";
}

function sortCards(cards, game) {
  const order = RANK_ORDER[game] || RANK_ORDER.tienlen;
  const key = (c) => order.indexOf(c[0]) * 4 + SUIT_ORDER.indexOf(c[1]);
  return [...cards].sort((a, b) => key(a) - key(b));
}

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((c) => s.has(c));
}

// ---------------------------------------------------------------------------------------------
// setup

async function loadGames() {
  try {
    const resp = await api("/v1/games");
    S.games = resp.games || [];
    S.levels = resp.levels || [];
    const sel = clear($("game"));
    for (const g of S.games) sel.append(el("option", {value: g.name}, g.title || g.name));
    onGameChange();
    say("");
  } catch (e) {
    say(e.message, "error");
  }
}

function onGameChange() {
  const g = S.games.find((x) => x.name === $("game").value);
  if (!g) return;
  S.gameInfo = g;
  const players = clear($("players"));
  const lo = Math.max(2, g.min_players || 2);
  const hi = Math.min(4, g.max_players || 4);
  for (let n = lo; n <= hi; n++) {
    players.append(el("option", {value: n, selected: n === hi}, String(n)));
  }
  onPlayersChange();
}

function onPlayersChange() {
  const n = Number($("players").value);
  const seat = clear($("seat"));
  for (let s = 0; s < n; s++) seat.append(el("option", {value: s}, String(s)));
}

function levelOptions() {
  const names = t("level_names");
  for (const opt of $("level").options) opt.textContent = names[Number(opt.value)] || opt.value;
}

// ---------------------------------------------------------------------------------------------
// playing

// The page's narrow (phone) layout: the hand first, the setup folded away while a game runs.
const NARROW = "(max-width: 640px)";
// Legal moves fold into their groups when a turn offers more than this many; a group of at
// most FOLD_GROUP moves stays open even then.
const FOLD_OVER = 12;
const FOLD_GROUP = 6;

async function newGame(ev) {
  if (ev) ev.preventDefault();
  let options;
  try {
    options = JSON.parse($("options").value.trim() || "{}");
  } catch (e) {
    say(t("bad_json", {m: e.message}), "error");
    return;
  }
  const body = {game: $("game").value, players: Number($("players").value), options};
  // a typed deal number is used once; "replay this deal" deals the last game's cards again;
  // otherwise every new game is a fresh deal
  const seedText = $("seed").value.trim();
  if (seedText) body.seed = Number(seedText);
  else if ($("replay").checked && S.seed !== null) body.seed = S.seed;
  S.runId += 1;
  stopHint();
  say(t("starting"));
  try {
    const resp = await api("/v1/web/new-game", body);
    S.record = resp.record;
    S.record.moves = S.record.moves || [];
    S.seed = resp.seed;
    $("seed").value = "";
    $("seed").placeholder = String(resp.seed);
    S.human = Number($("seat").value);
    S.level = Number($("level").value);
    S.selected.clear();
    S.finalTable = null;
    S.resigned = false;
    S.legal = [];                            // the last game's turn and moves are not shown
    S.toAct = -1;
    $("turn").textContent = "";
    clear($("legal"));
    S.hintQueued = false;
    S.autoPlayed = [];
    S.lastManual = 0;
    $("hint").classList.remove("queued");
    cancelAnalysis(true);                    // the last game's analysis is no longer shown
    S.lastAnalysis = null;
    worldPlaceholders();
    document.body.classList.add("playing");
    if (window.matchMedia && window.matchMedia(NARROW).matches) $("setup-box").open = false;
    $("table").classList.remove("hidden");
    $("over").classList.add("hidden");
    $("hints").classList.add("hidden");
    $("analysis").classList.add("hidden");
    say("");
    await advance(S.runId);
  } catch (e) {
    say(e instanceof ApiError ? fieldText(e) : e.message, "error");
  }
}

function fieldText(e) {
  if (e.violations && e.violations.length) {
    return e.violations.map((v) => v.field + ": " + v.description).join("; ");
  }
  return e.message;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// The table as `seat` sees it, with the moves named in the page's language.
function seatView(seat) {
  return api("/v1/web/view", {record: S.record, seat, language: S.lang});
}

// Let the bots move until it is the human's turn or the game is over.  A forced move of the
// human (the only legal move: a lone pass, a draw, Tấn's "done") plays itself when the setting
// is on, and the line under the hand says so.
async function advance(runId) {
  S.busy = true;
  try {
    for (;;) {
      if (runId !== S.runId) return;
      const lm = await api("/v1/legal-moves", {record: S.record, language: S.lang});
      if (runId !== S.runId) return;
      S.terminal = !!lm.terminal;
      S.toAct = S.terminal ? -1 : (lm.to_act || 0);
      const legal = S.toAct === S.human ? (lm.moves || []) : [];
      if (legal.length === 1 && $("autoplay").checked) {
        S.autoPlayed.push(legal[0]);
        S.record.moves.push({seat: S.human, move: legal[0].text});
        continue;
      }
      const view = await seatView(S.human);
      if (runId !== S.runId) return;
      S.table = view.table;
      S.legal = legal;
      renderTable();
      if (S.terminal) {
        gameOver(view.table);
        return;
      }
      if (S.toAct === S.human) {
        S.busy = false;
        if (S.hintQueued) hint();           // asked for while the bots were thinking
        return;
      }
      $("turn").textContent = t("thinking", {s: S.toAct});
      const botView = await api("/v1/web/view", {record: S.record, seat: S.toAct});
      const answer = await api("/v1/suggest", {
        view: botView.view, strength: S.level, seed: String(Math.floor(Math.random() * 2 ** 31)),
        language: S.lang,
      });
      if (runId !== S.runId) return;
      S.record.moves.push({seat: S.toAct, move: answer.chosen.text});
      await sleep(250);
    }
  } catch (e) {
    say(e instanceof ApiError ? fieldText(e) : e.message, "error");
  } finally {
    if (runId === S.runId) S.busy = false;
  }
}

// The table again (after a switch of language: the moves' names come from the server).
async function refreshTable() {
  if (!S.record || S.busy || S.resigned) return;
  const runId = S.runId;
  try {
    const lm = S.terminal ? null : await api("/v1/legal-moves", {record: S.record, language: S.lang});
    const view = await seatView(S.human);
    if (runId !== S.runId || S.busy) return;
    S.table = view.table;
    if (lm && S.toAct === S.human) S.legal = lm.moves || [];
    renderTable();
    if (S.terminal) gameOver(view.table);
  } catch (e) {
    say(e instanceof ApiError ? fieldText(e) : e.message, "error");
  }
}

async function playMove(text) {
  if (S.busy || S.terminal || S.resigned || S.toAct !== S.human) return;
  S.record.moves.push({seat: S.human, move: text});
  S.lastManual = S.record.moves.length;
  S.autoPlayed = [];
  S.selected.clear();
  stopHint();
  $("hints").classList.add("hidden");
  say("");
  await advance(S.runId);
}

// Resign: the game ends here.  A resignation is settled as a lost game: the player pays the
// game's stake (GameInfo's bets a game is played for, the table's `stake`) to each other seat.
// The record keeps the moves played, without a result (the referee settles only finished
// games), so it downloads and analyzes as the unfinished game it is.
function resign() {
  if (!S.record || S.terminal || S.resigned) return;
  S.resigned = true;
  S.runId += 1;                               // the bots stop
  S.busy = false;
  S.hintQueued = false;
  $("hint").classList.remove("queued");
  stopHint();
  $("hints").classList.add("hidden");
  const n = S.record.players;
  const stake = (S.table && S.table.stake) || 1;
  const returns = Array.from({length: n}, (_, s) => (s === S.human ? -stake * (n - 1) : stake));
  S.legal = [];
  S.toAct = -1;
  renderTable();
  gameOver({returns, resigned: true, stake});
}

// What the selected cards would be as a move of this game (for the rule's refusal).
function candidateText(cards) {
  const game = S.record.game;
  const kinds = new Set(S.legal.map((m) => m.kind));
  const sorted = sortCards(cards, game);
  if (game === "phom") {
    if (kinds.has("discard") && sorted.length === 1) return "discard " + sorted[0];
    if (kinds.has("lay")) return "lay " + sorted.join(" ");
    return "discard " + sorted.join(" ");
  }
  if (game === "tan") {
    if (sorted.length === 1) {
      if (kinds.has("throw")) return "throw " + sorted[0];
      if (kinds.has("swap")) return "swap " + sorted[0];
      return "attack " + sorted[0];
    }
    return sorted.join(" ");
  }
  return sorted.join(" ");
}

async function playSelected() {
  if (S.busy || S.resigned || S.toAct !== S.human) return;
  const cards = [...S.selected];
  if (!cards.length) {
    say(t("no_selection"), "warn");
    return;
  }
  // Sâm lốc's declarations come before any card: say so rather than refuse the cards
  if (S.legal.length && S.legal.every((m) => m.kind === "declare" || m.kind === "decline")) {
    say(t("declare_first"), "warn");
    return;
  }
  const hand = new Set(S.table ? S.table.hand : []);
  // the legal moves whose cards from the hand are exactly the selection
  const matches = S.legal.filter((m) => sameCards((m.cards || []).filter((c) => hand.has(c)), cards));
  if (matches.length === 1) {
    await playMove(matches[0].text);
    return;
  }
  if (matches.length > 1) {
    say(t("choose_one"), "warn");
    renderLegal(matches);
    return;
  }
  // not legal: ask the referee why, with the move appended to the record
  const text = candidateText(cards);
  const trial = Object.assign({}, S.record, {moves: [...S.record.moves, {seat: S.human, move: text}]});
  try {
    await api("/v1/legal-moves", {record: trial, language: S.lang});
    say(t("not_legal", {m: text}), "error");
  } catch (e) {
    say(t("refused", {m: e instanceof ApiError ? e.reason : e.message}), "error");
  }
}

// ---------------------------------------------------------------------------------------------
// hints

function stopHint() {
  if (S.hintController) S.hintController.abort();
  S.hintController = null;
}

// A hint of the player's move.  Asked for while the bots think, it waits for the player's
// turn (the button shows it is queued) instead of being dropped.
async function hint() {
  if (!S.record || S.terminal || S.resigned) return;
  if (S.busy || S.toAct !== S.human) {
    S.hintQueued = true;
    $("hint").classList.add("queued");
    say(t("hint_queued"));
    return;
  }
  if (S.hintQueued && $("message").textContent === t("hint_queued")) say("");
  S.hintQueued = false;
  $("hint").classList.remove("queued");
  stopHint();
  const controller = new AbortController();
  S.hintController = controller;
  $("hints").classList.remove("hidden");
  clear($("advice"));
  clear($("hint-table"));
  $("hint-status").textContent = t("hint_running", {n: 0});
  $("hint-status").className = "muted";
  try {
    const view = await seatView(S.human);
    await apiStream("/v1/suggest-stream", {
      request: {view: view.view, budget: {iterations: 800}, top_k: 6, language: S.lang},
      interval_ms: 300,
    }, (resp) => { if (S.hintController === controller) renderHints(resp); }, controller.signal);
  } catch (e) {
    if (e.name === "AbortError" || controller.signal.aborted) return;
    say(e instanceof ApiError ? fieldText(e) : e.message, "error");
  } finally {
    if (S.hintController === controller) S.hintController = null;
  }
}

// A reason as the server wrote it, in the language the page asked for (`language` of the
// request; a hint or analysis shown before a language switch keeps the words it came with).
function reasonText(r) {
  return r.text || r.code;
}

// The hint's one line of advice: the server's `advice` (SuggestResponse.advice) when it sends
// one, else the first ranked move with its first reason.
function adviceLine(resp) {
  const box = clear($("advice"));
  const advice = resp.advice;
  if (advice) {
    box.append(typeof advice === "string" ? advice : (advice.text || ""));
    return;
  }
  const top = (resp.moves || [])[0];
  if (!top) return;
  const why = (top.reasons || []).map(reasonText)[0];
  box.append(el("strong", {}, t("advice_play")), " ",
    top.label ? labelNode(top.label) : moveView(top.move), why ? " · " + why : "");
}

function renderHints(resp) {
  const stats = resp.stats || {};
  // a measured hint (docs/api.md): each move's visits are the deals it was played on
  const measured = (stats.hint_worlds || 0) > 0;
  const status = $("hint-status");
  status.textContent = t(resp.final ? "hint_done" : "hint_running", {n: stats.iterations || 0}) +
    (resp.final ? " ✓" : "");
  status.className = "muted" + (resp.final ? " done" : "");
  adviceLine(resp);
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, t("col_move")),
    el("th", {}, t("col_payoff")), el("th", {class: "detail"}, t("col_interval")),
    el("th", {class: "detail"}, t("col_share")), el("th", {}, t("col_reasons")));
  const body = el("tbody");
  (resp.moves || []).forEach((s, i) => {
    const p = s.expected_payoff || 0;
    const lo = s.lower_bound === undefined ? null : s.lower_bound;
    const interval = lo === null ? "–" : "[" + lo.toFixed(2) + ", " + (2 * p - lo).toFixed(2) + "]";
    const text = s.move.text;
    body.append(el("tr", {class: S.legal.some((m) => m.text === text) ? "clickable" : "",
      "data-move": text, "data-label": s.move.label || "", onclick: () => playMove(text)},
    // the row as a player reads it (`label`: with suit variants folded in, "any suits"); a
    // click plays the row's move (the suits chosen for the player)
    el("td", {}, String(i + 1)), el("td", {}, s.label ? labelNode(s.label) : moveView(s.move)),
    el("td", {class: "num"}, num(p)),
    el("td", {class: "num detail"}, interval),
    el("td", {class: "num detail"}, measured ? t("deals", {n: s.visits || 0})
      : Math.round((s.visit_share || 0) * 100) + "% (" + (s.visits || 0) + ")"),
    el("td", {}, (s.reasons || []).map(reasonText).join("; "))));
  });
  clear($("hint-table")).append(el("table", {class: "hints"}, el("thead", {}, head), body));
}

// ---------------------------------------------------------------------------------------------
// the table

function zoneLabel(name) {
  const m = /^([a-z_]+?)(\d+)?$/.exec(name);
  const base = m ? m[1] : name;
  const labels = {stock: t("stock"), played: t("played_zone"), discard: t("discard"),
    set_aside: t("set_aside"), table: t("table")};
  const label = labels[base] || base;
  return m && m[2] !== undefined ? label + " " + t("seat").toLowerCase() + " " + m[2] : label;
}

function seatName(s) {
  return s === S.human ? t("you") : t("seat") + " " + s;
}

// The moves of the game with their names (the view's `history`), or their notation.
function history() {
  const moves = S.record ? S.record.moves : [];
  const named = S.table && Array.isArray(S.table.history) ? S.table.history : [];
  return moves.map((m, i) => (named[i] && named[i].text === m.move ? named[i]
    : {seat: m.seat, text: m.move}));
}

// Tấn's bout: attack/defence pairs, each attack card with the seat that played it (throw-ins
// marked), the defence card over it or an empty place.
function boutNode(board) {
  const box = el("div", {class: "bout"});
  if (board.phase === "swap") {
    box.append(el("p", {class: "bout-head"}, t("swap_round")));
    return box;
  }
  if (board.phase === "over") return box;
  box.append(el("p", {class: "bout-head"}, t("bout") + ": " + seatName(board.attacker) + " ",
    el("span", {class: "role attacker"}, t("attacker")), " → " + seatName(board.defender) + " ",
    el("span", {class: "role defender"}, t("defender"))));
  const pairs = el("div", {class: "pairs"});
  for (const p of board.pairs || []) {
    pairs.append(el("div", {class: "pair" + (p.throw_in ? " throw-in" : "") +
      (p.defence ? " covered" : " open"), "data-attack": p.attack, "data-defence": p.defence || ""},
    el("div", {class: "pair-cards"}, cardNode(p.attack, {class: "card attack-card"}),
      p.defence ? cardNode(p.defence, {class: "card defence-card"})
        : el("span", {class: "card empty"}, "?")),
    el("div", {class: "pair-who"}, (p.throw_in ? t("thrown_in") : t("attack_card")) + " · " +
      seatName(p.seat))));
  }
  if (!(board.pairs || []).length) pairs.append(el("span", {class: "muted-light"}, t("no_cards_yet")));
  box.append(pairs);
  return box;
}

// Tiến lên's and Sâm lốc's round: the combination to beat, highlighted, or who leads.
function trickNode(board) {
  const box = el("div", {class: "trick"});
  if (S.terminal || S.resigned) return box;
  if (board.declaring) {
    box.append(el("p", {class: "bout-head"}, t("declaring")));
    return box;
  }
  if (board.declarer !== undefined && board.declarer >= 0) {
    box.append(el("p", {class: "declarer"}, t("declarer", {who: seatName(board.declarer)})));
  }
  const beat = board.to_beat;
  if (beat) {
    box.append(el("div", {class: "to-beat", "data-cards": beat.cards.join(" ")},
      el("span", {class: "to-beat-head"}, t("to_beat") + " · " + seatName(beat.seat)),
      moveView(beat)));
  } else if (!S.terminal && S.toAct >= 0) {
    box.append(el("p", {class: "leads"}, S.toAct === S.human ? t("you_lead")
      : t("leads", {who: seatName(S.toAct)})));
  }
  return box;
}

// Phỏm: the card just discarded, highlighted (the next seat eats it or draws), under the last
// moves.
function discardNode(board) {
  const box = el("div", {class: "discards"});
  for (const m of history().slice(-Math.max(S.record.players, 4))) {
    box.append(el("div", {class: "play"}, el("span", {class: "who"}, seatName(m.seat)), moveView(m)));
  }
  const last = board.last;
  if (last) {
    box.append(el("div", {class: "to-beat just-discarded", "data-cards": last.card},
      el("span", {class: "to-beat-head"}, t("just_discarded") + " · " + seatName(last.seat)),
      el("span", {class: "move"}, cardNode(last.card))));
  }
  return box;
}

function renderBoard() {
  const board = clear($("board"));
  const b = S.table.board || {};
  if (b.kind === "bout") board.append(boutNode(b));
  else if (b.kind === "trick") board.append(trickNode(b));
  else board.append(discardNode(b));
  // the trump, once
  const trump = $("trump");
  clear(trump);
  trump.classList.toggle("hidden", !S.table.trump);
  if (S.table.trump) {
    const where = b && b.kind === "bout" ? " (" + t(b.trump_under_stock ? "under_stock" : "drawn") + ")" : "";
    trump.append(t("trump") + ": ", cardNode(S.table.trump), where);
  }
}

// The line under the hand: the moves played for the player, then what the others did since
// the player's last move.
function renderHappened() {
  const line = clear($("happened"));
  const notes = [];
  if (S.autoPlayed.length) {
    notes.push(t("auto_played", {m: S.autoPlayed.map(moveWords).join(", ")}));
  }
  const moves = history();
  let since = moves.length;
  while (since > 0 && moves[since - 1].seat !== S.human) since--;
  const others = moves.slice(since);
  if (others.length && since > 0) {
    const shown = others.slice(-6).map((m) => seatName(m.seat) + ": " + moveWords(m));
    notes.push(t("happened", {m: (others.length > 6 ? "… " : "") + shown.join(" · ")}));
  }
  line.textContent = notes.join(" ");
  line.classList.toggle("auto", S.autoPlayed.length > 0);
}

function renderTable() {
  const rec = S.record;
  const n = rec.players;
  const counts = {};
  for (const z of S.table.zones) counts[z.name] = z.count;
  const board = S.table.board || {};
  const moves = history();
  // the other seats, with their role in the bout or round
  const seats = clear($("seats"));
  for (let s = 0; s < n; s++) {
    if (s === S.human) continue;
    const last = [...moves].reverse().find((m) => m.seat === s);
    const roles = [];
    if (board.kind === "bout" && board.phase === "bout") {
      if (board.attacker === s) roles.push(el("span", {class: "role attacker"}, t("attacker")));
      if (board.defender === s) roles.push(el("span", {class: "role defender"}, t("defender")));
    }
    if (board.kind === "trick" && (board.passed || []).includes(s)) {
      roles.push(el("span", {class: "role passed"}, t("passed")));
    }
    seats.append(el("div", {class: "seat" + (S.toAct === s ? " acting" : ""), "data-seat": s},
      el("div", {class: "seat-name"}, t("seat") + " " + s + " (" + t("bot") + ") ", roles),
      el("div", {class: "backs"}, el("span", {class: "back"}), " × " + (counts["hand" + s] ?? "?")),
      el("div", {class: "last"}, last ? moveView(last) : "")));
  }
  renderBoard();
  // public zones with the cards this seat knows of them (the trump is drawn once, above; Tấn's
  // bout is drawn as its pairs)
  const zones = clear($("zones"));
  for (const z of S.table.zones) {
    if (/^hand\d+$/.test(z.name) || !z.count) continue;
    if (board.kind === "bout" && z.name === "table") continue;
    const known = (z.cards || []).filter((c) => c !== S.table.trump);
    zones.append(el("div", {class: "zone"}, el("span", {class: "zone-name"}, zoneLabel(z.name) + " (" + z.count + ")"),
      known.slice(-12).map((c) => cardNode(c))));
  }
  // my hand, in the game's order (the server's)
  const mineRoles = [];
  if (board.kind === "bout" && board.phase === "bout") {
    if (board.attacker === S.human) mineRoles.push(" ", el("span", {class: "role attacker"}, t("attacker")));
    if (board.defender === S.human) mineRoles.push(" ", el("span", {class: "role defender"}, t("defender")));
  }
  clear($("me-label")).append(t("seat") + " " + S.human + " (" + t("you") + ")", ...mineRoles);
  $("turn").textContent = S.terminal || S.resigned ? "" : S.toAct === S.human ? t("your_turn") : t("waiting", {s: S.toAct});
  const hand = clear($("hand"));
  for (const c of S.table.hand) {
    const node = cardNode(c, {role: "button", tabindex: "0"});
    if (S.selected.has(c)) node.classList.add("selected");
    const toggle = () => {
      if (S.selected.has(c)) S.selected.delete(c); else S.selected.add(c);
      node.classList.toggle("selected");
      highlightLegal();
    };
    node.addEventListener("click", toggle);
    node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
    hand.append(node);
  }
  renderHappened();
  renderLegal(S.legal);
  $("resign").disabled = S.terminal || S.resigned;
  // the log
  const log = clear($("log"));
  moves.forEach((m) => log.append(el("li", {}, seatName(m.seat) + ": ", moveView(m))));
  $("render").textContent = S.table.text || "";
}

// The legal moves in the server's order (a player's order, grouped by kind), one group per
// fold: with many moves (Tiến lên's lead), the big groups start folded.
function renderLegal(moves) {
  const box = clear($("legal"));
  if (!moves.length) return;
  box.append(el("span", {class: "muted legal-title"}, t("legal_moves") + " "));
  const groups = [];
  for (const m of moves) {
    const key = m.group || m.kind || "";
    let g = groups.find((x) => x.key === key);
    if (!g) groups.push(g = {key, label: m.group_label || key, moves: []});
    g.moves.push(m);
  }
  const fold = moves.length > FOLD_OVER;
  for (const g of groups) {
    const group = el("details", {class: "legal-group", "data-group": g.key,
      open: !fold || g.moves.length <= FOLD_GROUP},
    el("summary", {}, g.label + " (" + g.moves.length + ")"));
    const list = el("div", {class: "legal-moves"});
    for (const m of g.moves) {
      list.append(el("button", {type: "button", class: "legal-move", "data-move": m.text,
        "data-group": g.key, onclick: () => playMove(m.text)}, moveView(m)));
    }
    group.append(list);
    box.append(group);
  }
  highlightLegal();
}

// The legal moves that use every selected card are marked, and their groups unfolded.
function highlightLegal() {
  const sel = [...S.selected];
  for (const b of $("legal").querySelectorAll("button.legal-move")) {
    const m = S.legal.find((x) => x.text === b.dataset.move);
    const cards = m ? (m.cards || []) : [];
    const match = sel.length > 0 && sel.every((c) => cards.includes(c));
    b.classList.toggle("match", match);
    if (match) b.closest("details").open = true;
  }
}

function gameOver(table) {
  S.finalTable = table;
  $("turn").textContent = "";
  clear($("legal"));
  const box = clear($("result"));
  const returns = table.returns || [];
  const list = el("ul", {class: "returns"});
  returns.forEach((r, s) => list.append(el("li", {class: r > 0 ? "win" : r < 0 ? "lose" : ""},
    seatName(s) + ": " + num(r, 2))));
  if (table.resigned) {
    box.append(el("p", {class: "resigned"}, t("resigned", {stake: num(table.stake, 2).slice(1)})),
      el("p", {class: "muted"}, t("resigned_record")));
  }
  box.append(el("p", {}, t("net")), list);
  $("over").classList.remove("hidden");
  analysisPlan();
}

function finishedRecord() {
  const rec = JSON.parse(JSON.stringify(S.record));
  if (S.finalTable && S.finalTable.result) rec.result = S.finalTable.result;
  return rec;
}

function download() {
  const rec = finishedRecord();
  const blob = new Blob([JSON.stringify(rec, null, 2) + "\n"], {type: "application/json"});
  const a = el("a", {href: URL.createObjectURL(blob),
    download: rec.game + "-" + (S.seed ?? "game") + ".record.json"});
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// ---------------------------------------------------------------------------------------------
// analysis

// The estimate of the time left appears once this many decisions are judged.
const ESTIMATE_AFTER = 3;

// The decisions an Analyze request judges (what the server counts as `total`): the moves of the
// judged seats (every seat of a record when `seats` is empty, the view's seat of a view).
function expectedDecisions(source, seats) {
  const obj = source.record || source.view || {};
  const moves = Array.isArray(obj.moves) ? obj.moves : [];
  const judged = source.view ? [Number(obj.seat || 0)] : seats;
  return judged.length ? moves.filter((m) => judged.includes(Number(m.seat || 0))).length
    : moves.length;
}

function duration(seconds) {
  return seconds < 60 ? t("seconds", {n: Math.max(1, Math.round(seconds))})
    : t("minutes", {n: Math.round(seconds / 60)});
}

// "judged d of t decisions", with the time left once a few are judged (the mean time per
// decision so far, times the decisions left).
function progressText(run) {
  let text = t("progress", {d: run.done, t: run.total});
  if (run.state === "running" && run.done >= ESTIMATE_AFTER && run.done < run.total) {
    const perDecision = (run.lastAt - run.start) / run.done;
    text += " · " + t("time_left", {time: duration(perDecision * (run.total - run.done) / 1000)});
  } else if (run.state === "running" && run.done < ESTIMATE_AFTER && run.estimate) {
    // before the first judgements: the server's estimate made before the analysis started
    const left = run.estimate - (performance.now() - run.start) / 1000;
    text += " · " + t("time_left", {time: duration(Math.max(1, left))});
  }
  return text;
}

// The server's estimates of analyses, by the request's JSON (without `language`): {decisions,
// choices, worlds, seconds, basis} from `/v1/web/estimate`, which judges one decision of the
// game on the server once per game and setting (its time times the decisions with a choice).
const ESTIMATES = new Map();     // key -> the pending answer (a promise)
const ESTIMATED = new Map();     // key -> the answer, once it came (null: none could be made)

// The body of an Analyze request (what `analyze` sends and the estimate is asked for).
function analysisBody(source, seats, iterations, worlds) {
  const body = Object.assign({}, source, {budget: {iterations}});
  if (seats.length) body.seats = seats;
  if (worlds) body.max_worlds = worlds;
  return body;
}

function fetchEstimate(body) {
  const key = JSON.stringify(body);
  if (!ESTIMATES.has(key)) {
    ESTIMATES.set(key, api("/v1/web/estimate", body).then((est) => {
      ESTIMATED.set(key, est);
      return est;
    }, () => {
      ESTIMATES.delete(key);          // asked again next time (the server may have been busy)
      return null;
    }));
  }
  return ESTIMATES.get(key);
}

// The estimate of `body` when the server has given it (undefined while it has not).
function knownEstimate(body) {
  return ESTIMATED.get(JSON.stringify(body));
}

// The game's cap of deals per decision that an analysis will use: the field's, else the
// game's default (GameInfo's `analysis_worlds`).
function plannedWorlds(game, input) {
  const cap = worldCap(input);
  if (cap) return cap;
  const info = S.games.find((g) => g.name === game);
  return info && info.analysis_worlds ? info.analysis_worlds : 0;
}

// Before an analysis starts: what it will judge, and how long it should take (`est`: the
// server's estimate; undefined while it is being made, null when none could be made).
function planText(decisions, worlds, est) {
  let text = t("plan", {d: decisions, w: worlds || "?"});
  if (est === undefined) return text + " · " + t("plan_estimating");
  if (est === null) return text + " · " + t("plan_unknown", {n: ESTIMATE_AFTER});
  return text + " · " + (est.choices ? t("plan_time", {time: duration(est.seconds)})
    : t("plan_forced"));
}

// Show the plan of the analysis `body` in `node`, then the server's estimate when it comes
// (asked after a short pause, so that typing a record does not ask at every key).
let planTimer = null;
function showPlan(node, body, decisions, worlds) {
  const key = JSON.stringify(body);
  node.dataset.plan = key;
  node.textContent = planText(decisions, worlds, knownEstimate(body));
  if (knownEstimate(body) !== undefined) return;
  clearTimeout(planTimer);
  planTimer = setTimeout(() => fetchEstimate(body).then((est) => {
    if (node.dataset.plan === key) node.textContent = planText(decisions, worlds, est);
  }), 300);
}

function analysisPlan() {
  if (S.record && S.finalTable) {
    const seats = $("analyze-seats").value === "all" ? [] : [S.human];
    const body = analysisBody({record: finishedRecord()}, seats, analysisIterations("analyze"),
      worldCap($("analyze-worlds")));
    showPlan($("analyze-plan"), body, expectedDecisions({record: S.record}, seats),
      plannedWorlds(S.record.game, $("analyze-worlds")));
  }
  let obj = null;
  try { obj = JSON.parse($("record-text").value); } catch (e) { obj = null; }
  if (obj && typeof obj === "object" && obj.game) {
    const isView = obj.format === "quansu-view/1" || (obj.format !== "quansu-record/1" && "seat" in obj);
    const game = typeof obj.game === "string" ? obj.game : (obj.game.name || "");
    const source = isView ? {view: obj} : {record: obj};
    showPlan($("review-plan"), analysisBody(source, [], analysisIterations("review"),
      worldCap($("review-worlds"))), expectedDecisions(source, []),
      plannedWorlds(game, $("review-worlds")));
  } else {
    $("review-plan").textContent = "";
    delete $("review-plan").dataset.plan;
  }
}

// The bar, the counter and Cancel of `run`, and its message at the top of the page.  `relabel`
// (a switch of language): the message is replaced only if it is still this run's own.
function showProgress(run, relabel) {
  const bar = $("progress");
  bar.max = Math.max(1, run.total);
  if (run.done === 0 && run.state === "running") bar.removeAttribute("value");  // under way
  else bar.value = run.done;
  const text = progressText(run);
  $("progress-text").textContent = text;
  $("cancel-analysis").classList.toggle("hidden", run.state !== "running");
  const said = {running: [t("analyzing", {p: text}), ""],
    cancelled: [t("analysis_cancelled", {d: run.done, t: run.total}), "warn"],
    done: [t("analysis_done"), "ok"]}[run.state];
  if (!said || (relabel && $("message").textContent !== run.said)) return;
  say(said[0], said[1]);
  run.said = said[0];
}

// Cancel the analysis under way (Cancel, a new game, a new analysis); `quiet`: say nothing.
function cancelAnalysis(quiet) {
  const run = S.analysis;
  if (!run) return;
  S.analysis = null;
  run.state = "cancelled";
  run.controller.abort();
  if (!quiet) showProgress(run);
}

// Analyze a game (`source`: {record} or {view}) for `seats` (empty: every seat of a record),
// showing each decision as soon as it is judged, the progress with the time left, and Cancel.
async function analyze(source, seats, iterations, worlds) {
  cancelAnalysis(true);           // one analysis at a time: a new one replaces the one under way
  const obj = source.record || source.view || {};
  const game = typeof obj.game === "string" ? obj.game : ((obj.game && obj.game.name) || "");
  const total = expectedDecisions(source, seats);
  const capped = worlds || plannedWorlds(game, {value: ""});
  const planned = knownEstimate(analysisBody(source, seats, iterations, worlds));
  const run = {controller: new AbortController(), done: 0, total, game, worlds: capped,
    estimate: planned ? planned.seconds : null,
    start: performance.now(), lastAt: performance.now(), state: "running"};
  S.analysis = run;
  const section = $("analysis");
  section.classList.remove("hidden");
  const decisions = [];
  const summaries = [];
  S.lastAnalysis = {decisions, summaries, run};
  renderAnalysis(decisions, summaries, run);
  showProgress(run);
  if (section.scrollIntoView) section.scrollIntoView({behavior: "smooth", block: "start"});
  const body = Object.assign(analysisBody(source, seats, iterations, worlds), {language: S.lang});
  try {
    await apiStream("/v1/analyze", body, (item) => {
      if (S.analysis !== run) return;       // cancelled meanwhile: show no more of it
      if (item.decision) decisions.push(item.decision);
      if (item.summary) summaries.push(item.summary);
      run.done = item.done || 0;
      run.total = item.total || run.total;
      run.lastAt = performance.now();
      renderAnalysis(decisions, summaries, run);
      showProgress(run);
    }, run.controller.signal);
    if (S.analysis !== run) return;
    run.state = "done";
    renderAnalysis(decisions, summaries, run);
    showProgress(run);
    analysisPlan();
  } catch (e) {
    if (S.analysis !== run) return;         // cancelled: said so already
    run.state = "failed";
    showProgress(run);
    say(e instanceof ApiError ? fieldText(e) : e.message, "error");
  } finally {
    if (S.analysis === run) S.analysis = null;
  }
}

// Each mark's count among `decisions` (the summary's `marks` keys: "best", "mistake", ...).
function countMarks(decisions) {
  const marks = {};
  for (const d of decisions) {
    const key = (d.mark || "MARK_UNCLEAR").slice(5).toLowerCase();
    marks[key] = (marks[key] || 0) + 1;
  }
  return marks;
}

function renderLegend() {
  const box = clear($("legend"));
  for (const mark of MARKS) {
    box.append(el("span", {class: "legend-item"}, el("span", {class: "dot " + MARK_CLASS[mark]}), t(mark)));
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// One seat's losses: a bar per decision (its mark's colour, a dot on top) and the cumulative
// loss as a line, over the move numbers of the game.
// The top of the loss scale, one for every seat's graph: the largest loss or cumulative loss
// of any seat (so that two seats' graphs compare at a glance).
function lossTop(decisions) {
  let top = 0.1;
  const cum = {};
  for (const d of [...decisions].sort((a, b) => (a.index || 0) - (b.index || 0))) {
    const seat = d.seat || 0;
    cum[seat] = (cum[seat] || 0) + (d.loss || 0);
    top = Math.max(top, d.loss || 0, cum[seat]);
  }
  return top;
}

function lossGraph(seat, decisions, totalMoves, top) {
  const W = 640, H = 160, L = 44, R = 12, T = 12, B = 26;
  const xs = (i) => L + (totalMoves <= 1 ? 0 : (i / (totalMoves - 1)) * (W - L - R));
  let cum = 0;
  const cumulative = decisions.map((d) => (cum += d.loss || 0));
  const ys = (v) => T + (1 - v / top) * (H - T - B);
  const g = svg("svg", {viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img",
    "aria-label": t("seat") + " " + seat, "data-seat": seat, "data-top": top.toFixed(2)});
  g.append(svg("line", {x1: L, y1: ys(0), x2: W - R, y2: ys(0), class: "axis"}));
  g.append(svg("line", {x1: L, y1: T, x2: L, y2: H - B, class: "axis"}));
  for (const v of [0, top / 2, top]) {
    g.append(svg("text", {x: L - 4, y: ys(v) + 4, class: "tick", "text-anchor": "end"}, v.toFixed(2)));
  }
  g.append(svg("text", {x: W - R, y: H - 6, class: "tick", "text-anchor": "end"},
    t("move_no") + " 0–" + Math.max(0, totalMoves - 1)));
  decisions.forEach((d) => {
    const x = xs(d.index || 0);
    const cls = MARK_CLASS[d.mark] || "unclear";
    if ((d.loss || 0) > 0) g.append(svg("line", {x1: x, y1: ys(0), x2: x, y2: ys(d.loss), class: "bar " + cls}));
    const dot = svg("circle", {cx: x, cy: ys(d.loss || 0), r: d.forced ? 2 : 3.5, class: "mark " + cls,
      "data-mark": d.mark || "", "data-index": d.index || 0});
    dot.append(svg("title", {}, `#${d.index || 0} ${moveWords(d.played)}: ${t(d.mark || "MARK_UNCLEAR")}, ${t("loss")} ${(d.loss || 0).toFixed(2)}`));
    g.append(dot);
  });
  if (decisions.length > 1) {
    const pts = decisions.map((d, i) => xs(d.index || 0).toFixed(1) + "," + ys(cumulative[i]).toFixed(1)).join(" ");
    g.append(svg("polyline", {points: pts, class: "cumulative"}));
  }
  return g;
}

// The judged decisions so far: a graph per seat, its summary (or its marks so far while the
// analysis runs), and the mistakes.
function renderAnalysis(decisions, summaries, run) {
  const complete = run.state === "done";
  renderLegend();
  const graphs = clear($("graphs"));
  // the graph spans the whole game (the analyzed record's moves), not only the judged seats'
  const source = S.reviewRecord || S.record;
  const gameMoves = source && Array.isArray(source.moves) ? source.moves.length : 0;
  const totalMoves = Math.max(1, gameMoves, ...decisions.map((d) => (d.index || 0) + 1));
  const seats = [...new Set(decisions.map((d) => d.seat || 0))].sort((a, b) => a - b);
  const top = lossTop(decisions);
  $("loss-help").textContent = t("loss_help") + (seats.length > 1 ? " " + t("scale", {top: top.toFixed(2)}) + "." : "");
  for (const seat of seats) {
    const mine = decisions.filter((d) => (d.seat || 0) === seat).sort((a, b) => (a.index || 0) - (b.index || 0));
    const sum = summaries.find((s) => (s.seat || 0) === seat);
    const marks = sum ? (sum.marks || {}) : countMarks(mine);
    const markText = MARKS.filter((m) => marks[m.slice(5).toLowerCase()] || marks[m])
      .map((m) => `${t(m)} ${marks[m.slice(5).toLowerCase()] || marks[m]}`).join(", ");
    const label = (S.record && seat === S.human && !S.reviewRecord ? t("you") + " – " : "") + t("seat") + " " + seat;
    // the seat's summary once the server sent it; until then, what is judged so far
    // the loss beside the deal's result, each saying what it is
    const line = sum
      ? `${t("accuracy")} ${Math.round((sum.accuracy || 0) * 100)}% · ${t("total_loss")} ${(sum.total_loss || 0).toFixed(2)} (${t("loss_note")}) · ${sum.decisions || mine.length} ${t("decisions")}` +
        (sum.payoff !== undefined ? ` · ${t("result_note")} ${num(sum.payoff)}` : "")
      : t("judged_so_far", {n: mine.length});
    graphs.append(el("div", {class: "seat-analysis"},
      el("h4", {}, label),
      el("p", {class: "muted" + (sum ? " summary" : " partial")}, line + (markText ? " · " + markText : "")),
      lossGraph(seat, mine, totalMoves, top)));
  }
  const list = clear($("mistakes"));
  const bad = decisions.filter((d) => d.mark === "MARK_MISTAKE" || d.mark === "MARK_BLUNDER")
    .sort((a, b) => (a.index || 0) - (b.index || 0));
  if (!bad.length && (complete || decisions.length)) {
    list.append(el("li", {class: "muted"}, t(complete ? "no_mistakes" : "no_mistakes_yet")));
  }
  for (const d of bad) {
    const range = d.loss_high !== undefined ? ` [${(d.loss_low || 0).toFixed(2)}, ${d.loss_high.toFixed(2)}]` : "";
    list.append(el("li", {class: MARK_CLASS[d.mark]},
      `#${d.index || 0} ${t("seat")} ${d.seat || 0} (${t(d.mark)}): ${t("played")} `, d.played ? moveView(d.played) : "?",
      ` → ${t("better")} `, d.best ? moveView(d.best) : "?",
      ` · ${t("loss")} ${(d.loss || 0).toFixed(2)}${range}`));
  }
}

// The analysis' cap of sampled deals per decision (`max_worlds`) from its field; 0 (empty): the
// server's default for the game.  The server checks the number and names `max_worlds`.
function worldCap(input) {
  const text = input.value.trim();
  return text === "" ? 0 : Number(text);
}

// The search budget per decision of an analysis from its field ("analyze" or "review").
function analysisIterations(which) {
  return Math.max(10, Math.min(5000, Number($(which + "-iterations").value) || 100));
}

async function analyzeGame() {
  const which = $("analyze-seats").value;
  const seats = which === "all" ? [] : [S.human];
  const iterations = analysisIterations("analyze");
  S.reviewRecord = null;
  await analyze({record: finishedRecord()}, seats, iterations, worldCap($("analyze-worlds")));
}

async function reviewAnalyze() {
  const text = $("record-text").value.trim();
  if (!text) {
    say(t("empty_record"), "warn");
    return;
  }
  let obj;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    say(t("bad_json", {m: e.message}), "error");
    return;
  }
  const isView = obj && (obj.format === "quansu-view/1" || (obj.format !== "quansu-record/1" && "seat" in obj));
  const source = isView ? {view: obj} : {record: obj};
  try {
    // the referee first: a bad record names its field (the reason in the page's language)
    await api("/v1/legal-moves", Object.assign({language: S.lang}, source));
  } catch (e) {
    say(e instanceof ApiError ? fieldText(e) : e.message, "error");
    return;
  }
  S.reviewRecord = obj;
  await analyze(source, [], analysisIterations("review"), worldCap($("review-worlds")));
}

function readFile(ev) {
  const file = ev.target.files && ev.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { $("record-text").value = String(reader.result); analysisPlan(); };
  reader.readAsText(file);
}

// ---------------------------------------------------------------------------------------------
// language and tabs

function applyLanguage() {
  document.documentElement.lang = S.lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  $("lang").textContent = S.lang === "vi" ? "EN" : "VI";
  levelOptions();
  if (S.record && S.table) renderTable();
  if (S.finalTable && S.record) gameOver(S.finalTable);
  if (S.record && S.table) refreshTable();   // the moves' names, from the server
  worldPlaceholders();
  analysisPlan();
  if (S.lastAnalysis) {
    const a = S.lastAnalysis;
    renderAnalysis(a.decisions, a.summaries, a.run);
    showProgress(a.run, true);
  }
}

// The world-cap fields show the default they leave to the server: the game's (GameInfo's
// `analysis_worlds`, the server's own default when it sets one) in Play, "game default" in
// Review (the pasted game is not known yet).
function worldPlaceholders() {
  const name = S.record ? S.record.game : $("game").value;
  const info = S.games.find((g) => g.name === name);
  $("analyze-worlds").placeholder = info && info.analysis_worlds ? String(info.analysis_worlds)
    : t("worlds_default");
  $("review-worlds").placeholder = t("worlds_default");
}

function setLanguage(lang) {
  S.lang = lang === "vi" ? "vi" : "en";
  try { localStorage.setItem("quansu.lang", S.lang); } catch (e) { /* private mode */ }
  applyLanguage();
}

function showTab(name) {
  $("view-play").classList.toggle("hidden", name !== "play");
  $("view-review").classList.toggle("hidden", name !== "review");
  $("tab-play").classList.toggle("active", name === "play");
  $("tab-review").classList.toggle("active", name === "review");
}

function init() {
  let lang = null;
  try { lang = localStorage.getItem("quansu.lang"); } catch (e) { lang = null; }
  S.lang = lang || ((navigator.language || "").toLowerCase().startsWith("vi") ? "vi" : "en");
  try { $("token").value = sessionStorage.getItem("quansu.token") || ""; } catch (e) { /* none */ }
  $("token").addEventListener("change", () => {
    try { sessionStorage.setItem("quansu.token", $("token").value.trim()); } catch (e) { /* none */ }
    loadGames();
  });
  $("lang").addEventListener("click", () => setLanguage(S.lang === "vi" ? "en" : "vi"));
  $("tab-play").addEventListener("click", () => showTab("play"));
  $("tab-review").addEventListener("click", () => showTab("review"));
  $("game").addEventListener("change", onGameChange);
  $("players").addEventListener("change", onPlayersChange);
  $("setup").addEventListener("submit", newGame);
  $("play-selected").addEventListener("click", playSelected);
  $("clear-selected").addEventListener("click", () => {
    S.selected.clear();
    for (const c of $("hand").querySelectorAll(".selected")) c.classList.remove("selected");
    renderLegal(S.legal);
  });
  $("hint").addEventListener("click", hint);
  $("resign").addEventListener("click", resign);
  $("hint-details").addEventListener("change", () => {
    $("hint-table").classList.toggle("show-details", $("hint-details").checked);
  });
  try { $("autoplay").checked = localStorage.getItem("quansu.autoplay") !== "off"; } catch (e) { /* none */ }
  $("autoplay").addEventListener("change", () => {
    try { localStorage.setItem("quansu.autoplay", $("autoplay").checked ? "on" : "off"); } catch (e) { /* none */ }
    // turned on while a lone move waits for a click: it plays now
    if ($("autoplay").checked && !S.busy && !S.terminal && !S.resigned && S.toAct === S.human &&
        S.legal.length === 1) {
      const only = S.legal[0];
      S.autoPlayed.push(only);
      S.record.moves.push({seat: S.human, move: only.text});
      advance(S.runId);
    }
  });
  for (const id of ["analyze-seats", "analyze-worlds", "review-worlds", "record-text",
    "analyze-iterations", "review-iterations"]) {
    $(id).addEventListener("input", analysisPlan);
    $(id).addEventListener("change", analysisPlan);
  }
  $("analyze-game").addEventListener("click", analyzeGame);
  $("cancel-analysis").addEventListener("click", () => cancelAnalysis(false));
  $("download").addEventListener("click", download);
  $("review-analyze").addEventListener("click", reviewAnalyze);
  $("record-file").addEventListener("change", readFile);
  applyLanguage();
  loadGames();
}

document.addEventListener("DOMContentLoaded", init);
