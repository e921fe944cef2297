// The app's frame and what its pages share (app.js, room.js): the signed-in user and the rulesets
// (state), the top bar, a page's frame, avatars and colours, invites, a player's look, signing out,
// and the names of rulesets and their settings.

import { api } from "./api.js";
import { h } from "./dom.js";
import { cardEl } from "./cards.js";
import { soundSwitch } from "./sound.js";
import { choiceLabel } from "./options.js";
import { t } from "./i18n.js";

// reroute shows the page the address names now (app.js's router listens for it), without an
// import of the router: a page that changes the address, or must be drawn again, calls it.
export function reroute() {
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

export const AVATARS = { spade: "\u2660", heart: "\u2665", diamond: "\u2666", club: "\u2663", star: "\u2605", sun: "\u2600", moon: "\u263e", knight: "\u265e", queen: "\u265b", rook: "\u265c", flower: "\u273f", flag: "\u2691" };
export const COLOURS = ["#e0393e", "#f08a24", "#f4b81c", "#2f9e57", "#16a085", "#2f6fd6", "#6c5ce7", "#c2185b"];
export const MODES = { online: "Online", computer: "Against the computer", device: "Pass the device" };

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
  const bar = h("header", { class: "topbar" }, h("a", { class: "brand", href: "#/", "aria-label": "Cardhouse" }, logo, h("span", { class: "brand-word" }, "Cardhouse")), soundSwitch());
  if (state.me) {
    bar.append(h("nav", { class: "site-nav row", "aria-label": t("Site") }, h("a", { class: "btn ghost small", href: "#/leaderboard", id: "nav-leaderboard" }, t("Leaderboard")), h("a", { class: "btn ghost small", href: "#/profile", id: "nav-profile" }, t("My profile"))));
    bar.append(h("div", { class: "me" }, h("button", { class: "look-button", type: "button", id: "your-look", title: "Your look: name, avatar and colour", onclick: editMe }, avatar(state.me), h("span", {}, state.me.display_name)),
      h("button", { class: "btn ghost small", type: "button", onclick: logout }, "Log out")));
  }
  return bar;
}

export function page(...children) {
  document.body.classList.remove("in-room", "show-side");
  const notice = state.notice ? h("div", { class: "banner info notice", role: "status", id: "notice" }, state.notice) : "";
  state.notice = null;
  app.replaceChildren(topbar(), h("main", { class: "page" }, notice, ...children));
  window.scrollTo(0, 0); // a new page starts at its top, where a notice is
}

// inviteLink is the address that takes a friend straight into a room.
export function inviteLink(code) {
  return `${location.origin}${location.pathname}#/room/${code}`;
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
    b.textContent = ok ? "Copied!" : "Select the link and copy it";
    b.dataset.copied = String(ok);
    setTimeout(() => { b.textContent = label; }, 2500);
  });
  return b;
}

// invite is a room's invite link in a read-only field with its copy button.
export function invite(code) {
  const field = h("input", { type: "text", readonly: true, value: inviteLink(code), "aria-label": "invite link", class: "invite-link", id: "invite-link" });
  field.addEventListener("focus", () => field.select());
  return h("div", { class: "invite row" }, h("div", { class: "grow" }, field), copyButton(inviteLink(code), "Copy invite link", field));
}

export function fieldErrors(form, err) {
  for (const e of form.querySelectorAll(".error-text[data-for]")) e.textContent = "";
  const general = form.querySelector(".error-text.general");
  if (general) general.textContent = err.message;
  for (const f of err.fields || []) {
    const slot = form.querySelector(`.error-text[data-for="${CSS.escape(f.field.replace(/^options\./, ""))}"]`);
    if (slot) slot.textContent = f.reason;
  }
}

export async function loadMe() {
  try {
    const a = await api("GET", "/api/me");
    state.me = a.user;
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
  const avatars = h("div", { class: "looks", role: "group", "aria-label": "avatar" }, Object.entries(AVATARS).map(([k, g]) =>
    h("button", { type: "button", class: "glyph", "aria-label": k, "aria-pressed": String(k === look.avatar), onclick: (e) => { look.avatar = k; for (const b of avatars.children) b.setAttribute("aria-pressed", String(b === e.currentTarget)); renderPreview(); } }, g)));
  const colours = h("div", { class: "looks", role: "group", "aria-label": "colour" }, COLOURS.map((c) => {
    const b = h("button", { type: "button", "aria-label": c, "aria-pressed": String(c === look.colour), onclick: (e) => { look.colour = c; for (const x of colours.children) x.setAttribute("aria-pressed", String(x === e.currentTarget)); renderPreview(); } });
    b.style.background = c;
    return b;
  }));
  renderPreview();
  return h("div", { class: "field" }, h("span", {}, "Your look"), h("div", { class: "row" }, preview, h("div", { class: "grow" }, avatars, h("div", { style: "height:.5em" }), colours)));
}

// lookDialog edits a name and a look ({name, avatar, colour}) in a dialog; save(values) stores
// them and may throw an ApiError, shown in the dialog. It resolves when the dialog closes.
export function lookDialog(title, who, save, note) {
  return new Promise((resolve) => {
    const look = { avatar: who.avatar || "spade", colour: who.colour || colourOf(who.name || "?") };
    const nameInput = h("input", { type: "text", name: "name", required: true, maxlength: 32, value: who.name || "", "aria-label": "name" });
    const dlg = h("dialog", { "aria-label": title, id: "look-dialog" });
    const form = h("form", { method: "dialog" }, h("h2", {}, title),
      h("label", { class: "field" }, h("span", {}, "Name at the table"), nameInput, h("span", { class: "error-text", "data-for": "display_name" })),
      lookPicker(look, nameInput), note ? h("p", { class: "help" }, note) : "", h("p", { class: "error-text general", role: "alert" }),
      h("div", { class: "row", style: "justify-content:flex-end" }, h("button", { class: "btn ghost", type: "button", onclick: () => dlg.close() }, "Cancel"), h("button", { class: "btn primary", type: "submit", id: "save-look" }, "Save")));
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
  await lookDialog("Your look", { name: state.me.display_name, avatar: state.me.avatar, colour: state.me.colour }, async (v) => {
    state.me = (await api("PATCH", "/api/me", v)).user;
  }, "Your look changes at once, in every room you are in; a new name shows in the rooms you join from now on.");
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

export function nameOf(id) {
  return (state.rulesets || []).find((d) => d.id === id)?.name || id;
}

// settingWords says a room option's value in player words: a choice's label, on/off.
export function settingWords(rulesetID, name, value) {
  const o = ((state.rulesets || []).find((d) => d.id === rulesetID)?.options || []).find((x) => x.name === name);
  if (!o) return String(value);
  if (o.type === "choice") return choiceLabel(o, String(value));
  if (o.type === "bool") return value === true || value === "true" ? "on" : "off";
  return String(value);
}

// presetPicker offers the ruleset's presets (sdk.Preset) as buttons that fill in the form's
// options; it marks the preset the form matches, if any.
