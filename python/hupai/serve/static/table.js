// The hupai browser table: plain JavaScript, no build step. It shows one seat's state as the server sends it
// (the seat's observation: nothing of the other hands) and sends the seat's chosen action.
"use strict";

const $ = (id) => document.getElementById(id);
const WINDS = ["东", "南", "西", "北"];
let faces = [];         // the tile face of each kind, for the table's rules
let session = null;     // {table, seat, token}
let socket = null;
let state = null;       // the latest state message
let sent = null;        // the decision an action was sent for (buttons stay off until the next one)
let timerEnd = 0;
let replaced = false;   // another device took the seat over: no reconnecting until asked

// faces[kind] = [glyph, notation]: the glyph drawn large, the notation small beneath it.
function face(kind) { return kind >= 0 && kind < faces.length ? faces[kind][0] : "?"; }
function label(kind) { return kind >= 0 && kind < faces.length ? faces[kind][1] : "?"; }

// The JSON contract (schema version 2) writes tiles in notation ("5m") and null for none; the page works on kinds
// (faces[kind]), so an observation is turned into kinds once, as it arrives. The server accepts kinds back.
function kindOf(value) {
  if (value === null || value === undefined) return -1;
  if (typeof value === "number") return value;
  const kind = faces.findIndex((f) => f[1] === value);
  return kind;
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
    ...obs, tile: kindOf(obs.tile), drawn: kindOf(obs.drawn), source: obs.source ?? -1, hand: obs.hand.map(kindOf),
    melds: obs.melds.map((melds) => melds.map(meldKinds)), discards: obs.discards.map((d) => d.map(kindOf)),
    legal_actions: obs.legal_actions.map(actionKinds), result,
  };
}

function dress(element, kind) {
  element.replaceChildren(Object.assign(document.createElement("span"), { className: "glyph", textContent: face(kind) }),
    Object.assign(document.createElement("small"), { textContent: label(kind) }));
  element.title = label(kind);
  element.dataset.kind = kind;
  return element;
}

function tile(kind, cls = "") {
  return dress(Object.assign(document.createElement("span"), { className: "tile " + cls }), kind);
}

function backs(count) {
  const box = document.createElement("span");
  for (let i = 0; i < count; i++) box.appendChild(Object.assign(document.createElement("span"),
    { className: "tile small back", title: "a hidden tile" }));
  return box;
}

function meldView(meld) {
  const [type, tiles, concealed] = meld;
  const box = document.createElement("span");
  box.className = "meld";
  box.title = type + (concealed ? " (concealed)" : "");
  if (!tiles.length) { box.appendChild(backs(4)); return box; }
  const shown = type === "kong" ? [tiles[0], tiles[0], tiles[0], tiles[0]] : type === "pung" ? [tiles[0], tiles[0], tiles[0]] : tiles;
  for (const kind of shown) box.appendChild(tile(kind, "small"));
  return box;
}

