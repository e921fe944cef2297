// The Cardhouse app: entry (guest, log in, register, your look), the lobby (variants from the
// server's plugins, open rooms, the create-room form generated from the option schema, join and
// watch by code), the rules pages and the room (table, seats, spectators, chat, host controls).
// Routes are hashes: #/ (entry or lobby), #/rules/ID, #/room/CODE, #/watch/CODE.

import { api, ApiError, RoomSocket } from "./api.js";
import { Table, h } from "./table.js";
import { cardEl } from "./cards.js";
import { markdown } from "./md.js";

const AVATARS = { spade: "\u2660", heart: "\u2665", diamond: "\u2666", club: "\u2663", star: "\u2605", sun: "\u2600", moon: "\u263e", knight: "\u265e", queen: "\u265b", rook: "\u265c", flower: "\u273f", flag: "\u2691" };
const COLOURS = ["#e0393e", "#f08a24", "#f4b81c", "#2f9e57", "#16a085", "#2f6fd6", "#6c5ce7", "#c2185b"];
const MODES = { online: "Online", computer: "Against the computer", device: "Pass the device" };

const state = { me: null, rulesets: null, room: null };
const app = document.getElementById("app");

function colourOf(name) {
  let x = 0;
  for (const ch of String(name)) x = (x * 31 + ch.codePointAt(0)) >>> 0;
  return COLOURS[x % COLOURS.length];
}

function avatar(user, big) {
  const name = user.display_name || user.name || "?";
  const glyph = AVATARS[user.avatar] || name.slice(0, 1).toUpperCase();
  const a = h("span", { class: "avatar" + (big ? " big" : ""), "aria-hidden": "true" }, glyph);
  a.style.background = user.colour || colourOf(name);
  return a;
}

function topbar() {
  const logo = h("span", { class: "logo" });
  logo.append(cardEl("", { back: "french" }));
  logo.firstChild.style.setProperty("--card-w", "22px");
  const bar = h("header", { class: "topbar" }, h("a", { class: "brand", href: "#/" }, logo, "Cardhouse"));
  if (state.me) {
    bar.append(h("div", { class: "me" }, avatar(state.me), h("span", {}, state.me.display_name),
      h("button", { class: "btn ghost small", type: "button", onclick: logout }, "Log out")));
  }
  return bar;
}

function page(...children) {
  document.body.classList.remove("in-room", "show-side");
  app.replaceChildren(topbar(), h("main", { class: "page" }, ...children));
}

function fieldErrors(form, err) {
  for (const e of form.querySelectorAll(".error-text[data-for]")) e.textContent = "";
  const general = form.querySelector(".error-text.general");
  if (general) general.textContent = err.message;
  for (const f of err.fields || []) {
    const slot = form.querySelector(`.error-text[data-for="${CSS.escape(f.field.replace(/^options\./, ""))}"]`);
    if (slot) slot.textContent = f.reason;
  }
}

async function loadMe() {
  try {
    const a = await api("GET", "/api/me");
    state.me = a.user;
  } catch {
    state.me = null;
  }
}

async function logout() {
  try { await api("POST", "/api/logout"); } catch { /* already out */ }
  state.me = null;
  location.hash = "#/";
  route();
}

// ---- Entry ---------------------------------------------------------------------------------------

