// The hupai browser table: plain JavaScript, no build step. It shows one seat's state as the server sends it
// (the seat's observation: nothing of the other hands) and sends the seat's chosen action; at /watch/{id} it
// shows a spectator's state (no seat: every hand face down) and sends nothing.
"use strict";

const $ = (id) => document.getElementById(id);
const make = (tag, props = {}, ...children) => {
  const element = Object.assign(document.createElement(tag), props);
  for (const child of children) if (child !== null && child !== undefined) element.append(child);
  return element;
};
const WINDS = ["东", "南", "西", "北"];
const NUMBERS = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
const BIG = ["壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖", "拾"];
const SUITS = { m: "万", p: "筒", s: "条" };
const HONORS = ["东", "南", "西", "北", "白", "发", "中"];
// Action kinds as a player reads them; the flags of declarations (亮倒, 游金, ...) as the rule systems name them.
const KINDS = { discard: "打 discard", chow: "吃 chow", pung: "碰 pung", kong: "杠 kong", win: "胡 win",
  pass: "过 pass", declare: "declare", liu: "溜 liu", piao: "飘 piao", wai: "歪 wai" };
const FLAGS = { liangdao: "亮倒 declare ready", you_jin: "游金 swimming gold", qiang_jin: "抢金 rob the gold",
  ming_gang: "明杠 exposed kong", tianhu: "天胡 heavenly hand", concealed: "暗杠 concealed kong",
  added: "补杠 added kong", exposed: "明杠 exposed kong" };
const POSITIONS = { 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };

let faces = [];         // faces[kind] = [glyph, notation], for the table's rules
let names = {};         // pattern name -> {zh, en}, from the rule package's tables
let unit = "";          // what a pattern's value counts: "番", "×" (a factor) or "" (an amount)
let session = null;     // {table, seat, token}; a spectator has {table, watch: true}
let socket = null;
let state = null;       // the latest state message
let previous = null;    // the one before: who discarded last
let lastDiscard = null; // {seat, index}
let sent = null;        // the decision an action was sent for (buttons stay off until the next one)
let timerEnd = 0;
let timerBank = 0;
let timerSeat = null;
let replaced = false;   // another device took the seat over: no reconnecting until asked

const label = (kind) => (kind >= 0 && kind < faces.length ? faces[kind][1] : "?");

// The JSON contract (schema version 2) writes tiles in notation ("5m", "d3") and null for none; the page works
// on kinds (faces[kind]), so an observation is turned into kinds once, as it arrives. The server accepts both.
function kindOf(value) {
  if (value === null || value === undefined) return -1;
  if (typeof value === "number") return value;
  return faces.findIndex((f) => f[1] === value);
}

function meldKinds(meld) {
  if (Array.isArray(meld)) return meld;
  return [meld.type, meld.tiles.map(kindOf), meld.concealed, meld.claimed_from ?? -1, meld.added, kindOf(meld.claimed_tile)];
}

function actionKinds(action) {
  const out = { ...action };
  if (action.tile !== undefined) out.tile = kindOf(action.tile);
  if (action.tiles) out.tiles = action.tiles.map(kindOf);
  return out;
}

function observationKinds(obs) {
  const result = obs.result && {
    ...obs.result,
    wins: obs.result.wins.map((win) => ({
      ...win, tile: kindOf(win.tile), hand: win.hand.map(kindOf), melds: win.melds.map(meldKinds),
      discarder: win.discarder ?? -1, liable: win.liable ?? -1,
      patterns: win.patterns.map((p) => (Array.isArray(p) ? p : [p.name, p.value]))})),
  };
  return {
    ...obs, seat: obs.seat ?? null, tile: kindOf(obs.tile), drawn: kindOf(obs.drawn), source: obs.source ?? -1,
    hand: (obs.hand || []).map(kindOf), melds: obs.melds.map((melds) => melds.map(meldKinds)),
    discards: obs.discards.map((d) => d.map(kindOf)), legal_actions: (obs.legal_actions || []).map(actionKinds), result,
  };
}

