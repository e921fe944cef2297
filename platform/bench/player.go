package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"cardhouse/platform/viewpatch"
	"cardhouse/sdk"

	"github.com/coder/websocket"
	gojson "github.com/goccy/go-json"
)

// Phases of a run. Only what happens in phaseMeasure is counted (errors excepted: they count from
// the first deal on). In phaseDrain nothing new is sent, and the answers and views of the
// actions sent in the window are still counted, so that every accepted action is also seen
// applied by its room's host, however the sockets' messages interleave at the window's end.
const (
	phaseSetup int32 = iota
	phaseWarmup
	phaseMeasure
	phaseDrain
	phaseStopped
)

// counting reports whether a phase counts what the window's actions produced.
func counting(ph int32) bool { return ph == phaseMeasure || ph == phaseDrain }

// botLevel is the level of the bots the players use: the cheapest, so the client stays light.
const botLevel = 1

// errorCodes are the answers that are not a refusal by the rules: the protocol's, the room's that
// a correct client never provokes, and the platform's failures (docs/protocol.md). Every other
// code (the ruleset's refusals, and no_game / game_running when a race ended the game first) is a
// refusal: another seat acted first.
var errorCodes = map[string]bool{
	"bad_json": true, "bad_message": true, "bad_version": true, "unknown_type": true, "too_large": true,
	"not_member": true, "pending": true, "spectator": true, "not_your_seat": true, "not_host": true,
	"seats": true, "busy": true, "engine_failure": true, "store_failure": true, "no_ruleset": true,
	"house_rule_unusable": true, "error": true, "bad_action": true,
}

// run is what every player of a run shares.
type run struct {
	phase atomic.Int32
	think time.Duration
	// protocol is the protocol version the sockets speak (Config.Protocol).
	protocol int
	// bases are the base URLs of the nodes, in the order given: a socket that must reconnect tries
	// the nodes after its own in turn.
	bases []string
	// stopsKnown is set when the bench itself stops a node (Config.StopNodeAfter): it then knows
	// which rooms' owner moved, and a reconnection alone does not make a room's owner unknown.
	stopsKnown bool
	// firstErrors keeps the first few error messages, to print beside the counts.
	mu          sync.Mutex
	firstErrors []string
}

func (r *run) noteError(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.firstErrors) < 5 {
		r.firstErrors = append(r.firstErrors, msg)
	}
}

// stats are one player's counts; the run sums them once every player has stopped.
type stats struct {
	// accepted counts the player's actions accepted in the window; samples holds the latency of
	// each, in microseconds.
	accepted int64
	samples  []int32
	refusals map[string]int64
	errors   map[string]int64
	// Host only: deals sent and accepted, games seen to end, and actions applied (the advance of
	// seq: players', the clock's and the host's between rounds) in the window.
	deals, games, applied int64
	messages              int64
	// received counts the bytes of the messages read in the window; counted and relayedMsgs the
	// messages read in the window, and those of them read on a socket relayed from another node.
	received             int64
	counted, relayedMsgs int64
	// relayed counts the accepted actions (of accepted) sent on a socket relayed from another
	// node; unknownOwner those sent in a room whose owner the bench no longer knows (it moved).
	relayed, unknownOwner int64
	// reconnects counts the sockets opened again after a drop; maxGap is the longest time from a
	// drop to the new socket; unanswered counts the acts of the window sent but never answered
	// because their socket dropped (each is either in the full view that follows, or not applied).
	reconnects int64
	maxGap     time.Duration
	unanswered int64
	// silent is set on a reconnection and cleared by the next accepted act: a seated player still
	// silent at the end never played again after its socket came back.
	silent bool
	// lostWrites counts writes that failed on a socket that dropped: an error only when the socket
	// is not opened again.
	lostWrites int64
}