function entry() {
  const look = { avatar: "spade", colour: COLOURS[5] };
  const preview = h("span", {});
  const nameInput = h("input", { type: "text", name: "name", required: true, maxlength: 32, autocomplete: "nickname", placeholder: "Your name" });
  const renderPreview = () => preview.replaceChildren(avatar({ display_name: nameInput.value || "?", avatar: look.avatar, colour: look.colour }, true));
  nameInput.addEventListener("input", renderPreview);
  const avatars = h("div", { class: "looks", role: "group", "aria-label": "avatar" }, Object.entries(AVATARS).map(([k, g]) =>
    h("button", { type: "button", class: "glyph", "aria-label": k, "aria-pressed": String(k === look.avatar), onclick: (e) => { look.avatar = k; for (const b of avatars.children) b.setAttribute("aria-pressed", String(b === e.currentTarget)); renderPreview(); } }, g)));
  const colours = h("div", { class: "looks", role: "group", "aria-label": "colour" }, COLOURS.map((c) => {
    const b = h("button", { type: "button", "aria-label": c, "aria-pressed": String(c === look.colour), onclick: (e) => { look.colour = c; for (const x of colours.children) x.setAttribute("aria-pressed", String(x === e.currentTarget)); renderPreview(); } });
    b.style.background = c;
    return b;
  }));
  renderPreview();

  let mode = "guest";
  const user = h("input", { type: "text", name: "username", autocomplete: "username" });
  const pass = h("input", { type: "password", name: "password", autocomplete: "current-password" });
  const creds = h("div", { class: "hidden" }, h("label", { class: "field" }, h("span", {}, "Username"), user), h("label", { class: "field" }, h("span", {}, "Password"), pass, h("span", { class: "error-text", "data-for": "password" })));
  const submit = h("button", { class: "btn primary big", type: "submit", id: "enter" }, "Play as guest");
  const nameField = h("label", { class: "field" }, h("span", {}, "Name at the table"), nameInput, h("span", { class: "error-text", "data-for": "name" }));
  const tabs = h("div", { class: "tabs", role: "tablist" });
  const setMode = (m) => {
    mode = m;
    for (const b of tabs.children) b.setAttribute("aria-selected", String(b.dataset.mode === m));
    creds.classList.toggle("hidden", m === "guest");
    nameField.classList.toggle("hidden", m === "login");
    nameInput.required = m !== "login";
    pass.autocomplete = m === "register" ? "new-password" : "current-password";
    submit.textContent = { guest: "Play as guest", login: "Log in", register: "Create account" }[m];
  };
  for (const [m, label] of [["guest", "Guest"], ["login", "Log in"], ["register", "Register"]]) tabs.append(h("button", { class: "btn", type: "button", role: "tab", "data-mode": m, onclick: () => setMode(m) }, label));
  const form = h("form", { class: "panel", id: "entry" }, tabs, nameField, creds,
    h("div", { class: "field" }, h("span", {}, "Your look"), h("div", { class: "row" }, preview, h("div", { class: "grow" }, avatars, h("div", { style: "height:.5em" }), colours))),
    h("p", { class: "error-text general", role: "alert" }), h("div", { class: "row" }, submit));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    try {
      let a;
      if (mode === "guest") a = await api("POST", "/api/guest", { name: nameInput.value });
      else if (mode === "login") a = await api("POST", "/api/login", { username: user.value, password: pass.value });
      else a = await api("POST", "/api/register", { username: user.value, password: pass.value, display_name: nameInput.value });
      state.me = a.user;
      if (mode !== "login" || !state.me.avatar) {
        try { state.me = (await api("PATCH", "/api/me", { avatar: look.avatar, colour: look.colour })).user; } catch { /* the look is optional */ }
      }
      route();
    } catch (err) {
      fieldErrors(form, err);
    } finally {
      submit.disabled = false;
    }
  });
  setMode("guest");
  const fan = h("div", { class: "hero-cards", "aria-hidden": "true" }, ["AS", "R7", "10H", "QC", "W"].map((c, i) => {
    const e = cardEl(c, { roles: {} });
    e.style.transform = `rotate(${(i - 2) * 9}deg) translateY(${Math.abs(i - 2) * 8}px)`;
    return e;
  }));
  page(h("div", { class: "hero" }, fan, h("h1", {}, "Cardhouse"), h("p", {}, "Card games with friends, in the browser. Pick a name and sit down.")), h("div", { style: "max-width:460px;margin:1.5em auto" }, form));
  nameInput.focus();
}

// ---- Lobby ---------------------------------------------------------------------------------------

const SAMPLE = { hotspot: ["AS", "QH", "2C"], drugs: ["10S", "2H", "7D"], lastcard: ["R7", "GS", "W"] };

