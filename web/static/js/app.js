// The Cardhouse app: entry (guest, log in, register, your look), the lobby (variants from the
// server's plugins, open rooms, the create-room form generated from the option schema, join and
// watch by code), the rules pages, the house-rules page (houserules.js) and the room (room.js).
// Routes are hashes: #/ (entry or lobby), #/rules/ID, #/house-rules, #/room/CODE, #/watch/CODE,
// #/invite/CODE (an invite link's landing page).
// The frame the pages share is shell.js.

import { t, tv, num, locale } from "./i18n.js";
import { api } from "./api.js";
import { h } from "./dom.js";
import { cardEl } from "./cards.js";
import { markdown } from "./md.js";
import { optionField, optionValue } from "./options.js";
import { houseRulesPage, ruleChooser, ruleAlerts } from "./houserules.js";
import { COLOURS, MODES, modeName, errorText, useRulesets, applyAccountLocale, state, avatar, page, inviteLink, copyButton, fieldErrors, loadMe, logout, lookPicker, eye, nameOf } from "./shell.js";
import { enterRoom } from "./room.js";
import { quickPlayButton, roomsTable, liveRooms } from "./quickplay.js";
import { profilePage, leaderboardPage } from "./profile.js";
import { replayPage } from "./replay.js";

// ---- Entry ---------------------------------------------------------------------------------------
// entry is the way in: as a guest, by logging in or by registering. invited (invitePage) puts
// the invitation above the form instead of the welcome, and goes into its room once in.
function entry(mode0 = "guest", invited = null) {
  const look = { avatar: "spade", colour: COLOURS[5] };
  const nameInput = h("input", { type: "text", name: "name", required: true, maxlength: 32, autocomplete: "nickname", placeholder: t("Your name") });

  let mode = "guest";
  const user = h("input", { type: "text", name: "username", autocomplete: "username" });
  const pass = h("input", { type: "password", name: "password", autocomplete: "current-password" });
  const creds = h("div", { class: "hidden" }, h("label", { class: "field" }, h("span", {}, t("Username")), user), h("label", { class: "field" }, h("span", {}, t("Password")), pass, h("span", { class: "error-text", "data-for": "password" })));
  const submit = h("button", { class: "btn primary big", type: "submit", id: "enter" }, t("Play as guest"));
  const nameField = h("label", { class: "field" }, h("span", {}, t("Name at the table")), nameInput, h("span", { class: "error-text", "data-for": "name" }));
  const tabs = h("div", { class: "tabs", role: "tablist" });
  const setMode = (m) => {
    mode = m;
    for (const b of tabs.children) b.setAttribute("aria-selected", String(b.dataset.mode === m));
    creds.classList.toggle("hidden", m === "guest");
    nameField.classList.toggle("hidden", m === "login");
    nameInput.required = m !== "login";
    pass.autocomplete = m === "register" ? "new-password" : "current-password";
    submit.textContent = invited && m === "guest" ? t("Join as a guest") : t({ guest: "Play as guest", login: "Log in", register: "Create account" }[m]);
  };
  for (const [m, label] of [["guest", "Guest"], ["login", "Log in"], ["register", "Register"]]) tabs.append(h("button", { class: "btn", type: "button", role: "tab", "data-mode": m, onclick: () => setMode(m) }, t(label)));
  const form = h("form", { class: "panel", id: "entry" }, tabs, nameField, creds,
    lookPicker(look, nameInput),
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
      await applyAccountLocale();
      if (invited) location.hash = `#/room/${invited.code}`; // the room page joins it
      else route();
    } catch (err) {
      fieldErrors(form, err);
    } finally {
      submit.disabled = false;
    }
  });
  setMode(mode0);
  const fan = h("div", { class: "hero-cards", "aria-hidden": "true" }, ["AS", "R7", "10H", "QC", "W"].map((c, i) => {
    const e = cardEl(c, { roles: {} });
    e.style.transform = `rotate(${(i - 2) * 9}deg) translateY(${Math.abs(i - 2) * 8}px)`;
    return e;
  }));
  if (invited) page(invited.el, h("div", { class: "invite-entry" }, form));
  else page(h("div", { class: "hero" }, fan, h("h1", {}, "Cardhouse"), h("p", {}, t("Card games with friends, in the browser. Pick a name and sit down."))), h("div", { style: "max-width:460px;margin:1.5em auto" }, form));
  if (!invited) nameInput.focus(); // an invitation is read first (a phone's keyboard would hide it)
}