// player is one WebSocket of a room: a seated player choosing with a bot, or a spectator (seat
// -1, bot nil) that only reads.
type player struct {
	run  *run
	room string
	br   *benchRoom
	acct *account
	seat int
	host bool
	bot  sdk.Bots
	// hello is closed when the server's first hello arrives (the connection is attached to the
	// room); done when the reader ends, for good (a reconnection keeps the same reader).
	hello     chan struct{}
	helloOnce sync.Once
	done      chan struct{}
	closing   sync.Once
	// ctx ends when the bench closes the player: it stops a reconnection under way.
	ctx    context.Context
	cancel context.CancelFunc

	// heard is when the socket last said anything (Unix nanoseconds), pinged whether a heartbeat
	// ping is out since (watchSilent).
	heard  atomic.Int64
	pinged atomic.Bool

	mu sync.Mutex
	// conn is the socket, on node (an index of run.bases); reading is set once the reader runs.
	conn    *websocket.Conn
	node    int
	reading bool
	// The latest view of the seat: its game, seq and arrival.
	viewGame, viewSeq int
	viewAt            time.Time
	// Protocol v2: held is the seat's view as rebuilt from the last full view and the patches
	// since (heldSeq its seq, heldGame its game; nil before the first view), spare the buffer the
	// next patch is applied into. resyncing is set from a gap to the full view that answers it.
	held, spare                 []byte
	heldSeat, heldGame, heldSeq int
	resyncing                   bool
	// cand is the latest view with actions open to the seat (nil when none), copied into candBuf.
	cand              []byte
	candBuf           []byte
	candGame, candSeq int
	// acted is the view the bot last decided on: it decides once per view.
	actedGame, actedSeq int
	// pending is the id of the act in flight ("" when none).
	pending      string
	pendingPhase int32
	sentAt       time.Time
	nextID       int
	thinking     bool
	rng          sdk.RNG
	// Host only: the view last dealt on, the last game counted as finished, the last seq seen.
	dealtGame, dealtSeq int
	overGame            int
	lastGame, lastSeq   int
	st                  stats
}

// newPlayer makes the player of seat (-1: a spectator) in room br, whose socket goes to node.
func newPlayer(r *run, br *benchRoom, acct *account, seat, node int, host bool, bot sdk.Bots, seed uint64) *player {
	ctx, cancel := context.WithCancel(context.Background())
	return &player{run: r, room: br.code, br: br, acct: acct, seat: seat, node: node, host: host, bot: bot,
		hello: make(chan struct{}), done: make(chan struct{}), ctx: ctx, cancel: cancel,
		actedGame: -1, actedSeq: -1, dealtGame: -1, dealtSeq: -1, rng: sdk.NewRNG(seed),
		st: stats{refusals: map[string]int64{}, errors: map[string]int64{}}}
}

// relayedNow reports whether the socket sits on a node that does not run its room, and whether
// the bench knows (the room's owner did not move to a node it cannot tell). Caller holds p.mu.
func (p *player) relayedNow() (relayed, known bool) {
	o := p.br.owner.Load()
	return o >= 0 && int(o) != p.node, o >= 0
}

// read runs the connection until it closes for good: one goroutine per player, one reused
// buffer. A socket the server went away from (1001) or that dropped is opened again (reconnect).
func (p *player) read() {
	defer close(p.done)
	var buf bytes.Buffer
	for {
		p.mu.Lock()
		c := p.conn
		p.mu.Unlock()
		// A context without Done: the library sets up no timer per read; closing the connection
		// ends the read.
		_, rd, err := c.Reader(context.Background())
		if err == nil {
			buf.Reset()
			_, err = buf.ReadFrom(rd)
		}
		if err != nil {
			if !p.reconnect(err) {
				return
			}
			continue
		}
		now := time.Now()
		p.heard.Store(now.UnixNano())
		p.pinged.Store(false)
		if b := buf.Bytes(); bytes.Contains(b[:min(len(b), 40)], pongType) {
			continue // a heartbeat's answer (watchSilent): not a message of the game
		}
		if out := p.handle(buf.Bytes(), now); out != nil {
			p.write(out)
		}
	}
}

// closed counts a connection lost for good (and the writes lost with it) as errors.
func (p *player) closed(err error) {
	if p.run.phase.Load() == phaseStopped || p.ctx.Err() != nil {
		return
	}
	p.mu.Lock()
	p.st.errors["disconnect"]++
	if p.st.lostWrites > 0 {
		p.st.errors["write"] += p.st.lostWrites
		p.st.lostWrites = 0
	}
	p.mu.Unlock()
	code := websocket.CloseStatus(err)
	p.run.noteError(fmt.Sprintf("room %s seat %d: connection lost (close status %d): %v", p.room, p.seat, code, err))
}