async function lobby() {
  const [rs, rooms] = await Promise.all([api("GET", "/api/rulesets"), api("GET", "/api/rooms").catch(() => ({ rooms: [] }))]);
  state.rulesets = rs.rulesets || [];
  const variants = h("div", { class: "variants" }, state.rulesets.map((d) => {
    const sample = SAMPLE[d.id] || ["AS", "KH", "QD"];
    return h("article", { class: "variant", "data-ruleset": d.id },
      h("div", { class: "mini", "aria-hidden": "true" }, sample.map((c, i) => { const e = cardEl(c, { roles: {} }); e.style.setProperty("--i", i); return e; })),
      h("h3", {}, d.name), h("p", {}, d.summary || ""), h("p", { class: "help" }, `${d.min_seats}–${d.max_seats} players`),
      h("div", { class: "row" }, h("button", { class: "btn primary small", type: "button", "data-create": d.id, onclick: () => createDialog(d) }, "New room"), h("a", { class: "btn ghost small", href: `#/rules/${d.id}` }, "How to play")));
  }));
  const list = (rooms.rooms || []);
  const table = list.length ? h("table", { class: "rooms" }, h("tr", {}, h("th", {}, "Room"), h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "")),
    list.map((r) => h("tr", {}, h("td", { class: "code" }, r.code), h("td", {}, nameOf(r.ruleset)),
      h("td", {}, `${(r.members || []).filter((m) => m.role === "player").length}/${r.capacity}`),
      h("td", {}, h("div", { class: "row" }, h("a", { class: "btn small go", href: `#/room/${r.code}` }, "Join"), h("a", { class: "btn small ghost", href: `#/watch/${r.code}` }, eye(), "Watch"))))))
    : h("p", { class: "help" }, "No open rooms right now: start one!");
  const code = h("input", { type: "text", name: "code", maxlength: 6, placeholder: "ABCDEF", autocapitalize: "characters", "aria-label": "room code", class: "code" });
  const go = (watch) => { const c = code.value.trim().toUpperCase(); if (c) location.hash = `#/${watch ? "watch" : "room"}/${c}`; };
  const byCode = h("form", { class: "row", id: "by-code", onsubmit: (e) => { e.preventDefault(); go(false); } }, h("div", { class: "grow" }, code), h("button", { class: "btn go", type: "submit", id: "join-code" }, "Join"), h("button", { class: "btn ghost", type: "button", id: "watch-code", onclick: () => go(true) }, eye(), "Watch"));
  page(h("h2", {}, "Games"), variants, h("div", { class: "grid2", style: "margin-top:1.5em" },
    h("section", { class: "panel" }, h("h2", {}, "Open rooms"), table),
    h("section", { class: "panel" }, h("h2", {}, "Have a code?"), byCode, h("p", { class: "help" }, "Join to play, or watch: spectators see the table and the chat, never a hand."))));
}

function eye() {
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  s.setAttribute("viewBox", "0 0 24 24");
  s.setAttribute("width", "18");
  s.setAttribute("height", "18");
  s.setAttribute("aria-hidden", "true");
  const p = document.createElementNS("http://www.w3.org/2000/svg", "path");
  p.setAttribute("d", "M12 5C6 5 2 12 2 12s4 7 10 7 10-7 10-7-4-7-10-7zm0 11a4 4 0 1 1 0-8 4 4 0 0 1 0 8z");
  p.setAttribute("fill", "currentColor");
  s.append(p);
  return s;
}

function nameOf(id) {
  return (state.rulesets || []).find((d) => d.id === id)?.name || id;
}

