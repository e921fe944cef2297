// The translation layer: every word the client shows goes through t().
//
// Keys are the English source text (gettext's convention: the code reads as the page does, and a
// missing translation falls back to English, never to a key). Placeholders are {name}; a count is
// {count}, formatted for the locale. A catalog (i18n/LOCALE.json) maps an English text to its
// translation, or to an object of plural forms keyed by Intl.PluralRules' categories:
//
//	"{count} cards": { "one": "{count} carte", "other": "{count} cartes" }
//
// English keeps its own catalog (i18n/en.json) only for plurals and for texts whose key is not the
// English shown; it is always loaded, and a text another locale's catalog lacks falls back to it
// (a plural key alone is the "other" form: "{count} cards" must not read "1 cards"). The locale is,
// in order: the one the player chose (remembered here and, once signed in, by the account), then
// the browser's languages, then English.
//
// A variant's own texts (sdk.Info.Texts: its option, action, zone and event texts by locale, keyed
// by the English the view carries) are added with addTexts and looked up after the catalog.
// Texts built at module load (tables of labels) keep the English and call t() where they are shown,
// so that a change of locale needs only a redraw.

export const LOCALES = [
  { id: "en", name: "English", dir: "ltr" },
  { id: "fr", name: "Français", dir: "ltr" },
  { id: "ar", name: "العربية", dir: "rtl" },
];
const STORE_KEY = "cardhouse.locale";

let current = "en";
let catalog = {};
let english = {};
let extra = {}; // locale -> English -> translation: the variants' texts (addTexts)
let plurals = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");

// match picks the supported locale for a list of BCP 47 tags ("fr-CA" → "fr"), or "".
export function match(tags) {
  for (const tag of tags || []) {
    const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
    if (LOCALES.some((l) => l.id === base)) return base;
  }
  return "";
}

// chosenLocale is the locale the player chose in this browser, or "".
export function chosenLocale() { return chosen(); }

function chosen() {
  try { return localStorage.getItem(STORE_KEY) || ""; } catch { return ""; }
}

// locale is the locale in use ("en", "fr", "ar").
export function locale() { return current; }

// dir is the writing direction of the locale in use.
export function dir() { return (LOCALES.find((l) => l.id === current) || LOCALES[0]).dir; }

// load fetches a locale's catalog (beside js/, wherever the page is).
async function load(id) {
  try {
    const res = await fetch(new URL(`../i18n/${id}.json`, import.meta.url), { cache: "no-cache" });
    if (res.ok) return await res.json();
  } catch {
    // A missing catalog leaves the English texts: the page still works.
  }
  return {};
}

// setLocale loads a locale's catalog and makes it current; remember stores the player's choice.
export async function setLocale(id, { remember = false } = {}) {
  const want = match([id]) || "en";
  const [en, next] = await Promise.all([Object.keys(english).length ? english : load("en"), want === "en" ? null : load(want)]);
  english = en;
  current = want;
  catalog = next || en;
  plurals = new Intl.PluralRules(want);
  numbers = new Intl.NumberFormat(want);
  if (remember) rememberLocale(want);
  if (typeof document !== "undefined") {
    document.documentElement.lang = want;
    document.documentElement.dir = dir();
  }
  return want;
}

// remember stores the player's choice of locale in this browser.
export function rememberLocale(id) {
  try { localStorage.setItem(STORE_KEY, id); } catch { /* private mode: not remembered */ }
}

// addTexts adds texts by locale ({fr: {"Draw": "Piocher"}}): a variant's (sdk.Info.Texts).
export function addTexts(byLocale) {
  for (const [loc, texts] of Object.entries(byLocale || {})) extra[loc] = { ...(extra[loc] || {}), ...texts };
}

