// Forms from an option schema (sdk.Option): a ruleset's options in the room form, and a house
// rule's own options wherever a room enables it (houserules.js).

import { h } from "./dom.js";
import { humanise } from "./moves.js";
import { t, tv, num } from "./i18n.js";

// optionLabel is the label option o declares, or its name in words when it declares none (the
// server then gives a house rule's option its name as its label: "double_up" reads "Double up").
export function optionLabel(o) {
  return tv(o.label && o.label !== o.name ? o.label : humanise(o.name));
}

// optionField builds one form control from an sdk.Option: a number with its range, a checkbox,
// or a choice list; its label, default and help text come from the schema. prefix goes before the
// control's name (a house rule's "house_rules.NAME.options.", the field the server's errors name);
// value, when given, is shown instead of the default.
export function optionField(o, prefix = "", value) {
  let input;
  const name = prefix + o.name;
  const id = `opt-${name}`;
  const v = value === undefined ? o.default : value;
  if (o.type === "bool") {
    input = h("input", { type: "checkbox", id, name, checked: v === true });
    return h("label", { class: "field row" }, input, h("span", {}, optionLabel(o)), o.description ? h("span", { class: "help", style: "width:100%" }, tv(o.description)) : "", h("span", { class: "error-text", "data-for": name }));
  }
  if (o.type === "choice") {
    input = h("select", { id, name }, (o.default === null || o.default === undefined ? [h("option", { value: "" }, tv(o.default_text || "Default"))] : []).concat((o.choices || []).map((c) => h("option", { value: c, selected: c === v }, choiceLabel(o, c)))));
  } else {
    input = h("input", { type: "number", id, name, min: o.min ?? undefined, max: o.max || undefined, step: 1, value: v ?? "", placeholder: o.default_text ? tv(o.default_text) : "" });
  }
  const range = o.type === "int" && (o.min || o.max) ? ` (${num(o.min ?? 0)}–${num(o.max)})` : "";
  return h("label", { class: "field" }, h("span", {}, optionLabel(o) + range), input, h("span", { class: "help" }, [o.description && tv(o.description), o.default_text && t("Default: {value}", { value: tv(o.default_text) })].filter(Boolean).join(" ")), h("span", { class: "error-text", "data-for": name }));
}

// optionValue reads the value of option o from form (its control named prefix + o.name):
// undefined when the control is empty (the default applies).
export function optionValue(form, o, prefix = "") {
  const el = form.elements[prefix + o.name];
  if (!el) return undefined;
  if (o.type === "bool") return el.checked;
  if (o.type === "int") return el.value === "" ? undefined : Number(el.value);
  return el.value === "" ? undefined : el.value;
}

// choiceLabel is the player's word for a choice of option o (the schema's choice_labels).
export function choiceLabel(o, c) {
  return tv((o.choice_labels && o.choice_labels[c]) || String(c));
}