// optionField builds one form control from an sdk.Option: a number with its range, a checkbox,
// or a choice list; its label, default and help text come from the schema.
function optionField(o) {
  let input;
  const id = `opt-${o.name}`;
  if (o.type === "bool") {
    input = h("input", { type: "checkbox", id, name: o.name, checked: o.default === true });
    return h("label", { class: "field row" }, input, h("span", {}, o.label || o.name), o.description ? h("span", { class: "help", style: "width:100%" }, o.description) : "", h("span", { class: "error-text", "data-for": o.name }));
  }
  if (o.type === "choice") {
    input = h("select", { id, name: o.name }, (o.default === null || o.default === undefined ? [h("option", { value: "" }, o.default_text || "Default")] : []).concat((o.choices || []).map((c) => h("option", { value: c, selected: c === o.default }, c))));
  } else {
    input = h("input", { type: "number", id, name: o.name, min: o.min ?? undefined, max: o.max || undefined, step: 1, value: o.default ?? "", placeholder: o.default_text || "" });
  }
  const range = o.type === "int" && (o.min || o.max) ? ` (${o.min}–${o.max})` : "";
  return h("label", { class: "field" }, h("span", {}, (o.label || o.name) + range), input, h("span", { class: "help" }, [o.description, o.default_text && `Default: ${o.default_text}`].filter(Boolean).join(" ")), h("span", { class: "error-text", "data-for": o.name }));
}

function createDialog(d) {
  const opts = h("div", {}, (d.options || []).map(optionField));
  const mode = h("select", { name: "mode", id: "mode" }, Object.entries(MODES).map(([k, v]) => h("option", { value: k }, v)));
  const seats = h("input", { type: "number", name: "seats", min: d.min_seats, max: d.max_seats, value: d.max_seats > 4 ? 4 : d.max_seats });
  const levels = d.bot_levels && d.bot_levels.length ? d.bot_levels : [1];
  const bots = h("div", { class: "bots" });
  const renderBots = () => {
    const n = Math.max(1, Math.min(d.max_seats - 1, Number(seats.value) - 1 || 1));
    bots.replaceChildren(...Array.from({ length: n }, (_, i) => h("label", { class: "field" }, h("span", {}, `Opponent ${i + 1} level`), h("select", { name: `bot${i}` }, levels.map((l) => h("option", { value: l }, `Level ${l}`))))));
  };
  const approval = h("input", { type: "checkbox", name: "approval" });
  const botsBox = h("div", { class: "hidden" }, bots);
  const approvalBox = h("label", { class: "field row" }, approval, h("span", {}, "Ask me before letting people in"));
  const sync = () => { botsBox.classList.toggle("hidden", mode.value !== "computer"); approvalBox.classList.toggle("hidden", mode.value !== "online"); renderBots(); };
  mode.addEventListener("change", sync);
  seats.addEventListener("input", renderBots);
  const dlg = h("dialog", { "aria-label": `New ${d.name} room` });
  const form = h("form", { method: "dialog", id: "create-room" }, h("h2", {}, `New ${d.name} room`),
    h("label", { class: "field" }, h("span", {}, "Mode"), mode), h("label", { class: "field" }, h("span", {}, `Seats (${d.min_seats}–${d.max_seats})`), seats, h("span", { class: "error-text", "data-for": "seats" })),
    botsBox, approvalBox, opts, h("p", { class: "error-text general", role: "alert" }),
    h("div", { class: "row", style: "justify-content:flex-end" }, h("button", { class: "btn ghost", type: "button", onclick: () => dlg.close() }, "Cancel"), h("button", { class: "btn primary", type: "submit" }, "Create room")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const options = {};
    // Only what the host changed is sent: the server and the ruleset fill in the rest, including
    // defaults that depend on the room (Last Card online rooms call "Last card!" automatically).
    for (const o of d.options || []) {
      const el = form.elements[o.name];
      let v;
      if (o.type === "bool") v = el.checked;
      else if (o.type === "int") v = el.value === "" ? undefined : Number(el.value);
      else v = el.value === "" ? undefined : el.value;
      if (v !== undefined && v !== o.default) options[o.name] = v;
    }
    const body = { ruleset: d.id, mode: mode.value, options, seats: Number(seats.value), approval: approval.checked };
    if (mode.value === "computer") body.bots = [...bots.querySelectorAll("select")].map((s) => Number(s.value));
    try {
      const res = await api("POST", "/api/rooms", body);
      dlg.close();
      location.hash = `#/room/${res.room.code}`;
    } catch (err) {
      fieldErrors(form, err);
    }
  });
  dlg.append(form);
  document.body.append(dlg);
  dlg.addEventListener("close", () => dlg.remove());
  sync();
  dlg.showModal();
}