// serverText translates a text the server wrote in English (an error's reason, a field's): the
// catalog's translation of it, a key with {placeholders} matching it ("there is no open room with
// code {code}"), else undefined (the caller falls back on the error's code).
export function serverText(msg) {
  msg = String(msg ?? "");
  if (current === "en") return msg;
  if (own(catalog, msg) || own(extra[current] || {}, msg)) return t(msg);
  return byPattern(msg, catalog) ?? byPattern(msg);
}

// has says whether the locale in use translates msg (the English catalog counts for English).
export function has(msg) {
  return own(catalog, msg) || own(extra[current] || {}, msg) || (current === "en" && own(english, msg));
}

const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

// patterns are a variant's texts with placeholders as regular expressions, by locale: a view
// carries "Hand 3" or "Draw 2", which "Hand {n}" and "Draw {n}" translate.
const patterns = new Map();

function byPattern(msg, texts = extra[current] || {}) {
  if (current === "en") return undefined;
  if (!patterns.has(texts)) {
    const list = [];
    for (const [key, value] of Object.entries(texts)) {
      // A key of placeholders alone ("{label}: {value}") would match anything.
      if (!/\{\w+(?::\w+)?\}/.test(key) || !/\p{L}{3}/u.test(key.replace(/\{\w+(?::\w+)?\}/g, ""))) continue;
      const names = [];
      const source = key.split(/(\{\w+(?::\w+)?\})/).map((part, i) => {
        if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(part);
        return "(.+?)";
      }).join("");
      if (typeof value === "string") list.push({ re: new RegExp(`^${source}$`), names, value });
    }
    if (patterns.size > 4) patterns.clear();
    patterns.set(texts, list);
  }
  for (const p of patterns.get(texts)) {
    const m = p.re.exec(msg);
    if (m) return p.names.reduce((out, name, i) => out.split(name).join(m[i + 1]), p.value);
  }
  return undefined;
}

// t translates an English text and fills its placeholders.
export function t(msg, params) {
  msg = String(msg ?? "");
  const mine = extra[current] || {};
  let text = own(catalog, msg) ? catalog[msg] : own(mine, msg) ? mine[msg] : own(english, msg) ? english[msg] : byPattern(msg) ?? msg;
  if (text && typeof text === "object") {
    const n = params && typeof params.count === "number" ? params.count : 0;
    text = text[plurals.select(n)] ?? text.other ?? msg;
  }
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return whole;
    const v = params[name];
    return typeof v === "number" ? numbers.format(v) : String(v);
  });
}

// translatePage translates the texts a static page marks: an element with data-i18n has its
// text (the English, kept in the attribute once read) translated; data-i18n-attr="title,aria-label"
// translates those attributes the same way.
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (!el.dataset.i18n) el.dataset.i18n = el.textContent.trim();
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of el.dataset.i18nAttr.split(",")) {
      const key = `i18n${name.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())}`;
      if (!el.dataset[key]) el.dataset[key] = el.getAttribute(name) || "";
      el.setAttribute(name, t(el.dataset[key]));
    }
  }
  if (root === document && document.title) {
    document.documentElement.dataset.title ||= document.title;
    document.title = t(document.documentElement.dataset.title);
  }
}

// tv translates a text a variant wrote (a label of its view, an option, an event text): the
// variants' own translations (addTexts) come first, so that a variant's words win over the app's
// for the same English ("Hearts" is a game there, a suit here), then the app's catalog (t).
export function tv(msg, params) {
  msg = String(msg ?? "");
  const mine = extra[current] || {};
  if (!own(mine, msg)) return t(msg, params);
  return fill(mine[msg], params);
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return whole;
    const v = params[name];
    return typeof v === "number" ? numbers.format(v) : String(v);
  });
}

// num formats a number for the locale (opts: Intl.NumberFormat's, such as the digits after the point).
export function num(n, opts) { return opts ? new Intl.NumberFormat(current, opts).format(n) : numbers.format(n); }

// The locale is loaded before any page is built (app.js imports this module first).
await setLocale(chosen() || match(typeof navigator !== "undefined" ? navigator.languages : []) || "en");
