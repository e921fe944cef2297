// The server's HTTP API (docs/api.md) and the room WebSocket (docs/protocol.md).

import { applyPatch } from "./patch.js";
import { t } from "./i18n.js";

let csrf = "";

// ApiError is a refused request: code and reason from the server's {"error": {...}} body, the
// per-field reasons of a form (fields: [{field, reason}]) and a house rule's problem.
export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.reason || t("request failed ({status})", { status }));
    this.status = status;
    this.code = e.code || "error";
    this.fields = e.fields || [];
    this.problem = e.problem || null; // a failed house-rule check, split (docs/api.md, House rules)
  }
}

// api sends a JSON request and returns the decoded answer; it carries the session's CSRF token.
export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  let data = null;
  if (res.status !== 204) {
    try { data = await res.json(); } catch { data = null; }
  }
  if (!res.ok) throw new ApiError(res.status, data);
  if (data && data.csrf_token) csrf = data.csrf_token;
  return data;
}

// apiLines sends a JSON request whose answer is NDJSON (one JSON value a line, as the server
// writes it: POST /api/house-rules/try) and hands onLine each value as it arrives; a refused
// request throws ApiError as api does. signal (an AbortSignal) stops the request.
export async function apiLines(method, path, body, onLine, signal) {
  const headers = { Accept: "application/x-ndjson", "Content-Type": "application/json" };
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  const res = await fetch(path, { method, headers, body: JSON.stringify(body), credentials: "same-origin", signal });
  if (!res.ok) {
    let data = null;
    try { data = await res.json(); } catch { data = null; }
    throw new ApiError(res.status, data);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    rest += value;
    let nl;
    while ((nl = rest.indexOf("\n")) >= 0) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (line.trim()) onLine(JSON.parse(line));
    }
  }
  if (rest.trim()) onLine(JSON.parse(rest));
}

// A socket is alive while it hears from the server. After HEARTBEAT_MS of silence the page pings
// (the server answers every ping with a pong); after DEAD_MS of silence, or when a new socket has
// not opened within DEAD_MS, the socket is abandoned and another opened: a node that froze (or a
// network that dropped without a close) keeps a TCP connection open that says nothing, and the
// page must not wait for it (docs/protocol.md, "Heartbeat").
export const HEARTBEAT_MS = 2500;
export const DEAD_MS = 5000;
// A socket that worked and was lost is most often a room moving to another node (its node
// stopped or died): it is back within the room's lease and a second or two, so for MOVING_MS
// after such a loss the page tries again at least every MOVING_BACKOFF_MS rather than backing off
// to 8 s, which could add most of 8 s to the wait (docs/operations.md, "What happens when").
const MOVING_MS = 30000;
const MOVING_BACKOFF_MS = 1000;

// RoomSocket is one room's WebSocket: it reconnects with backoff and matches answers to requests.
// It speaks protocol v2 (docs/protocol.md): it holds each seat's view and turns the server's
// patches back into whole views, so that the page receives "view" messages as in v1; a patch
// that does not follow the view held (a gap) is dropped and the full views asked for again.
export class RoomSocket {
  constructor(code, onMessage, onState) {
    this.code = code;
    this.views = new Map(); // seat -> {game, seq, view}, as last sent to onMessage
    this.resyncing = false;
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.pending = new Map();
    this.seq = 0;
    this.closed = false;
    this.backoff = 500;
    this.lostAt = 0; // when a socket that had opened was last lost
    this.heard = Date.now();
    this.beats = 0;
    this.timer = setInterval(() => this.heartbeat(), 500);
    this.open();
  }

  // heartbeat pings a silent socket and abandons a dead one (above).
  heartbeat() {
    // A socket closing or closed reconnects on its own (onclose, with backoff).
    if (this.closed || !this.ws || this.ws.readyState > WebSocket.OPEN) return;
    const silent = Date.now() - this.heard;
    if (silent >= DEAD_MS) {
      this.abandon();
    } else if (silent >= HEARTBEAT_MS && this.ws.readyState === WebSocket.OPEN && !this.pinged) {
      this.pinged = true;
      this.ws.send(JSON.stringify({ v: 1, type: "ping", id: `hb${++this.beats}` }));
    }
  }

