// Protocol v2's view patches (docs/protocol.md, "Patches"): applyPatch returns the view a patch
// makes of the view held, as platform/viewpatch.Apply does on the server's side. The held view is
// not changed: what the patch leaves alone is shared with the result.

// LISTS are the view's lists whose entries a patch matches by a key field.
export const LISTS = { players: "seat", zones: "id", indicators: "id", actions: "type", deadlines: "id" };
const ORDER = "$order";
const SPLICE = "$splice";

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

// applyPatch returns view with patch applied; it throws when the patch does not fit the view.
export function applyPatch(view, patch) {
  if (!isObject(view) || !isObject(patch)) throw new Error("a view and its patch are objects");
  return mergeObject(view, patch, true);
}

function mergeObject(target, patch, top) {
  const out = {};
  for (const [k, v] of Object.entries(target)) {
    if (!(k in patch)) { out[k] = v; continue; }
    const p = patch[k];
    if (p === null) continue;
    if (top && Array.isArray(v) && isObject(p) && LISTS[k]) out[k] = mergeList(v, p, LISTS[k], k);
    else if (Array.isArray(v) && isObject(p)) out[k] = splice(v, p, k);
    else if (isObject(v) && isObject(p)) out[k] = mergeObject(v, p, false);
    else out[k] = p;
  }
  for (const [k, p] of Object.entries(patch)) {
    if (k in target || p === null) continue;
    if (isObject(p) && ((top && LISTS[k]) || SPLICE in p)) throw new Error(`${k}: the patch edits a list the view does not hold`);
    out[k] = p;
  }
  return out;
}

function mergeList(list, patch, key, field) {
  const byName = new Map(list.map((e) => [String(e[key]), e]));
  const names = Object.keys(patch).filter((k) => k !== ORDER);
  let order;
  if (ORDER in patch) {
    order = patch[ORDER].map(String);
  } else {
    order = list.map((e) => String(e[key])).filter((n) => patch[n] !== null);
    for (const n of names) if (patch[n] !== null && !byName.has(n)) order.push(n);
  }
  for (const n of names) {
    if (!order.includes(n) && !(patch[n] === null && byName.has(n))) throw new Error(`${field}: the patch changes entry ${n}, which the list does not hold`);
  }
  return order.map((n) => {
    const old = byName.get(n);
    const p = patch[n];
    if (p === undefined) {
      if (!old) throw new Error(`${field}: entry ${n} is neither held nor sent`);
      return old;
    }
    if (p === null) throw new Error(`${field}: entry ${n} is both removed and listed`);
    if (old && isObject(p)) return mergeObject(old, p, false);
    if (!isObject(p) || String(p[key]) !== n) throw new Error(`${field}: entry ${n} is not an object keyed ${n}`);
    return p;
  });
}

function splice(list, patch, field) {
  const args = patch[SPLICE];
  if (Object.keys(patch).length !== 1 || !Array.isArray(args) || args.length < 2) throw new Error(`${field}: an array's patch is {"${SPLICE}": [start, deleteCount, items...]}`);
  const [start, count, ...items] = args;
  if (!Number.isInteger(start) || !Number.isInteger(count) || start < 0 || count < 0 || start + count > list.length) throw new Error(`${field}: ${SPLICE} [${start}, ${count}] does not fit an array of ${list.length}`);
  return [...list.slice(0, start), ...items, ...list.slice(start + count)];
}