// ---- Invitation ----------------------------------------------------------------------------------

// invitePage is where an invite link (#/invite/CODE) lands, signed in or not: the room's code, its
// variant, who hosts it and who sits there, before joining; then Join (with a name first for
// someone new, who enters as a guest or logs in) or Watch.
async function invitePage(code) {
  const [rs, inv] = await Promise.all([state.rulesets ? { rulesets: state.rulesets } : api("GET", "/api/rulesets"), api("GET", `/api/invites/${code}`)]);
  useRulesets(rs.rulesets);
  const d = state.rulesets.find((x) => x.id === inv.ruleset);
  const game = nameOf(inv.ruleset);
  const sample = d && (d.sample || []).length ? d.sample : ["AS", "KH", "QD"];
  const seated = inv.players.length;
  const el = h("section", { class: "panel invitation", id: "invitation", "data-room": inv.code, "aria-labelledby": "invitation-title" },
    h("div", { class: "mini", "aria-hidden": "true" }, sample.map((c, i) => { const e = cardEl(c, { roles: {} }); e.style.setProperty("--i", i); return e; })),
    h("h1", { id: "invitation-title" }, inv.host ? t("{host} invites you to play {game}", { host: inv.host, game }) : t("You are invited to play {game}", { game })),
    h("p", { class: "invitation-room" }, t("Room"), " ", h("span", { class: "code", id: "invitation-code" }, inv.code), " · ", game, " · ", t("{taken} of {seats} seats taken", { taken: num(seated), seats: num(inv.capacity) })),
    seated ? h("p", { id: "invitation-players" }, t("At the table: {names}", { names: inv.players.join(", ") })) : "",
    (inv.house_rules || []).length ? h("p", { class: "help" }, t("House rules: {names}", { names: inv.house_rules.join(", ") })) : "",
    inv.playing ? h("p", { class: "help" }, t("A game is being played: you watch it, and sit down at the next deal.")) : "",
    !inv.playing && seated >= inv.capacity ? h("p", { class: "help", id: "invitation-full" }, t("Every seat is taken: you watch, and sit down if a seat frees up.")) : "",
    inv.locked ? h("p", { class: "help", role: "status" }, t("The room is locked: the host lets nobody new in just now.")) : "",
    d ? h("p", {}, h("a", { href: `#/rules/${inv.ruleset}`, target: "_blank" }, t("How to play {game}", { game }))) : "");
  if (!state.me) return entry("guest", { code: inv.code, el });
  page(el, h("div", { class: "row invitation-actions" },
    h("a", { class: "btn primary big", id: "invite-join", href: `#/room/${inv.code}` }, t("Join")),
    h("a", { class: "btn ghost big", href: `#/watch/${inv.code}` }, eye(), t("Watch")),
    h("a", { class: "btn ghost", href: "#/" }, t("Back to the lobby"))));
}

// ---- Lobby ---------------------------------------------------------------------------------------