  // abandon drops a socket that says nothing (its handlers first, so that its close, whenever it
  // comes, changes nothing) and opens another at once.
  abandon() {
    const ws = this.ws;
    this.lostAt = Date.now();
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try { ws.close(4000, "silent"); } catch { /* closing a socket that never opened */ }
    this.failPending(t("connection lost"));
    this.onState("reconnecting", "");
    this.open();
  }

  failPending(reason) {
    for (const resolve of this.pending.values()) resolve({ type: "error", ok: false, reason });
    this.pending.clear();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/api/rooms/${encodeURIComponent(this.code)}/ws?v=2`);
    this.ws = ws;
    this.heard = Date.now(); // a socket that does not open within DEAD_MS is abandoned too
    this.pinged = false;
    this.views.clear();
    this.resyncing = false;
    let opened = false;
    this.onState("connecting");
    ws.onopen = () => { opened = true; this.heard = Date.now(); this.backoff = 500; this.onState("open"); };
    ws.onmessage = (ev) => {
      this.heard = Date.now();
      this.pinged = false;
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.id && this.pending.has(m.id)) {
        const resolve = this.pending.get(m.id);
        this.pending.delete(m.id);
        resolve(m);
      }
      if (m.type === "patch") {
        m = this.patched(m);
        if (!m) return;
      } else if (m.type === "view") {
        this.views.set(m.seat, { game: m.game, seq: m.seq, view: m.view });
        this.resyncing = false;
      }
      this.onMessage(m);
    };
    ws.onclose = (ev) => {
      this.failPending(t("connection lost"));
      // Closed by this page: nothing to say. Closed by the server's policy (kicked, banned): its reason.
      if (this.closed) { this.onState("closed", ""); return; }
      if (ev.code === 1008) { this.onState("closed", ev.reason || "closed"); return; }
      // A socket refused before it opened (the server answers a non-member's upgrade with 403,
      // which a page cannot read) is reported as such: the room decides whether to try again.
      this.onState("reconnecting", opened ? "" : "refused");
      ws.onclose = null;
      if (opened) this.lostAt = Date.now();
      setTimeout(() => !this.closed && this.ws === ws && this.open(), this.backoff);
      const moving = Date.now() - this.lostAt < MOVING_MS;
      this.backoff = Math.min(this.backoff * 2, moving ? MOVING_BACKOFF_MS : 8000);
    };
  }

  // patched turns a patch message into the view message it stands for, or returns null (and asks
  // for the full views once) when it does not follow the view held. The message leaves out what
  // this socket knows (docs/protocol.md): the seat when it holds one view, the game (a patch never
  // crosses games), the base when it is seq-1, the clock when the deadlines did not change.
  patched(m) {
    if (this.resyncing) return null;
    const seat = m.seat ?? (this.views.size === 1 ? this.views.keys().next().value : undefined);
    const held = this.views.get(seat);
    const base = m.base ?? m.seq - 1;
    let view;
    try {
      if (!held || held.seq !== base) throw new Error(`patch from seq ${base}, holding ${held ? held.seq : "nothing"}`);
      view = applyPatch(held.view, m.patch);
    } catch (err) {
      console.warn("resync:", err.message);
      this.resyncing = true;
      this.send({ type: "resync" });
      return null;
    }
    this.views.set(seat, { game: held.game, seq: m.seq, view });
    const out = { v: 2, type: "view", seat, game: held.game, seq: m.seq, view };
    if (m.now !== undefined) out.now = m.now;
    return out;
  }

  // request sends a message with a fresh id and resolves to the server's answer to it.
  request(msg) {
    const id = `c${++this.seq}`;
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return resolve({ type: "error", ok: false, reason: t("not connected: reconnecting…") });
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ v: 1, id, ...msg }));
    });
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ v: 1, ...msg }));
  }

  // close stops the socket for good: no reconnecting.
  close() {
    this.closed = true;
    clearInterval(this.timer);
    this.ws && this.ws.close(1000, "leaving");
  }
}