// ---- Rules ---------------------------------------------------------------------------------------

async function rules(id) {
  const rs = state.rulesets || (await api("GET", "/api/rulesets")).rulesets;
  state.rulesets = rs;
  const d = rs.find((x) => x.id === id);
  if (!d) return page(h("p", {}, `No game called "${id}" here.`), h("a", { href: "#/" }, "Back to the lobby"));
  page(h("article", { class: "panel markdown", id: "rules" }, h("h1", {}, `How to play ${d.name}`), markdown(d.rules || d.summary || "")), h("p", {}, h("a", { class: "btn", href: "#/" }, "Back to the lobby")));
}

// ---- Room ----------------------------------------------------------------------------------------

async function enterRoom(code, watch) {
  document.body.classList.add("in-room");
  const rs = state.rulesets || (await api("GET", "/api/rulesets").catch(() => ({ rulesets: [] }))).rulesets;
  state.rulesets = rs;
  try {
    await api("POST", `/api/rooms/${code}/join`, { spectate: !!watch });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500 || err.status === 404 || err.status === 403) {
      return page(h("div", { class: "panel" }, h("h2", {}, `Room ${code}`), h("p", { class: "error-text", role: "alert" }, err.message), h("a", { class: "btn", href: "#/" }, "Back to the lobby")));
    }
  }
  const r = new RoomView(code);
  state.room = r;
}

class RoomView {
  constructor(code) {
    this.code = code;
    this.info = null;
    this.you = null;
    this.views = new Map(); // seat -> view
    this.shownSeat = null;
    this.coverFor = null;
    this.conn = "connecting";
    this.chatLines = [];
    this.build();
    this.sock = new RoomSocket(code, (m) => this.onMessage(m), (s, reason) => { this.conn = s; this.connReason = reason; this.renderSide(); });
  }

  build() {
    this.tableEl = h("div", { class: "table-host", id: "table" });
    this.bannerEl = h("div", { class: "banners", "aria-live": "polite" });
    this.sideEl = h("aside", { class: "side", "aria-label": "room" });
    const main = h("div", { class: "table-wrap" }, this.bannerEl, this.tableEl);
    app.replaceChildren(topbar(), h("div", { class: "room", id: "room" }, main, this.sideEl));
    this.table = new Table(this.tableEl, {
      player: (s) => this.playerOf(s),
      send: (a) => this.act(a),
      check: (a) => this.check(a),
      canDeal: () => this.you && this.you.host,
      onDeal: () => this.deal(),
      isSetting: (id) => !!(this.info && this.info.options && Object.hasOwn(this.info.options, id)),
      deadlineMs: (d) => (d.kind === "last_card" ? 1000 * Number((this.info && this.info.options && this.info.options.last_card_seconds) || 5) : 5000),
    });
    this.renderSide();
  }

  playerOf(seat) {
    const m = (this.info?.members || []).find((x) => x.role === "player" && x.seat === seat);
    if (!m) return { name: `Seat ${seat + 1}` };
    const tags = [];
    if (m.bot_level) tags.push(`Bot ${m.bot_level}`);
    if (m.covered) tags.push("bot covering");
    else if (!m.connected && !m.bot_level) tags.push("away");
    return { name: m.name, color: m.colour || colourOf(m.name), avatar: AVATARS[m.avatar] || "", tags };
  }

