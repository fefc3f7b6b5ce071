// The hupai browser table: plain JavaScript, no build step. It shows one seat's state as the server sends it
// (the seat's observation: nothing of the other hands) and sends the seat's chosen action; at /watch/{id} it
// shows a spectator's state (no seat: every hand face down) and sends nothing. Words come from i18n.js
// (HupaiText), tiles from tiles.js (HupaiTiles).
"use strict";

const T = HupaiText;
const Tiles = HupaiTiles;
const $ = (id) => document.getElementById(id);
const make = (tag, props = {}, ...children) => {
  const { dataset, ariaLabel, ariaHidden, role, ...rest } = props;
  const element = Object.assign(document.createElement(tag), rest);
  if (role) element.setAttribute("role", role);
  if (dataset) Object.assign(element.dataset, dataset);
  if (ariaLabel) element.setAttribute("aria-label", ariaLabel);
  if (ariaHidden) element.setAttribute("aria-hidden", ariaHidden);
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
};
const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
const COARSE = window.matchMedia("(pointer: coarse)");
const POSITIONS = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };
// A meld's type (mahjong's or a Wai Huzi group's) as the call that made it: the call-out's words.
const CALLS = { chow: "act_chow", chi: "act_chow", pung: "act_pung", peng: "act_pung", kong: "act_kong",
  wai: "act_wai", liu: "act_liu", piao: "act_piao" };
// Keys that answer a decision (shown on the buttons as aria-keyshortcuts).
const KEYS = { pass: "p", chow: "c", pung: "g", kong: "k", win: "h", wai: "w", liu: "l", piao: "o", declare: "d" };

let info = null;        // the table's public info: faces, pattern names and unit, config, family
let order = {};         // notation -> its kind's index (the hand's sort order)
let session = null;     // {table, seat, token}; a spectator has {table, watch: true}
let socket = null;
let state = null;       // the latest state message
let previous = null;    // the one before, in the same hand (what changed: call-outs, animations)
let sent = null;        // the decision an action was sent for (buttons stay off until the next one)
let selected = null;    // a touch screen's first tap on a tile selects it; the second discards
let timerEnd = 0, timerBank = 0, timerTotal = 0, timerSeat = null;
let seatTimers = new Map(); // a spectator's view of each human seat's timer: seat -> when it runs out
let replaced = false;   // another device took the seat over: no reconnecting until asked

// ---- Words and small views ------------------------------------------------------------------------------------

function translate(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = T.t(element.dataset.i18n);
  $("lang").textContent = T.t("language");
  $("lang").setAttribute("aria-label", T.t("language_name") + ": " + T.t("language"));
  $("sound").replaceChildren(speaker(soundOn()), make("span", { className: "label", textContent: T.t("sound") }));
  $("sound").setAttribute("aria-pressed", String(soundOn()));
  $("sound").setAttribute("aria-label", T.t("sound"));
  $("copy-link").title = T.t("copy_link");
  $("seat-link").setAttribute("aria-label", T.t("seat_link_label"));
  $("hand").setAttribute("aria-label", T.t("your_hand"));
  $("autopass-box").title = T.t("auto_pass_title");
}

// A speaker, with waves when the sound is on (drawn: no icon font).
function speaker(on) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>' + (on
    ? '<path d="M15 8.5a5 5 0 0 1 0 7M17.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none"/>'
    : '<path d="M15 9l6 6M21 9l-6 6" stroke="currentColor" stroke-width="2"/>');
  return svg;
}

const zipai = () => info && info.family === "zipai";
const tile = (notation, options) => Tiles.tile(notation, options);

function backs(count) {
  const box = make("span", { className: "backs" });
  for (let i = 0; i < count; i++) box.append(tile(null, { back: true, zipai: zipai() }));
  return box;
}

// Seats by what a player calls them: "You", the seat's wind at a mahjong table ("West"), its place at a Wai
// Huzi table (上家 Left, 下家 Right), a spectator's "Seat 2".
function seatName(seat, obs = state.observation) {
  if (seat === obs.seat) return T.t("you");
  if (!zipai() && obs.seat_winds) return T.wind(obs.seat_winds[seat]) + (T.lang() === "zh" ? "家" : "");
  if (obs.seat === null) return T.t("seat_n", { n: seat + 1 });
  return T.position(positionOf(seat, obs));
}

function positionOf(seat, obs) {
  const n = obs.hand_sizes.length;
  const bottom = obs.seat === null ? 0 : obs.seat;
  return (POSITIONS[n] || POSITIONS[4])[(seat - bottom + n) % n];
}

function valueText(value) {
  const unit = info.pattern_unit;
  return unit === "×" ? T.t("value_factor", { v: value }) : unit === "番" ? T.t("value_fan", { v: value })
    : T.t("value_points", { v: value });
}

function patternName(name) {
  const entry = (info.patterns || {})[name];
  return entry || { zh: name, en: name.replace(/_/g, " ") };
}

function actionLabel(action) {
  const flag = action.flag && !(action.kind === "kong" && action.flag === "exposed") ? "flag_" + action.flag : null;
  return flag && T.has(flag) ? T.t(flag) : T.t("act_" + action.kind);
}

// ---- Talking to the server ------------------------------------------------------------------------------------

async function api(path, options = {}) {
  const response = await fetch(path, { headers: { "content-type": "application/json" }, ...options });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || response.statusText);
  return data;
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
    if (replaced) { $("status").textContent = T.t("other_device"); return; }
    $("status").textContent = T.t("reconnecting"); setTimeout(connect, 1500);
  };
}

function send(action) {
  if (session.watch || !state) return;
  sent = state.decision;
  selected = null;
  $("message").textContent = "";
  socket.send(JSON.stringify({ type: "action", decision: state.decision, action }));
  render();
}

// ---- The lobby -------------------------------------------------------------------------------------------------

const SECONDS = { think: [0, 300, 600, 1000, 2000], turn: [0, 10, 15, 20, 30, 45, 60, 90],
  claim: [0, 5, 8, 10, 15, 20, 30], bank: [0, 30, 60, 90, 120, 180], hands: [1, 4, 8, 16] };

