// The room page (#/room/CODE, #/watch/CODE): the table (table.js), seats, spectators, chat, host
// controls, the house rules in force, and leaving or being sent away.

import { api, ApiError, RoomSocket } from "./api.js";
import { Table } from "./table.js";
import { h } from "./dom.js";
import { roomRules, ruleLog, failureText } from "./houserules.js";
import { quickWait, ratingTag, seatRating } from "./quickplay.js";
import { t, num, locale } from "./i18n.js";
import { AVATARS, modeName, errorText, reasonText, useRulesets, state, app, colourOf, avatar, topbar, page, inviteLink, copyButton, invite, lookDialog, eye, nameOf, settingWords, reroute } from "./shell.js";

// ---- Room ----------------------------------------------------------------------------------------

export async function enterRoom(code, watch) {
  document.body.classList.add("in-room");
  if (!state.rulesets) useRulesets((await api("GET", "/api/rulesets").catch(() => ({ rulesets: [] }))).rulesets);
  try {
    await api("POST", `/api/rooms/${code}/join`, { spectate: !!watch });
  } catch (err) {
    // A refused join (locked, banned, no such room) opens no socket: the room says why.
    return page(h("div", { class: "panel", id: "join-refused", "data-code": err instanceof ApiError ? err.code : "error" }, h("h2", {}, t("Room {code}", { code })),
      h("p", { class: "error-text", role: "alert" }, refusedJoin(code, err)), h("a", { class: "btn", href: "#/" }, t("Back to the lobby"))));
  }
  const r = new RoomView(code);
  state.room = r;
}

// refusedJoin says why a room cannot be entered, in player words.
function refusedJoin(code, err) {
  switch (err instanceof ApiError ? err.code : "") {
    case "locked": return t("Room {code} is locked: the host is not letting anyone new in. Ask them to unlock it, or pick another room.", { code });
    case "no_room": return t("There is no open room {code}. Check the code, or pick a room in the lobby.", { code });
    case "banned": return t("This account is banned.");
  }
  return errorText(err);
}

// BYE are the reasons a room sends a member away (the "bye" message's code), as the lobby says them.
// byeReason is a bye's reason from the server when it says why ("an admin removed you from the room for 60
// minutes: spamming"), as a sentence about room code.
const byeReason = (code, m) => t("Room {code}: {reason}.", { code, reason: String(m.reason).charAt(0).toUpperCase() + String(m.reason).slice(1) });