async function lobby() {
  const [rs, rooms] = await Promise.all([api("GET", "/api/rulesets"), api("GET", "/api/rooms").catch(() => ({ rooms: [] }))]);
  useRulesets(rs.rulesets);
  const variants = h("div", { class: "variants" }, state.rulesets.map((d) => {
    // The variant's own sample cards (Info.Sample), else French ones.
    const sample = (d.sample || []).length ? d.sample : ["AS", "KH", "QD"];
    return h("article", { class: "variant", "data-ruleset": d.id },
      h("div", { class: "mini", "aria-hidden": "true" }, sample.map((c, i) => { const e = cardEl(c, { roles: {} }); e.style.setProperty("--i", i); return e; })),
      h("h3", {}, tv(d.name)), h("p", {}, tv(d.summary || "")), h("p", { class: "help" }, t("{min}–{max} players", { min: d.min_seats, max: d.max_seats })),
      h("div", { class: "row" }, Object.hasOwn(rs.disabled || {}, d.id)
        ? h("span", { class: "help", "data-disabled": d.id }, t("Not offered for new rooms just now: {reason}", { reason: rs.disabled[d.id] || t("an admin disabled it") }))
        : [quickPlayButton(d), computerButton(d), h("button", { class: "btn primary small", type: "button", "data-create": d.id, onclick: () => createDialog(d) }, t("New room"))], h("a", { class: "btn ghost small", href: `#/rules/${d.id}` }, t("How to play"))));
  }));
  // The server lists only rooms someone can sit down in (docs/api.md): waiting or playing.
  // quickplay.js draws the list and keeps it current from the lobby's events.
  const table = h("div", { id: "open-rooms", "aria-live": "polite" }, roomsTable(rooms.rooms || []));
  liveRooms(table);
  const code = h("input", { type: "text", name: "code", maxlength: 6, placeholder: "ABCDEF", autocapitalize: "characters", "aria-label": t("room code"), class: "code" });
  const go = (watch) => { const c = code.value.trim().toUpperCase(); if (c) location.hash = `#/${watch ? "watch" : "room"}/${c}`; };
  const byCode = h("form", { class: "row", id: "by-code", onsubmit: (e) => { e.preventDefault(); go(false); } }, h("div", { class: "grow" }, code), h("button", { class: "btn go", type: "submit", id: "join-code" }, t("Join")), h("button", { class: "btn ghost", type: "button", id: "watch-code", onclick: () => go(true) }, eye(), t("Watch")));
  page(ruleAlerts(state.me), h("div", { class: "row" }, h("h2", { class: "grow" }, t("Games")), h("a", { class: "btn ghost small", href: "#/house-rules", id: "house-rules-link" }, t("House rules"))), variants, h("div", { class: "grid2", style: "margin-top:1.5em" },
    // The code's panel first: the open rooms' list changes as it is watched, and must not move it.
    h("section", { class: "panel" }, h("h2", {}, t("Have a code?")), byCode, h("p", { class: "help" }, t("Join to play, or watch: spectators see the table and the chat, never a hand."))),
    h("section", { class: "panel" }, h("h2", {}, t("Open rooms")), table)));
}

// computerButton is the one tap to a game against the computer: a room whose other seats are
// bots (as many as the new-room form offers first, at the first level), dealt at once (the
// server's start: nobody is awaited, so there is no Deal to press and no one to invite).
function computerButton(d) {
  const b = h("button", { class: "btn small", type: "button", "data-computer": d.id }, t("Play {name} against the computer", { name: tv(d.name) }));
  b.addEventListener("click", async () => {
    b.disabled = true;
    const seats = d.max_seats > 4 ? 4 : d.max_seats;
    const level = (d.bot_levels && d.bot_levels.length ? d.bot_levels : [1])[0];
    try {
      const res = await api("POST", "/api/rooms", { ruleset: d.id, mode: "computer", seats, bots: Array(seats - 1).fill(level), start: true });
      location.hash = `#/room/${res.room.code}`;
    } catch (err) {
      b.disabled = false;
      b.after(h("p", { class: "error-text", role: "alert" }, errorText(err)));
    }
  });
  return b;
}