// Reconnection: how long a player keeps trying, and the backoff between tries (doubling up to
// the second, as the web client's).
const (
	reconnectLimit   = 30 * time.Second
	reconnectBackoff = 50 * time.Millisecond
	reconnectMax     = time.Second
	// reconnectDial bounds one try: a node that accepts but does not answer (frozen) is left for
	// the next one.
	reconnectDial = 5 * time.Second
)

// reconnectable reports whether a socket that ended with err is to be opened again: the server
// went away (1001: a node stopping, a room moving) or the socket dropped without a close frame
// (a node dying). Any other close (a policy close, a kick) ends the player, as an error.
func reconnectable(err error) bool {
	code := websocket.CloseStatus(err)
	return code == websocket.StatusGoingAway || code == -1
}

// reconnect opens the player's socket again after err ended it, on the next node of the list
// (then the one after, with a short backoff, for up to reconnectLimit), as a browser tab would.
// The new socket starts with a full view (v2 too): what the player held is dropped, and an act
// in flight is given up, neither accepted nor an error, as its answer went with the old socket
// (if the room applied it, the full view shows it, and the host's count of applied actions has
// it). It reports whether the reader goes on.
func (p *player) reconnect(err error) bool {
	if p.run.phase.Load() == phaseStopped || p.ctx.Err() != nil {
		return false
	}
	if !reconnectable(err) {
		p.closed(err)
		return false
	}
	dropped := time.Now()
	p.mu.Lock()
	from := p.node
	if p.pending != "" && p.pendingPhase == phaseMeasure {
		p.st.unanswered++
	}
	p.pending = ""
	p.held, p.resyncing, p.cand = nil, false, nil
	// Decide and deal again on the full view, even if it is the one last seen: what was sent on
	// the old socket may not have arrived.
	p.actedGame, p.actedSeq, p.dealtGame, p.dealtSeq = -1, -1, -1, -1
	p.mu.Unlock()
	if !p.run.stopsKnown && len(p.run.bases) > 1 {
		p.br.owner.Store(-1) // the owner may be the node that went
	}
	n := len(p.run.bases)
	backoff := reconnectBackoff
	for try := 1; ; try++ {
		if sleep(p.ctx, backoff) != nil {
			return false
		}
		node := (from + try) % n
		dctx, cancel := context.WithTimeout(p.ctx, reconnectDial)
		c, derr := p.dial(dctx, node)
		cancel()
		if derr == nil {
			p.heard.Store(time.Now().UnixNano())
			p.pinged.Store(false)
			p.mu.Lock()
			p.conn, p.node = c, node
			p.st.reconnects++
			p.st.silent = p.bot != nil
			p.st.maxGap = max(p.st.maxGap, time.Since(dropped))
			p.st.lostWrites = 0 // lost with the old socket, as the act in flight
			p.mu.Unlock()
			if p.ctx.Err() != nil { // closeOnce ran meanwhile and closed the old socket
				_ = c.CloseNow()
				return false
			}
			return true
		}
		if p.ctx.Err() != nil || p.run.phase.Load() == phaseStopped {
			return false
		}
		if time.Since(dropped) > reconnectLimit {
			p.closed(fmt.Errorf("%w; reconnecting for %s, last to %s: %v", err, reconnectLimit, p.run.bases[node], derr))
			return false
		}
		backoff = min(2*backoff, reconnectMax)
	}
}

func (p *player) write(b []byte) {
	p.mu.Lock()
	c := p.conn
	p.mu.Unlock()
	if err := c.Write(context.Background(), websocket.MessageText, b); err != nil && p.run.phase.Load() != phaseStopped && p.ctx.Err() == nil {
		// The reader judges: the socket dropped and is opened again (the write is lost with it),
		// or it is lost for good (an error).
		p.mu.Lock()
		if p.conn == c {
			p.st.lostWrites++
		}
		p.mu.Unlock()
		_ = c.CloseNow() // the reader hears of it at once, if it has not yet
	}
}

// decodeJSON is the client's JSON decoder for what the server sends: goccy/go-json, a drop-in for
// encoding/json that reads a Last Card view into sdk.View about four times as fast (25 → 6 µs).
// The client shares the machine with the server it measures, and decoding the view a bot chooses
// from was a third of its CPU. TestDecodeJSONMatchesStd checks it reads the variants' views as
// encoding/json does.
var decodeJSON = gojson.Unmarshal

