// Cards: parsing card codes (sdk/card.go) and drawing every card face as crisp SVG at any size.
//
// cardEl(code, {roles, back}) returns an element <div class="card"> holding one SVG. French cards
// ("QH", "10S", "JK"), Last Card cards ("R7", "GS", "BR", "Y+2", "W", "W+4"), the role faces a
// view's Roles names (DRUGS: burn, reset, any, max7, reverse; Hotspot/Last Card roles add a small
// badge) and the backs ("french", and "color" for the coloured family). Colour is never the only
// cue: every suit and every colour of the coloured cards has its own symbol.

import { t, locale } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

export const SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const COLORS = { R: "red", Y: "yellow", G: "green", B: "blue" };
export const COLOR_SYMBOL_NAME = { R: "flame", Y: "sun", G: "leaf", B: "moon" };
const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
const LC_VALUE_NAMES = { S: "Skip", R: "Reverse", "+2": "Draw Two" };

// Hex colours of the Last Card colours and the French suits (red suits / black suits).
export const LC_HEX = { R: "#e0393e", Y: "#f4b81c", G: "#2f9e57", B: "#2f6fd6" };
const RED_INK = "#c8202f";
const BLACK_INK = "#1d1f24";

// parseCard reads a card code into {code, family, rank, suit, color, value}; family is "french",
// "color" (the coloured, UNO-like cards: sdk.Card.IsColorCard) or "" (unknown: drawn as a plain
// labelled card).
export function parseCard(code) {
  const s = String(code || "").toUpperCase().trim();
  if (s === "JK") return { code: s, family: "french", rank: "JK", suit: "" };
  if (s === "W" || s === "W+4") return { code: s, family: "color", rank: s, value: s, color: "" };
  const lc = /^([RYGB])([0-9]|S|R|\+2)$/.exec(s);
  if (lc) return { code: s, family: "color", color: lc[1], value: lc[2], rank: lc[2] };
  const fr = /^(A|[2-9]|10|J|Q|K)([SHDC])$/.exec(s);
  if (fr) return { code: s, family: "french", rank: fr[1], suit: fr[2] };
  return { code: s, family: "", rank: s };
}

// rankCode is the card's rank code as views key Roles ("10", "JK", "+2", "W").
export function rankCode(code) {
  return parseCard(code).rank;
}

// cardName is a card's name for screen readers and messages ("Queen of hearts", "red 7").
export function cardName(code) {
  const c = parseCard(code);
  if (c.family === "french") {
    if (c.rank === "JK") return t("Joker");
    return t("{rank} of {suit}", { rank: RANK_NAMES[c.rank] ? t(RANK_NAMES[c.rank]) : c.rank, suit: t(SUITS[c.suit]) });
  }
  if (c.family === "color") {
    if (c.value === "W") return t("Joker");
    if (c.value === "W+4") return t("Joker Draw Four");
    return t("{color} ({symbol}) {value}", { color: t(COLORS[c.color]), symbol: t(COLOR_SYMBOL_NAME[c.color]), value: LC_VALUE_NAMES[c.value] ? t(LC_VALUE_NAMES[c.value]) : c.value });
  }
  return c.code;
}

// cardWords is a card in words, as a sentence says it: "red 7", "red skip", "Joker Draw Four",
// "queen of spades", "7 of hearts", "joker" (in the player's language: "7 rouge", "dame de pique").
// The move log, the toasts, the summary and the replay name cards with it, and so may screen-reader
// announcements; a code that is no card is returned as it is. Several cards: cardsWords.
export function cardWords(code) {
  const c = parseCard(code);
  if (c.family === "french") {
    if (c.rank === "JK") return t("joker");
    const suit = t(SUITS[c.suit]);
    switch (c.rank) {
      case "A": return t("ace of {suit}", { suit });
      case "J": return t("jack of {suit}", { suit });
      case "Q": return t("queen of {suit}", { suit });
      case "K": return t("king of {suit}", { suit });
    }
    return t("{rank} of {suit}", { rank: c.rank, suit });
  }
  if (c.family === "color") {
    if (c.value === "W") return t("Joker");
    if (c.value === "W+4") return t("Joker Draw Four");
    const color = t(COLORS[c.color]);
    switch (c.value) {
      case "S": return t("{color} skip", { color });
      case "R": return t("{color} reverse", { color });
      case "+2": return t("{color} draw two", { color });
    }
    return t("{color} {value}", { color, value: c.value });
  }
  return c.code;
}