function fillSelect(select, values, label, chosen) {
  select.replaceChildren(...values.map((v) => make("option", { value: String(v), textContent: label(v), selected: v === chosen })));
}

async function lobby() {
  $("lobby").hidden = false;
  const { rules } = await api("/api/rules");
  const playable = rules.filter((r) => r.playable);
  const box = $("systems");
  const chosen = sessionStorage.getItem("hupai:rules") || (playable[0] && playable[0].name);
  const drawLobby = () => {
    translate();
    box.querySelectorAll("label").forEach((l) => l.remove());
    for (const r of playable) {
      const input = make("input", { type: "radio", name: "rules", value: r.name, checked: r.name === (current() || chosen) });
      input.onchange = houseRules;
      const sample = r.family === "zipai" ? ["x2", "d7", "x10"] : r.name === "kawuxing" ? ["5p", "6z", "7s"] : ["1m", "5p", "7z"];
      box.append(make("label", { className: "system", dataset: { rules: r.name } }, input,
        make("span", { className: "system-tiles", ariaHidden: "true" }, ...sample.map((s) => Tiles.tile(s))),
        make("span", { className: "system-name" }, make("strong", { textContent: T.rules(r.name) }),
          make("small", { textContent: (T.lang() === "zh" ? T.rulesBoth(r.name).split(" ").slice(1).join(" ") : T.rulesBoth(r.name).split(" ")[0])
            + " · " + T.t("players_n", { n: r.num_players }) }))));
    }
    const keep = (id) => ($(id).value === "" ? undefined : +$(id).value);
    fillSelect($("bot"), ["greedy", "random"], (b) => T.t("bot_" + b), $("bot").value || "greedy");
    fillSelect($("think"), SECONDS.think, (ms) => (ms ? T.t("speed_s", { s: ms / 1000 }) : T.t("speed_instant")), keep("think") ?? 600);
    fillSelect($("hands"), SECONDS.hands, (n) => T.t("hands_n", { n }), keep("hands") ?? 4);
    const secs = (s) => (s ? T.t("seconds", { s }) : T.t("no_limit"));
    fillSelect($("turn-seconds"), SECONDS.turn, secs, keep("turn-seconds") ?? 30);
    fillSelect($("claim-seconds"), SECONDS.claim, secs, keep("claim-seconds") ?? 20);
    fillSelect($("bank-seconds"), SECONDS.bank, (s) => T.t("seconds", { s }), keep("bank-seconds") ?? 60);
    houseRules();
    openTables().catch(failed);
  };
  const current = () => { const c = box.querySelector("input:checked"); return c ? c.value : null; };
  function houseRules() {
    const r = playable.find((x) => x.name === current());
    const list = (r && r.house_rules) || [];
    $("house").hidden = !list.length;
    $("house-rules").replaceChildren(...list.map((h) => {
      const select = make("select", { name: h.name, id: "house-" + h.name });
      fillSelect(select, h.choices, (c) => (c === h.default ? `${c} · ${T.t("house_default")}` : String(c)), h.default);
      return make("div", { className: "house-rule" }, make("label", { htmlFor: select.id },
        make("strong", { textContent: `${h.rule} ` }), select), make("p", { textContent: h.doc }));
    }));
  }
  drawLobby();
  $("lang").onclick = () => { T.setLang(T.lang() === "zh" ? "en" : "zh"); drawLobby(); };
  $("create").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = current();
    const r = playable.find((x) => x.name === name);
    sessionStorage.setItem("hupai:rules", name);
    const options = {};
    for (const select of $("house-rules").querySelectorAll("select")) {
      const h = r.house_rules.find((x) => x.name === select.name);
      if (h && select.value !== String(h.default)) options[select.name] = h.choices.find((c) => String(c) === select.value);
    }
    try {
      const table = await api("/api/tables", { method: "POST", body: JSON.stringify({
        rules: name, options, bots: [...Array(r.num_players).keys()].slice(1), bot: $("bot").value,
        think_ms: +$("think").value, hands: +$("hands").value, claim_seconds: +$("claim-seconds").value,
        turn_seconds: +$("turn-seconds").value, bank_seconds: +$("bank-seconds").value }) });
      location.href = `/t/${table.id}`;
    } catch (e) { failed(e); }
  });
}

async function openTables() {
  const { tables } = await api("/api/tables");
  const list = $("tables");
  list.replaceChildren();
  for (const t of tables) {
    if (t.status === "broken") continue;
    const free = t.seats.filter((s) => !s.bot && !s.taken).map((s) => s.seat);
    const item = make("li", {}, make("span", { textContent: T.t("table_of", { rules: T.rules(t.config.rules), hand: t.hand + 1 }) }));
    if (t.status !== "match_over" && free.length) item.append(make("a", { href: `/t/${t.id}`, className: "button", textContent: T.t("join") }));
    if (t.status !== "match_over") item.append(make("a", { href: `/watch/${t.id}`, className: "button", textContent: T.t("watch") }));
    if (t.hand > 0 || t.status !== "playing") item.append(make("a", { href: `/replay/${t.id}`, className: "button", textContent: T.t("replay") }));
    list.append(item);
  }
  if (!list.children.length) list.append(make("li", { className: "empty", textContent: T.t("no_tables") }));
}

// ---- Seats, links, watching ------------------------------------------------------------------------------------

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
  try { await navigator.clipboard.writeText(box.value); $("message").textContent = T.t("link_copied"); }
  catch (e) { $("message").textContent = T.t("link_shown"); }
}

async function open(tableId) {
  info = await api(`/api/tables/${tableId}`);
  order = Object.fromEntries(info.faces.map((face, index) => [face[1], index]));
  $("lobby").hidden = true;
  $("table").hidden = false;
  document.body.classList.add("at-table");
  $("lang").onclick = () => { T.setLang(T.lang() === "zh" ? "en" : "zh"); translate(); if (state) render(); };
  // The facts panel open where there is room for it (a desktop), folded into a line of chips elsewhere.
  const roomy = window.matchMedia("(min-width: 1000px) and (min-height: 760px)");
  $("facts-box").open = roomy.matches;
  roomy.addEventListener("change", () => { $("facts-box").open = roomy.matches; });
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
  $("links").hidden = false;
  $("autopass").checked = sessionStorage.getItem(key + ":autopass") === "1";
  $("autopass").onchange = () => { sessionStorage.setItem(key + ":autopass", $("autopass").checked ? "1" : "0"); if (state) render(); };
  connect();
}