// msgPrefix starts most server messages: the server writes "v" (one digit) then "type" first;
// the messages of protocol v2 that go without "v" (patch, accepted) start with "type"
// (msgPrefixV2).
var msgPrefix, msgType, msgPrefixV2 = []byte(`{"v":`), []byte(`,"type":"`), []byte(`{"type":"`)

// messageType reads the type of a server message without decoding it.
func messageType(data []byte) string {
	var rest []byte
	if n := len(msgPrefix) + 1; bytes.HasPrefix(data, msgPrefix) && bytes.HasPrefix(data[n:], msgType) {
		rest = data[n+len(msgType):]
	} else if bytes.HasPrefix(data, msgPrefixV2) {
		rest = data[len(msgPrefixV2):]
	}
	if i := bytes.IndexByte(rest, '"'); i >= 0 {
		return string(rest[:i])
	}
	var m struct {
		Type string `json:"type"`
	}
	_ = decodeJSON(data, &m)
	return m.Type
}

// answer is the small server messages a player reads in full: accepted and error.
type answer struct {
	ID     string `json:"id"`
	Seq    *int   `json:"seq"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// handle takes one server message; it returns a message to send, if any.
func (p *player) handle(data []byte, now time.Time) []byte {
	typ := messageType(data)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.st.messages++
	if counting(p.run.phase.Load()) {
		p.st.received += int64(len(data))
		p.st.counted++
		if relayed, _ := p.relayedNow(); relayed {
			p.st.relayedMsgs++
		}
	}
	switch typ {
	case "view":
		return p.onView(data, now)
	case "patch":
		return p.onPatch(data, now)
	case "accepted", "error":
		var a answer
		if err := decodeJSON(data, &a); err != nil {
			p.st.errors["bad_server_message"]++
			return nil
		}
		if typ == "accepted" {
			return p.onAccepted(a)
		}
		return p.onError(a)
	case "hello":
		p.helloOnce.Do(func() { close(p.hello) })
	case "bye":
		var a answer
		_ = decodeJSON(data, &a)
		// going_away: the node is stopping; the close (1001) follows and the player reconnects.
		if p.run.phase.Load() != phaseStopped && a.Code != "going_away" {
			p.st.errors["bye_"+a.Code]++
			p.run.noteError(fmt.Sprintf("room %s seat %d: bye %s: %s", p.room, p.seat, a.Code, a.Reason))
		}
	}
	return nil
}

// viewHeader reads seat, game and seq of a view message and slices out its view, without
// decoding the view (the server writes seat, game, seq, view, now in that order).
func viewHeader(data []byte) (seat, game, seq int, view []byte, ok bool) {
	vi := bytes.Index(data, []byte(`"view":`))
	if vi < 0 {
		return 0, 0, 0, nil, false
	}
	head := data[:vi]
	seat, ok1 := intField(head, `"seat":`)
	game, _ = intField(head, `"game":`)
	seq, ok2 := intField(head, `"seq":`)
	end := bytes.LastIndex(data, []byte(`,"now":`))
	if end < vi {
		end = len(data) - 1
	}
	view = data[vi+len(`"view":`) : end]
	if !ok1 || !ok2 || len(view) == 0 || view[0] != '{' {
		return 0, 0, 0, nil, false
	}
	return seat, game, seq, view, true
}

func intField(b []byte, key string) (int, bool) {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return 0, false
	}
	rest := b[i+len(key):]
	j := 0
	for j < len(rest) && (rest[j] == '-' || rest[j] >= '0' && rest[j] <= '9') {
		j++
	}
	n, err := strconv.Atoi(string(rest[:j]))
	return n, err == nil
}

// viewPhase reads the phase of a view (near its start: ruleset, viewer, phase).
func viewPhase(view []byte) string {
	i := bytes.Index(view, []byte(`"phase":"`))
	if i < 0 {
		return ""
	}
	rest := view[i+len(`"phase":"`):]
	if j := bytes.IndexByte(rest, '"'); j >= 0 {
		return string(rest[:j])
	}
	return ""
}