  onMessage(m) {
    switch (m.type) {
      case "hello":
        this.info = m.room;
        this.you = m.you;
        this.chatLines = (m.chats || []).slice();
        this.renderSide();
        this.renderChat();
        this.renderTable();
        break;
      case "room": {
        this.info = m.room;
        if (m.you) this.you = m.you;
        this.renderSide();
        // Every move also sends a room message (turn, seq): redraw the table only when something
        // it shows of the room (names, looks, bots, presence, who hosts) changed.
        const key = this.tableKey();
        if (key !== this.shownKey || !this.table.view) this.renderTable();
        break;
      }
      case "view": {
        let view;
        try { view = typeof m.view === "string" ? JSON.parse(m.view) : m.view; } catch { return; }
        this.views.set(m.seat, view);
        if (m.game !== this.viewGame) { this.viewGame = m.game; this.viewSeq = undefined; }
        this.viewSeq = Math.max(this.viewSeq ?? -1, m.seq ?? -1);
        if (m.seat < 0) {
          for (const k of [...this.views.keys()]) if (k >= 0) this.views.delete(k);
        } else {
          this.views.delete(-1);
        }
        this.renderTable(m);
        break;
      }
      case "chat":
        if (m.chat) {
          this.chatLines.push(m.chat);
          if (!document.body.classList.contains("show-side") && m.chat.user_id !== this.you?.user_id) this.unread++;
          this.renderChat();
        }
        break;
      case "error":
        if (!m.id) this.table.refused(m.reason || m.code);
        break;
      case "bye":
        this.bye = m.reason || m.code;
        this.renderSide();
        break;
    }
  }

  // seatToShow picks whose view the table shows: the only seat, or in pass-the-device the seat
  // whose turn it is (or who has something to do).
  seatToShow() {
    const seats = [...this.views.keys()].filter((s) => s >= 0).sort((a, b) => a - b);
    if (!seats.length) return this.views.has(-1) ? -1 : null;
    if (seats.length === 1) return seats[0];
    const anyView = this.views.get(seats[0]);
    const acting = seats.find((s) => (this.views.get(s).actions || []).length && anyView.turn === s) ?? seats.find((s) => (this.views.get(s).actions || []).length);
    return acting ?? (seats.includes(this.shownSeat) ? this.shownSeat : seats[0]);
  }

  // tableKey is what the table shows of the room beyond the view.
  tableKey() {
    const ms = (this.info?.members || []).map((m) => [m.id, m.name, m.role, m.seat, m.bot_level, m.covered, m.connected, m.avatar, m.colour]);
    return JSON.stringify([ms, this.you?.host, this.you?.role, this.info?.paused, this.info?.ruleset]);
  }

  renderTable(msg) {
    this.shownKey = this.tableKey();
    const seat = this.seatToShow();
    if (seat === null) {
      this.tableEl.replaceChildren(this.waitingPanel());
      this.table.view = null;
      return;
    }
    const device = this.info && this.info.mode === "device" && [...this.views.keys()].filter((s) => s >= 0).length > 1;
    if (device && this.shownSeat !== null && seat !== this.shownSeat && seat >= 0 && this.views.get(seat).phase === "playing") {
      this.coverFor = seat;
    }
    this.shownSeat = seat;
    if (!this.tableEl.contains(this.table.root) || this.table.root !== this.tableEl) { /* same element */ }
    this.table.update(this.views.get(seat), msg && msg.now !== undefined ? { now: msg.now } : {});
    if (this.coverFor !== null) this.cover(this.coverFor);
    this.banners();
  }

  cover(seat) {
    const name = this.playerOf(seat).name;
    const c = h("div", { class: "cover", id: "cover", role: "dialog", "aria-label": "pass the device" },
      h("div", {}, h("p", { class: "help" }, "Pass the device to"), h("h2", {}, name), h("button", { class: "btn primary big", type: "button", onclick: () => { this.coverFor = null; c.remove(); } }, `I'm ${name}: show my cards`)));
    this.tableEl.querySelector(".felt")?.append(c);
    c.querySelector("button").focus();
  }

  waitingPanel() {
    const you = this.you || {};
    let text = "Waiting for the host to deal.";
    if (you.role === "pending") text = "Waiting for the host to let you in…";
    else if (you.host) text = "You are the host: press Deal when everyone is seated.";
    const p = h("div", { class: "felt", style: "place-items:center;display:grid" }, h("div", { class: "panel", style: "text-align:center;max-width:420px" },
      h("h2", {}, `${nameOf(this.info?.ruleset || "")} · room `, h("span", { class: "code" }, this.code)), h("p", {}, text),
      you.host ? h("button", { class: "btn primary big", type: "button", "data-action": "deal", onclick: () => this.deal() }, "Deal") : "",
      h("p", { class: "help" }, "Share the code so friends can join or watch.")));
    p.classList.add(`ruleset-${this.info?.ruleset || ""}`);
    return p;
  }