function describe(action) {
  const parts = [action.kind];
  if (action.flag) parts.push(action.flag);
  if (action.tiles && action.tiles.length) parts.push(action.tiles.map(face).join("") + " " + action.tiles.map(label).join(" "));
  else if (action.tile !== undefined && action.tile >= 0) parts.push(face(action.tile) + " " + label(action.tile));
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
  for (const r of rules.filter((r) => r.playable)) select.appendChild(Object.assign(document.createElement("option"),
    { value: r.name, textContent: `${r.name} (${r.num_players} seats)` }));
  const { tables } = await api("/api/tables");
  for (const t of tables) {
    const free = t.seats.filter((s) => !s.bot && !s.taken).map((s) => s.seat);
    if (!free.length || t.status === "match_over") continue;
    const item = document.createElement("li");
    const link = Object.assign(document.createElement("a"), { href: `/t/${t.id}`, textContent: `${t.config.rules} table ${t.id}` });
    item.appendChild(link);
    $("tables").appendChild(item);
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

function seatLink() {
  return `${location.origin}/t/${session.table}#seat=${session.seat}&token=${encodeURIComponent(session.token)}`;
}

async function copySeatLink() {
  const box = $("seat-link");
  box.value = seatLink();
  box.hidden = false;
  box.select();
  try { await navigator.clipboard.writeText(box.value); $("message").textContent = "Seat link copied: open it on your other device (keep it secret: it opens your seat)."; }
  catch (e) { $("message").textContent = "Copy the seat link shown (keep it secret: it opens your seat)."; }
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
  faces = (await api(`/api/tables/${tableId}`)).faces;
  $("lobby").hidden = true;
  $("table").hidden = false;
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/ws`);
  socket.onopen = () => socket.send(JSON.stringify({ type: "hello", table: session.table, token: session.token }));
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") { state = { ...message, observation: observationKinds(message.observation) }; render(); }
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
  sent = state.decision;
  $("message").textContent = "";
  socket.send(JSON.stringify({ type: "action", decision: state.decision, action }));
  render();
}

function renderIndicators(obs) {
  const box = $("indicators");
  box.replaceChildren();
  const extras = obs.extras || {};
  const add = (label, content) => {
    const span = Object.assign(document.createElement("span"), { className: "indicator" });
    span.append(label + " ");
    if (content instanceof Node) span.appendChild(content); else span.append(content);
    box.appendChild(span);
  };
  const zipai = obs.kinds === 20;  // Wai Huzi: no winds or rounds (WH-6), a session 神 instead
  if (!zipai) add("round", WINDS[obs.round_wind] + " · seat wind " + WINDS[obs.seat_winds[obs.seat]]);
  add("wall", String(obs.wall_left));
  for (const [key, value] of Object.entries(extras)) {
    if (key === "gold" && value >= 0) add("金 gold", tile(value, "small gold"));
    else if (key === "shen" || key === "神") add("神", Array.isArray(value) ? value.join(" ") : String(value));
    else if (key === "liangdao") { /* shown per seat */ }
    else if (key === "you") { /* shown per seat */ }
    else if (key === "indicator" && value >= 0) add("indicator", tile(value, "small"));
    else if (key === "shen_shown" && value >= 0) add("神 shown", tile(value, "small"));
    else if (key === "shen_shown" || key === "dead") { /* none shown / a badge per seat */ }
    else if (key === "revealed" || key === "last_kong" || key === "chow_turn") { /* per seat or internal */ }
    else add(key, JSON.stringify(value));
  }
}

function renderSeats(obs) {
  const box = $("seats");
  box.replaceChildren();
  const extras = obs.extras || {};
  for (let seat = 0; seat < obs.hand_sizes.length; seat++) {
    const div = Object.assign(document.createElement("div"), { className: "seat" + (obs.to_act.includes(seat) ? " acting" : "") });
    div.dataset.seat = seat;
    const title = document.createElement("h3");
    const wind = obs.kinds === 20 ? "" : " " + WINDS[obs.seat_winds[seat]];
    title.textContent = `Seat ${seat}${wind}` + (seat === obs.seat ? " (you)" : state.bots.includes(seat) ? " (bot)" : "")
      + (seat === obs.dealer ? " · dealer" : "") + ` · score ${state.scores[seat]}`;
    if ((state.auto || []).includes(seat)) title.appendChild(Object.assign(document.createElement("span"), { className: "badge auto", textContent: "auto", title: "away: the server's bot plays this seat until it comes back" }));
    if (extras.liangdao && extras.liangdao[seat]) title.appendChild(Object.assign(document.createElement("span"), { className: "badge", textContent: "亮倒" }));
    if (extras.dead && extras.dead[seat]) title.appendChild(Object.assign(document.createElement("span"), { className: "badge", textContent: "死手" }));
    if (extras.you && extras.you[seat]) title.appendChild(Object.assign(document.createElement("span"), { className: "badge", textContent: `游 ${extras.you[seat]}` }));
    div.appendChild(title);
    if (seat !== obs.seat) {
      div.appendChild(backs(obs.hand_sizes[seat]));
      if (extras.revealed && extras.revealed[seat] && extras.revealed[seat].length) {
        const shown = document.createElement("span");
        for (const kind of extras.revealed[seat]) shown.appendChild(tile(kind, "small"));
        div.appendChild(shown);
      }
    }
    const melds = document.createElement("div");
    for (const meld of obs.melds[seat]) melds.appendChild(meldView(meld));
    div.appendChild(melds);
    const discards = document.createElement("div");
    discards.className = "discards";
    for (const kind of obs.discards[seat]) discards.appendChild(tile(kind, "small"));
    div.appendChild(discards);
    box.appendChild(div);
  }
}

function renderMine(obs, legal, live) {
  const hand = $("hand");
  hand.replaceChildren();
  const discards = new Map();
  legal.forEach((a) => { if (a.kind === "discard" && !a.flag && !discards.has(a.tile)) discards.set(a.tile, a); });
  let drawnShown = false;
  const kinds = [...obs.hand];
  if (obs.drawn >= 0) kinds.splice(kinds.indexOf(obs.drawn), 1);
  const order = obs.drawn >= 0 ? [...kinds, obs.drawn] : kinds;
  order.forEach((kind, index) => {
    const button = dress(Object.assign(document.createElement("button"), { className: "tile" }), kind);
    if (obs.drawn >= 0 && index === order.length - 1 && !drawnShown) { button.classList.add("drawn"); drawnShown = true; }
    if (obs.extras && obs.extras.gold === kind) button.classList.add("gold");
    const action = discards.get(kind);
    button.disabled = !(live && action);
    if (action) { button.classList.add("playable"); button.onclick = () => send(action); }
    hand.appendChild(button);
  });
  const melds = $("my-melds");
  melds.replaceChildren();
  for (const meld of obs.melds[obs.seat]) melds.appendChild(meldView(meld));
}

function renderActions(legal, live) {
  const box = $("actions");
  box.replaceChildren();
  legal.forEach((action, index) => {
    const button = Object.assign(document.createElement("button"), { textContent: describe(action) });
    button.dataset.index = index;
    button.dataset.kind = action.kind;
    button.disabled = !live;
    button.onclick = () => send(action);
    box.appendChild(button);
  });
}

function renderResult(obs) {
  const box = $("result");
  if (!obs.result) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren();
  const r = obs.result;
  const head = document.createElement("h2");
  head.textContent = r.drawn ? "Drawn hand (流局)" : `Won by seat ${r.winners.join(", ")}`;
  box.appendChild(head);
  for (const win of r.wins) {
    const p = document.createElement("div");
    p.append(`Seat ${win.seat} wins on `);
    p.appendChild(tile(win.tile, "small"));
    p.append(` (${win.source}${win.discarder >= 0 ? " from seat " + win.discarder : ""}): ` +
      win.patterns.map(([name, value]) => `${name} ${value}`).join(", ") + ` = ${win.value}`);
    const hand = document.createElement("div");
    for (const kind of win.hand) hand.appendChild(tile(kind, "small"));
    for (const meld of win.melds) hand.appendChild(meldView(meld));
    p.appendChild(hand);
    box.appendChild(p);
  }
  box.appendChild(Object.assign(document.createElement("div"), { textContent: "Payments: " + r.payments.map((v, s) => `seat ${s} ${v > 0 ? "+" : ""}${v}`).join(", ") }));
  if (state.status === "hand_over") {
    const next = Object.assign(document.createElement("button"), { id: "next", textContent: state.ready.includes(obs.seat) ? "Waiting for the others" : "Next hand" });
    next.disabled = state.ready.includes(obs.seat);
    next.onclick = () => socket.send(JSON.stringify({ type: "next" }));
    box.appendChild(next);
  } else if (state.status === "match_over") {
    box.appendChild(Object.assign(document.createElement("strong"), { id: "match-over", textContent: "Match over" }));
  }
}

function renderScores() {
  const table = Object.assign(document.createElement("table"), { className: "scores" });
  const row = (cells, tag) => { const tr = document.createElement("tr"); for (const c of cells) tr.appendChild(Object.assign(document.createElement(tag), { textContent: c })); return tr; };
  table.appendChild(row(["", ...state.scores.map((_, s) => `seat ${s}`)], "th"));
  table.appendChild(row(["match score", ...state.scores.map(String)], "td"));
  $("scores").replaceChildren(table);
}

function render() {
  const obs = state.observation;
  const mine = state.decision !== null && state.decision !== undefined;
  const live = mine && sent !== state.decision && state.status === "playing";
  $("status").textContent = `${obs.rules} · table ${state.table} · hand ${state.hand + 1}/${state.hands} · ${state.status}` +
    (state.status === "playing" ? ` · ${obs.phase}` + (mine ? " · your move" : "") : "");
  $("info").textContent = `You are seat ${obs.seat}. Dealer: seat ${obs.dealer}.`;
  renderIndicators(obs);
  renderSeats(obs);
  renderMine(obs, live ? obs.legal_actions : obs.legal_actions, live);
  renderActions(obs.legal_actions, live);
  renderResult(obs);
  renderScores();
  const onAuto = (state.auto || []).includes(obs.seat);
  $("auto").hidden = !onAuto;
  timerEnd = state.deadline !== null && state.deadline !== undefined ? performance.now() + state.deadline * 1000 : 0;
  tick();
}

function tick() {
  const box = $("timer");
  if (!timerEnd || !state) { box.hidden = true; return; }
  const left = Math.max(0, (timerEnd - performance.now()) / 1000);
  const bank = state.bank || 0;
  box.hidden = false;
  if (state.status === "hand_over") { box.textContent = `Next hand in ${left.toFixed(0)} s`; return; }
  const kind = ["claim", "rob"].includes(state.observation.phase) ? "Claim window" : "Your move";
  box.textContent = left > bank ? `${kind}: ${(left - bank).toFixed(0)} s (+ ${bank.toFixed(0)} s bank)`
    : `${kind}: ${left.toFixed(0)} s of your bank left (then the server's bot plays for you)`;
}
setInterval(tick, 250);

$("copy-link").onclick = copySeatLink;
$("take-back").onclick = () => socket.send(JSON.stringify({ type: "back" }));
$("here").onclick = playHere;
const params = new URLSearchParams(location.search);
const path = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
const tableId = path ? path[1] : params.get("table");
if (tableId) sit(tableId, params.has("seat") ? +params.get("seat") : null).catch((e) => { $("message").textContent = e.message; });
else lobby().catch((e) => { $("message").textContent = e.message; });