func (p *player) onView(data []byte, now time.Time) []byte {
	seat, game, seq, view, ok := viewHeader(data)
	if !ok {
		var m struct {
			Seat *int            `json:"seat"`
			Game int             `json:"game"`
			Seq  *int            `json:"seq"`
			View json.RawMessage `json:"view"`
		}
		if err := decodeJSON(data, &m); err != nil || m.Seat == nil || m.Seq == nil {
			p.st.errors["bad_server_message"]++
			return nil
		}
		seat, game, seq, view = *m.Seat, m.Game, *m.Seq, m.View
	}
	if p.run.protocol == 2 {
		p.held = append(p.held[:0], view...)
		p.heldSeat, p.heldGame, p.heldSeq, p.resyncing = seat, game, seq, false
	}
	return p.viewIs(seat, game, seq, view, now)
}

// patchHeader reads seq and base of a patch message and slices out its patch (the server writes
// type, seat, seq, base, patch, now in that order, and leaves out what the connection knows:
// seat, as the player holds one view, and base when it is seq-1).
func patchHeader(data []byte) (base, seq int, patch []byte, ok bool) {
	pi := bytes.Index(data, []byte(`"patch":{`))
	if pi < 0 {
		return 0, 0, nil, false
	}
	head := data[:pi]
	seq, ok = intField(head, `"seq":`)
	base, hasBase := intField(head, `"base":`)
	if !hasBase {
		base = seq - 1
	}
	end := bytes.LastIndex(data, []byte(`,"now":`))
	if end < pi {
		end = len(data) - 1
	}
	patch = data[pi+len(`"patch":`) : end]
	return base, seq, patch, ok
}

// onPatch applies a patch to the held view; a patch that does not follow it (a gap: its base
// is not the seq held) asks for the full view again, which a correct server never makes needed.
func (p *player) onPatch(data []byte, now time.Time) []byte {
	base, seq, patch, ok := patchHeader(data)
	if !ok {
		p.st.errors["bad_server_message"]++
		return nil
	}
	if p.resyncing {
		return nil // the full view asked for is on its way
	}
	if p.held == nil || base != p.heldSeq {
		p.st.errors["patch_gap"]++
		p.run.noteError(fmt.Sprintf("room %s seat %d: patch from seq %d, holding game %d seq %d", p.room, p.seat, base, p.heldGame, p.heldSeq))
		p.resyncing = true
		return []byte(`{"type":"resync"}`)
	}
	next, err := viewpatch.Apply(p.spare[:0], p.held, patch)
	if err != nil {
		p.st.errors["bad_patch"]++
		p.run.noteError(fmt.Sprintf("room %s seat %d: %v", p.room, p.seat, err))
		p.resyncing = true
		return []byte(`{"type":"resync"}`)
	}
	p.held, p.spare = next, p.held
	p.heldSeq = seq
	return p.viewIs(p.heldSeat, p.heldGame, seq, p.held, now)
}

// viewIs takes the seat's view at game and seq, however it came: the host counts and deals,
// the bot decides.
func (p *player) viewIs(seat, game, seq int, view []byte, now time.Time) []byte {
	if seat < 0 || p.bot == nil {
		return nil // the spectators' view: read, nothing to do
	}
	p.viewGame, p.viewSeq, p.viewAt = game, seq, now
	phase := viewPhase(view)
	ph := p.run.phase.Load()
	var out []byte
	if p.host {
		if counting(ph) {
			if game == p.lastGame {
				p.st.applied += int64(max(0, seq-p.lastSeq))
			} else {
				p.st.applied += int64(seq)
			}
		}
		p.lastGame, p.lastSeq = game, seq
		if phase == sdk.PhaseGameOver && game != p.overGame {
			p.overGame = game
			if counting(ph) {
				p.st.games++
			}
		}
		if (phase == sdk.PhaseGameOver || phase == sdk.PhaseRoundOver) && (game != p.dealtGame || seq != p.dealtSeq) && (ph == phaseWarmup || ph == phaseMeasure) {
			p.dealtGame, p.dealtSeq = game, seq
			out = p.dealMessage()
		}
	}
	if phase == sdk.PhasePlaying && bytes.Contains(view, []byte(`"actions":[`)) {
		p.candBuf = append(p.candBuf[:0], view...)
		p.cand, p.candGame, p.candSeq = p.candBuf, game, seq
	} else {
		p.cand = nil
	}
	if act := p.maybeAct(); act != nil {
		if out != nil {
			p.writeLater(out)
		}
		return act
	}
	return out
}

// writeLater sends b from another goroutine (the caller holds the lock and already has a message).
func (p *player) writeLater(b []byte) { go p.write(b) }