// cardsWords names several cards in words, joined as a list: "red 7, red 8".
export function cardsWords(codes) {
  return (codes || []).map(cardWords).join(", ");
}

// shortName is a compact label for logs: "Q♥", "R7", "JK".
export function shortName(code) {
  const c = parseCard(code);
  if (c.family === "french" && c.suit) return c.rank + SUIT_SYMBOL[c.suit];
  return c.code;
}

// ---- SVG helpers -------------------------------------------------------------------------------

function el(name, attrs = {}, children = []) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  for (const ch of children) if (ch) e.appendChild(ch);
  return e;
}

function text(x, y, str, attrs = {}) {
  const t = el("text", { x, y, "text-anchor": "middle", ...attrs });
  t.textContent = str;
  return t;
}

// Suit and colour symbol paths, drawn in a 100x100 box.
const PATHS = {
  H: "M50 90C22 68 4 50 4 30 4 14 16 4 29 4c10 0 17 6 21 14 4-8 11-14 21-14 13 0 25 10 25 26 0 20-18 38-46 60z",
  D: "M50 2 90 50 50 98 10 50z",
  S: "M50 3C76 27 96 43 96 61c0 14-10 23-22 23-9 0-16-5-20-11 1 10 5 18 13 25H33c8-7 12-15 13-25-4 6-11 11-20 11C14 84 4 75 4 61 4 43 24 27 50 3z",
  C: "M50 4a21 21 0 0 1 17 33 21 21 0 1 1-11 38c1 9 5 16 11 22H33c6-6 10-13 11-22a21 21 0 1 1-11-38A21 21 0 0 1 50 4z",
  // Last Card symbols: flame (red), sun (yellow), leaf (green), moon (blue).
  flame: "M52 4c4 20 30 30 30 58 0 20-14 34-32 34S18 82 18 62c0-14 8-22 14-30 2 10 6 14 11 16C41 32 44 16 52 4z",
  sun: "M50 28a22 22 0 1 1 0 44 22 22 0 0 1 0-44zM47 2h6l2 18h-10zM47 98h6l2-18h-10zM2 47v6l18 2v-10zM98 47v6l-18 2v-10zM15 19l4-4 14 11-7 7zM85 81l-4 4-14-11 7-7zM81 15l4 4-11 14-7-7zM19 85l-4-4 11-14 7 7z",
  leaf: "M86 8C40 8 12 30 12 62c0 10 3 18 8 24l-8 10 5 4 8-10c6 4 13 6 21 6 34 0 48-34 40-88zM27 80c12-18 28-32 46-44-16 14-30 30-40 48z",
  moon: "M60 6a44 44 0 1 0 34 62A36 36 0 0 1 60 6z",
};

const SYMBOL_OF_COLOR = { R: "flame", Y: "sun", G: "leaf", B: "moon" };

// glyph draws the symbol named key at (cx, cy) with the given size, optionally upside down.
function glyph(key, cx, cy, size, fill, flip = false) {
  const s = size / 100;
  const tr = `translate(${cx} ${cy})${flip ? " rotate(180)" : ""} scale(${s}) translate(-50 -50)`;
  return el("path", { d: PATHS[key], fill, transform: tr });
}

function inkOf(suit) {
  return suit === "H" || suit === "D" ? RED_INK : BLACK_INK;
}

let uid = 0;

// ---- French faces ------------------------------------------------------------------------------

const PIP_LAYOUTS = {
  A: [[50, 70]],
  2: [[50, 30], [50, 110]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[32, 30], [68, 30], [32, 110], [68, 110]],
  5: [[32, 30], [68, 30], [50, 70], [32, 110], [68, 110]],
  6: [[32, 30], [68, 30], [32, 70], [68, 70], [32, 110], [68, 110]],
  7: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [32, 110], [68, 110]],
  8: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [50, 90], [32, 110], [68, 110]],
  9: [[32, 30], [68, 30], [32, 57], [68, 57], [50, 44], [32, 83], [68, 83], [32, 110], [68, 110]],
  10: [[32, 30], [68, 30], [50, 44], [32, 57], [68, 57], [32, 83], [68, 83], [50, 96], [32, 110], [68, 110]],
};

