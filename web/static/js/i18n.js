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
// English shown. The locale is, in order: the one the player chose (remembered here and, once
// signed in, by the account), then the browser's languages, then English.

export const LOCALES = [
  { id: "en", name: "English", dir: "ltr" },
  { id: "fr", name: "Français", dir: "ltr" },
  { id: "ar", name: "العربية", dir: "rtl" },
];
const STORE_KEY = "cardhouse.locale";

let current = "en";
let catalog = {};
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

function chosen() {
  try { return localStorage.getItem(STORE_KEY) || ""; } catch { return ""; }
}

// locale is the locale in use ("en", "fr", "ar").
export function locale() { return current; }

// dir is the writing direction of the locale in use.
export function dir() { return (LOCALES.find((l) => l.id === current) || LOCALES[0]).dir; }

// setLocale loads a locale's catalog and makes it current; remember stores the player's choice.
export async function setLocale(id, { remember = false } = {}) {
  const want = match([id]) || "en";
  let next = {};
  try {
    const res = await fetch(`i18n/${want}.json`, { cache: "no-cache" });
    if (res.ok) next = await res.json();
  } catch {
    // A missing catalog leaves the English texts: the page still works.
  }
  current = want;
  catalog = next;
  plurals = new Intl.PluralRules(want);
  numbers = new Intl.NumberFormat(want);
  if (remember) {
    try { localStorage.setItem(STORE_KEY, want); } catch { /* private mode: not remembered */ }
  }
  if (typeof document !== "undefined") {
    document.documentElement.lang = want;
    document.documentElement.dir = dir();
  }
  return want;
}

// t translates an English text and fills its placeholders.
export function t(msg, params) {
  let text = Object.prototype.hasOwnProperty.call(catalog, msg) ? catalog[msg] : msg;
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

// num formats a number for the locale.
export function num(n) { return numbers.format(n); }

// The locale is loaded before any page is built (app.js imports this module first).
await setLocale(chosen() || match(typeof navigator !== "undefined" ? navigator.languages : []) || "en");