// dealMessage asks the server for the next game or round (host only).
func (p *player) dealMessage() []byte {
	p.nextID++
	return []byte(`{"type":"deal","id":"d` + strconv.Itoa(p.nextID) + `"}`)
}

// maybeAct decides on the latest view with actions open, once per view and one act at a time;
// with a think time it decides that long after the view came. It returns the act to send.
func (p *player) maybeAct() []byte {
	if p.pending != "" || p.cand == nil || (p.candGame == p.actedGame && p.candSeq == p.actedSeq) || p.thinking {
		return nil
	}
	ph := p.run.phase.Load()
	if ph != phaseWarmup && ph != phaseMeasure {
		return nil
	}
	if p.run.think > 0 {
		p.thinking = true
		time.AfterFunc(p.run.think, func() {
			p.mu.Lock()
			p.thinking = false
			out := p.maybeActNow()
			p.mu.Unlock()
			if out != nil {
				p.write(out)
			}
		})
		return nil
	}
	return p.maybeActNow()
}

func (p *player) maybeActNow() []byte {
	if p.pending != "" || p.cand == nil || (p.candGame == p.actedGame && p.candSeq == p.actedSeq) {
		return nil
	}
	ph := p.run.phase.Load()
	if ph != phaseWarmup && ph != phaseMeasure {
		return nil
	}
	p.actedGame, p.actedSeq = p.candGame, p.candSeq
	var v sdk.View
	if err := decodeJSON(p.cand, &v); err != nil {
		p.st.errors["bad_view"]++
		p.run.noteError(fmt.Sprintf("room %s seat %d: decoding a view: %v", p.room, p.seat, err))
		return nil
	}
	a, err := p.bot.Bot(context.Background(), sdk.BotRequest{Seat: p.seat, Level: botLevel, View: v, RNG: &p.rng})
	if err != nil {
		p.st.errors["bot"]++
		p.run.noteError(fmt.Sprintf("room %s seat %d: the bot failed: %v", p.room, p.seat, err))
		return nil
	}
	if a == nil {
		return nil
	}
	a.Seat = p.seat
	ab, err := json.Marshal(a)
	if err != nil {
		p.st.errors["bot"]++
		return nil
	}
	p.nextID++
	p.pending = "a" + strconv.Itoa(p.nextID)
	p.pendingPhase = ph
	p.sentAt = time.Now()
	msg := make([]byte, 0, len(ab)+48)
	msg = append(msg, `{"type":"act","id":"`...)
	msg = append(msg, p.pending...)
	msg = append(msg, `","action":`...)
	msg = append(msg, ab...)
	return append(msg, '}')
}

func (p *player) onAccepted(a answer) []byte {
	if a.ID == "" {
		return nil
	}
	ph := p.run.phase.Load()
	if a.ID[0] == 'd' {
		if ph == phaseMeasure {
			p.st.deals++
		}
		return nil
	}
	if a.ID != p.pending {
		return nil
	}
	p.pending = ""
	p.st.silent = false
	if counting(ph) && p.pendingPhase == phaseMeasure {
		// The views of an action come before its "accepted": the last view read is the one the
		// action produced.
		if a.Seq == nil || *a.Seq != p.viewSeq {
			p.st.errors["unmatched_seq"]++
			p.run.noteError(fmt.Sprintf("room %s seat %d: accepted seq %v after view seq %d", p.room, p.seat, a.Seq, p.viewSeq))
		} else {
			p.st.accepted++
			switch relayed, known := p.relayedNow(); {
			case !known:
				p.st.unknownOwner++
			case relayed:
				p.st.relayed++
			}
			us := p.viewAt.Sub(p.sentAt).Microseconds()
			p.st.samples = append(p.st.samples, int32(min(us, 1<<31-1)))
		}
	}
	return p.maybeAct()
}

