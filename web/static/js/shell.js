// The app's frame and what its pages share (app.js, room.js): the signed-in user and the rulesets
// (state), the top bar, a page's frame, avatars and colours, invites, a player's look, signing out,
// and the names of rulesets and their settings.

import { api } from "./api.js";
import { h } from "./dom.js";
import { cardEl } from "./cards.js";
import { soundSwitch } from "./sound.js";
import { choiceLabel } from "./options.js";
import { t, tv, addTexts, LOCALES, locale, setLocale, chosenLocale, serverText } from "./i18n.js";

// reroute shows the page the address names now (app.js's router listens for it), without an
// import of the router: a page that changes the address, or must be drawn again, calls it.
export function reroute() {
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

export const AVATARS = { spade: "\u2660", heart: "\u2665", diamond: "\u2666", club: "\u2663", star: "\u2605", sun: "\u2600", moon: "\u263e", knight: "\u265e", queen: "\u265b", rook: "\u265c", flower: "\u273f", flag: "\u2691" };
export const COLOURS = ["#e0393e", "#f08a24", "#f4b81c", "#2f9e57", "#16a085", "#2f6fd6", "#6c5ce7", "#c2185b"];
// MODES are the room modes' names in English: shown through t() (modeName).
export const MODES = { online: "Online", computer: "Against the computer", device: "Pass the device" };

// modeName is a room mode's name in the locale in use.
export function modeName(mode) {
  return MODES[mode] ? t(MODES[mode]) : "";
}

// notice is a message the next page shows once: why a player is back in the lobby.
export const state = { me: null, rulesets: null, room: null, notice: null };
export const app = document.getElementById("app");

export function colourOf(name) {
  let x = 0;
  for (const ch of String(name)) x = (x * 31 + ch.codePointAt(0)) >>> 0;
  return COLOURS[x % COLOURS.length];
}

export function avatar(user, big) {
  const name = user.display_name || user.name || "?";
  const glyph = AVATARS[user.avatar] || name.slice(0, 1).toUpperCase();
  const a = h("span", { class: "avatar" + (big ? " big" : ""), "aria-hidden": "true" }, glyph);
  a.style.background = user.colour || colourOf(name);
  return a;
}

export function topbar() {
  const logo = h("span", { class: "logo" });
  logo.append(cardEl("", { back: "french" }));
  logo.firstChild.style.setProperty("--card-w", "22px");
  const bar = h("header", { class: "topbar" }, h("a", { class: "brand", href: "#/", "aria-label": "Cardhouse" }, logo, h("span", { class: "brand-word" }, "Cardhouse")), soundSwitch(), localeSwitch());
  if (state.me) {
    bar.append(h("nav", { class: "site-nav row", "aria-label": t("Site") }, h("a", { class: "btn ghost small", href: "#/leaderboard", id: "nav-leaderboard" }, t("Leaderboard")), h("a", { class: "btn ghost small", href: "#/profile", id: "nav-profile" }, t("My profile"))));
    bar.append(h("div", { class: "me" }, h("button", { class: "look-button", type: "button", id: "your-look", title: t("Your look: name, avatar and colour"), onclick: editMe }, avatar(state.me), h("span", {}, state.me.display_name)),
      h("button", { class: "btn ghost small", type: "button", onclick: logout }, t("Log out"))));
  }
  return bar;
}

// localeSwitch is the top bar's choice of language: each named in its own language. A choice is
// remembered in this browser and, signed in, by the account (PATCH /api/me {locale}); the page
// is drawn again in it.
export function localeSwitch() {
  const select = h("select", { id: "locale-switch", class: "locale-switch", "aria-label": t("Language"), title: t("Language") },
    LOCALES.map((l) => h("option", { value: l.id, lang: l.id, selected: l.id === locale() }, l.name)));
  select.addEventListener("change", async () => {
    await setLocale(select.value, { remember: true });
    if (state.me) {
      try { state.me = (await api("PATCH", "/api/me", { locale: select.value })).user; } catch { /* kept in this browser */ }
    }
    reroute();
  });
  return select;
}

// applyAccountLocale makes the signed-in account's language the page's (signing in, or a page
// opened signed in); an account with none takes the one chosen in this browser, if any.
export async function applyAccountLocale() {
  const me = state.me;
  if (!me) return;
  if (me.locale && me.locale !== locale()) {
    await setLocale(me.locale, { remember: true });
  } else if (!me.locale && chosenLocale()) {
    try { state.me = (await api("PATCH", "/api/me", { locale: chosenLocale() })).user; } catch { /* the account keeps none */ }
  }
}

export function page(...children) {
  document.body.classList.remove("in-room", "show-side");
  const notice = state.notice ? h("div", { class: "banner info notice", role: "status", id: "notice" }, state.notice) : "";
  state.notice = null;
  app.replaceChildren(topbar(), h("main", { class: "page" }, notice, ...children));
  window.scrollTo(0, 0); // a new page starts at its top, where a notice is
}

// inviteLink is the address of a room's invitation: its landing page (app.js, invitePage) names
// the room, its variant and its host before the friend joins.
export function inviteLink(code) {
  return `${location.origin}${location.pathname}#/invite/${code}`;
}

// copyButton copies text to the clipboard and says so on the button. The clipboard API needs a
// secure page (an address on the local network is not one): then the text is selected in field
// (or a hidden one) and copied the old way.
export function copyButton(text, label, field) {
  const b = h("button", { class: "btn small", type: "button", "data-copy": text }, label);
  b.addEventListener("click", async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      const f = field || h("textarea", { class: "offscreen", readonly: true }, text);
      if (!field) document.body.append(f);
      f.select();
      try { ok = document.execCommand("copy"); } catch { ok = false; }
      if (!field) f.remove();
    }
    b.textContent = ok ? t("Copied!") : t("Select the link and copy it");
    b.dataset.copied = String(ok);
    setTimeout(() => { b.textContent = label; }, 2500);
  });
  return b;
}