async function watch(tableId) {
  session = { table: tableId, watch: true };
  document.body.classList.add("watching");
  await open(tableId);
  $("mine").hidden = true;
  try { receive(await api(`/api/tables/${tableId}/watch`)); } catch (e) { $("message").textContent = e.message; }
  connect();
}

function receive(message) {
  if (message.type !== "state") return;
  previous = state && state.hand === message.hand ? state : null;
  state = message;
  if (previous === null || previous.decision !== state.decision) selected = null;
  // Where the tile on offer stood (a Wai Huzi card turned up from the wall is in no pond): a claim of it flies
  // from there.
  const offered = $("offer").querySelector(".tile");
  const offerBox = offered ? offered.getBoundingClientRect() : null;
  render();
  feedback(offerBox);
}

// ---- The table -------------------------------------------------------------------------------------------------

// The discard made last: the tile on offer (its discarder's pond ends with it), else the pond that grew.
function lastDiscard(obs) {
  if (obs.tile !== null && obs.source !== null && (obs.discards[obs.source] || []).at(-1) === obs.tile
      && ["claim", "rob"].includes(obs.phase)) {
    return { seat: obs.source, index: obs.discards[obs.source].length - 1 };
  }
  if (previous) {
    const before = previous.observation.discards;
    for (let seat = 0; seat < obs.discards.length; seat++) {
      if (obs.discards[seat].length > (before[seat] || []).length) return { seat, index: obs.discards[seat].length - 1 };
    }
    if (previous.lastDiscard && obs.discards[previous.lastDiscard.seat].length === previous.lastDiscard.index + 1) {
      return previous.lastDiscard;
    }
  }
  return null;
}

function badge(text, cls = "", title = "") { return make("span", { className: "badge " + cls, textContent: text, title }); }

// The tiles each seat's discards lost to a claim: a meld's claimed tile from that seat. A pond keeps every
// discard in order (the observation's discards); the claimed ones are marked.
function claimedFrom(obs) {
  const claimed = obs.discards.map(() => new Map());
  obs.melds.forEach((melds) => melds.forEach((meld) => {
    if (meld.claimed_from === null || meld.claimed_from === undefined || meld.concealed) return;
    const map = claimed[meld.claimed_from];
    if (map) map.set(meld.claimed_tile, (map.get(meld.claimed_tile) || 0) + 1);
  }));
  return claimed;
}

function meldView(meld, golds) {
  const box = make("span", { className: "meld", dataset: { type: meld.type } });
  box.title = meld.type + (meld.concealed ? " (concealed)" : "");
  if (!meld.tiles.length) { box.append(backs(4)); return box; }
  let marked = false;
  for (const t of meld.tiles) {
    const view = tile(t, { gold: golds.has(t) });
    if (!marked && meld.claimed_from !== null && meld.claimed_from !== undefined && t === meld.claimed_tile) {
      view.classList.add("claimed"); marked = true;
    }
    box.append(view);
  }
  return box;
}

function factTiles(facts, zh) {
  return new Set(facts.filter((f) => f.zh === zh).flatMap((f) => f.tiles || []));
}

function renderSeats(obs, facts, last) {
  const box = $("seats");
  box.replaceChildren();
  const n = obs.hand_sizes.length;
  box.className = "seats-" + n;
  const golds = factTiles(facts, "金");
  const claimed = claimedFrom(obs);
  const timers = new Map((state.timers || []).map((t) => [t.seat, t]));
  for (let seat = 0; seat < n; seat++) {
    const position = positionOf(seat, obs);
    const acting = obs.to_act.includes(seat) && state.status === "playing";
    const div = make("section", { className: `seat ${position}` + (acting ? " acting" : "") + (seat === obs.seat ? " mine" : "") });
    div.dataset.seat = seat;
    div.dataset.position = position;
    box.append(div);  // in the page at once: the pond's layout (--cols) is read from the style sheet
    div.setAttribute("aria-label", seatName(seat));
    const plate = make("div", { className: "plate" },
      zipai() ? null : make("span", { className: "wind", textContent: T.wind(obs.seat_winds[seat]).slice(0, T.lang() === "zh" ? 1 : 1), title: T.wind(obs.seat_winds[seat]) }),
      make("strong", { className: "name", textContent: seatName(seat) }),
      seat === obs.dealer ? badge(T.t("dealer"), "dealer") : null,
      state.bots.includes(seat) ? badge(T.t("bot"), "bot") : null,
      (state.auto || []).includes(seat) ? badge(T.t("auto_badge"), "auto", T.t("auto_title")) : null,
      make("span", { className: "score", textContent: String(state.scores[seat]), title: T.t("match_score") }));
    for (const fact of facts.filter((f) => f.seat === seat)) plate.append(badge(fact.zh, "fact", `${fact.en}: ${fact.text}`));
    if (timers.has(seat)) plate.append(make("span", { className: "seat-timer", dataset: { seat } }));
    div.append(plate);
    // What lies in front of the seat, turned to face it (table.css): its hand, its melds, its pond.
    const area = make("div", { className: "area" });
    div.append(area);
    if (seat !== obs.seat) {
      // Another seat's hand: face down, except the tiles a rule shows face up (亮倒), drawn once.
      const shown = facts.filter((f) => f.seat === seat && f.hand).flatMap((f) => f.tiles || []);
      const hand = make("div", { className: "hand-row", role: "group" });
      for (const t of shown) { const v = tile(t); v.classList.add("shown"); hand.append(v); }
      hand.append(backs(Math.max(0, obs.hand_sizes[seat] - shown.length)));
      hand.dataset.count = obs.hand_sizes[seat];
      hand.setAttribute("aria-label", T.t("hand_of_seat", { who: seatName(seat), n: obs.hand_sizes[seat] }));
      area.append(hand);
    }
    const melds = make("div", { className: "melds", role: "group", ariaLabel: T.t(seat === obs.seat ? "your_melds" : "melds_of", { who: seatName(seat) }) });
    obs.melds[seat].forEach((meld, index) => {
      const view = meldView(meld, golds);
      if (previous && index >= previous.observation.melds[seat].length) view.classList.add("fresh");
      melds.append(view);
    });
    area.append(melds);
    const pond = make("div", { className: "pond discards", role: "group", ariaLabel: T.t(seat === obs.seat ? "your_discards" : "discards_of", { who: seatName(seat) }) });
    const taken = new Map(claimed[seat]);
    // The latest claims take the latest matching discards.
    const marks = new Set();
    for (let index = obs.discards[seat].length - 1; index >= 0; index--) {
      const t = obs.discards[seat][index];
      if (taken.get(t)) { marks.add(index); taken.set(t, taken.get(t) - 1); }
    }
    const perRow = +getComputedStyle(pond).getPropertyValue("--cols") || 6;
    const rows = Math.max(1, Math.ceil(obs.discards[seat].length / perRow));
    area.append(pond);
    obs.discards[seat].forEach((t, index) => {
      const view = tile(t, { gold: golds.has(t) });
      placeInPond(view, position, index, perRow, rows);
      if (marks.has(index)) { view.classList.add("claimed"); view.title += " · " + T.t("claimed"); }
      if (last && last.seat === seat && last.index === index) {
        view.classList.add("last");
        view.title += " · " + T.t("last_discard");
        if (!previous || (previous.observation.discards[seat] || []).length <= index) view.classList.add("fresh");
      }
      pond.append(view);
    });
  }
}

