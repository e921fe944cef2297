// The Cardhouse app: entry (guest, log in, register, your look), the lobby (variants from the
// server's plugins, open rooms, the create-room form generated from the option schema, join and
// watch by code), the rules pages, the house-rules page (houserules.js) and the room (room.js).
// Routes are hashes: #/ (entry or lobby), #/rules/ID, #/house-rules, #/room/CODE, #/watch/CODE.
// The frame the pages share is shell.js.

import { t } from "./i18n.js";
import { api } from "./api.js";
import { h } from "./dom.js";
import { cardEl } from "./cards.js";
import { markdown } from "./md.js";
import { optionField, optionValue } from "./options.js";
import { houseRulesPage, ruleChooser, ruleAlerts } from "./houserules.js";
import { COLOURS, MODES, state, avatar, page, inviteLink, copyButton, fieldErrors, loadMe, logout, lookPicker, eye, nameOf } from "./shell.js";
import { enterRoom } from "./room.js";

// ---- Entry ---------------------------------------------------------------------------------------
function entry(mode0 = "guest") {
  const look = { avatar: "spade", colour: COLOURS[5] };
  const nameInput = h("input", { type: "text", name: "name", required: true, maxlength: 32, autocomplete: "nickname", placeholder: "Your name" });

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
      route();
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
  page(h("div", { class: "hero" }, fan, h("h1", {}, "Cardhouse"), h("p", {}, "Card games with friends, in the browser. Pick a name and sit down.")), h("div", { style: "max-width:460px;margin:1.5em auto" }, form));
  nameInput.focus();
}

// ---- Lobby ---------------------------------------------------------------------------------------

async function lobby() {
  const [rs, rooms] = await Promise.all([api("GET", "/api/rulesets"), api("GET", "/api/rooms").catch(() => ({ rooms: [] }))]);
  state.rulesets = rs.rulesets || [];
  const variants = h("div", { class: "variants" }, state.rulesets.map((d) => {
    // The variant's own sample cards (Info.Sample), else French ones.
    const sample = (d.sample || []).length ? d.sample : ["AS", "KH", "QD"];
    return h("article", { class: "variant", "data-ruleset": d.id },
      h("div", { class: "mini", "aria-hidden": "true" }, sample.map((c, i) => { const e = cardEl(c, { roles: {} }); e.style.setProperty("--i", i); return e; })),
      h("h3", {}, d.name), h("p", {}, d.summary || ""), h("p", { class: "help" }, `${d.min_seats}–${d.max_seats} players`),
      h("div", { class: "row" }, Object.hasOwn(rs.disabled || {}, d.id)
        ? h("span", { class: "help", "data-disabled": d.id }, t("Not offered for new rooms just now: {reason}", { reason: rs.disabled[d.id] || t("an admin disabled it") }))
        : h("button", { class: "btn primary small", type: "button", "data-create": d.id, onclick: () => createDialog(d) }, "New room"), h("a", { class: "btn ghost small", href: `#/rules/${d.id}` }, "How to play")));
  }));
  // The server lists only rooms someone can sit down in (docs/api.md): waiting or playing.
  const list = (rooms.rooms || []);
  const STATES = { waiting: ["Waiting for players", "green"], playing: ["Playing", "gold"] };
  const table = list.length ? h("table", { class: "rooms" }, h("tr", {}, h("th", {}, "Room"), h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "")),
    list.map((r) => h("tr", { "data-room": r.code, "data-state": r.state || "" }, h("td", { class: "code" }, r.code), h("td", {}, nameOf(r.ruleset), " ", h("span", { class: `chip ${(STATES[r.state] || ["", ""])[1]}`, "data-room-state": r.state || "" }, (STATES[r.state] || [r.state || ""])[0])),
      h("td", {}, `${(r.members || []).filter((m) => m.role === "player").length}/${r.capacity}`),
      h("td", {}, h("div", { class: "row" }, h("a", { class: "btn small go", href: `#/room/${r.code}` }, "Join"), h("a", { class: "btn small ghost", href: `#/watch/${r.code}` }, eye(), "Watch"), copyButton(inviteLink(r.code), "Copy link"))))))
    : h("p", { class: "help" }, "No open rooms right now: start one!");
  const code = h("input", { type: "text", name: "code", maxlength: 6, placeholder: "ABCDEF", autocapitalize: "characters", "aria-label": "room code", class: "code" });
  const go = (watch) => { const c = code.value.trim().toUpperCase(); if (c) location.hash = `#/${watch ? "watch" : "room"}/${c}`; };
  const byCode = h("form", { class: "row", id: "by-code", onsubmit: (e) => { e.preventDefault(); go(false); } }, h("div", { class: "grow" }, code), h("button", { class: "btn go", type: "submit", id: "join-code" }, "Join"), h("button", { class: "btn ghost", type: "button", id: "watch-code", onclick: () => go(true) }, eye(), "Watch"));
  page(ruleAlerts(state.me), h("div", { class: "row" }, h("h2", { class: "grow" }, "Games"), h("a", { class: "btn ghost small", href: "#/house-rules", id: "house-rules-link" }, "House rules")), variants, h("div", { class: "grid2", style: "margin-top:1.5em" },
    h("section", { class: "panel" }, h("h2", {}, "Open rooms"), table),
    h("section", { class: "panel" }, h("h2", {}, "Have a code?"), byCode, h("p", { class: "help" }, "Join to play, or watch: spectators see the table and the chat, never a hand."))));
}