// invite is a room's invite link in a read-only field with its copy button.
export function invite(code) {
  const field = h("input", { type: "text", readonly: true, value: inviteLink(code), "aria-label": t("invite link"), class: "invite-link", id: "invite-link" });
  field.addEventListener("focus", () => field.select());
  return h("div", { class: "invite row" }, h("div", { class: "grow" }, field), copyButton(inviteLink(code), t("Copy invite link"), field));
}

export function fieldErrors(form, err) {
  for (const e of form.querySelectorAll(".error-text[data-for]")) e.textContent = "";
  const general = form.querySelector(".error-text.general");
  if (general) general.textContent = errorText(err);
  for (const f of err.fields || []) {
    const slot = form.querySelector(`.error-text[data-for="${CSS.escape(f.field.replace(/^options\./, ""))}"]`);
    if (slot) slot.textContent = fieldReason(f);
  }
}

// CODE_TEXTS word the server's error codes (docs/api.md) for a player, in English as every
// text here (shown through t()): a reason the catalog does not translate is said by its code.
const CODE_TEXTS = {
  invalid: "Some fields are not right: see below.",
  bad_options: "Some options are not right: see below.",
  bad_json: "The request was not understood.",
  bad_login: "Wrong username or password.",
  banned: "This account is banned.",
  room_banned: "The host of this room has banned you from it.",
  rate_limited: "Too many attempts: wait a minute.",
  login_required: "Log in or play as a guest first.",
  username_taken: "This username is taken.",
  csrf: "The page is out of date: reload it.",
  no_room: "There is no open room with this code.",
  locked: "This room is locked: it takes no new members.",
  not_member: "You are not a member of this room.",
  not_host: "Only the host can do that.",
  denied: "The host declined your request.",
  pending: "Your request to join waits for the host.",
  spectator: "Spectators watch and chat; they cannot act.",
  spectators_full: "This room has as many spectators as it takes.",
  game_running: "A game is being played: wait until it is over.",
  no_game: "No game is being played; the host deals to start one.",
  not_player: "Only the players at the table can do that.",
  not_your_seat: "This seat is not yours.",
  host_deals: "You are the host: deal the next round or game yourself.",
  kick_self: "The host cannot remove themselves; leave the room instead.",
  bad_kick: "Choose a ban or a cooldown.",
  bad_chat: "A chat line cannot be empty.",
  chat_too_long: "This chat line is too long.",
  chat_rate: "Slow down: too many chat lines.",
  busy: "The room is busy; try again.",
  room_moving: "The room is moving to another server; try again in a few seconds.",
  room_elsewhere: "The room is run by another server right now; try again in a moment.",
  store_failure: "This could not be saved; nothing changed, try again.",
  engine_failure: "The game engine failed; the game is unchanged, try again.",
  unknown_ruleset: "This game is not available on this server.",
  no_ruleset: "This game is not available on this server.",
  ruleset_disabled: "This game is closed to new rooms for now.",
  guest: "Guests cannot do that; register an account first.",
  too_many_rooms: "You already host as many open rooms as one player may: leave one of them before opening another.",
  not_found: "Not found.",
  internal: "Something went wrong on the server; try again.",
  not_your_turn: "It is not your turn.",
  game_over: "The game is over.",
  bad_action: "This move is not allowed now.",
  unknown_card: "This card is not in the game.",
  not_held: "You do not hold this card.",
  bad_option: "This option is not right.",
  house_rule: "A house rule refuses this move.",
  not_available: "This move is not available now.",
};