// A tile as a card in styled text: 五 over 万, 东, 中 in red, a Wai Huzi card 七 over 小 (its red cards red), with
// the notation beneath for the hand's tiles.
function faceOf(kind) {
  const text = label(kind);
  const mahjong = /^([1-9])([mpsz])$/.exec(text);
  if (mahjong) {
    const n = +mahjong[1];
    if (mahjong[2] === "z") return { top: HONORS[n - 1] || "?", bottom: "", cls: "z z" + n };
    return { top: NUMBERS[n - 1], bottom: SUITS[mahjong[2]], cls: mahjong[2] };
  }
  const card = /^([xd])(10|[1-9])$/.exec(text);
  if (card) {
    const n = +card[2];
    return { top: (card[1] === "x" ? NUMBERS : BIG)[n - 1], bottom: card[1] === "x" ? "小" : "大",
      cls: card[1] + ([2, 7, 10].includes(n) ? " red" : "") };
  }
  return { top: "?", bottom: "", cls: "" };
}

function dress(element, kind) {
  const f = faceOf(kind);
  element.replaceChildren(make("b", { textContent: f.top }), make("i", { textContent: f.bottom }),
    make("small", { textContent: label(kind) }));
  element.className += " " + f.cls;
  element.title = label(kind) + " " + f.top + f.bottom;
  element.setAttribute("aria-label", element.title);
  element.dataset.kind = kind;
  element.dataset.tile = label(kind);
  return element;
}

function tile(kind, cls = "") { return dress(make("span", { className: "tile " + cls }), kind); }

function backs(count, cls = "small") {
  const box = make("span", { className: "backs" });
  for (let i = 0; i < count; i++) box.append(make("span", { className: "tile back " + cls, title: "a hidden tile" }));
  return box;
}

function meldView(meld, cls = "small") {
  const [type, tiles, concealed, from, , claimed] = meld;
  const box = make("span", { className: "meld", title: type + (concealed ? " (concealed)" : "") });
  if (!tiles.length) { box.append(backs(4, cls)); return box; }
  const shown = type === "kong" ? [tiles[0], tiles[0], tiles[0], tiles[0]] : type === "pung" ? [tiles[0], tiles[0], tiles[0]] : tiles;
  let marked = false;
  for (const kind of shown) {
    const t = tile(kind, cls);
    if (!marked && from >= 0 && kind === claimed) { t.classList.add("claimed"); marked = true; }
    box.append(t);
  }
  return box;
}

function describe(action) {
  const parts = [];
  if (action.flag && FLAGS[action.flag] && !(action.kind === "kong" && action.flag === "exposed")) {
    parts.push(action.kind === "discard" ? FLAGS[action.flag] + " · 打" : FLAGS[action.flag]);
  } else parts.push(KINDS[action.kind] || action.kind);
  if (action.tiles && action.tiles.length) parts.push(action.tiles.map(label).join(" "));
  else if (action.tile !== undefined && action.tile >= 0) parts.push(label(action.tile));
  return parts.join(" ");
}

async function api(path, options = {}) {
  const response = await fetch(path, { headers: { "content-type": "application/json" }, ...options });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || response.statusText);
  return data;
}

async function lobby() {
  const { rules } = await api("/api/rules");
  const select = $("rules");
  for (const r of rules.filter((r) => r.playable)) select.append(make("option", { value: r.name, textContent: `${r.name} (${r.num_players} seats)` }));
  const { tables } = await api("/api/tables");
  for (const t of tables) {
    if (t.status === "broken" || t.status === "match_over") continue;
    const free = t.seats.filter((s) => !s.bot && !s.taken).map((s) => s.seat);
    const item = make("li", {}, make("a", { href: free.length ? `/t/${t.id}` : `/watch/${t.id}`,
      textContent: `${t.config.rules} table ${t.id}` + (free.length ? "" : " (watch)") }));
    $("tables").append(item);
  }
  $("create").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = select.value;
    const n = rules.find((r) => r.name === name).num_players;
    const table = await api("/api/tables", { method: "POST", body: JSON.stringify({
      rules: name, bots: [...Array(n).keys()].slice(1), think_ms: +$("think").value, hands: +$("hands").value,
      claim_seconds: +$("claim").value, turn_seconds: +$("turn").value, bank_seconds: +$("bank").value }) });
    location.href = `/t/${table.id}`;
  });
}