function frame(fill, stroke = "#d8d4cc") {
  return el("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 8, fill, stroke, "stroke-width": 1.5 });
}

function cornerIndex(svg, label, suitKey, ink, opts = {}) {
  const size = label.length > 1 ? 19 : 22;
  const g = el("g", { class: "idx" });
  g.appendChild(text(13, 23, label, { "font-size": size, "font-weight": 700, fill: ink, "letter-spacing": label.length > 1 ? -1.5 : 0 }));
  if (suitKey) g.appendChild(glyph(suitKey, 13, 35, 13, opts.glyphFill || ink));
  svg.appendChild(g);
  const g2 = g.cloneNode(true);
  g2.setAttribute("transform", "rotate(180 50 70)");
  svg.appendChild(g2);
}

function frenchFace(svg, c) {
  const ink = inkOf(c.suit);
  svg.appendChild(frame("#fffdf8"));
  cornerIndex(svg, c.rank, c.suit, ink);
  if (c.rank === "A") {
    svg.appendChild(glyph(c.suit, 50, 70, 46, ink));
  } else if (PIP_LAYOUTS[c.rank]) {
    for (const [x, y] of PIP_LAYOUTS[c.rank]) svg.appendChild(glyph(c.suit, x, y, 19, ink, y > 72));
  } else {
    courtFace(svg, c, ink);
  }
}

// Crown, tiara and cap for K, Q, J: simple shapes over a tinted panel with the big letter.
const COURT_HATS = {
  K: "M22 40 30 14 42 30 50 8 58 30 70 14 78 40z",
  Q: "M26 40c4-12 10-18 16-18 2 8 6 12 8 12s6-4 8-12c6 0 12 6 16 18z",
  J: "M24 40c0-16 12-26 26-26 10 0 20 6 24 14l-10 4c6 2 10 5 12 8z",
};

function courtFace(svg, c, ink) {
  const id = `g${++uid}`;
  const tint = ink === RED_INK ? ["#fde7e4", "#f6c2bb"] : ["#e6ecf7", "#c3cde3"];
  const grad = el("linearGradient", { id, x1: 0, y1: 0, x2: 0, y2: 1 }, [
    el("stop", { offset: "0%", "stop-color": tint[0] }),
    el("stop", { offset: "100%", "stop-color": tint[1] }),
  ]);
  svg.appendChild(el("defs", {}, [grad]));
  svg.appendChild(el("rect", { x: 24, y: 18, width: 52, height: 104, rx: 4, fill: `url(#${id})`, stroke: ink, "stroke-width": 1.4 }));
  const hat = el("path", { d: COURT_HATS[c.rank], fill: "#e3a72f", stroke: "#8a5a12", "stroke-width": 1.2, transform: "translate(0 12) scale(1) " });
  hat.setAttribute("transform", "translate(20 20) scale(0.6)");
  svg.appendChild(hat);
  svg.appendChild(text(50, 86, c.rank, { "font-size": 44, "font-weight": 700, fill: ink, class: "court" }));
  svg.appendChild(glyph(c.suit, 50, 105, 16, ink));
  svg.appendChild(glyph(c.suit, 64, 36, 12, ink));
}

function jokerFace(svg) {
  svg.appendChild(frame("#fffdf8"));
  const star = "M50 6 61 38 95 38 68 58 78 92 50 72 22 92 32 58 5 38 39 38z";
  const colors = ["#c8202f", "#2f6fd6", "#2f9e57", "#e3a72f"];
  colors.forEach((col, i) => {
    svg.appendChild(el("path", { d: star, fill: col, opacity: 0.9, transform: `translate(${26 + (i % 2) * 16} ${36 + Math.floor(i / 2) * 28}) scale(0.32)` }));
  });
  svg.appendChild(text(50, 112, "JOKER", { "font-size": 15, "font-weight": 800, fill: BLACK_INK, "letter-spacing": 2 }));
  for (const [x, y, r] of [[12, 14, 0], [88, 126, 180]]) {
    const g = el("g", { transform: `rotate(${r} ${x} ${y})` });
    g.appendChild(text(x, y + 6, "\u2605", { "font-size": 16, fill: "#c8202f" }));
    g.appendChild(text(x, y + 20, "JK", { "font-size": 10, "font-weight": 700, fill: BLACK_INK }));
    svg.appendChild(g);
  }
}

// ---- DRUGS role faces --------------------------------------------------------------------------

const ROLE_FACES = {
  burn: { bg: "#16161b", ink: "#fff4e6", label: "BURN", accent: "#ff7a1a" },
  reset: { bg: "#0f9b94", ink: "#ffffff", label: "RESET", accent: "#c9fff7" },
  any: { bg: "frost", ink: "#24506b", label: "ANY", accent: "#ffffff" },
  max7: { bg: "#f2a21b", ink: "#3a2300", label: "MAX", accent: "#fff1cc" },
  reverse: { bg: "#7b3fc4", ink: "#ffffff", label: "REVERSE", accent: "#e5d4ff" },
};

const ROLE_ICONS = {
  // a round bomb with a fuse and a spark
  burn: (fill, accent) => [
    el("circle", { cx: 47, cy: 76, r: 20, fill }),
    el("rect", { x: 50, y: 50, width: 10, height: 10, rx: 2, fill, transform: "rotate(35 55 55)" }),
    el("path", { d: "M58 52c6-10 14-12 20-8", stroke: accent, "stroke-width": 2.5, fill: "none" }),
    el("path", { d: "M80 38l2 6 6 1-5 4 2 6-5-4-5 4 2-6-5-4 6-1z", fill: "#ffd23f" }),
    el("circle", { cx: 40, cy: 70, r: 5, fill: "#ffffff", opacity: 0.35 }),
  ],
  // a circular arrow (back to zero)
  reset: (fill) => [
    el("path", { d: "M50 54a22 22 0 1 1-20 13", stroke: fill, "stroke-width": 7, fill: "none", "stroke-linecap": "round" }),
    el("path", { d: "M22 56l8 14 12-10z", fill }),
  ],
  // a snowflake-like asterisk (transparent, takes what is under it)
  any: (fill) => [0, 60, 120].map((a) => el("rect", { x: 47, y: 52, width: 6, height: 44, rx: 3, fill, transform: `rotate(${a} 50 74)` })),
  // a down arrow with a bar: seven or lower
  max7: (fill) => [
    el("path", { d: "M38 54h24v16h10L50 94 28 70h10z", fill }),
  ],
  // two opposing curved arrows
  reverse: (fill) => [
    el("path", { d: "M30 66a20 20 0 0 1 36-8", stroke: fill, "stroke-width": 6, fill: "none" }),
    el("path", { d: "M70 50l0 14-13-4z", fill }),
    el("path", { d: "M70 82a20 20 0 0 1-36 8", stroke: fill, "stroke-width": 6, fill: "none" }),
    el("path", { d: "M30 98l0-14 13 4z", fill }),
  ],
};

function roleFace(svg, c, role) {
  const f = ROLE_FACES[role];
  if (f.bg === "frost") {
    const id = `f${++uid}`;
    svg.appendChild(el("defs", {}, [el("linearGradient", { id, x1: 0, y1: 0, x2: 1, y2: 1 }, [
      el("stop", { offset: "0%", "stop-color": "#f4fbff" }),
      el("stop", { offset: "50%", "stop-color": "#cfe9f7" }),
      el("stop", { offset: "100%", "stop-color": "#a9d3ec" }),
    ])]));
    svg.appendChild(frame(`url(#${id})`, "#8fbcd6"));
    for (let i = 0; i < 7; i++) {
      svg.appendChild(el("circle", { cx: 14 + ((i * 37) % 76), cy: 20 + ((i * 53) % 100), r: 2 + (i % 3), fill: "#ffffff", opacity: 0.8 }));
    }
  } else {
    svg.appendChild(frame(f.bg, "rgba(0,0,0,.35)"));
  }
  const label = c.rank;
  cornerIndex(svg, label, c.suit, f.ink, { glyphFill: f.ink });
  const word = t(f.label);
  svg.appendChild(text(50, 44, word, { "font-size": word.length > 5 ? 12 : 16, "font-weight": 800, fill: f.ink, "letter-spacing": 1 }));
  for (const e of ROLE_ICONS[role](f.ink, f.accent)) svg.appendChild(e);
  if (role === "max7") svg.appendChild(text(50, 122, t("7 or lower"), { "font-size": 9, "font-weight": 700, fill: f.ink }));
}

// ---- Last Card faces ---------------------------------------------------------------------------

function lcSpecialIcon(svg, value, cx, cy, size, fill) {
  const s = size / 40;
  const g = el("g", { transform: `translate(${cx} ${cy}) scale(${s})` });
  if (value === "S") {
    g.appendChild(el("circle", { cx: 0, cy: 0, r: 15, fill: "none", stroke: fill, "stroke-width": 6 }));
    g.appendChild(el("line", { x1: -10, y1: 10, x2: 10, y2: -10, stroke: fill, "stroke-width": 6 }));
  } else if (value === "R") {
    g.appendChild(el("path", { d: "M-16 4a14 14 0 0 1 24-12l-5 6h16v-16l-5 5A22 22 0 0 0-22 4z", fill }));
    g.appendChild(el("path", { d: "M16-4a14 14 0 0 1-24 12l5-6h-16v16l5-5A22 22 0 0 0 22-4z", fill }));
  } else {
    g.appendChild(text(0, 10, value === "W+4" ? "+4" : "+2", { "font-size": 28, "font-weight": 900, fill }));
  }
  svg.appendChild(g);
}

function lcFace(svg, c) {
  const isJoker = c.value === "W" || c.value === "W+4";
  const bg = isJoker ? "#17171c" : LC_HEX[c.color];
  svg.appendChild(frame(bg, "rgba(0,0,0,.3)"));
  svg.appendChild(el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 6, fill: "none", stroke: "#ffffff", "stroke-width": 2, opacity: 0.9 }));
  const oval = el("ellipse", { cx: 50, cy: 70, rx: 34, ry: 52, fill: "#ffffff", transform: "rotate(28 50 70)" });
  if (isJoker) {
    const id = `c${++uid}`;
    const cp = el("clipPath", { id }, [el("ellipse", { cx: 50, cy: 70, rx: 34, ry: 52, transform: "rotate(28 50 70)" })]);
    svg.appendChild(el("defs", {}, [cp]));
    const g = el("g", { "clip-path": `url(#${id})` });
    const quads = [["R", 0, 0], ["Y", 50, 0], ["B", 0, 70], ["G", 50, 70]];
    for (const [col, x, y] of quads) {
      g.appendChild(el("rect", { x, y, width: 50, height: 70, fill: LC_HEX[col] }));
      g.appendChild(glyph(SYMBOL_OF_COLOR[col], x + 25 + (x ? -4 : 4), y + 35 + (y ? -8 : 8), 18, "rgba(255,255,255,.85)"));
    }
    svg.appendChild(g);
    svg.appendChild(el("ellipse", { cx: 50, cy: 70, rx: 34, ry: 52, fill: "none", stroke: "#fff", "stroke-width": 2.5, transform: "rotate(28 50 70)" }));
    if (c.value === "W+4") {
      svg.appendChild(el("rect", { x: 30, y: 57, width: 40, height: 26, rx: 6, fill: "#17171c", opacity: 0.85 }));
      svg.appendChild(text(50, 78, "+4", { "font-size": 22, "font-weight": 900, fill: "#fff" }));
    }
    const corner = c.value === "W+4" ? "+4" : "\u2605";
    for (const [x, y, r] of [[14, 22, 0], [86, 118, 180]]) {
      const t = text(x, y, corner, { "font-size": 17, "font-weight": 900, fill: "#fff", transform: `rotate(${r} ${x} ${y - 6})` });
      svg.appendChild(t);
    }
    return;
  }
  svg.appendChild(oval);
  const col = LC_HEX[c.color];
  const sym = SYMBOL_OF_COLOR[c.color];
  // Symbol watermark inside the oval, then the value.
  svg.appendChild(glyph(sym, 50, 70, 62, col + "33"));
  if (/^[0-9]$/.test(c.value)) {
    const t = text(50, 88, c.value, { "font-size": 52, "font-weight": 900, fill: col, stroke: "#1d1f24", "stroke-width": 1.6 });
    svg.appendChild(t);
    if (c.value === "6" || c.value === "9") svg.appendChild(el("rect", { x: 38, y: 93, width: 24, height: 4, rx: 2, fill: col }));
  } else {
    lcSpecialIcon(svg, c.value, 50, 70, 44, col);
  }
  // Corner: value and the colour's symbol.
  const cornerLabel = /^[0-9]$/.test(c.value) ? c.value : c.value === "+2" ? "+2" : "";
  for (const flip of [false, true]) {
    const g = el("g", flip ? { transform: "rotate(180 50 70)" } : {});
    if (cornerLabel) g.appendChild(text(16, 26, cornerLabel, { "font-size": cornerLabel.length > 1 ? 16 : 20, "font-weight": 900, fill: "#fff" }));
    else lcSpecialIcon(g, c.value, 16, 19, 16, "#fff");
    g.appendChild(glyph(sym, 16, 38, 14, "#fff"));
    svg.appendChild(g);
  }
}

