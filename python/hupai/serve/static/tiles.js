// The hupai tile art: every mahjong tile (1m..7z), every Wai Huzi card (x1..x10 小一..小十, d1..d10 大壹..大拾),
// the face-down back and the marks (金 the gold, 白板 as the gold's face, 神), drawn as SVG by this file alone: no
// font, no image file. The table, the spectator page and the replay viewer (which inlines this file) all draw
// with it. A classic script (one global, HupaiTiles) so that a self-contained replay page can inline it.
"use strict";

const HupaiTiles = (() => {
  const NS = "http://www.w3.org/2000/svg";
  // Characters as strokes on a 10 x 10 grid (polylines "x,y x,y ..."): a stroke font of the few characters the
  // tiles need, so a tile reads the same on a device with no CJK font.
  const GLYPHS = {
    一: ["1,5 9,5"],
    二: ["2,3 8,3", "1,7.5 9,7.5"],
    三: ["2,2 8,2", "2.6,5 7.4,5", "1,8.5 9,8.5"],
    四: ["1.5,2 1.5,9", "1.5,2 8.5,2 8.5,9", "1.5,8.6 8.5,8.6", "4.1,2 3.9,5.2 2.6,6.6", "6,2 6,5.6 6.6,6.2 8.5,6.2"],
    五: ["1.5,1.5 8.5,1.5", "4.6,1.5 3.6,8.6", "2.4,4.8 7.4,4.8 7.2,8.6", "1,8.6 9,8.6"],
    六: ["4.6,0.6 5.6,1.8", "1,3.2 9,3.2", "3.8,5.2 1.8,8.8", "6.2,5.2 8.4,8.8"],
    七: ["1,5.2 9,3.6", "4,1 4,8.2 5,9 9,9 9,7.6"],
    八: ["4,2 3.6,6 1,9", "6,2 6.4,6 9,9"],
    九: ["4.2,1 4,5 1.4,9", "1.4,3.6 6.4,3.6 6.4,8.2 7.3,9 9.3,9 9.3,7.6"],
    十: ["1,5 9,5", "5,1 5,9.6"],
    万: ["1,2 9,2", "4.2,2 3.6,6 1.4,9.2", "3.9,4.6 8,4.6 7.6,8.6 6,9.2"],
    东: ["1.5,2.6 8.5,2.6", "4.8,0.8 2.4,5.6 8.6,5.6", "5.6,3.4 5.6,9.2 4.4,9.2", "3.2,7 1.6,8.6", "7,7 8.6,8.6"],
    南: ["1,2 9,2", "5,0.4 5,3.6", "1.8,3.6 1.8,9.6", "1.8,3.6 8.2,3.6 8.2,9.2 7.2,9.6", "3.6,4.6 4.3,5.6",
      "6.4,4.6 5.7,5.6", "3,6.2 7,6.2", "2.8,7.7 7.2,7.7", "5,6.2 5,9.6"],
    西: ["1,1.5 9,1.5", "1.8,4 1.8,9.6", "1.8,4 8.2,4 8.2,9.6", "1.8,8.9 8.2,8.9", "4,1.5 4,5 3,7",
      "6,1.5 6,6.6 7.2,6.6"],
    北: ["3.8,1 3.8,9.6", "1,4.6 3.8,4.6", "1,8.6 3.8,7", "6.2,1 6.2,8.4 7,9.2 9.3,9.2 9.3,7.8", "9,3.6 6.2,5"],
    中: ["1.5,3 1.5,7.4", "1.5,3 8.5,3 8.5,7.4", "1.5,7 8.5,7", "5,0.4 5,9.8"],
    发: ["2,1.2 2.8,2.6", "6.6,1 7.9,2.2", "1,3.6 9,3.6", "4.6,0.8 4,5 1.4,9.6", "3.8,5.6 7.6,5.6 5.2,8.6 2.8,9.8",
      "4.6,6.6 9,9.8"],
    // The formal numerals of the big Wai Huzi cards (大写数字), simplified forms as printed on the cards.
    壹: ["2,1.2 8,1.2", "5,0.2 5,2.4", "3.2,2.4 6.8,2.4", "1.4,4 1.4,3.3 8.6,3.3 8.6,4", "2.6,4.6 7.4,4.6",
      "3,5.4 3,7", "3,5.4 7,5.4 7,7", "3,7 7,7", "3.8,7.6 4.3,8.4", "6.2,7.6 5.7,8.4", "1.2,9.2 8.8,9.2"],
    贰: ["1.6,1.6 5,1.6", "0.8,3.4 8.4,3.1", "5.6,0.4 6.2,5 9.2,9.4 9.4,8", "7.4,0.8 8.4,1.8",
      "1.4,4.6 1.4,7.8", "1.4,4.6 5.2,4.6 5.2,7.8", "3.3,5.6 3.3,7.8 1.2,9.6", "4.2,8.6 5.6,9.6"],
    叁: ["4.6,0.4 2.8,2.4 7,2.2", "6,1.2 7.4,2.6", "1,3.8 9,3.8", "5,2.9 4.2,4.6 1.4,6", "5.4,4.4 8.8,6",
      "3,6.6 7,6.6", "3.4,8 6.6,8", "1.4,9.4 8.6,9.4"],
    肆: ["2.1,0.6 2.1,6", "2.1,1.3 4.2,1.3", "2.1,2.7 4,2.7", "2.1,4.1 4,4.1", "0.6,5.4 4.6,5.4",
      "2.1,6 1,9.2", "2.4,6.4 4.6,9.2", "5.8,1.2 8.6,1.2 8.6,3.6", "5.8,3.6 8.6,3.6", "5,2.4 9.6,2.4",
      "5.6,5 8.8,5", "5,6.6 9.6,6.6", "7.2,0.4 7.2,9.8"],
    伍: ["3,0.6 1,4.2", "2.1,2.6 2.1,9.6", "4.2,1.2 9,1.2", "6.4,1.2 5.6,8.4", "4.6,4.4 8.4,4.4 8.2,8.4",
      "3.6,8.6 9.6,8.6"],
    陆: ["1.2,0.8 1.2,9.8", "1.2,0.8 3.4,0.8 2.2,3.4 3.6,5.2 2.6,6.6 1.8,6.4", "4.8,1.8 9,1.8", "4.2,4.2 9.6,4.2",
      "6.9,0.4 6.9,9", "4.6,6 4.6,9 9.2,9 9.2,6"],
    柒: ["1.2,0.6 2,1.4", "0.8,2.6 1.6,3.4", "0.8,5.2 2.2,4", "3.4,2.4 9.2,1.6", "5.4,0.3 5.4,3.6 6,4.2 9,4.2 9,3.4",
      "1,6.2 9,6.2", "5,4.8 5,9.8", "4.8,6.4 1.6,9.2", "5.2,6.4 8.6,9.2"],
    捌: ["0.4,3 3,3", "1.8,0.4 1.8,9 1,8.4", "0.4,7 3,5.2", "3.8,1 3.8,3.8", "3.8,1 6.4,1 6.4,3.8", "3.8,3.8 6.4,3.8",
      "3.6,5.6 6.6,5.6 6.4,9 5.4,9.6", "5.2,4.4 4.8,7.4 3.4,9.6", "7.8,1.8 7.8,6.6", "9.4,0.4 9.4,9.2 8.6,9.6"],
    玖: ["0.6,1.6 3.6,1.6", "0.8,5 3.4,5", "2.1,1.6 2.1,8.4", "0.6,8.8 3.8,7.4", "5.8,0.4 4.2,3.8",
      "5.4,1.8 8.6,1.8 7.4,4.8 4,9.6", "6.6,6 9.6,9.6"],
    拾: ["0.4,3 3,3", "1.8,0.4 1.8,9 1,8.4", "0.4,7 3,5.2", "6.6,0.4 3.6,3.6", "6.6,0.4 9.6,3.6", "5,4 8.2,4",
      "4.4,5.6 4.4,9.4", "4.4,5.6 8.8,5.6 8.8,9.4", "4.4,9.2 8.8,9.2"],
    小: ["5,0.8 5,8.8 4,9.6", "2.8,4 1.2,7.6", "7.2,4 8.8,7.6"],
    大: ["1,3.8 9,3.8", "5,0.8 5,4.6 1.4,9.6", "5,4.6 9,9.6"],
    金: ["5,0.6 1,4.4", "5,0.6 9,4.4", "2.8,4.6 7.2,4.6", "1.8,6.6 8.2,6.6", "5,4.6 5,9.4", "3,7.4 3.8,8.6",
      "7,7.4 6.2,8.6", "1,9.4 9,9.4"],
    神: ["2,0.8 2.8,1.8", "1,3 3.6,3 1.4,6.4", "2.4,4.6 2.4,9.8", "2.4,5.6 3.6,6.6", "4.6,2.6 4.6,7.4",
      "4.6,2.6 9,2.6 9,7.4", "4.6,5 9,5", "4.6,7.4 9,7.4", "6.8,0.6 6.8,9.8"],
  };
  const NUMERALS = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
  const BIG = ["壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖", "拾"];
  const HONORS = ["东", "南", "西", "北", "白", "发", "中"];
  const SUIT = { m: ["万", "characters"], p: ["筒", "dots"], s: ["条", "bamboo"] };
  const HONOR_EN = ["East wind", "South wind", "West wind", "North wind", "White dragon", "Green dragon",
    "Red dragon"];
  const INK = { blue: "#1b3f8f", red: "#c0211f", green: "#14804a", black: "#1d1d1d" };

  function el(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    for (const child of children) if (child) node.append(child);
    return node;
  }

  // A character of GLYPHS drawn into the box (x, y, size), in a colour with a stroke weight.
  function glyph(char, x, y, size, color, weight = 1.1) {
    const scale = size / 10;
    const group = el("g", { transform: `translate(${x} ${y}) scale(${scale})`, fill: "none", stroke: color,
      "stroke-width": weight, "stroke-linecap": "round", "stroke-linejoin": "round" });
    for (const points of GLYPHS[char] || []) group.append(el("polyline", { points }));
    return group;
  }

  // 筒: the dots as printed on the tiles (rows, colours), in the 60 x 80 face.
  const DOTS = {
    1: [[30, 40, 19, "m"]],
    2: [[30, 22, 10, "g"], [30, 58, 10, "b"]],
    3: [[15, 17, 8.5, "b"], [30, 40, 8.5, "r"], [45, 63, 8.5, "g"]],
    4: [[18, 23, 9.5, "b"], [42, 23, 9.5, "g"], [18, 57, 9.5, "g"], [42, 57, 9.5, "b"]],
    5: [[17, 19, 8, "b"], [43, 19, 8, "g"], [30, 40, 8, "r"], [17, 61, 8, "g"], [43, 61, 8, "b"]],
    6: [[19, 16, 8, "g"], [41, 16, 8, "g"], [19, 43, 8, "r"], [41, 43, 8, "r"], [19, 64, 8, "r"], [41, 64, 8, "r"]],
    7: [[14, 13, 6.5, "g"], [30, 21, 6.5, "g"], [46, 29, 6.5, "g"], [19, 47, 7, "r"], [41, 47, 7, "r"],
      [19, 65, 7, "r"], [41, 65, 7, "r"]],
    8: [19, 41].flatMap((x) => [13, 31, 49, 67].map((y) => [x, y, 7.2, "b"])),
    9: [16, 30, 44].flatMap((x, i) => [17, 40, 63].map((y) => [x, y, 7, ["b", "r", "g"][i]])),
  };
  const DOT_INK = { b: INK.blue, r: INK.red, g: INK.green };

  function dot(x, y, r, tone) {
    if (tone === "m") {  // 一筒: the big flower
      return el("g", {}, el("circle", { cx: x, cy: y, r, fill: "#fff", stroke: INK.green, "stroke-width": 3 }),
        el("circle", { cx: x, cy: y, r: r * 0.68, fill: "none", stroke: INK.blue, "stroke-width": 2.4,
          "stroke-dasharray": "3 2" }),
        el("circle", { cx: x, cy: y, r: r * 0.38, fill: INK.red }),
        el("circle", { cx: x, cy: y, r: r * 0.14, fill: "#fff" }));
    }
    const ink = DOT_INK[tone];
    return el("g", {}, el("circle", { cx: x, cy: y, r, fill: ink }),
      el("circle", { cx: x, cy: y, r: r * 0.66, fill: "none", stroke: "#fff", "stroke-width": r * 0.18 }),
      el("circle", { cx: x, cy: y, r: r * 0.22, fill: "#fff" }));
  }

  // 条: each stick's centre, and red ones (as on the printed tiles).
  const STICKS = {
    2: [[30, 22], [30, 58]],
    3: [[30, 22], [19, 58], [41, 58]],
    4: [[19, 22], [41, 22], [19, 58], [41, 58]],
    5: [[15, 22], [45, 22], [30, 40, "r"], [15, 58], [45, 58]],
    6: [[14, 22], [30, 22], [46, 22], [14, 58], [30, 58], [46, 58]],
    7: [[30, 15, "r"], [14, 42], [30, 42], [46, 42], [14, 66], [30, 66], [46, 66]],
    8: [[11, 22], [24, 22], [37, 22], [50, 22], [11, 58], [24, 58], [37, 58], [50, 58]],
    9: [14, 30, 46].flatMap((x) => [15, 40, 65].map((y) => [x, y, x === 30 ? "r" : ""])),
  };

  function stick(x, y, tall, red) {
    const ink = red ? INK.red : INK.green;
    const h = tall;
    return el("g", {}, el("rect", { x: x - 3.2, y: y - h / 2, width: 6.4, height: h, rx: 3, fill: ink }),
      el("line", { x1: x - 3.2, y1: y, x2: x + 3.2, y2: y, stroke: "#fff", "stroke-width": 1.2 }),
      el("line", { x1: x, y1: y - h / 2 + 2.5, x2: x, y2: y + h / 2 - 2.5, stroke: "#fff", "stroke-width": 0.8,
        "stroke-opacity": 0.6 }));
  }

  // 一条: the bird.
  function bird() {
    return el("g", {},
      el("path", { d: "M30 62 C16 60 12 44 20 34 C24 29 31 29 34 33 C38 26 46 22 48 14 C52 24 46 34 40 38 " +
        "C46 44 42 58 30 62 Z", fill: INK.green }),
      el("path", { d: "M30 62 L24 72 M30 62 L36 72", stroke: INK.red, "stroke-width": 2.4, fill: "none" }),
      el("circle", { cx: 44, cy: 19, r: 2.4, fill: INK.red }),
      el("path", { d: "M22 40 C26 46 32 48 36 44", stroke: "#fff", "stroke-width": 1.6, fill: "none" }),
      el("path", { d: "M20 48 C25 54 32 55 37 51", stroke: INK.blue, "stroke-width": 1.6, fill: "none" }));
  }

  // What a notation names: {family, suit/kind, n, zh, en}.
  function parse(notation) {
    const mahjong = /^([1-9])([mpsz])$/.exec(notation || "");
    if (mahjong) {
      const n = +mahjong[1], suit = mahjong[2];
      if (suit === "z") {
        if (n > 7) return null;
        return { suit, n, zh: HONORS[n - 1] + (n <= 4 ? "风" : n === 5 ? "板" : n === 6 ? "财" : ""), en: HONOR_EN[n - 1] };
      }
      return { suit, n, zh: NUMERALS[n - 1] + SUIT[suit][0], en: `${n} ${SUIT[suit][1]}` };
    }
    const card = /^([xd])(10|[1-9])$/.exec(notation || "");
    if (card) {
      const n = +card[2], big = card[1] === "d";
      return { suit: card[1], n, zh: (big ? "大" + BIG[n - 1] : "小" + NUMERALS[n - 1]),
        en: `${big ? "big" : "small"} ${n}`, red: [2, 7, 10].includes(n) };
    }
    return null;
  }

  // The accessible name of a tile: "5 dots / 五筒".
  function name(notation) {
    const p = parse(notation);
    return p ? `${p.en} / ${p.zh}` : "hidden tile";
  }

  function face(p) {
    const g = el("g");
    if (p.suit === "m") {
      g.append(glyph(NUMERALS[p.n - 1], 14, 6, 32, INK.black, 1.25), glyph("万", 12, 42, 36, INK.red, 1.05));
    } else if (p.suit === "p") {
      for (const [x, y, r, tone] of DOTS[p.n]) g.append(dot(x, y, r, tone));
    } else if (p.suit === "s") {
      if (p.n === 1) g.append(bird());
      else for (const [x, y, red] of STICKS[p.n]) g.append(stick(x, y, p.n >= 7 ? 18 : 24, red === "r"));
    } else if (p.suit === "z") {
      if (p.n === 5) {
        g.append(el("rect", { x: 10, y: 12, width: 40, height: 56, rx: 3, fill: "none", stroke: INK.blue,
          "stroke-width": 3 }), el("rect", { x: 16, y: 18, width: 28, height: 44, rx: 2, fill: "none",
          stroke: INK.blue, "stroke-width": 1.4 }));
      } else {
        const color = p.n === 6 ? INK.green : p.n === 7 ? INK.red : INK.blue;
        g.append(glyph(HONORS[p.n - 1], 7, 17, 46, color, 1.25));
      }
    } else {
      // A Wai Huzi card: its numeral large, as printed on the cards (小 cards 一..十, 大 cards the formal 壹..拾
      // in a framed card), 小 or 大 in the corner; the red cards (2, 7, 10) red.
      const color = p.red ? INK.red : INK.black;
      const big = p.suit === "d";
      g.append(glyph((big ? BIG : NUMERALS)[p.n - 1], 7, 20, 46, color, big ? 1.05 : 1.3),
        glyph(big ? "大" : "小", 5, 5, 12, big ? INK.red : INK.blue, 1.3));
      if (big) g.append(el("rect", { x: 3.5, y: 3.5, width: 53, height: 73, rx: 5, fill: "none", stroke: color,
        "stroke-width": 1.2 }));
    }
    return g;
  }

  // A tile as an <svg> element. options: {back, gold (the 金 mark), stand (the gold's face a 白板 plays as),
  // shen (the 神 mark), zipai (a card's shape)}.
  function svg(notation, options = {}) {
    const p = options.back ? null : parse(notation);
    const card = options.zipai || (p && (p.suit === "x" || p.suit === "d"));
    const root = el("svg", { viewBox: "0 0 60 80", class: "tile-art", "aria-hidden": "true", focusable: "false" });
    if (!p) {
      root.append(el("rect", { x: 1, y: 1, width: 58, height: 78, rx: card ? 4 : 7, fill: "#1f6f8b",
        stroke: "#0f4659", "stroke-width": 2 }),
      el("rect", { x: 8, y: 9, width: 44, height: 62, rx: 4, fill: "none", stroke: "#7fc3d6", "stroke-width": 1.2,
        "stroke-dasharray": "4 3" }),
      el("circle", { cx: 30, cy: 40, r: 8, fill: "none", stroke: "#7fc3d6", "stroke-width": 1.4 }));
      return root;
    }
    root.append(el("rect", { x: 1, y: 1, width: 58, height: 78, rx: card ? 4 : 7, fill: card ? "#f7f1dc" : "#fdfbf3",
      stroke: "#b9b19a", "stroke-width": 1.5 }), face(p));
    if (options.gold) root.append(mark("金", "#d4a017"));
    if (options.stand) {
      // 白板 playing as the gold's face: the face it stands for, small, in the corner.
      const stand = parse(options.stand);
      if (stand) {
        const inset = el("svg", { x: 30, y: 44, width: 27, height: 34, viewBox: "0 0 60 80" },
          el("rect", { x: 1, y: 1, width: 58, height: 78, rx: 7, fill: "#fffbe6", stroke: "#d4a017",
            "stroke-width": 4 }), face(stand));
        root.append(inset);
      }
    }
    if (options.shen) root.append(mark("神", "#7a3fb0"));
    return root;
  }

  // A round corner badge with a character (金, 神).
  function mark(char, color) {
    return el("g", { class: "tile-mark" }, el("circle", { cx: 49, cy: 11, r: 10, fill: color, stroke: "#fff",
      "stroke-width": 1.5 }), glyph(char, 42.5, 4.5, 13, "#fff", 1.6));
  }

  // A tile as an HTML element (a span, or the element given, such as a button) holding the art, named for
  // screen readers and for tests (data-tile is the notation).
  function tile(notation, options = {}, element = null) {
    const box = element || document.createElement("span");
    box.classList.add("tile");
    if (options.back) box.classList.add("back");
    if (options.gold) box.classList.add("gold");
    box.append(svg(notation, options));
    const label = options.back ? (options.label || "hidden tile") : name(notation) +
      (options.gold ? " (金 gold)" : "") + (options.stand ? ` (as ${name(options.stand)})` : "");
    box.setAttribute(element ? "aria-label" : "title", label);
    if (!element) { box.setAttribute("role", "img"); box.setAttribute("aria-label", label); }
    if (!options.back) box.dataset.tile = notation;
    return box;
  }

  return { svg, tile, name, parse, glyph, GLYPHS };
})();

if (typeof window !== "undefined") window.HupaiTiles = HupaiTiles;