// errorText is a refused request's reason for the player (api.js, ApiError): the server's
// English, translated (serverText), else said by its code, else as it is.
export function errorText(err) {
  return localText(String(err?.message ?? ""), err?.code);
}

// localText is a reason the server (or a variant) wrote in English, for the player: its
// translation, else the words of its code, else (in another language than English, where the
// English would be all a player reads) a plain refusal.
function localText(reason, code) {
  const known = serverText(reason);
  if (known !== undefined) return known;
  if (CODE_TEXTS[code]) return t(CODE_TEXTS[code]);
  return locale() === "en" || !reason ? reason : t(code === "" ? "This value is not accepted." : "This is refused.");
}

// reasonText is the reason of a refusal the room's socket sent ({code, reason}), for the player.
export function reasonText(m) {
  return localText(String(m?.reason || m?.code || ""), m?.code);
}

// fieldReason is a form field's reason for the player.
export function fieldReason(f) {
  return localText(String(f.reason ?? ""), "");
}

export async function loadMe() {
  try {
    const a = await api("GET", "/api/me");
    state.me = a.user;
    await applyAccountLocale();
  } catch {
    state.me = null;
  }
}

// logout ends the session and shows the entry; to (a hash, "#/" unless given) is where it goes:
// "#/register/house-rules" opens the entry's Register tab and, once registered, the house rules.
export async function logout(to) {
  try { await api("POST", "/api/logout"); } catch { /* already out */ }
  state.me = null;
  location.hash = typeof to === "string" ? to : "#/";
  reroute();
}



// lookPicker is the "Your look" control: a preview, the avatars and the colours. look ({avatar,
// colour}) is changed in place as the player picks; nameInput's text is the preview's name.
export function lookPicker(look, nameInput) {
  const preview = h("span", {});
  const renderPreview = () => preview.replaceChildren(avatar({ display_name: nameInput.value || "?", avatar: look.avatar, colour: look.colour }, true));
  nameInput.addEventListener("input", renderPreview);
  const avatars = h("div", { class: "looks", role: "group", "aria-label": t("avatar") }, Object.entries(AVATARS).map(([k, g]) =>
    h("button", { type: "button", class: "glyph", "aria-label": t(k), "data-avatar": k, "aria-pressed": String(k === look.avatar), onclick: (e) => { look.avatar = k; for (const b of avatars.children) b.setAttribute("aria-pressed", String(b === e.currentTarget)); renderPreview(); } }, g)));
  const colours = h("div", { class: "looks", role: "group", "aria-label": t("colour") }, COLOURS.map((c) => {
    const b = h("button", { type: "button", "aria-label": c, "aria-pressed": String(c === look.colour), onclick: (e) => { look.colour = c; for (const x of colours.children) x.setAttribute("aria-pressed", String(x === e.currentTarget)); renderPreview(); } });
    b.style.background = c;
    return b;
  }));
  renderPreview();
  return h("div", { class: "field" }, h("span", {}, t("Your look")), h("div", { class: "row" }, preview, h("div", { class: "grow" }, avatars, h("div", { style: "height:.5em" }), colours)));
}

