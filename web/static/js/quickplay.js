// Quick play and the live list of public tables (issue 32): a "Play NAME now" button per variant
// (POST /api/quickplay seats the player at a waiting public table or opens one), the lobby's
// table of open rooms kept current by the server's lobby events (GET /api/lobby/events, server-
// sent events: the whole list again whenever it changes), and the note a quick table shows while
// it waits: when it starts, and that bots will take the empty seats.

import { t, tv, num } from "./i18n.js";
import { api } from "./api.js";
import { h } from "./dom.js";
import { inviteLink, copyButton, eye, nameOf } from "./shell.js";

// quickPlayButton is the one tap that seats the player at a table of variant d.
export function quickPlayButton(d) {
  const b = h("button", { class: "btn go small", type: "button", "data-quick": d.id }, t("Play {name} now", { name: tv(d.name) }));
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      const res = await api("POST", "/api/quickplay", { ruleset: d.id });
      location.hash = `#/room/${res.code}`; // the room page joins it (a seat is kept when already taken)
    } catch (err) {
      b.disabled = false;
      b.after(h("p", { class: "error-text", role: "alert" }, err.message));
    }
  });
  return b;
}

const STATES = () => ({ waiting: [t("Waiting for players"), "green"], playing: [t("Playing"), "gold"] });

// roomsTable is the list of open rooms: variant, state, who sits there (with their rating in
// the variant), the house rules, and the ways in.
export function roomsTable(list) {
  if (!list.length) return h("p", { class: "help", id: "no-rooms" }, t("No open rooms right now: start one!"));
  const st = STATES();
  return h("table", { class: "rooms" },
    h("tr", {}, h("th", {}, t("Room")), h("th", {}, t("Game")), h("th", {}, t("Players")), h("th", {}, "")),
    list.map((r) => {
      const players = (r.members || []).filter((m) => m.role === "player" && m.seat >= 0);
      const humans = players.filter((m) => m.user_id && !m.bot_level);
      const free = Math.max(0, r.capacity - players.length);
      const names = humans.map((m) => {
        const rating = (r.ratings || {})[String(m.user_id)];
        return rating === undefined ? m.name : t("{name} ({rating})", { name: m.name, rating: num(rating) });
      }).join(", ");
      const rules = (r.house_rules || []).map((x) => x.name).join(", ");
      return h("tr", { "data-room": r.code, "data-state": r.state || "", "data-free": free },
        h("td", { class: "code" }, r.code),
        h("td", {}, nameOf(r.ruleset), " ", h("span", { class: `chip ${(st[r.state] || ["", ""])[1]}`, "data-room-state": r.state || "" }, (st[r.state] || [r.state || ""])[0]),
          r.quick ? h("span", { class: "chip" }, t("Quick play")) : "",
          rules ? h("div", { class: "help" }, t("House rules: {names}", { names: rules })) : ""),
        h("td", {}, `${players.length}/${r.capacity}`, " ", h("span", { class: "help" }, t("{count} seats free", { count: free })),
          names ? h("div", { class: "help players" }, names) : ""),
        h("td", {}, h("div", { class: "row" }, h("a", { class: "btn small go", href: `#/room/${r.code}` }, t("Join")),
          h("a", { class: "btn small ghost", href: `#/watch/${r.code}` }, eye(), t("Watch")), copyButton(inviteLink(r.code), t("Copy link")))));
    }));
}

// liveRooms keeps holder's list of rooms current from the lobby's events until the page changes.
// It returns a function that stops it.
export function liveRooms(holder) {
  if (typeof EventSource === "undefined") return () => {};
  const es = new EventSource("/api/lobby/events");
  let count = 0;
  es.addEventListener("lobby", (ev) => {
    let list;
    try { list = JSON.parse(ev.data).rooms || []; } catch { return; }
    if (!holder.isConnected) { es.close(); return; }
    // Keep the focus where it was when the list is drawn again (a keyboard user on a button).
    const focused = document.activeElement && holder.contains(document.activeElement) ? document.activeElement.closest("[data-room]")?.dataset.room : null;
    holder.replaceChildren(roomsTable(list));
    holder.dataset.updates = String(++count);
    if (focused) holder.querySelector(`[data-room="${focused}"] a`)?.focus();
  });
  const stop = () => { es.close(); window.removeEventListener("hashchange", stop); };
  window.addEventListener("hashchange", stop);
  return stop;
}