  banners() {
    const out = [];
    if (this.conn === "reconnecting" || this.conn === "connecting") out.push(h("div", { class: "banner warn" }, "Reconnecting… your seat is kept for you."));
    if (this.bye) out.push(h("div", { class: "banner bad" }, this.bye));
    if (this.info?.paused) out.push(h("div", { class: "banner warn", "data-banner": "paused" }, "Game paused: waiting for players to come back."));
    for (const m of this.info?.members || []) if (m.covered) out.push(h("div", { class: "banner info", "data-banner": "covered" }, `A bot is playing for ${m.name} until they come back.`));
    if (this.views.has(-1) && this.views.size === 1 && this.info?.game) out.push(h("div", { class: "banner info" }, eye(), " You are watching. You will get a seat at the next deal if one is free."));
    this.bannerEl.replaceChildren(...out);
  }

  renderSide() {
    if (!this.sideEl) return;
    const info = this.info || { members: [] };
    const you = this.you || {};
    const members = info.members || [];
    const row = (m) => h("li", { "data-member": m.id }, h("span", { class: "dot" + (m.connected || m.bot_level ? " on" : "") }), avatar({ display_name: m.name, avatar: m.avatar, colour: m.colour }),
      h("span", { class: "grow" }, m.name, m.seat >= 0 && m.role === "player" ? h("span", { class: "help" }, ` · seat ${m.seat + 1}`) : "", m.bot_level ? h("span", { class: "help" }, ` · bot ${m.bot_level}`) : "", m.id === you.member_id ? h("span", { class: "help" }, " (you)") : ""),
      you.host && m.id !== you.member_id && !m.bot_level ? h("button", { class: "btn ghost small", type: "button", title: `Remove ${m.name}`, "data-kick": m.id, onclick: () => this.post("kick", { member_id: m.id }) }, "Kick") : "",
      you.host && m.role === "pending" ? [h("button", { class: "btn go small", type: "button", "data-approve": m.id, onclick: () => this.post(`requests/${m.id}`, { approve: true }) }, "Let in"), h("button", { class: "btn danger small", type: "button", onclick: () => this.post(`requests/${m.id}`, { approve: false }) }, "No")] : "");
    const section = (title, list) => list.length ? [h("h3", {}, title), h("ul", {}, list.map(row))] : [];
    const players = members.filter((m) => m.role === "player").sort((a, b) => a.seat - b.seat);
    const specs = members.filter((m) => m.role === "spectator");
    const pending = members.filter((m) => m.role === "pending");
    const host = you.host ? h("section", { class: "host" }, h("h3", {}, "Host"), h("div", { class: "host-tools" },
      !info.game || info.game.status !== "live" ? h("button", { class: "btn primary small", type: "button", "data-action": "deal", onclick: () => this.deal() }, "Deal") : "",
      h("button", { class: "btn small", type: "button", "data-lock": "1", onclick: () => this.post("lock", { locked: !info.locked }) }, info.locked ? "Unlock room" : "Lock room"),
      info.mode !== "device" && players.length < info.capacity ? h("button", { class: "btn small", type: "button", onclick: () => this.post("bots", { level: 1 }) }, "Add a bot") : ""), h("p", { class: "error-text host-error" })) : "";
    if (!this.chatEl) {
      // The chat is built once: redrawing the room (every move sends a room message) must not
      // take the line a player is typing.
      const log = h("div", { class: "chat-log", id: "chat-log", "aria-live": "polite" });
      const input = h("input", { type: "text", name: "chat", maxlength: 500, placeholder: "Say something…", "aria-label": "chat message", autocomplete: "off" });
      const form = h("form", { onsubmit: (e) => { e.preventDefault(); const t = input.value.trim(); if (t) { this.sock.send({ type: "chat", text: t }); input.value = ""; } } }, input, h("button", { class: "btn small", type: "submit" }, "Send"));
      this.chatEl = h("div", { class: "chat" }, h("h3", { style: "padding:.8em 1em 0" }, "Chat"), log, form);
      this.sideTop = h("div", { class: "side-top" });
      // On a phone the room panel folds away under the table; this bar opens it.
      this.unread = 0;
      this.sideToggle = h("button", { class: "side-toggle", type: "button", "aria-expanded": "false", onclick: () => {
        const open = document.body.classList.toggle("show-side");
        this.sideToggle.setAttribute("aria-expanded", String(open));
        if (open) { this.unread = 0; this.renderToggle(); input.focus(); }
      } });
      this.sideEl.replaceChildren(this.sideToggle, this.sideTop, this.chatEl);
    }
    this.sideTop.replaceChildren(
      h("section", {}, h("div", { class: "row" }, h("span", { class: "grow" }, h("b", {}, nameOf(info.ruleset || "")), " · ", MODES[info.mode] || ""), h("a", { class: "btn ghost small", href: `#/rules/${info.ruleset}`, target: "_blank" }, "Rules")),
        h("div", { class: "row" }, "Code ", h("span", { class: "code", id: "room-code" }, this.code), info.locked ? h("span", { class: "chip" }, "locked") : "")),
      h("section", { class: "members" }, ...section(`Players (${players.length}/${info.capacity || "?"})`, players), ...section("Watching", specs), ...section("Asking to join", pending)),
      host);
    this.renderToggle();
    this.banners();
  }