// A pond as its seat sees it: rows of discards from the seat's left to its right, the first row nearest the
// centre and each next one nearer the seat. On the screen that is a grid turned with the seat: the top seat's
// rows run right to left, the left seat's top to bottom (its first row the column nearest the centre), the right
// seat's bottom to top.
function placeInPond(view, position, index, perRow, rows) {
  const row = Math.floor(index / perRow);
  const along = index % perRow;
  const [gridRow, gridColumn] = {
    bottom: [row + 1, along + 1],
    top: [rows - row, perRow - along],
    left: [along + 1, rows - row],
    right: [perRow - along, row + 1],
  }[position];
  view.style.gridRow = String(gridRow);
  view.style.gridColumn = String(gridColumn);
}

// Each seat's tiles as large as its place on the board lets them be: a seat whose tiles overflow its place (a
// long pond, many melds, a shown hand) draws them smaller (--fit scales the board's tile size), never off the
// screen.
function fitSeats() {
  for (const seat of document.querySelectorAll("#seats .seat")) {
    const area = seat.querySelector(".area");
    let fit = 1;
    seat.style.removeProperty("--fit");
    for (let step = 0; step < 4; step++) {
      const over = Math.max(area.scrollWidth / Math.max(1, area.clientWidth), area.scrollHeight / Math.max(1, area.clientHeight));
      if (over <= 1.01 || fit <= 0.4) break;
      fit = Math.max(0.4, Math.floor((fit / over) * 100) / 100);
      seat.style.setProperty("--fit", String(fit));
    }
  }
}

function renderCenter(obs, mine) {
  const line = $("turn-line");
  const others = obs.to_act.filter((s) => s !== obs.seat).map((s) => seatName(s)).join(" · ");
  const claim = ["claim", "rob"].includes(obs.phase);
  let text;
  if (state.status === "playing") {
    if (mine) text = claim ? T.t("your_claim") : T.t("your_move");
    else if (!obs.to_act.length) text = "";
    else text = claim ? T.t("to_claim", { who: others }) : T.t("to_discard", { who: others });
  } else text = state.status === "hand_over" ? T.t("hand_over") : state.status === "match_over" ? T.t("match_over")
    : state.status === "broken" ? T.t("broken") : T.t("waiting");
  line.textContent = text;
  line.classList.toggle("mine", mine && state.status === "playing");
  // The compass: each seat's wind (or place) around the wall count, the acting seat's lit.
  const compass = $("compass");
  compass.replaceChildren(make("span", { className: "wall", title: T.t("wall_title") },
    make("b", { textContent: String(obs.wall_left) }), make("small", { textContent: T.t("wall_word") })));
  obs.hand_sizes.forEach((_, seat) => {
    const label = zipai() ? "●" : T.wind(obs.seat_winds[seat]).slice(0, 1);
    compass.append(make("span", { className: `dir ${positionOf(seat, obs)}` + (obs.to_act.includes(seat) && state.status === "playing" ? " on" : "")
      + (seat === obs.dealer ? " dealer" : ""), textContent: label }));
  });
  const offer = $("offer");
  offer.replaceChildren();
  if (obs.tile !== null && state.status === "playing" && claim && obs.source !== null) {
    const discarded = (obs.discards[obs.source] || []).at(-1) === obs.tile;
    const who = seatName(obs.source);
    const words = !discarded && zipai() ? (obs.source === obs.seat ? T.t("turned_up") : T.t("offered_by", { who }))
      : T.t("discarded_by", { who });
    offer.append(make("span", { textContent: words }), tile(obs.tile));
  }
}

function renderFacts(facts) {
  const chips = $("fact-chips");
  chips.replaceChildren(...facts.map((f) => make("span", { className: "chip" }, f.zh, ...(f.hand ? [] : (f.tiles || []).map((t) => tile(t))))));
  const list = $("facts");
  list.replaceChildren();
  for (const fact of facts) {
    const value = make("dd", {});
    // A shown hand (亮倒) is drawn once, in front of its seat; here only its words.
    if (!fact.hand) for (const t of fact.tiles || []) value.append(tile(t, { gold: fact.zh === "金" }));
    value.append(" " + fact.text);
    list.append(make("dt", { title: fact.en }, make("span", { className: "zh", textContent: fact.zh }), " ",
      make("span", { className: "en", textContent: fact.en })), value);
  }
  $("facts-box").hidden = !facts.length;
}