const BYE = {
  kicked: (code, m) => String(m?.reason || "").includes(": ") ? byeReason(code, m) : m?.ban ? t("The host removed you from room {code} and banned you from it.", { code })
    : m?.until ? t("The host removed you from room {code}. You can join it again at {time}.", { code, time: new Date(m.until).toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit" }) })
    : t("The host removed you from room {code}.", { code }),
  denied: (code) => t("The host of room {code} did not let you in.", { code }),
  left: (code) => t("You left room {code}.", { code }),
  gone: (code) => t("You are no longer in room {code}.", { code }),
  locked: (code) => t("Room {code} is locked: the host is not letting anyone new in.", { code }),
  closed: (code, m) => m?.reason ? t("Room {code} has closed: {reason}", { code, reason: m.reason }) : t("Room {code} has closed.", { code }),
};

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
    this.ruleLines = []; // what house rules printed, for their owner and admins (house_log)
    this.build();
    this.sock = new RoomSocket(code, (m) => this.onMessage(m), (s, reason) => this.onConn(s, reason));
  }

  // onConn follows the socket. A socket refused before it opened is checked against the room: if
  // this user is no longer a member (kicked while away, declined, the room locked before the
  // join went through) or the room is gone, the room says so and stops trying.
  onConn(s, reason) {
    this.conn = s;
    if (s === "open") this.opened = true;
    if (s === "reconnecting" && reason === "refused") this.checkMember();
    if (s === "closed" && reason && !this.leaving) {
      this.goBack(reason);
      return;
    }
    this.renderSide();
  }

  async checkMember() {
    if (this.checking || this.leaving) return;
    this.checking = true;
    try {
      const { room } = await api("GET", `/api/rooms/${this.code}`);
      const mine = (room.members || []).some((m) => m.user_id === state.me?.id);
      if (!mine) this.goBack(BYE[room.locked ? "locked" : "gone"](this.code));
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) this.goBack(BYE.closed(this.code));
    } finally {
      this.checking = false;
    }
  }

  // goBack leaves the room for the lobby, which says why (notice); the table is cleared at once so
  // nothing stale stays on screen.
  goBack(notice) {
    if (this.leaving) return;
    this.leaving = true;
    this.sock.close();
    this.table.view = null;
    this.tableEl.replaceChildren();
    state.notice = notice;
    if (location.hash === "#/" || location.hash === "") reroute();
    else location.hash = "#/";
  }

  // leave asks the server to take this user out of the room (a seat in a running game passes to
  // a bot: the player confirms that first) and goes back to the lobby.
  async leave() {
    const seated = (this.you?.seats || []).length > 0 && this.info?.game?.status === "live";
    if (seated && !(await confirmLeave())) return;
    try {
      await api("POST", `/api/rooms/${this.code}/leave`);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "not_member")) {
        this.bannerEl.replaceChildren(h("div", { class: "banner bad", "data-banner": "error" }, errorText(err)));
        return;
      }
    }
    this.goBack(BYE.left(this.code));
  }

  build() {
    this.tableEl = h("div", { class: "table-host", id: "table" });
    this.bannerEl = h("div", { class: "banners", "aria-live": "polite" });
    this.sideEl = h("aside", { class: "side", "aria-label": t("room") });
    // The table is the page's main landmark, under a heading (hidden) that names the game and room.
    this.headingEl = h("h1", { class: "sr-only", id: "room-heading" }, t("Room {code}", { code: this.code }));
    const main = h("main", { class: "table-wrap", "aria-labelledby": "room-heading" }, this.headingEl, this.bannerEl, this.tableEl);
    const bar = topbar();
    bar.querySelector(".brand").after(h("button", { class: "btn ghost small leave", type: "button", id: "leave", onclick: () => this.leave() }, t("Leave")));
    app.replaceChildren(bar, h("div", { class: "room", id: "room" }, main, this.sideEl));
    this.table = new Table(this.tableEl, {
      player: (s) => this.playerOf(s),
      send: (a) => this.act(a),
      check: (a) => this.check(a),
      canDeal: () => this.you && this.you.host,
      onDeal: () => this.deal(),
      // A player's Rematch (or Next round) asks the host (docs/protocol.md, ask_next): the room
      // marks the player's member, and the host's summary lists who asked until the deal.
      onAsk: () => this.sock.send({ type: "ask_next" }),
      asks: () => (this.info?.members || []).filter((x) => x.wants_next).map((x) => x.name),
      askedByMe: () => (this.info?.members || []).some((x) => x.wants_next && x.user_id === this.you?.user_id),
      onLeave: () => this.leave(),
      isSetting: (id) => !!(this.info && this.info.options && Object.hasOwn(this.info.options, id)),
      settingValue: (id, value) => settingWords(this.info?.ruleset, id, value),
      // The ruleset's Info (card back, event texts), from the lobby's list of rulesets.
      rulesetInfo: () => (state.rulesets || []).find((d) => d.id === this.info?.ruleset),
      deadlineMs: (d) => (d.kind === "last_card" ? 1000 * Number((this.info && this.info.options && this.info.options.last_card_seconds) || 5) : 5000),
    });
    this.renderSide();
  }

  playerOf(seat) {
    const m = (this.info?.members || []).find((x) => x.role === "player" && x.seat === seat);
    if (!m) return { name: t("Seat {n}", { n: seat + 1 }) };
    const tags = [];
    if (m.bot_level) tags.push(t("bot, level {level}", { level: m.bot_level }));
    if (m.covered) tags.push(t("bot covering"));
    else if (!m.connected && !m.bot_level) tags.push(t("away"));
    // A registered player's rating in the variant beside their name (online rooms rate games).
    const rating = m.user_id && !m.bot_level && this.info.mode === "online" ? seatRating(this.info.ruleset, m.user_id, () => this.table?.view && this.table.render()) : undefined;
    return { name: m.name, color: m.colour || colourOf(m.name), avatar: AVATARS[m.avatar] || "", tags, rating };
  }

  onMessage(m) {
    switch (m.type) {
      case "hello":
        this.info = m.room;
        this.you = m.you;
        this.chatLines = (m.chats || []).slice();
        this.ruleLines = []; // the room sends the game's Rule output again after its hello
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
        else this.table.refreshAsks();
        break;
      }
      case "members": {
        // Membership deltas (docs/protocol.md): the members that changed, and the ids of those gone.
        if (!this.info) break;
        const gone = new Set(m.gone || []);
        const members = (this.info.members || []).filter((x) => !gone.has(x.id));
        for (const x of m.members || []) {
          const i = members.findIndex((y) => y.id === x.id);
          if (i >= 0) members[i] = x; else members.push(x);
        }
        this.info = { ...this.info, members };
        this.renderSide();
        const key = this.tableKey();
        if (key !== this.shownKey || !this.table.view) this.renderTable();
        else this.table.refreshAsks(); // who asked the host for the next round or game
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
      case "house_log":
        // The server sends it only to the rules' owners and admins (docs/protocol.md).
        this.ruleLines.push(...(m.house_log || []));
        this.ruleLines = this.ruleLines.slice(-200);
        // A rule of this player's failed: a toast says so at once (the line is in Rule output).
        for (const l of m.house_log || []) if (l.failure) this.table.toast(failureText(l), "bad");
        this.renderRuleLog();
        break;
      case "error":
        if (!m.id) this.table.refused(reasonText(m), m.ruling);
        break;
      case "bye":
        // A server stopping (a restart, or its room moving to another node of a cluster) says
        // going_away: the socket closes with 1001 next and reconnects, the player staying at the
        // table. Kicked, declined, left (in another tab), banned: back to the lobby, which says why.
        if (m.code === "going_away") break;
        this.goBack((BYE[m.code] || (() => reasonText(m)))(this.code, m));
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
    return JSON.stringify([ms, this.you?.host, this.you?.role, this.info?.paused, this.info?.ruleset, (this.info?.house_rules || []).map((r) => r.name)]);
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
    const c = h("div", { class: "cover", id: "cover", role: "dialog", "aria-label": t("pass the device") },
      h("div", {}, h("p", { class: "help" }, t("Pass the device to")), h("h2", {}, name), h("button", { class: "btn primary big", type: "button", onclick: () => { this.coverFor = null; c.remove(); } }, t("I'm {name}: show my cards", { name }))));
    this.tableEl.querySelector(".felt")?.append(c);
    c.querySelector("button").focus();
  }

  waitingPanel() {
    const you = this.you || {};
    let text = t("Waiting for the host to deal.");
    if (you.role === "pending") text = t("Waiting for the host to let you in…");
    else if (you.host) text = t("You are the host: press Deal when everyone is seated.");
    if (this.info?.quick && you.role !== "pending") text = t("Waiting for players to sit down…");
    const p = h("div", { class: "felt", style: "place-items:center;display:grid" }, h("div", { class: "panel", style: "text-align:center;max-width:420px" },
      h("h2", {}, t("{game} · room", { game: nameOf(this.info?.ruleset || "") }), " ", h("span", { class: "code" }, this.code)), h("p", {}, text), quickWait(this.info),
      (this.info?.house_rules || []).length ? h("p", { class: "help", id: "waiting-rules" }, t("House rules:"), " ", this.info.house_rules.map((r) => r.name).join(", "), " ", t("(the room panel says what they do)")) : "",
      you.host ? h("button", { class: "btn primary big", type: "button", "data-action": "deal", onclick: () => this.deal() }, t("Deal")) : "",
      // A room against the computer or passed around one device has nobody to invite.
      this.info?.mode === "online" ? [h("p", { class: "help" }, t("Send friends this link, or the code, to join or watch:")), invite(this.code)] : ""));
    p.classList.add(`ruleset-${this.info?.ruleset || ""}`);
    return p;
  }

  // banners shows one banner, the most important: the connection (nothing else is current while
  // it is down), then a paused game (no bot plays while it is paused, so no "bot is playing"),
  // then the seats bots cover (one line for all), then watching.
  banners() {
    const b = this.banner();
    if (!b) return this.bannerEl.replaceChildren();
    const [kind, cls, ...text] = b;
    if (this.bannerEl.firstChild?.dataset.banner === kind && this.bannerEl.firstChild.textContent === text.map((x) => (x instanceof Node ? x.textContent : x)).join("")) return;
    this.bannerEl.replaceChildren(h("div", { class: `banner ${cls}`, "data-banner": kind }, ...text));
  }

  banner() {
    const seated = (this.you?.seats || []).length > 0 && this.info?.game?.status === "live";
    if (this.conn === "connecting" && !this.opened) return ["connecting", "info", t("Connecting…")];
    if (this.conn === "reconnecting" || this.conn === "connecting") return ["reconnecting", "warn", seated ? t("Connection lost: reconnecting… your seat is kept for you.") : t("Connection lost: reconnecting…")];
    if (this.info?.paused) return ["paused", "warn", t("Game paused: every player has dropped. It goes on when one of them comes back.")];
    const covered = (this.info?.members || []).filter((m) => m.covered).map((m) => m.name);
    if (covered.length && this.info?.game?.status === "live") return ["covered", "info", t("A bot is playing for {names} until they come back.", { names: listNames(covered) })];
    if (this.views.has(-1) && this.views.size === 1 && this.info?.game) return ["watching", "info", eye(), " ", t("You are watching. You will get a seat at the next deal if one is free.")];
    return null;
  }

  // addBot is the host's "Add a bot" control: one button per level the variant's bots play at
  // (1 plays simply, the highest best; docs/bots.md), each seating a bot of that level.
  addBot(info) {
    const levels = (state.rulesets || []).find((d) => d.id === info.ruleset)?.bot_levels || [1];
    return h("div", { class: "add-bot row", role: "group", "aria-label": t("Add a bot") }, h("span", { class: "help" }, t("Add a bot, level")),
      levels.map((l) => h("button", { class: "btn small", type: "button", "data-add-bot": l, title: l === levels[0] ? t("Add a level {level} bot (plays simply)", { level: l }) : l === levels[levels.length - 1] ? t("Add a level {level} bot (plays best)", { level: l }) : t("Add a level {level} bot", { level: l }), onclick: () => this.post("bots", { level: l }) }, num(l))));
  }

  renderSide() {
    if (!this.sideEl) return;
    const info = this.info || { members: [] };
    const you = this.you || {};
    const members = info.members || [];
    if (this.headingEl && info.ruleset) this.headingEl.textContent = `${t("{game} · room", { game: nameOf(info.ruleset) })} ${this.code}`;
    // The connection dot is filled (connected) or a ring (away), and says which in words too.
    const here = (m) => !!(m.connected || m.bot_level);
    const row = (m) => h("li", { "data-member": m.id }, h("span", { class: "dot" + (here(m) ? " on" : ""), role: "img", "aria-label": here(m) ? t("connected") : t("away"), title: here(m) ? t("connected") : t("away") }), avatar({ display_name: m.name, avatar: m.avatar, colour: m.colour }),
      h("span", { class: "grow" }, m.name, m.seat >= 0 && m.role === "player" ? h("span", { class: "help" }, " · ", t("seat {n}", { n: m.seat + 1 })) : "", m.bot_level ? h("span", { class: "help" }, " · ", t("bot {level}", { level: m.bot_level })) : "", m.user_id && !m.bot_level && info.mode === "online" ? ratingTag(info.ruleset, m.user_id) : "", m.id === you.member_id ? h("span", { class: "help" }, " ", t("(you)")) : "", here(m) ? "" : h("span", { class: "help away", "data-away": "" }, " · ", t("away"))),
      info.mode === "device" && you.host && m.role === "player" && m.user_id === you.user_id ? h("button", { class: "btn ghost small", type: "button", title: t("Name and look of {name}", { name: m.name }), "data-seat-look": m.seat, onclick: () => this.editSeat(m) }, t("Edit")) : "",
      you.host && m.id !== you.member_id && !m.bot_level && !(info.mode === "device" && m.user_id === you.user_id) ? h("button", { class: "btn ghost small", type: "button", title: t("Remove {name}", { name: m.name }), "data-kick": m.id, onclick: () => this.kick(m) }, t("Kick")) : "",
      you.host && m.role === "pending" ? [h("button", { class: "btn go small", type: "button", "data-approve": m.id, onclick: () => this.post(`requests/${m.id}`, { approve: true }) }, t("Let in")), h("button", { class: "btn danger small", type: "button", onclick: () => this.post(`requests/${m.id}`, { approve: false }) }, t("No"))] : "");
    const section = (title, list) => list.length ? [h("h3", {}, title), h("ul", {}, list.map(row))] : [];
    const players = members.filter((m) => m.role === "player").sort((a, b) => a.seat - b.seat);
    const specs = members.filter((m) => m.role === "spectator");
    const pending = members.filter((m) => m.role === "pending");
    // The host's tools are redrawn only when they change: a room update (someone connecting)
    // must not replace a button under the host's finger, which would swallow the tap.
    const canDeal = !info.game || info.game.status !== "live", canAddBot = info.mode !== "device" && players.length < info.capacity;
    const hostKey = JSON.stringify([you.host, canDeal, info.locked, canAddBot, info.ruleset]);
    if (hostKey !== this.hostKey) {
      this.hostKey = hostKey;
      this.hostEl = you.host ? h("section", { class: "host" }, h("h3", {}, t("Host")), h("div", { class: "host-tools" },
        canDeal ? h("button", { class: "btn primary small", type: "button", "data-action": "deal", onclick: () => this.deal() }, t("Deal")) : "",
        h("button", { class: "btn small", type: "button", "data-lock": "1", onclick: () => this.post("lock", { locked: !this.info.locked }) }, info.locked ? t("Unlock room") : t("Lock room")),
        canAddBot ? this.addBot(info) : ""), h("p", { class: "error-text host-error" })) : "";
    }
    const host = this.hostEl;
    if (!this.chatEl) {
      // The chat is built once: redrawing the room (every move sends a room message) must not
      // take the line a player is typing.
      const log = h("div", { class: "chat-log", id: "chat-log", "aria-live": "polite" });
      const input = h("input", { type: "text", name: "chat", maxlength: 500, placeholder: t("Say something…"), "aria-label": t("chat message"), autocomplete: "off" });
      const form = h("form", { onsubmit: (e) => { e.preventDefault(); const text = input.value.trim(); if (text) { this.sock.send({ type: "chat", text }); input.value = ""; } } }, input, h("button", { class: "btn small", type: "submit" }, t("Send")));
      this.chatEl = h("div", { class: "chat" }, h("h3", { style: "padding:.8em 1em 0" }, t("Chat")), log, form);
      this.sideTop = h("div", { class: "side-top" });
      // On a phone the room panel folds away under the table; this bar opens it.
      this.unread = 0;
      this.sideToggle = h("button", { class: "side-toggle", type: "button", "aria-expanded": "false", onclick: () => {
        const open = document.body.classList.toggle("show-side");
        this.sideToggle.setAttribute("aria-expanded", String(open));
        // The focus stays on the bar: focusing the chat would raise a phone's keyboard over the panel.
        if (open) { this.unread = 0; this.renderToggle(); this.scrollRuleLog(); }
      } });
      this.rulesBox = h("div", { class: "rules-box" }); // the house rules in force (houserules.js)
      this.sideEl.replaceChildren(this.sideToggle, this.sideTop, this.rulesBox, this.chatEl);
    }
    const top = [
      h("section", {}, h("div", { class: "row" }, h("span", { class: "grow" }, h("b", {}, nameOf(info.ruleset || "")), " · ", modeName(info.mode)), h("a", { class: "btn ghost small", href: `#/rules/${info.ruleset}`, target: "_blank" }, t("Rules"))),
        h("div", { class: "row" }, t("Code"), " ", h("span", { class: "code", id: "room-code" }, this.code), info.locked ? h("span", { class: "chip" }, t("locked")) : "",
          info.mode === "online" ? copyButton(inviteLink(this.code), t("Copy invite link")) : "")),
      h("section", { class: "members" }, ...section(t("Players ({count}/{capacity})", { count: players.length, capacity: info.capacity ? num(info.capacity) : "?" }), players), ...section(t("Watching"), specs), ...section(t("Asking to join"), pending)),
    ];
    const kids = this.sideTop.children;
    if (host && kids.length === 3 && kids[2] === host) {
      kids[0].replaceWith(top[0]); // the host's tools stay as they are, never taken from the page
      kids[1].replaceWith(top[1]);
    } else {
      this.sideTop.replaceChildren(...top, host);
    }
    // The house rules in force, redrawn only when they (or who may change them) change.
    const rulesKey = JSON.stringify([info.house_rules, you.host, canDeal, info.game?.house_rules]);
    if (rulesKey !== this.rulesKey) {
      this.rulesKey = rulesKey;
      this.rulesBox.replaceChildren(roomRules({ code: this.code, info, you, me: state.me, takesRules: !!(state.rulesets || []).find((d) => d.id === info.ruleset)?.house_rules }));
    }
    this.renderToggle();
    this.banners();
  }

  renderToggle() {
    if (!this.sideToggle) return;
    const n = (this.info?.members || []).length;
    this.sideToggle.replaceChildren(h("span", { class: "grow" }, t("Room"), " ", h("b", { class: "code" }, this.code), " · ", t("{count} here · chat", { count: n })),
      this.unread ? h("span", { class: "chip red", "data-unread": this.unread }, t("{count} new", { count: this.unread })) : "", h("span", { "aria-hidden": "true" }, "\u25b4"));
  }

  renderChat() {
    this.renderToggle();
    const log = this.sideEl.querySelector("#chat-log");
    if (!log) return;
    log.replaceChildren(...this.chatLines.slice(-100).map((c) => h("div", { class: "line" }, h("b", {}, c.name + ":"), c.text)));
    log.scrollTop = log.scrollHeight;
  }

  // renderRuleLog shows what the game's house rules printed (ruleLog) above the chat, once there
  // is a line: a player who receives none never sees the panel.
  renderRuleLog() {
    if (!this.chatEl || !this.ruleLines.length) return;
    const el = ruleLog(this.ruleLines);
    if (this.ruleLogEl) this.ruleLogEl.replaceWith(el);
    else this.chatEl.before(el);
    this.ruleLogEl = el;
    this.scrollRuleLog();
  }

  // scrollRuleLog shows the rule output's newest line (again when a phone's room sheet opens: a
  // folded sheet has no height to scroll).
  scrollRuleLog() {
    const lines = this.ruleLogEl?.querySelector(".rule-log-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  }

  // editSeat names a pass-the-device seat and gives it a look, so the players sharing the
  // device tell their seats apart (the cover screen and the name plates show them).
  editSeat(m) {
    return lookDialog(t("Seat {n}", { n: m.seat + 1 }), { name: m.name, avatar: m.avatar, colour: m.colour }, (v) => api("PATCH", `/api/rooms/${this.code}/members/${m.id}`, v));
  }

  // kick asks the host how long the member is kept out (docs/api.md, kick) and removes them.
  async kick(m) {
    const seated = m.role === "player" && m.seat >= 0;
    const choice = await confirmKick(m.name, this.info?.game?.status === "live" && seated ? "game" : seated ? "seat" : "room");
    if (choice) await this.post("kick", { member_id: m.id, ...choice });
  }

  async post(path, body) {
    try {
      await api("POST", `/api/rooms/${this.code}/${path}`, body);
    } catch (err) {
      const e = this.sideEl.querySelector(".host-error");
      if (e) e.textContent = errorText(err);
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
    if (res.type !== "accepted") return { ok: false, reason: reasonText(res), ruling: res.ruling };
    return { ok: true, seen: this.viewSeq !== undefined && res.seq !== undefined && this.viewSeq >= res.seq };
  }

  async check(action) {
    const res = await this.sock.request({ type: "check", seat: this.actingSeat(), action });
    return { ok: res.ok === true, reason: res.ok === true ? res.reason : reasonText(res), ruling: res.ruling };
  }

  async deal() {
    const res = await this.sock.request({ type: "deal" });
    if (res.type !== "error") return;
    if (this.table.view) return this.table.refused(reasonText(res), res.ruling);
    // Before the first deal the waiting panel says why the deal was refused (too few players).
    const panel = this.tableEl.querySelector(".panel");
    panel?.querySelector(".deal-error")?.remove();
    panel?.append(h("p", { class: "error-text deal-error", role: "alert" }, reasonText(res)));
  }

  close() {
    this.leaving = true; // the page moves on: nothing more to tell
    this.sock.close();
  }
}

// listNames joins names as a sentence does: "Ann", "Ann and Bob", "Ann, Bob and Cy".
function listNames(names) {
  return names.length < 2 ? names.join("") : t("{names} and {last}", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

// confirmLeave asks a seated player whether to leave a game being played; it resolves to true
// when they leave.
function confirmLeave() {
  return new Promise((resolve) => {
    const dlg = h("dialog", { "aria-label": t("leave the game"), id: "confirm-leave" });
    const done = (v) => { dlg.close(); resolve(v); };
    dlg.append(h("h2", {}, t("Leave the game?")), h("p", {}, t("A bot takes your seat and your cards until the game ends.")),
      h("div", { class: "row", style: "justify-content:flex-end" }, h("button", { class: "btn ghost", type: "button", "data-answer": "stay", onclick: () => done(false) }, t("Stay")),
        h("button", { class: "btn danger", type: "button", "data-answer": "leave", onclick: () => done(true) }, t("Leave"))));
    dlg.addEventListener("cancel", () => resolve(false));
    dlg.addEventListener("close", () => dlg.remove());
    document.body.append(dlg);
    dlg.showModal();
  });
}

// KICK_CHOICES are how long the host's kick keeps a player out: a cooldown or a ban from the room
// (labels in English, shown through t()).
const KICK_CHOICES = [
  ["10", "10 minutes", { minutes: 10 }],
  ["60", "1 hour", { minutes: 60 }],
  ["1440", "1 day", { minutes: 1440 }],
  ["ban", "Ban from this room", { ban: true }],
];

// KICK_WORDS (in English, shown through t()) say what a kick does to the member: a player in the game being played (a bot takes
// their seat), a player between games (their seat is freed), anyone else (they leave the room).
const KICK_WORDS = {
  game: "A bot takes their seat in the game being played.",
  seat: "They leave the room, and their seat is free for someone else.",
  room: "They leave the room.",
};

// confirmKick asks the host whether to remove a member and for how long they are kept out, saying
// what the kick does (KICK_WORDS[what]); it resolves to the kick's choice ({minutes} or {ban}), or
// null when the host cancels.
function confirmKick(name, what) {
  return new Promise((resolve) => {
    const dlg = h("dialog", { "aria-label": t("remove {name}", { name }), id: "confirm-kick" });
    let answer = null;
    const choices = KICK_CHOICES.map(([value, label], i) => h("label", { class: "row" },
      h("input", { type: "radio", name: "keep-out", value, "data-keep-out": value, checked: i === 0 }), t(label)));
    const done = (v) => { answer = v; dlg.close(); };
    dlg.append(h("h2", {}, t("Remove {name}?", { name })), h("p", { class: "kick-what" }, t(KICK_WORDS[what] || KICK_WORDS.room), " ", t("Keep them out for:")),
      h("fieldset", { class: "keep-out" }, choices),
      h("div", { class: "row", style: "justify-content:flex-end" }, h("button", { class: "btn ghost", type: "button", "data-answer": "cancel", onclick: () => done(null) }, t("Cancel")),
        h("button", { class: "btn danger", type: "button", "data-answer": "kick", onclick: () => {
          const v = dlg.querySelector("input[name=keep-out]:checked")?.value;
          done((KICK_CHOICES.find((c) => c[0] === v) || KICK_CHOICES[0])[2]);
        } }, t("Remove"))));
    dlg.addEventListener("close", () => { dlg.remove(); resolve(answer); });
    document.body.append(dlg);
    dlg.showModal();
  });
}
