// Protocol v2's view patches (docs/protocol.md, "Patches"): applyPatch returns the view a patch
// makes of the view held, as platform/viewpatch.Apply does on the server's side. The held view is
// not changed: what the patch leaves alone is shared with the result.

// LISTS are the view's lists whose entries a patch matches by a key field.
export const LISTS = { players: "seat", zones: "id", indicators: "id", actions: "type", deadlines: "id", teams: "id" };
const ORDER = "$order";
const SPLICE = "$splice";

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

// applyPatch returns view with patch applied; it throws when the patch does not fit the view.
export function applyPatch(view, patch) {
  if (!isObject(view) || !isObject(patch)) throw new Error("a view and its patch are objects");
  return mergeObject(view, expand(view, patch), true);
}

// expand writes in the members a patch leaves out because they follow from what it says
// (docs/protocol.md, "Derived members"), as platform/viewpatch's expand does: the count of a held
// zone whose entry sets its cards but not its count (the new cards' length), and the hand count
// of a held player whose hand ("hand.<seat>") gets a count from the patch while the player's entry
// does not set it (that count). The patch itself is not changed.
function expand(view, patch) {
  const zp = patch.zones;
  if (!isObject(zp) || !Array.isArray(view.zones)) return patch;
  const held = new Map(view.zones.map((z) => [String(z.id), z]));
  const zones = {};
  const hands = new Map(); // seat -> the count the patch gives its hand
  for (const [id, p] of Object.entries(zp)) {
    zones[id] = p;
    if (id === ORDER || !isObject(p)) continue;
    let count = p.count;
    const old = held.get(id);
    if (!("count" in p) && old && "cards" in p && p.cards !== null) {
      count = Array.isArray(p.cards) ? p.cards.length : newLength(old.cards || [], p.cards);
      zones[id] = { ...p, count };
    }
    if (id.startsWith("hand.") && typeof count === "number") hands.set(id.slice(5), count);
  }
  const out = { ...patch, zones };
  if (hands.size && Array.isArray(view.players) && (patch.players === undefined || isObject(patch.players))) {
    const seats = new Set(view.players.map((p) => String(p.seat)));
    const players = { ...(patch.players || {}) };
    let derived = false;
    for (const [seat, count] of hands) {
      if (!seats.has(seat)) continue;
      const p = players[seat];
      if (p === undefined) { players[seat] = { hand_count: count }; derived = true; }
      else if (isObject(p) && !("hand_count" in p)) { players[seat] = { ...p, hand_count: count }; derived = true; }
    }
    if (derived) out.players = players;
  }
  return out;
}

// newLength is the length of cards once a splice patch applies (a bad splice is caught by splice).
function newLength(cards, p) {
  const args = isObject(p) && Array.isArray(p[SPLICE]) ? p[SPLICE] : [0, 0];
  return cards.length - (Number.isInteger(args[1]) ? args[1] : 0) + Math.max(0, args.length - 2);
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