function renderIndicators(obs) {
  const parts = [T.t("hand_of", { hand: state.hand + 1, hands: state.hands })];
  if (!zipai()) parts.push(T.t("round_wind", { wind: T.wind(obs.round_wind).slice(0, T.lang() === "zh" ? 1 : 9) }));
  $("indicators").replaceChildren(...parts.map((p, i) => make("span", { className: "indicator" + (i ? " round" : ""), textContent: p })));
}

// The hand's tiles: as large as the width allows in one row, or in two rows when one row would make them
// narrower than a finger (40 px).
function sizeHand(count) {
  const hand = $("hand");
  hand.dataset.rows = "1";  // measured without the width a layout of several rows gives itself
  const width = hand.clientWidth || window.innerWidth;
  const tall = window.innerHeight;
  const maxWidth = Math.min(64, (tall * 0.16) * 0.75);
  // The fewest rows (up to three: a Wai Huzi hand holds 20 cards) that give each tile 40 px.
  let rows = 1;
  let w = 0;
  for (; rows <= 3; rows++) {
    w = Math.min(maxWidth, (width - 8) / (Math.ceil(count / rows) + 0.6) - 2);
    if (w >= 40) break;
  }
  rows = Math.min(rows, 3);
  hand.style.setProperty("--tile-w", `${Math.floor(w)}px`);
  hand.style.setProperty("--per-row", String(Math.ceil(count / rows) + 0.6));
  hand.dataset.rows = rows;
}

function renderMine(obs, live) {
  const hand = $("hand");
  hand.replaceChildren();
  const discards = new Map();
  obs.legal_actions.forEach((a) => { if (a.kind === "discard" && !a.flag && !discards.has(a.tile)) discards.set(a.tile, a); });
  const sorted = [...obs.hand].sort((a, b) => order[a] - order[b]);
  const drawn = obs.drawn !== null && sorted.includes(obs.drawn) && state.status === "playing" && obs.phase === "turn";
  if (drawn) sorted.splice(sorted.indexOf(obs.drawn), 1);
  const tiles = drawn ? [...sorted, obs.drawn] : sorted;
  const facts = state.facts || [];
  const golds = factTiles(facts, "金");
  const white = facts.find((f) => f.zh === "白板");
  const goldFace = golds.size ? [...golds][0] : null;
  tiles.forEach((t, index) => {
    const isDrawn = drawn && index === tiles.length - 1;
    const button = make("button", { type: "button", className: "tile-button" + (isDrawn ? " drawn" : "") });
    Tiles.tile(t, { gold: golds.has(t), stand: white && goldFace && t === "5z" ? goldFace : null }, button);
    const action = discards.get(t);
    const playable = live && action;
    button.disabled = !playable;
    button.dataset.index = index;
    if (playable) {
      button.classList.add("playable");
      if (selected === index) button.classList.add("selected");
      button.onclick = () => {
        if (COARSE.matches && selected !== index) { selected = index; render(); return; }
        send(action);
      };
    }
    hand.append(button);
  });
  hand.classList.toggle("live", Boolean(live && discards.size));
}

