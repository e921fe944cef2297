// The one DOM helper of the client: h(tag, attrs, ...children) makes an element. Attributes
// that are undefined, null or false are left out; "on..." attributes are listeners, "class",
// "dataset" and "style" set what they name; children are nodes or text (never HTML).
//
// mixin copies the methods of a class onto another's prototype: the table (table.js) is one
// class whose methods live in modules by subject (actions.js, log.js).

export const h = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "style") e.style.cssText = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
};

export function mixin(target, source) {
  for (const k of Object.getOwnPropertyNames(source.prototype)) {
    if (k !== "constructor") Object.defineProperty(target.prototype, k, Object.getOwnPropertyDescriptor(source.prototype, k));
  }
}