// A seat link (/t/{table}#seat=..&token=..): the token lives in the URL fragment, which the browser never sends;
// it is kept for this tab and taken off the address bar at once.
function fromLink(tableId) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.get("token")) return null;
  history.replaceState(null, "", location.pathname);
  return { table: tableId, seat: +fragment.get("seat"), token: fragment.get("token") };
}

async function copySeatLink() {
  const box = $("seat-link");
  box.value = `${location.origin}/t/${session.table}#seat=${session.seat}&token=${encodeURIComponent(session.token)}`;
  box.hidden = false;
  box.select();
  try { await navigator.clipboard.writeText(box.value); $("message").textContent = "Seat link copied: open it on your other device (keep it secret: it opens your seat)."; }
  catch (e) { $("message").textContent = "Copy the seat link shown (keep it secret: it opens your seat)."; }
}

async function open(tableId) {
  const info = await api(`/api/tables/${tableId}`);
  faces = info.faces;
  names = info.patterns || {};
  unit = info.pattern_unit || "";
  $("lobby").hidden = true;
  $("table").hidden = false;
}

async function sit(tableId, seat) {
  const key = `hupai:${tableId}`;
  session = fromLink(tableId) || JSON.parse(sessionStorage.getItem(key) || "null");
  if (session) sessionStorage.setItem(key, JSON.stringify(session));
  else {
    const joined = await api(`/api/tables/${tableId}/join`, { method: "POST", body: JSON.stringify(seat === null ? {} : { seat }) });
    session = { table: tableId, seat: joined.seat, token: joined.token };
    sessionStorage.setItem(key, JSON.stringify(session));
  }
  await open(tableId);
  $("autopass").checked = sessionStorage.getItem(key + ":autopass") === "1";
  $("autopass").onchange = () => { sessionStorage.setItem(key + ":autopass", $("autopass").checked ? "1" : "0"); if (state) render(); };
  connect();
}

async function watch(tableId) {
  session = { table: tableId, watch: true };
  document.body.classList.add("watching");
  await open(tableId);
  $("links").hidden = true;
  $("mine").hidden = true;
  try { receive(await api(`/api/tables/${tableId}/watch`)); } catch (e) { $("message").textContent = e.message; }
  connect();
}