function renderActions(obs, live) {
  const box = $("actions");
  box.replaceChildren();
  obs.legal_actions.forEach((action, index) => {
    if (action.kind === "discard" && !action.flag) return;  // a plain discard: tap the tile
    const button = make("button", { type: "button", className: "action " + action.kind });
    const tiles = action.tiles && action.tiles.length ? action.tiles : action.tile ? [action.tile] : [];
    button.append(make("span", { className: "word", textContent: actionLabel(action) }), ...tiles.map((t) => tile(t)));
    button.dataset.index = index;
    button.dataset.kind = action.kind;
    if (action.flag) button.dataset.flag = action.flag;
    if (KEYS[action.kind]) button.setAttribute("aria-keyshortcuts", KEYS[action.kind]);
    button.setAttribute("aria-label", actionLabel(action) + " " + tiles.map(Tiles.name).join(", "));
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

// ---- The result ------------------------------------------------------------------------------------------------

function sourceText(win) {
  const who = win.discarder !== null && win.discarder !== undefined ? seatName(win.discarder) : "";
  const own = "src_" + win.source + "_you";  // "on your discard", not "on You's discard"
  const key = win.discarder === state.observation?.seat && T.has(own) ? own : "src_" + win.source;
  return T.has(key) ? T.t(key, { who }) : T.t("src_other", { src: win.source.replace(/_/g, " ") });
}

// How a win counts, in the rule system's own terms, from the score's details (the state's ``scoring``).
function countLines(win, details) {
  const lines = [];
  if (details && Array.isArray(details.parts)) {  // Wai Huzi: the groups with their 息, then the product
    const parts = make("ul", { className: "parts" });
    for (const part of details.parts) {
      parts.append(make("li", {}, make("span", { className: "zh", textContent: part.chinese }),
        ...String(part.cards).split(/\s+/).filter(Boolean).map((c) => tile(c)), make("b", { textContent: `${part.xi} 息` })));
    }
    lines.push(parts);
    const terms = [`${details.xi} 息`, `名堂 ×${details.mingtang_factor}`];
    if (details.yuan_factor !== 1) terms.push(`元 ×${details.yuan_factor}`);
    lines.push(make("p", { className: "count", textContent: `${terms.join(" × ")} = ${details.score}` + (details.capped ? ` → ${win.value}` : "") }));
  } else if (info.pattern_unit === "番" && details && details.share !== undefined) {
    lines.push(make("p", { className: "count", textContent: `${T.t("total")} ${T.t("value_fan", { v: win.value })} → ${T.lang() === "zh" ? "每份" : "one share"} = 2^${win.value} × ${details.options ? details.options.base ?? 1 : 1} = ${details.share}` }));
  } else if (info.pattern_unit === "×" && details && details.product !== undefined) {
    const factors = win.patterns.map((p) => `×${p.value}`).join(" ");
    lines.push(make("p", { className: "count", textContent: `${T.t("count_factor")}: ${factors || "×1"} = ×${details.product}`
      + (details.capped ? ` (${T.t("capped")})` : "") + ` → ${win.value}` }));
  } else if (details && Array.isArray(details.amounts)) {
    const discard = win.discarder !== null && win.discarder !== undefined;
    lines.push(make("p", { className: "count", textContent: T.t(discard ? "amounts" : "amounts_each", { first: details.amounts[0], other: details.amounts[1] }) }));
  }
  // Yunxiao's reading names its scoring row (the patterns above say it); the others lay out the hand's groups.
  if (win.reading && !(details && details.row !== undefined)) lines.push(make("p", { className: "reading" }, make("span", { textContent: T.t("reading") + " " }), make("code", { textContent: win.reading })));
  return lines;
}

function renderResult(obs) {
  const layer = $("result-layer");
  const box = $("result");
  if (!obs.result) { layer.hidden = true; box.hidden = true; return; }
  layer.hidden = false;
  box.hidden = false;
  box.replaceChildren();
  const r = obs.result;
  const scoring = new Map((state.scoring || []).map((s) => [s.seat, s.details]));
  const title = r.drawn || !r.wins.length ? T.t("result_drawn")
    : T.t("result_win", { who: r.winners.map((s) => seatName(s)).join(" · ") });
  box.append(make("h2", { id: "result-title", className: r.winners.includes(obs.seat) ? "won" : "" },
    make("span", { className: "big-word", textContent: r.drawn || !r.wins.length ? "流" : "胡" }), " ", title));
  if (r.drawn || !r.wins.length) box.append(make("p", { textContent: T.t("result_drawn_text") }));
  const winPaid = r.payments.map(() => 0);
  for (const win of r.wins) {
    const div = make("article", { className: "win" });
    div.append(make("p", { className: "win-head" }, make("strong", { textContent: seatName(win.seat) }), " ",
      T.t("won_on"), " ", tile(win.tile), " ", make("span", { textContent: sourceText(win) })));
    const laid = make("div", { className: "win-hand" });
    const sorted = [...win.hand].sort((a, b) => order[a] - order[b]);
    const golds = factTiles(state.facts || [], "金");
    for (const t of sorted) laid.append(tile(t, { gold: golds.has(t) }));
    const winning = tile(win.tile); winning.classList.add("winning");
    laid.append(winning);
    for (const meld of win.melds) laid.append(meldView(meld, golds));
    div.append(laid);
    if (win.patterns.length) {
      const list = make("ul", { className: "patterns" });
      for (const p of win.patterns) {
        const name = patternName(p.name);
        list.append(make("li", {}, make("span", { className: "zh", textContent: name.zh }), " ",
          make("span", { className: "en", textContent: name.en }), " ", make("b", { className: "val", textContent: valueText(p.value) })));
      }
      div.append(list);
    }
    div.append(...countLines(win, scoring.get(win.seat)));
    // The total is 番 in Guangdong; elsewhere what each loser pays (Kawuxing's and Wai Huzi's factors multiply into it).
    const total = info.pattern_unit === "番" ? valueText(win.value) : T.t("value_points", { v: win.value });
    div.append(make("p", { className: "total" }, make("span", { textContent: T.t("total") + " " }), make("b", { textContent: total })));
    const pays = make("ul", { className: "pays" });
    win.payments.forEach((v, seat) => {
      winPaid[seat] += v;
      if (v < 0) pays.append(make("li", { textContent: T.t(seat === obs.seat ? "you_pay" : "pays", { payer: seatName(seat), payee: seatName(win.seat), v: -v }) }));
    });
    const details = scoring.get(win.seat);
    if (details && details.liangdao_double) pays.append(make("li", { className: "liable", textContent: T.t("liangdao_double") }));
    if (win.liable !== null && win.liable !== undefined) pays.append(make("li", { className: "liable", textContent: T.t("liable", { who: seatName(win.liable) }) }));
    div.append(make("h3", { textContent: T.t("payments") }), pays);
    box.append(div);
  }
  const other = r.payments.map((v, seat) => v - winPaid[seat]);
  if (other.some((v) => v !== 0)) {
    box.append(make("p", { className: "other" }, make("strong", { textContent: T.t("other_money") + ": " }),
      other.map((v, s) => `${seatName(s)} ${v > 0 ? "+" : ""}${v}`).join(" · ")));
  }
  const table = make("table", { className: "scores" });
  const row = (cells, tag) => { const tr = make("tr"); for (const c of cells) tr.append(make(tag, { textContent: c })); return tr; };
  table.append(row(["", ...state.scores.map((_, s) => seatName(s))], "th"));
  table.append(row([T.t("net"), ...r.payments.map((v) => (v > 0 ? "+" : "") + v)], "td"));
  table.append(row([T.t("match_score"), ...state.scores.map(String)], "td"));
  box.append(table);
  const buttons = make("div", { className: "buttons" });
  if (state.status === "hand_over" && !session.watch) {
    const waiting = state.ready.includes(obs.seat);
    const next = make("button", { id: "next", type: "button", className: "primary", textContent: waiting ? T.t("waiting_others") : T.t("next_hand") });
    next.disabled = waiting;
    next.onclick = () => socket.send(JSON.stringify({ type: "next" }));
    buttons.append(next);
  } else if (state.status === "match_over") {
    box.append(make("p", { id: "match-over", className: "match-over", textContent: T.t("match_over") }));
    if (!session.watch) {
      const again = make("button", { id: "new-match", type: "button", className: "primary", textContent: T.t("new_match") });
      again.onclick = newMatch;
      buttons.append(again);
    }
    buttons.append(make("a", { id: "to-lobby", href: "/", className: "button", textContent: T.t("back_lobby") }));
  }
  buttons.append(make("a", { href: `/replay/${state.table}`, className: "button quiet", textContent: T.t("replay"), target: "_blank" }));
  box.append(buttons);
}

async function newMatch() {
  const c = info.config;
  try {
    const table = await api("/api/tables", { method: "POST", body: JSON.stringify({ rules: c.rules, options: c.options,
      bots: c.bots, bot: c.bot, think_ms: c.think_ms, hands: c.hands, claim_seconds: c.claim_seconds,
      turn_seconds: c.turn_seconds, bank_seconds: c.bank_seconds }) });
    location.href = `/t/${table.id}`;
  } catch (e) { failed(e); }
}

function render() {
  const obs = state.observation;
  const facts = state.facts || [];
  const mine = !session.watch && state.decision !== null && state.decision !== undefined;
  const live = mine && sent !== state.decision && state.status === "playing";
  const last = lastDiscard(obs);
  state.lastDiscard = last;
  $("status").textContent = (session.watch ? T.t("watching") + " · " : "") + T.rules(obs.rules);
  $("status").dataset.rules = obs.rules;
  $("status").dataset.status = state.status;
  document.body.classList.toggle("my-turn", live);
  document.body.dataset.decision = `${state.hand}:${state.decision ?? ""}:${state.status}`;
  renderIndicators(obs);
  renderSeats(obs, facts, last);
  renderCenter(obs, mine);
  renderFacts(facts);
  if (!session.watch) {
    if (autoPass(obs, live)) return;
    renderMine(obs, live);
    renderActions(obs, live);
    sizeHand($("hand").children.length);  // measured with the buttons beside it in place
  }
  renderResult(obs);
  fitSeats();  // last: the board's room is what your hand and buttons leave it
  $("auto").hidden = session.watch || !(state.auto || []).includes(obs.seat);
  // A seat's timer (deadline and bank), or for a spectator the first running timer among the seats'.
  const timer = session.watch ? (state.timers || [])[0] : { deadline: state.deadline, bank: state.bank };
  timerEnd = timer && timer.deadline !== null && timer.deadline !== undefined ? performance.now() + timer.deadline * 1000 : 0;
  timerBank = timer && timer.bank ? timer.bank : 0;
  timerTotal = timer && timer.deadline ? Math.max(1, timer.deadline - timerBank) : 1;
  timerSeat = timer && timer.seat !== undefined ? timer.seat : null;
  seatTimers = new Map((state.timers || []).map((t) => [t.seat, performance.now() + t.deadline * 1000]));
  tick();
}

function tick() {
  const box = $("timer");
  const bar = $("my-timer");
  if (!timerEnd || !state) { box.hidden = true; bar.classList.remove("on"); return; }
  const left = Math.max(0, (timerEnd - performance.now()) / 1000);
  box.hidden = false;
  if (state.status !== "playing") { box.textContent = T.t("next_in", { s: left.toFixed(0) }); bar.classList.remove("on"); return; }
  const own = left - timerBank;
  box.classList.toggle("bank", own <= 0);
  box.classList.toggle("low", own > 0 && own <= 5);
  const who = session.watch && timerSeat !== null ? seatName(timerSeat) + " " : "";
  box.replaceChildren(who + (own > 0 ? T.t("timer_s", { s: own.toFixed(0) }) : T.t("timer_bank_only", { s: left.toFixed(0) })));
  if (own > 0 && timerBank) box.append(make("small", { textContent: " +" + T.t("timer_bank", { s: timerBank.toFixed(0) }) }));
  if (!session.watch) {
    bar.classList.add("on");
    bar.classList.toggle("bank", own <= 0);
    bar.firstElementChild.style.width = `${Math.max(0, Math.min(100, own > 0 ? (own / timerTotal) * 100 : (left / Math.max(1, timerBank)) * 100))}%`;
  }
  for (const view of document.querySelectorAll(".seat-timer")) {
    const end = seatTimers.get(+view.dataset.seat);
    if (end) view.textContent = T.t("timer_s", { s: Math.max(0, (end - performance.now()) / 1000).toFixed(0) });
  }
}
setInterval(tick, 250);

// ---- Motion and sound ------------------------------------------------------------------------------------------

// What changed since the previous state, said aloud (a call-out over the seat) and played (when sound is on).
function feedback(offerBox) {
  const obs = state.observation;
  if (!previous) return;
  const before = previous.observation;
  for (let seat = 0; seat < obs.melds.length; seat++) {
    const had = before.melds[seat].length;
    obs.melds[seat].slice(had).forEach((meld, index) => {
      if (CALLS[meld.type]) callout(seat, T.both(CALLS[meld.type]).split(" ")[0], meld.type);
      flyClaim(seat, had + index, meld, offerBox);
    });
  }
  const ready = (facts) => new Set((facts || []).filter((f) => f.zh === "亮倒" && f.seat !== null && f.seat !== undefined).map((f) => f.seat));
  const was = ready(previous.facts);
  for (const seat of ready(state.facts)) if (!was.has(seat)) callout(seat, "亮倒", "liangdao");
  if (obs.result && !before.result) {
    if (obs.result.wins.length) for (const win of obs.result.wins) callout(win.seat, win.source === "wall" ? "自摸" : "胡", "win");
    else callout(null, "流局", "drawn");
  } else if (obs.discards.some((d, s) => d.length > (before.discards[s] || []).length)) sound("discard");
  if (state.decision !== null && state.decision !== previous.decision && state.status === "playing" && !session.watch) sound("turn");
}

function callout(seat, word, kind) {
  const layer = $("callout");
  const anchor = seat === null ? $("center") : document.querySelector(`#seats .seat[data-seat="${seat}"]`);
  const bubble = make("div", { className: "bubble " + kind, textContent: word });
  if (anchor) {
    const box = anchor.getBoundingClientRect();
    bubble.style.left = `${Math.min(window.innerWidth - 70, Math.max(70, box.left + box.width / 2))}px`;
    bubble.style.top = `${Math.max(40, box.top + box.height / 2)}px`;
  }
  layer.append(bubble);
  setTimeout(() => bubble.remove(), REDUCED.matches ? 1200 : 1400);
  sound(kind === "win" ? "win" : "call");
}

// How each place on the board turns its tiles (table.css): a claimed tile turns as it flies between seats.
const ANGLE = { bottom: 0, right: -90, top: 180, left: 90 };

// A claimed tile flies from the discarder's pond (or from the centre, a card turned up from the wall) into the
// claimer's new meld: a copy of it crosses the call-out layer over the board, turning and growing from the
// pond's tile into the meld's, and the meld's own tile shows when it lands. Not with reduced motion.
function flyClaim(seat, meldIndex, meld, offerBox) {
  if (REDUCED.matches || meld.concealed || meld.claimed_from === null || meld.claimed_from === undefined) return;
  const to = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
  const meldView = to && to.querySelectorAll(".melds .meld")[meldIndex];
  const target = meldView && meldView.querySelector(".tile.claimed");
  if (!target) return;
  const from = document.querySelector(`#seats .seat[data-seat="${meld.claimed_from}"]`);
  const source = from && [...from.querySelectorAll(".pond .tile.claimed")].reverse().find((t) => t.dataset.tile === meld.claimed_tile);
  const start = source ? source.getBoundingClientRect() : offerBox;
  if (!start || !start.width) return;
  const end = target.getBoundingClientRect();
  const angleTo = ANGLE[to.dataset.position] || 0;
  let angleFrom = source ? ANGLE[from.dataset.position] || 0 : 0;
  if (angleFrom - angleTo > 180) angleFrom -= 360;  // the short way round
  if (angleTo - angleFrom > 180) angleFrom += 360;
  const width = (angle, box) => (Math.abs(angle) % 180 === 90 ? box.height : box.width);  // the tile's own width
  const w = width(angleTo, end);
  const flying = Tiles.tile(meld.claimed_tile);
  flying.classList.add("flying");
  flying.style.setProperty("--tw", `${w}px`);
  Object.assign(flying.style, { left: `${end.left + end.width / 2 - w / 2}px`, top: `${end.top + end.height / 2 - (w * 2) / 3}px` });
  const dx = start.left + start.width / 2 - (end.left + end.width / 2);
  const dy = start.top + start.height / 2 - (end.top + end.height / 2);
  const scale = width(angleFrom, start) / w;
  $("callout").append(flying);
  target.style.visibility = "hidden";
  document.body.dataset.flights = String(+(document.body.dataset.flights || 0) + 1);
  const land = () => { flying.remove(); target.style.visibility = ""; };
  const flight = flying.animate([
    { transform: `translate(${dx}px, ${dy}px) rotate(${angleFrom}deg) scale(${scale})`, offset: 0 },
    { transform: `translate(${dx * 0.45}px, ${dy * 0.45 - 30}px) rotate(${(angleFrom + angleTo) / 2}deg) scale(${(scale + 1) * 0.75})`, offset: 0.5 },
    { transform: `rotate(${angleTo}deg)`, offset: 1 },
  ], { duration: 600, easing: "cubic-bezier(0.4, 0, 0.2, 1)", fill: "forwards" });
  flight.onfinish = land;
  flight.oncancel = land;
  setTimeout(land, 900);  // a page in the background may never finish an animation
}

let audio = null;
const soundOn = () => { try { return localStorage.getItem("hupai:sound") === "1"; } catch (e) { return false; } };

// Sounds made on the spot by WebAudio (no sound file): a click for a discard, two notes for a call, a chord
// for a win, a soft bell when a decision is yours. Off until the player turns them on.
function sound(kind) {
  if (!soundOn()) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const notes = { discard: [[880, 0, 0.05, "triangle"]], turn: [[660, 0, 0.12, "sine"]],
      call: [[523, 0, 0.1, "square"], [784, 0.09, 0.14, "square"]],
      win: [[523, 0, 0.3, "sine"], [659, 0.08, 0.3, "sine"], [784, 0.16, 0.4, "sine"]] }[kind] || [];
    const now = audio.currentTime;
    for (const [freq, at, length, type] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = type; osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(kind === "discard" ? 0.25 : 0.12, now + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at); osc.stop(now + at + length + 0.02);
    }
  } catch (e) { /* no audio device: silence */ }
}

// ---- Keyboard --------------------------------------------------------------------------------------------------

// ← → move along the hand, Enter or Space discards the focused tile (a button), and a letter answers a
// decision: P pass, C chow, G pung (碰), K kong, H win (胡).
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || !state || session.watch) return;
  const target = event.target;
  if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
  const tiles = [...$("hand").querySelectorAll("button:enabled")];  // the tiles that can be discarded now
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    if (!tiles.length) return;
    const at = tiles.indexOf(document.activeElement);
    const next = at < 0 ? (event.key === "ArrowLeft" ? tiles.length - 1 : 0)
      : (at + (event.key === "ArrowLeft" ? -1 : 1) + tiles.length) % tiles.length;
    tiles[next].focus();
    event.preventDefault();
    return;
  }
  const kind = Object.keys(KEYS).find((k) => KEYS[k] === event.key.toLowerCase());
  if (kind) {
    const button = $("actions").querySelector(`button[data-kind="${kind}"]:enabled`);
    if (button) { button.click(); event.preventDefault(); }
  } else if (event.key === "Escape") {
    const pass = $("actions").querySelector('button[data-kind="pass"]:enabled');
    if (pass) pass.click();
  }
}

// ---- Start -----------------------------------------------------------------------------------------------------

const failed = (e) => { $("message").textContent = e.message; };
T.setLang(T.lang());
translate();
$("sound").onclick = () => {
  try { localStorage.setItem("hupai:sound", soundOn() ? "0" : "1"); } catch (e) { /* private mode */ }
  translate();
  sound("call");
};
$("copy-link").onclick = copySeatLink;
$("take-back").onclick = () => socket.send(JSON.stringify({ type: "back" }));
$("here").onclick = () => { replaced = false; $("here").hidden = true; $("message").textContent = ""; connect(); };
document.addEventListener("keydown", onKey);
window.addEventListener("resize", () => { if (state && !session.watch) render(); });
const params = new URLSearchParams(location.search);
const seatPath = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
const watchPath = location.pathname.match(/^\/watch\/([A-Za-z0-9_-]+)$/);
if (watchPath || params.has("watch")) watch(watchPath ? watchPath[1] : params.get("watch")).catch(failed);
else if (seatPath || params.get("table")) sit(seatPath ? seatPath[1] : params.get("table"), params.has("seat") ? +params.get("seat") : null).catch(failed);
else lobby().catch(failed);