// lookDialog edits a name and a look ({name, avatar, colour}) in a dialog; save(values) stores
// them and may throw an ApiError, shown in the dialog. It resolves when the dialog closes.
export function lookDialog(title, who, save, note) {
  return new Promise((resolve) => {
    const look = { avatar: who.avatar || "spade", colour: who.colour || colourOf(who.name || "?") };
    const nameInput = h("input", { type: "text", name: "name", required: true, maxlength: 32, value: who.name || "", "aria-label": t("name") });
    const dlg = h("dialog", { "aria-label": title, id: "look-dialog" });
    const form = h("form", { method: "dialog" }, h("h2", {}, title),
      h("label", { class: "field" }, h("span", {}, t("Name at the table")), nameInput, h("span", { class: "error-text", "data-for": "display_name" })),
      lookPicker(look, nameInput), note ? h("p", { class: "help" }, note) : "", h("p", { class: "error-text general", role: "alert" }),
      h("div", { class: "row", style: "justify-content:flex-end" }, h("button", { class: "btn ghost", type: "button", onclick: () => dlg.close() }, t("Cancel")), h("button", { class: "btn primary", type: "submit", id: "save-look" }, t("Save"))));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        await save({ display_name: nameInput.value, avatar: look.avatar, colour: look.colour });
        dlg.close();
      } catch (err) {
        fieldErrors(form, err);
      }
    });
    dlg.append(form);
    dlg.addEventListener("close", () => { dlg.remove(); resolve(); });
    document.body.append(dlg);
    dlg.showModal();
  });
}

// editMe opens "Your look" for the signed-in player and redraws the top bar with the result.
async function editMe() {
  await lookDialog(t("Your look"), { name: state.me.display_name, avatar: state.me.avatar, colour: state.me.colour }, async (v) => {
    state.me = (await api("PATCH", "/api/me", v)).user;
  }, t("Your look changes at once, in every room you are in; a new name shows in the rooms you join from now on."));
  document.querySelector("header.topbar .me")?.replaceWith(topbar().querySelector(".me"));
}

// entry is the first page: play as a guest, log in or register; mode is the tab it opens on.

export function eye() {
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

// useRulesets keeps the server's rulesets (state.rulesets) and adds their texts in other
// languages (sdk.Info.Texts) to the translations.
export function useRulesets(list) {
  state.rulesets = list || [];
  for (const d of state.rulesets) addTexts(d.texts);
  return state.rulesets;
}

export function nameOf(id) {
  const name = (state.rulesets || []).find((d) => d.id === id)?.name;
  return name ? tv(name) : id;
}

// settingWords says a room option's value in player words: a choice's label, on/off.
export function settingWords(rulesetID, name, value) {
  const o = ((state.rulesets || []).find((d) => d.id === rulesetID)?.options || []).find((x) => x.name === name);
  if (!o) return String(value);
  if (o.type === "choice") return choiceLabel(o, String(value));
  if (o.type === "bool") return value === true || value === "true" ? t("on") : t("off");
  return String(value);
}

// presetPicker offers the ruleset's presets (sdk.Preset) as buttons that fill in the form's
// options; it marks the preset the form matches, if any.