func (p *player) onError(a answer) []byte {
	ph := p.run.phase.Load()
	isAct := a.ID != "" && a.ID == p.pending
	isDeal := a.ID != "" && a.ID[0] == 'd'
	if isAct {
		p.pending = ""
	}
	switch {
	case ph == phaseStopped:
	case errorCodes[a.Code] || (!isAct && !isDeal):
		p.st.errors[a.Code]++
		p.run.noteError(fmt.Sprintf("room %s seat %d: error %s (message %q): %s", p.room, p.seat, a.Code, a.ID, a.Reason))
	case ph == phaseMeasure || (isAct && ph == phaseDrain && p.pendingPhase == phaseMeasure):
		p.st.refusals[a.Code]++
	}
	if isAct {
		return p.maybeAct()
	}
	if isDeal && retryDeal[a.Code] && (ph == phaseWarmup || ph == phaseMeasure) {
		// The host tries again, as a player would after "try again": the error stays counted.
		time.AfterFunc(dealRetry, func() {
			if ph := p.run.phase.Load(); ph != phaseWarmup && ph != phaseMeasure {
				return
			}
			p.mu.Lock()
			out := p.dealMessage()
			p.mu.Unlock()
			p.write(out)
		})
	}
	return nil
}

// retryDeal are the deal errors the host retries after dealRetry: the platform's "try again".
var retryDeal = map[string]bool{"store_failure": true, "engine_failure": true, "busy": true}

// dealRetry is how long the host waits before dealing again after a failed deal.
const dealRetry = 500 * time.Millisecond

// dial opens a WebSocket to the player's room on node with its session cookie and that node as
// Origin, as a browser page would.
func (p *player) dial(ctx context.Context, node int) (*websocket.Conn, error) {
	base := p.run.bases[node]
	u := "ws" + base[len("http"):] + "/api/rooms/" + p.room + "/ws"
	if p.run.protocol == 2 {
		u += "?v=2"
	}
	h := map[string][]string{
		"Cookie": {sessionCookie + "=" + p.acct.session},
		"Origin": {base},
	}
	c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, fmt.Errorf("connecting %s to room %s on %s: %w", p.acct.name, p.room, base, err)
	}
	c.SetReadLimit(1 << 22)
	return c, nil
}

// connect opens the player's socket on its node, starts its reader and waits for the hello.
func (p *player) connect(ctx context.Context) error {
	c, err := p.dial(ctx, p.node)
	if err != nil {
		return err
	}
	p.heard.Store(time.Now().UnixNano())
	p.mu.Lock()
	p.conn, p.reading = c, true
	p.mu.Unlock()
	go p.read()
	select {
	case <-p.hello:
		return nil
	case <-p.done:
		return fmt.Errorf("room %s: %s's connection closed before the hello", p.room, p.acct.name)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// closeOnce closes the connection (once), stopping a reconnection under way, and waits for the
// reader to end.
func (p *player) closeOnce() {
	p.closing.Do(func() {
		p.cancel()
		p.mu.Lock()
		c, reading := p.conn, p.reading
		p.mu.Unlock()
		if c == nil {
			return
		}
		if err := c.Close(websocket.StatusNormalClosure, "bench over"); err != nil {
			_ = c.CloseNow()
		}
		if reading {
			<-p.done
		}
	})
}

// pongType marks the server's answer to a ping, near the start of the message.
var pongType = []byte(`"type":"pong"`)

// The bench's players hear from a live socket, as the web client does (docs/protocol.md,
// "Heartbeat"): after pingAfter of silence a player pings, and after deadAfter its socket is
// dropped and opened again on the next node (reconnect), so that a frozen node (accepting, saying
// nothing) does not hold its players.
const (
	pingAfter  = 2500 * time.Millisecond
	deadAfter  = 5 * time.Second
	watchEvery = 500 * time.Millisecond
)

// watchSilent pings the silent sockets of rooms' players and drops the dead ones, every
// watchEvery until ctx ends. One goroutine for the whole run.
func watchSilent(ctx context.Context, rooms []*benchRoom) {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	ping := []byte(`{"type":"ping","id":"hb"}`)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := time.Now().UnixNano()
		for _, rm := range rooms {
			for _, p := range slices.Concat(rm.players, rm.specs) {
				p.mu.Lock()
				c, reading := p.conn, p.reading
				p.mu.Unlock()
				if c == nil || !reading || p.run.phase.Load() == phaseStopped {
					continue
				}
				switch silent := time.Duration(now - p.heard.Load()); {
				case silent >= deadAfter:
					p.heard.Store(now) // once: the reconnection sets it again
					// Never on the watch's goroutine: a write stuck on a frozen peer may hold the
					// socket's lock, and one stuck player must not stop the watch of all the others.
					go func() { _ = c.CloseNow() }()
				case silent >= pingAfter && !p.pinged.Swap(true):
					go p.write(ping)
				}
			}
		}
	}
}