function presetPicker(d, form) {
  if (!(d.presets || []).length) return "";
  const bar = h("div", { class: "presets", role: "group", "aria-label": t("presets") });
  const control = (name) => form.elements[name];
  const value = (o) => {
    const el = control(o.name);
    if (!el) return undefined;
    if (o.type === "bool") return el.checked;
    if (o.type === "int") return el.value === "" ? o.default : Number(el.value);
    return el.value === "" ? o.default : el.value;
  };
  const wanted = (p, o) => (Object.hasOwn(p.options || {}, o.name) ? p.options[o.name] : o.default);
  const mark = () => {
    for (const b of bar.querySelectorAll("button")) {
      const p = d.presets[Number(b.dataset.preset)];
      b.setAttribute("aria-pressed", String((d.options || []).every((o) => value(o) === wanted(p, o) || (wanted(p, o) == null && value(o) == null))));
    }
  };
  d.presets.forEach((p, i) => bar.append(h("button", { class: "btn small preset", type: "button", "data-preset": i, title: tv(p.description || ""), onclick: () => {
    for (const o of d.options || []) {
      const el = control(o.name);
      const v = wanted(p, o);
      if (!el) continue;
      if (o.type === "bool") el.checked = v === true;
      else el.value = v === undefined || v === null ? "" : String(v);
    }
    mark();
  } }, h("b", {}, tv(p.name)), p.description ? h("span", { class: "help" }, tv(p.description)) : "")));
  form.addEventListener("input", mark);
  form.addEventListener("change", mark);
  queueMicrotask(mark);
  return h("div", { class: "field" }, h("span", {}, t("Start from")), bar);
}