  renderToggle() {
    if (!this.sideToggle) return;
    const n = (this.info?.members || []).length;
    this.sideToggle.replaceChildren(h("span", { class: "grow" }, "Room ", h("b", { class: "code" }, this.code), ` · ${n} here · chat`),
      this.unread ? h("span", { class: "chip red", "data-unread": this.unread }, `${this.unread} new`) : "", h("span", { "aria-hidden": "true" }, "\u25b4"));
  }

  renderChat() {
    this.renderToggle();
    const log = this.sideEl.querySelector("#chat-log");
    if (!log) return;
    log.replaceChildren(...this.chatLines.slice(-100).map((c) => h("div", { class: "line" }, h("b", {}, c.name + ":"), c.text)));
    log.scrollTop = log.scrollHeight;
  }

  async post(path, body) {
    try {
      await api("POST", `/api/rooms/${this.code}/${path}`, body);
    } catch (err) {
      const e = this.sideEl.querySelector(".host-error");
      if (e) e.textContent = err.message;
    }
  }

  actingSeat() {
    const seats = [...this.views.keys()].filter((s) => s >= 0);
    return seats.length > 1 ? this.shownSeat : undefined;
  }

  // act sends an action; an accepted answer says whether the view it produced has already come
  // (the server sends the views of an action before its accepted answer).
  async act(action) {
    const res = await this.sock.request({ type: "act", seat: this.actingSeat(), action });
    if (res.type !== "accepted") return { ok: false, reason: res.reason || res.code };
    return { ok: true, seen: this.viewSeq !== undefined && res.seq !== undefined && this.viewSeq >= res.seq };
  }

  async check(action) {
    const res = await this.sock.request({ type: "check", seat: this.actingSeat(), action });
    return { ok: res.ok === true, reason: res.reason };
  }

  async deal() {
    const res = await this.sock.request({ type: "deal" });
    if (res.type === "error") this.table.view ? this.table.refused(res.reason) : alert(res.reason);
  }

  close() {
    this.sock.close();
  }
}

// ---- Router --------------------------------------------------------------------------------------

async function route() {
  if (state.room) { state.room.close(); state.room = null; }
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  if (!state.me) await loadMe();
  if (parts[0] === "rules" && parts[1]) return rules(parts[1]);
  if (!state.me) return entry();
  try {
    if ((parts[0] === "room" || parts[0] === "watch") && parts[1]) return await enterRoom(parts[1].toUpperCase(), parts[0] === "watch");
    return await lobby();
  } catch (err) {
    page(h("div", { class: "panel" }, h("p", { class: "error-text", role: "alert" }, err.message), h("a", { class: "btn", href: "#/" }, "Back")));
  }
}

window.addEventListener("hashchange", route);
window.cardhouse = { state };
route();