// quickWait is the note of a quick table that waits for players: it starts when full, or at
// info.starts_at with bots in the empty seats. It counts down by itself; "" when not waiting.
export function quickWait(info) {
  if (!info || !info.quick || !info.starts_at || (info.game && info.game.status === "live")) return "";
  const at = Date.parse(info.starts_at);
  const players = (info.members || []).filter((m) => m.role === "player" && m.seat >= 0).length;
  const free = Math.max(0, info.capacity - players);
  const line = h("p", { id: "quick-count" });
  const el = h("div", { class: "banner info", id: "quick-wait", role: "status" },
    h("p", {}, h("b", {}, t("Quick play: this table starts as soon as it is full."))),
    h("p", {}, t("If nobody else comes, bots will take the {count} empty seats when the wait ends.", { count: free })), line);
  const tick = () => {
    if (!el.isConnected && line.textContent) { clearInterval(timer); return; }
    const s = Math.max(0, Math.ceil((at - Date.now()) / 1000));
    line.textContent = s > 0 ? t("Starting in {count} s", { count: s }) : t("Starting now…");
  };
  const timer = setInterval(tick, 500);
  tick();
  return el;
}

// ratingTag is a player's rating in a variant beside their name at a table (" · 12.3"), filled in
// once known: the ratings are asked for in one request per table drawn, and kept for a minute.
const ratings = new Map(); // "ruleset:user" -> {at, value}
let pending = null;
export function ratingTag(ruleset, userID, shown) {
  const el = h("span", { class: "help rating-tag", "data-rating-for": userID });
  const key = `${ruleset}:${userID}`;
  const show = (v) => { if (v !== undefined) { el.textContent = t(" · rating {rating}", { rating: num(v) }); el.dataset.rating = String(v); shown?.(v); } };
  const known = ratings.get(key);
  if (known && Date.now() - known.at < 60000) { show(known.value); return el; }
  if (!pending) {
    pending = { ruleset, users: new Set(), waiting: [] };
    queueMicrotask(async () => {
      const p = pending;
      pending = null;
      let got = {};
      try { got = (await api("GET", `/api/ratings/${p.ruleset}?users=${[...p.users].slice(0, 50).join(",")}`)).ratings || {}; } catch { /* no ratings shown */ }
      for (const u of p.users) ratings.set(`${p.ruleset}:${u}`, { at: Date.now(), value: got[String(u)] });
      for (const [u, f] of p.waiting) f(got[String(u)]);
    });
  }
  if (pending.ruleset === ruleset) {
    pending.users.add(userID);
    pending.waiting.push([userID, show]);
  }
  return el;
}

// seatRating is a player's rating in a variant for their seat at the table: the value last read
// (undefined: no rating, or not read yet); when not read in the last minute it is asked for again
// (with the others of the table, as ratingTag does: a game just finished moves it) and
// loaded(value) is called once it is known.
export function seatRating(ruleset, userID, loaded) {
  const key = `${ruleset}:${userID}`;
  const known = ratings.get(key);
  if (known && Date.now() - known.at < 60000) return known.value;
  // Asked at most once a minute: the table redraws on every move while the answer comes.
  if (!(Date.now() - (asked.get(key) || 0) < 60000)) {
    asked.set(key, Date.now());
    ratingTag(ruleset, userID, loaded);
  }
  return known?.value;
}
const asked = new Map(); // "ruleset:user" -> when seatRating last asked