function presetPicker(d, form) {
  if (!(d.presets || []).length) return "";
  const bar = h("div", { class: "presets", role: "group", "aria-label": "presets" });
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
  d.presets.forEach((p, i) => bar.append(h("button", { class: "btn small preset", type: "button", "data-preset": i, title: p.description || "", onclick: () => {
    for (const o of d.options || []) {
      const el = control(o.name);
      const v = wanted(p, o);
      if (!el) continue;
      if (o.type === "bool") el.checked = v === true;
      else el.value = v === undefined || v === null ? "" : String(v);
    }
    mark();
  } }, h("b", {}, p.name), p.description ? h("span", { class: "help" }, p.description) : "")));
  form.addEventListener("input", mark);
  form.addEventListener("change", mark);
  queueMicrotask(mark);
  return h("div", { class: "field" }, h("span", {}, "Start from"), bar);
}

function createDialog(d) {
  const opts = h("div", {}, (d.options || []).map((o) => optionField(o)));
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
  const chooser = d.house_rules && state.me ? ruleChooser(d.id, state.me) : null; // houserules.js
  const form = h("form", { method: "dialog", id: "create-room" }, h("h2", {}, `New ${d.name} room`),
    h("label", { class: "field" }, h("span", {}, "Mode"), mode), h("label", { class: "field" }, h("span", {}, `Seats (${d.min_seats}–${d.max_seats})`), seats, h("span", { class: "error-text", "data-for": "seats" })),
    botsBox, approvalBox, opts, chooser ? chooser.el : "", h("p", { class: "error-text general", role: "alert" }),
    h("div", { class: "row", style: "justify-content:flex-end" }, h("button", { class: "btn ghost", type: "button", onclick: () => dlg.close() }, "Cancel"), h("button", { class: "btn primary", type: "submit" }, "Create room")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const options = {};
    // Only what the host changed is sent: the server and the ruleset fill in the rest, including
    // defaults that depend on the room (Last Card online rooms call "Last card!" automatically).
    for (const o of d.options || []) {
      const v = optionValue(form, o);
      if (v !== undefined && v !== o.default) options[o.name] = v;
    }
    const body = { ruleset: d.id, mode: mode.value, options, seats: Number(seats.value), approval: approval.checked };
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
  const rs = state.rulesets || (await api("GET", "/api/rulesets")).rulesets;
  state.rulesets = rs;
  const d = rs.find((x) => x.id === id);
  if (!d) return page(h("p", {}, `No game called "${id}" here.`), h("a", { href: "#/" }, "Back to the lobby"));
  page(h("article", { class: "panel markdown", id: "rules" }, h("h1", {}, `How to play ${d.name}`), markdown(d.rules || d.summary || "")), h("p", {}, h("a", { class: "btn", href: "#/" }, "Back to the lobby")));
}

// ---- Router --------------------------------------------------------------------------------------

async function route() {
  if (state.room) { state.room.close(); state.room = null; }
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  if (!state.me) await loadMe();
  if (parts[0] === "rules" && parts[1]) return rules(parts[1]);
  if (!state.me) return entry(parts[0] === "register" ? "register" : "guest");
  if (parts[0] === "register") {
    // Registered from #/register/WHERE (the house-rules page sends a guest here): back there.
    location.hash = parts[1] === "house-rules" ? "#/house-rules" : "#/";
    return;
  }
  if (parts[0] === "house-rules") {
    state.rulesets = state.rulesets || (await api("GET", "/api/rulesets")).rulesets;
    return houseRulesPage({ page, me: state.me, rulesets: state.rulesets, register: () => logout("#/register/house-rules") });
  }
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