function receive(message) {
  if (message.type !== "state") return;
  if (state && state.hand === message.hand) previous = state;
  else { previous = null; lastDiscard = null; }
  state = { ...message, observation: observationKinds(message.observation) };
  render();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/ws`);
  socket.onopen = () => socket.send(JSON.stringify(session.watch ? { type: "hello", table: session.table, watch: true }
    : { type: "hello", table: session.table, token: session.token }));
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") receive(message);
    else if (message.type === "error") {
      if (message.code === "replaced") { replaced = true; $("here").hidden = false; }
      $("message").textContent = message.message; sent = null; if (state) render();
    }
  };
  socket.onclose = () => {
    if (replaced) { $("status").textContent = "this seat is open on another device"; return; }
    $("status").textContent = "disconnected: reconnecting"; setTimeout(connect, 1500);
  };
}

function playHere() { replaced = false; $("here").hidden = true; $("message").textContent = ""; connect(); }

function send(action) {
  if (session.watch) return;
  sent = state.decision;
  $("message").textContent = "";
  socket.send(JSON.stringify({ type: "action", decision: state.decision, action }));
  render();
}

// The seat at the bottom: one's own, or seat 0 for a spectator; the others around the square in turn order.
function bottomSeat(obs) { return obs.seat === null || obs.seat === undefined ? 0 : obs.seat; }
function seatName(seat) {
  const obs = state.observation;
  if (seat === obs.seat) return "You";
  return `Seat ${seat}` + (state.bots.includes(seat) ? " (bot)" : "");
}

// The discard made last: the tile on offer, else the seat whose discards grew since the previous state.
function findLastDiscard(obs) {
  if (obs.tile >= 0 && obs.source >= 0 && obs.discards[obs.source] && obs.discards[obs.source].at(-1) === obs.tile) {
    return { seat: obs.source, index: obs.discards[obs.source].length - 1 };
  }
  if (previous) {
    const before = previous.observation.discards;
    for (let seat = 0; seat < obs.discards.length; seat++) {
      if (obs.discards[seat].length > (before[seat] || []).length) return { seat, index: obs.discards[seat].length - 1 };
    }
  }
  if (lastDiscard && obs.discards[lastDiscard.seat] && obs.discards[lastDiscard.seat].length === lastDiscard.index + 1) return lastDiscard;
  return null;
}

function badge(text, cls = "", title = "") { return make("span", { className: "badge " + cls, textContent: text, title }); }

function renderSeats(obs, facts) {
  const box = $("seats");
  box.replaceChildren();
  const n = obs.hand_sizes.length;
  const bottom = bottomSeat(obs);
  const zipai = obs.kinds === 20;
  box.className = "seats-" + n;
  for (let seat = 0; seat < n; seat++) {
    const position = POSITIONS[n] ? POSITIONS[n][(seat - bottom + n) % n] : "top";
    const acting = obs.to_act.includes(seat) && state.status === "playing";
    const div = make("div", { className: `seat ${position}` + (acting ? " acting" : "") });
    div.dataset.seat = seat;
    div.dataset.position = position;
    const head = make("div", { className: "seat-head" },
      make("strong", { textContent: seatName(seat) }),
      zipai ? null : make("span", { className: "wind", textContent: WINDS[obs.seat_winds[seat]], title: "seat wind" }),
      seat === obs.dealer ? badge("庄 dealer", "dealer") : null,
      make("span", { className: "score", textContent: String(state.scores[seat]), title: "match score" }));
    if (acting) head.append(badge(obs.phase === "claim" || obs.phase === "rob" ? "claim?" : "to play", "turn"));
    if ((state.auto || []).includes(seat)) head.append(badge("auto", "auto", "away: the server's bot plays this seat until it comes back"));
    const own = facts.filter((f) => f.seat === seat);
    for (const fact of own) head.append(badge(fact.zh, "fact", `${fact.en}: ${fact.text}`));
    div.append(head);
    if (seat !== obs.seat) {
      // Another seat's hand: face down, except the tiles a rule shows face up (亮倒), drawn once.
      const shown = own.filter((f) => f.hand).flatMap((f) => f.tiles.map(kindOf));
      const hand = make("div", { className: "hand-row" });
      for (const kind of shown) hand.append(tile(kind, "small shown"));
      hand.append(backs(Math.max(0, obs.hand_sizes[seat] - shown.length)));
      hand.dataset.count = obs.hand_sizes[seat];
      div.append(hand);
    }
    const melds = make("div", { className: "melds" });
    for (const meld of obs.melds[seat]) melds.append(meldView(meld));
    div.append(melds);
    const discards = make("div", { className: "discards" });
    obs.discards[seat].forEach((kind, index) => {
      const t = tile(kind, "small");
      if (lastDiscard && lastDiscard.seat === seat && lastDiscard.index === index) { t.classList.add("last"); t.title += " (last discard)"; }
      discards.append(t);
    });
    div.append(discards);
    box.append(div);
  }
}

function renderCenter(obs, facts, mine) {
  const turn = $("turn");
  const who = obs.to_act.map((s) => (s === obs.seat ? "you" : `seat ${s}`)).join(", ");
  turn.textContent = state.status === "playing" ? (mine ? "Your move" : `Waiting for ${who}`) + ` · ${obs.phase}`
    : state.status === "hand_over" ? "Hand over" : state.status === "match_over" ? "Match over" : state.status;
  const offer = $("offer");
  offer.replaceChildren();
  if (obs.tile >= 0 && state.status === "playing") offer.append("On offer ", tile(obs.tile), obs.source >= 0 ? ` from seat ${obs.source}` : "");
  const list = $("facts");
  list.replaceChildren();
  for (const fact of facts) {
    const value = make("dd", {});
    // A shown hand (亮倒) is drawn once, in front of its seat; here only its words.
    if (!fact.hand) for (const kind of fact.tiles.map(kindOf)) value.append(tile(kind, "small"));
    value.append(" " + fact.text);
    list.append(make("dt", { title: fact.en }, make("span", { className: "zh", textContent: fact.zh }), " ",
      make("span", { className: "en", textContent: fact.en })), value);
  }
}

function renderIndicators(obs) {
  const box = $("indicators");
  const hand = `hand ${state.hand + 1}/${state.hands}`;
  const round = obs.kinds === 20 ? "" : ` · ${WINDS[obs.round_wind]} round`;
  box.replaceChildren(make("span", { className: "indicator", textContent: `${obs.rules} · ${hand}${round}` }),
    make("span", { className: "indicator wall", textContent: `wall ${obs.wall_left}`, title: "tiles left to draw" }));
}

function renderMine(obs, live) {
  const hand = $("hand");
  hand.replaceChildren();
  const legal = obs.legal_actions;
  const discards = new Map();
  legal.forEach((a) => { if (a.kind === "discard" && !a.flag && !discards.has(a.tile)) discards.set(a.tile, a); });
  const kinds = [...obs.hand].sort((a, b) => a - b);
  if (obs.drawn >= 0 && kinds.includes(obs.drawn)) kinds.splice(kinds.indexOf(obs.drawn), 1);
  const order = obs.drawn >= 0 && obs.hand.includes(obs.drawn) ? [...kinds, obs.drawn] : kinds;
  const golds = new Set(((state.facts || []).find((f) => f.zh === "金") || { tiles: [] }).tiles.map(kindOf));
  order.forEach((kind, index) => {
    const button = dress(make("button", { className: "tile", type: "button" }), kind);
    if (obs.drawn >= 0 && index === order.length - 1 && order.length !== kinds.length) button.classList.add("drawn");
    if (golds.has(kind)) button.classList.add("gold");
    const action = discards.get(kind);
    button.disabled = !(live && action);
    if (action) { button.classList.add("playable"); button.onclick = () => send(action); }
    hand.append(button);
  });
}

function renderActions(obs, live) {
  const box = $("actions");
  box.replaceChildren();
  obs.legal_actions.forEach((action, index) => {
    if (action.kind === "discard" && !action.flag) return;  // a plain discard: click the tile
    const button = make("button", { type: "button", textContent: describe(action), className: "action " + action.kind });
    button.dataset.index = index;
    button.dataset.kind = action.kind;
    if (action.flag) button.dataset.flag = action.flag;
    button.disabled = !live;
    button.onclick = () => send(action);
    box.append(button);
  });
}

// Auto-pass: a claim offer (every legal action a claim or pass, a pass among them) is answered pass at once.
function autoPass(obs, live) {
  if (!live || !$("autopass").checked) return false;
  const pass = obs.legal_actions.find((a) => a.kind === "pass");
  // Never a 胡 (a win is the player's own call) nor a turn's choice (a discard, a declaration).
  if (!pass || obs.legal_actions.some((a) => ["discard", "declare", "win"].includes(a.kind))) return false;
  send(pass);
  return true;
}

function patternName(name) {
  const entry = names[name];
  return entry ? `${entry.zh} ${entry.en}` : name;
}

function renderResult(obs) {
  const box = $("result");
  if (!obs.result) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren();
  const r = obs.result;
  box.append(make("h2", { textContent: r.drawn ? "流局 Drawn hand" : `胡 Won by ${r.winners.map(seatName).join(", ")}` }));
  for (const win of r.wins) {
    const p = make("div", { className: "win" });
    p.append(`${seatName(win.seat)} won on `, tile(win.tile, "small"),
      ` (${win.source}${win.discarder >= 0 ? " from seat " + win.discarder : ""})`);
    const list = make("ul", { className: "patterns" });
    for (const [name, value] of win.patterns) {
      list.append(make("li", { textContent: `${patternName(name)} ` + (unit === "×" ? `×${value}` : unit ? `${value} ${unit}` : `${value}`) }));
    }
    p.append(list, make("div", { textContent: `Value ${win.value}` }));
    const hand = make("div", { className: "hand-row" });
    for (const kind of win.hand) hand.append(tile(kind, "small"));
    for (const meld of win.melds) hand.append(meldView(meld));
    p.append(hand);
    box.append(p);
  }
  box.append(make("div", { textContent: "Payments: " + r.payments.map((v, s) => `${seatName(s)} ${v > 0 ? "+" : ""}${v}`).join(", ") }));
  if (state.status === "hand_over" && !session.watch) {
    const next = make("button", { id: "next", type: "button", textContent: state.ready.includes(obs.seat) ? "Waiting for the others" : "Next hand" });
    next.disabled = state.ready.includes(obs.seat);
    next.onclick = () => socket.send(JSON.stringify({ type: "next" }));
    box.append(next);
  } else if (state.status === "match_over") {
    box.append(make("strong", { id: "match-over", textContent: "Match over" }));
  }
}

function renderScores() {
  const table = make("table", { className: "scores" });
  const row = (cells, tag) => { const tr = make("tr"); for (const c of cells) tr.append(make(tag, { textContent: c })); return tr; };
  table.append(row(["", ...state.scores.map((_, s) => seatName(s))], "th"));
  table.append(row(["match score", ...state.scores.map(String)], "td"));
  $("scores").replaceChildren(table);
}

function render() {
  const obs = state.observation;
  const facts = (state.facts || []).map((f) => ({ ...f, tiles: f.tiles || [] }));
  const mine = !session.watch && state.decision !== null && state.decision !== undefined;
  const live = mine && sent !== state.decision && state.status === "playing";
  lastDiscard = findLastDiscard(obs);
  $("status").textContent = (session.watch ? "watching · " : "") + `${obs.rules} · table ${state.table} · ${state.status}` +
    (mine && state.status === "playing" ? " · your move" : "");
  renderIndicators(obs);
  renderSeats(obs, facts);
  renderCenter(obs, facts, mine);
  if (!session.watch) {
    if (autoPass(obs, live)) return;
    renderMine(obs, live);
    renderActions(obs, live);
  }
  renderResult(obs);
  renderScores();
  $("auto").hidden = session.watch || !(state.auto || []).includes(obs.seat);
  // A seat's timer (deadline and bank), or for a spectator the first running timer among the seats'.
  const timer = session.watch ? (state.timers || [])[0] : { deadline: state.deadline, bank: state.bank };
  timerEnd = timer && timer.deadline !== null && timer.deadline !== undefined ? performance.now() + timer.deadline * 1000 : 0;
  timerBank = timer && timer.bank ? timer.bank : 0;
  timerSeat = timer && timer.seat !== undefined ? timer.seat : null;
  tick();
}

function tick() {
  const box = $("timer");
  if (!timerEnd || !state) { box.hidden = true; return; }
  const left = Math.max(0, (timerEnd - performance.now()) / 1000);
  const bank = timerBank;
  box.hidden = false;
  if (state.status === "hand_over") { box.textContent = `Next hand in ${left.toFixed(0)} s`; return; }
  const claim = ["claim", "rob"].includes(state.observation.phase);
  const kind = session.watch ? `Seat ${timerSeat}` : claim ? "Claim window" : "Your move";
  box.classList.toggle("bank", left <= bank);
  box.textContent = left > bank ? `${kind}: ${(left - bank).toFixed(0)} s` + (bank ? ` (+ ${bank.toFixed(0)} s bank)` : "")
    : `${kind}: ${left.toFixed(0)} s of the bank left (then the server's bot plays)`;
}
setInterval(tick, 250);

$("copy-link").onclick = copySeatLink;
$("take-back").onclick = () => socket.send(JSON.stringify({ type: "back" }));
$("here").onclick = playHere;
const params = new URLSearchParams(location.search);
const seatPath = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
const watchPath = location.pathname.match(/^\/watch\/([A-Za-z0-9_-]+)$/);
const failed = (e) => { $("message").textContent = e.message; };
if (watchPath || params.has("watch")) watch(watchPath ? watchPath[1] : params.get("watch")).catch(failed);
else if (seatPath || params.get("table")) sit(seatPath ? seatPath[1] : params.get("table"), params.has("seat") ? +params.get("seat") : null).catch(failed);
else lobby().catch(failed);