function createDialog(d) {
  const opts = h("div", {}, (d.options || []).map((o) => optionField(o)));
  const mode = h("select", { name: "mode", id: "mode" }, Object.keys(MODES).map((k) => h("option", { value: k }, modeName(k))));
  const seats = h("input", { type: "number", name: "seats", min: d.min_seats, max: d.max_seats, value: d.max_seats > 4 ? 4 : d.max_seats });
  const levels = d.bot_levels && d.bot_levels.length ? d.bot_levels : [1];
  const bots = h("div", { class: "bots" });
  const renderBots = () => {
    const n = Math.max(1, Math.min(d.max_seats - 1, Number(seats.value) - 1 || 1));
    bots.replaceChildren(...Array.from({ length: n }, (_, i) => h("label", { class: "field" }, h("span", {}, t("Opponent {n} level", { n: i + 1 })), h("select", { name: `bot${i}` }, levels.map((l) => h("option", { value: l }, t("Level {level}", { level: l })))))));
  };
  const approval = h("input", { type: "checkbox", name: "approval" });
  const botsBox = h("div", { class: "hidden" }, bots);
  const approvalBox = h("label", { class: "field row" }, approval, h("span", {}, t("Ask me before letting people in")));
  const priv = h("input", { type: "checkbox", name: "private", id: "private" });
  const privateBox = h("label", { class: "field row" }, priv, h("span", {}, t("Private: not listed in the lobby, friends join by the code or the link")));
  const sync = () => { botsBox.classList.toggle("hidden", mode.value !== "computer"); approvalBox.classList.toggle("hidden", mode.value !== "online"); privateBox.classList.toggle("hidden", mode.value !== "online"); renderBots(); };
  mode.addEventListener("change", sync);
  seats.addEventListener("input", renderBots);
  const title = t("New {game} room", { game: tv(d.name) });
  const dlg = h("dialog", { "aria-label": title });
  const chooser = d.house_rules && state.me ? ruleChooser(d.id, state.me) : null; // houserules.js
  const form = h("form", { method: "dialog", id: "create-room" }, h("h2", {}, title),
    h("label", { class: "field" }, h("span", {}, t("Mode")), mode), h("label", { class: "field" }, h("span", {}, t("Seats ({min}–{max})", { min: d.min_seats, max: d.max_seats })), seats, h("span", { class: "error-text", "data-for": "seats" })),
    botsBox, approvalBox, privateBox, opts, chooser ? chooser.el : "", h("p", { class: "error-text general", role: "alert" }),
    h("div", { class: "row", style: "justify-content:flex-end" }, h("button", { class: "btn ghost", type: "button", onclick: () => dlg.close() }, t("Cancel")), h("button", { class: "btn primary", type: "submit" }, t("Create room"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const options = {};
    // Only what the host changed is sent: the server and the ruleset fill in the rest, including
    // defaults that depend on the room (Last Card online rooms call "Last card!" automatically).
    for (const o of d.options || []) {
      const v = optionValue(form, o);
      if (v !== undefined && v !== o.default) options[o.name] = v;
    }
    const body = { ruleset: d.id, mode: mode.value, options, seats: Number(seats.value), approval: approval.checked, private: mode.value === "online" && priv.checked };
    if (mode.value === "computer") body.bots = [...bots.querySelectorAll("select")].map((s) => Number(s.value));
    const rules = chooser ? chooser.value(form) : [];
    if (rules.length) body.house_rules = rules;
    try {
      const res = await api("POST", "/api/rooms", body);
      dlg.close();
      location.hash = `#/room/${res.room.code}`;
    } catch (err) {
      fieldErrors(form, err);
    }
  });
  const presets = presetPicker(d, form);
  if (presets) opts.before(presets);
  dlg.append(form);
  document.body.append(dlg);
  dlg.addEventListener("close", () => dlg.remove());
  sync();
  dlg.showModal();
}

// ---- Rules ---------------------------------------------------------------------------------------

async function rules(id) {
  const rs = state.rulesets || useRulesets((await api("GET", "/api/rulesets")).rulesets);
  const d = rs.find((x) => x.id === id);
  if (!d) return page(h("p", {}, t("No game called \"{id}\" here.", { id })), h("a", { href: "#/" }, t("Back to the lobby")));
  page(h("article", { class: "panel markdown", id: "rules" }, h("h1", {}, t("How to play {game}", { game: tv(d.name) })), markdown(rulesText(d))), h("p", {}, h("a", { class: "btn", href: "#/" }, t("Back to the lobby"))));
}

// rulesText is a variant's rules page in the locale in use (sdk.Info.RulesText), else its own.
function rulesText(d) {
  return (d.rules_text || {})[locale()] || d.rules || tv(d.summary || "");
}

// ---- Router --------------------------------------------------------------------------------------

async function route() {
  if (state.room) { state.room.close(); state.room = null; }
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  if (!state.me) await loadMe();
  if (parts[0] === "rules" && parts[1]) return rules(parts[1]);
  if (parts[0] === "invite" && parts[1]) {
    try {
      return await invitePage(parts[1].toUpperCase());
    } catch (err) {
      return page(h("div", { class: "panel", id: "invitation-error" }, h("p", { class: "error-text", role: "alert" }, errorText(err)), h("a", { class: "btn", href: "#/" }, t("Back"))));
    }
  }
  if (!state.me) return entry(parts[0] === "register" ? "register" : "guest");
  if (parts[0] === "register") {
    // Registered from #/register/WHERE (the house-rules page sends a guest here): back there.
    location.hash = parts[1] === "house-rules" ? "#/house-rules" : "#/";
    return;
  }
  if (parts[0] === "house-rules") {
    if (!state.rulesets) useRulesets((await api("GET", "/api/rulesets")).rulesets);
    return houseRulesPage({ page, me: state.me, rulesets: state.rulesets, register: () => logout("#/register/house-rules") });
  }
  try {
    if ((parts[0] === "room" || parts[0] === "watch") && parts[1]) return await enterRoom(parts[1].toUpperCase(), parts[0] === "watch");
    if (parts[0] === "profile") return await profilePage(Number(parts[1]) || 0);
    if (parts[0] === "leaderboard") return await leaderboardPage(parts[1] || "");
    if (parts[0] === "replay" && parts[1] && parts[2]) return await replayPage(parts[1].toUpperCase(), parts[2], parts[3]);
    return await lobby();
  } catch (err) {
    page(h("div", { class: "panel" }, h("p", { class: "error-text", role: "alert" }, errorText(err)), h("a", { class: "btn", href: "#/" }, t("Back"))));
  }
}

window.addEventListener("hashchange", route);
window.cardhouse = { state };
route();