// ---- Backs -------------------------------------------------------------------------------------

function backFace(svg, kind) {
  if (kind === "color") {
    svg.appendChild(frame("#17171c", "rgba(0,0,0,.4)"));
    svg.appendChild(el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 6, fill: "none", stroke: "#fff", "stroke-width": 2 }));
    svg.appendChild(el("ellipse", { cx: 50, cy: 70, rx: 32, ry: 50, fill: "#e0393e", transform: "rotate(28 50 70)" }));
    svg.appendChild(text(50, 66, "LAST", { "font-size": 15, "font-weight": 900, fill: "#ffd23f", transform: "rotate(-20 50 70)" }));
    svg.appendChild(text(50, 84, "CARD", { "font-size": 15, "font-weight": 900, fill: "#ffd23f", transform: "rotate(-20 50 70)" }));
    return;
  }
  const id = `p${++uid}`;
  const pat = el("pattern", { id, width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, [
    el("rect", { width: 10, height: 10, fill: "#8e1f32" }),
    el("rect", { width: 5, height: 5, fill: "#a4283e" }),
    el("rect", { x: 5, y: 5, width: 5, height: 5, fill: "#a4283e" }),
  ]);
  svg.appendChild(el("defs", {}, [pat]));
  svg.appendChild(frame("#fffdf8"));
  svg.appendChild(el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: `url(#${id})` }));
  svg.appendChild(el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "none", stroke: "#f3d9a4", "stroke-width": 1.5 }));
  // The Cardhouse emblem: three leaning cards, a house of cards.
  const g = el("g", { transform: "translate(50 72)" });
  g.appendChild(el("circle", { cx: 0, cy: 0, r: 22, fill: "#6d1424", stroke: "#f3d9a4", "stroke-width": 1.5 }));
  g.appendChild(el("path", { d: "M-13 11-4-13M13 11 4-13M-8 11H8M-4-13H4", stroke: "#f3d9a4", "stroke-width": 2.5, "stroke-linecap": "round" }));
  svg.appendChild(g);
}

function unknownFace(svg, c) {
  svg.appendChild(frame("#f1f1f1"));
  svg.appendChild(text(50, 78, c.code || "?", { "font-size": 22, "font-weight": 700, fill: "#333" }));
}

// ---- Role badges (Hotspot, Last Card) ----------------------------------------------------------

const BADGE_TEXT = { wild: "WILD", pickup: "+2", reverse: "\u21c4", skip: "\u2298", extra_go: "+1", draw_two: "", joker: "", joker_draw_four: "" };

// ---- Public ------------------------------------------------------------------------------------

// roleOf is the role a view's Roles gives the card (by full code, then by rank code), or "".
export function roleOf(code, roles) {
  if (!roles || !code) return "";
  return roles[code] || roles[rankCode(code)] || "";
}

// fullFaces reports whether a role set asks for whole special faces (DRUGS' burn, reset, any,
// max7 and, with them, reverse) rather than small badges (Hotspot's wild, pickup, reverse...).
function fullFaces(roles) {
  if (!roles) return false;
  return Object.values(roles).some((r) => r === "burn" || r === "reset" || r === "any" || r === "max7");
}

// cardSVG returns the SVG element for a card code (or a back when code is empty).
export function cardSVG(code, opts = {}) {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg", "aria-hidden": "true" });
  if (!code) {
    backFace(svg, opts.back || "french");
    return svg;
  }
  const c = parseCard(code);
  const role = roleOf(code, opts.roles);
  const full = fullFaces(opts.roles) && ROLE_FACES[role];
  if (c.family === "french") {
    if (c.rank === "JK") jokerFace(svg);
    else if (full) roleFace(svg, c, role);
    else frenchFace(svg, c);
  } else if (c.family === "color") {
    lcFace(svg, c);
  } else {
    unknownFace(svg, c);
  }
  if (role && !full && BADGE_TEXT[role] !== "" && c.family === "french" && c.rank !== "JK") {
    const label = t(BADGE_TEXT[role] ?? role.toUpperCase().slice(0, 5));
    const g = el("g", { class: "role-badge" });
    g.appendChild(el("rect", { x: 64, y: 6, width: 30, height: 15, rx: 7.5, fill: "#1d1f24", opacity: 0.85 }));
    g.appendChild(text(79, 17.5, label, { "font-size": label.length > 3 ? 8 : 11, "font-weight": 800, fill: "#ffd23f" }));
    svg.appendChild(g);
  }
  return svg;
}

// cardEl returns <div class="card"> for a card code, or a back when code is empty. The element
// carries data-code (absent on backs; a back has data-back, its kind), data-role and an
// accessible label.
export function cardEl(code, opts = {}) {
  const d = document.createElement("div");
  d.className = "card";
  if (code) {
    d.dataset.code = code;
    const role = roleOf(code, opts.roles);
    if (role) d.dataset.role = role;
    d.setAttribute("aria-label", cardName(code));
  } else {
    d.classList.add("back");
    d.dataset.back = opts.back || "french";
    d.setAttribute("aria-label", t("face-down card"));
  }
  d.setAttribute("role", "img");
  // The label names the card; the face's own letters are drawing, not text to read.
  const svg = d.appendChild(cachedSVG(code, opts));
  svg.setAttribute("aria-hidden", "true");
  return d;
}

// A table redraws every card on every move: faces are drawn once per code, back and roles, and
// cloned after (gradient ids repeat in clones, but each clone's definitions are identical).
const svgCache = new Map();
function cachedSVG(code, opts) {
  const roles = opts.roles ? Object.keys(opts.roles).sort().map((k) => k + "=" + opts.roles[k]).join(",") : "";
  const key = `${code}|${opts.back || ""}|${roles}|${locale()}`;
  let svg = svgCache.get(key);
  if (!svg) {
    if (svgCache.size > 600) svgCache.clear();
    svg = cardSVG(code, opts);
    svgCache.set(key, svg);
  }
  return svg.cloneNode(true);
}

// symbolSVG draws a suit (S/H/D/C) or Last Card colour (R/Y/G/B) symbol as a small inline SVG,
// for pickers and indicators.
export function symbolSVG(key, size = 20) {
  const svg = el("svg", { viewBox: "0 0 100 100", width: size, height: size, class: "sym", "aria-hidden": "true" });
  if (SUITS[key]) svg.appendChild(glyph(key, 50, 50, 92, inkOf(key)));
  else if (COLORS[key]) {
    svg.appendChild(el("circle", { cx: 50, cy: 50, r: 48, fill: LC_HEX[key] }));
    svg.appendChild(glyph(SYMBOL_OF_COLOR[key], 50, 50, 64, "#fff"));
  }
  return svg;
}

// choiceName names a suit or colour choice for buttons: "Hearts", "Red (flame)".
export function choiceName(key) {
  const cap = (s) => s[0].toUpperCase() + s.slice(1);
  if (SUITS[key]) return t(cap(SUITS[key]));
  if (COLORS[key]) return t("{color} ({symbol})", { color: t(cap(COLORS[key])), symbol: t(COLOR_SYMBOL_NAME[key]) });
  return key;
}
