package room

// Live house-rule failures (issue 23): a rule whose hook fails refuses the action it ran for, so
// a bot (or a covered seat) whose choice fails falls back to another action its view offers; every
// failure is logged, counted (cardhouse_house_rule_failures_total) and stored; after
// Config.SuspendAfter failures in one game the room suspends the rule for the rest of that game
// with the host's engine.ActSuspendHouseRule, an action of the game's log, so that a reload and a
// replay reach the same game, and tells the room in its chat.

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"cardhouse/platform/store"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// DefaultSuspendAfter is the default of Config.SuspendAfter: a rule that failed three times in a
// game is broken for that game, not unlucky once.
const DefaultSuspendAfter = 3

// roomFaults counts the current game's house-rule failures per rule (faults.go).
type roomFaults struct {
	// faultGame is the game faults count for; a failure in another game starts the count again
	// from the store's (a reloaded room goes on where it was).
	faultGame int64
	faults    map[string]int
	// botActing is true while a bot's (or covered seat's, or turn clock's) move is applied.
	botActing bool
	// houseLog is the current game's (houseLogGame's) Rule output, failures included, newest last
	// (keepHouseLog in houserules.go), sent to a connection that comes (back).
	houseLog     []engine.HouseLine
	houseLogGame int64
}

// fault looks at an engine call's error: a house rule's failure is logged, counted and stored,
// and the rule suspended for the game once it failed Config.SuspendAfter times. It reports
// whether err was such a failure.
func (r *Room) fault(a sdk.Action, err error) bool {
	re, ok := sdk.AsRefusal(err)
	if !ok || re.Fault == nil || r.game == nil {
		return false
	}
	f := re.Fault
	r.cfg.Metrics.HouseRuleFailures.WithLabelValues(f.Rule, strconv.Itoa(f.Version)).Inc()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if r.faultGame != r.game.ID || r.faults == nil {
		r.faultGame, r.faults = r.game.ID, map[string]int{}
	}
	if _, seen := r.faults[f.Rule]; !seen {
		n, cerr := r.cfg.Store.CountHouseRuleFailures(ctx, r.game.ID, f.Rule)
		if cerr != nil {
			r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		}
		r.faults[f.Rule] = int(n)
	}
	r.faults[f.Rule]++
	n := r.faults[f.Rule]
	suspend := n >= r.cfg.SuspendAfter
	r.log.Warn("house rule failed", "game", r.game.Number, "rule", f.Rule, "version", f.Version, "hook", f.Hook, "line", f.Line,
		"seat", a.Seat, "action", a.Type, "bot", r.botActing, "failures", n, "err", re.Error())
	rec := &store.HouseRuleFailure{RoomID: r.room.ID, RoomCode: r.code, GameID: r.game.ID, GameNumber: r.game.Number, Seq: r.game.Seq + 1,
		Rule: f.Rule, Version: f.Version, Hook: f.Hook, Line: f.Line, Seat: a.Seat, Action: a.Type, Bot: r.botActing,
		Message: re.Error(), Suspended: suspend, CreatedAt: r.now().UTC()}
	if err := r.cfg.Store.AddHouseRuleFailure(ctx, rec); err != nil {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		r.log.Error("storing a house rule's failure", "rule", f.Rule, "err", err)
	}
	// The rule's owner (and admins) in the room hear of it at once, with what the players are
	// never told: the line, the hook and the message.
	text := f.Message
	if f.Line > 0 {
		text = fmt.Sprintf("line %d: %s", f.Line, text)
	}
	r.forwardHouseLog(&engine.HouseReport{Log: []engine.HouseLine{{Rule: f.Rule, Hook: f.Hook, Text: "failed: " + text, Failure: true}}})
	if suspend {
		r.suspendRule(f, n)
	}
	return true
}

// suspendRule suspends a failing rule for the rest of the game and says so in the chat.
func (r *Room) suspendRule(f *sdk.HouseFault, n int) {
	reason := fmt.Sprintf("it failed %d times in this game", n)
	act := sdk.Action{Seat: sdk.Host, Type: engine.ActSuspendHouseRule, Args: map[string]string{"rule": f.Rule, "reason": reason}}
	bot := r.botActing
	r.botActing = false
	err := r.apply(act)
	r.botActing = bot
	if err != nil {
		r.log.Error("suspending a failing house rule", "rule", f.Rule, "version", f.Version, "err", err)
		return
	}
	r.log.Warn("house rule suspended for the rest of the game", "game", r.game.Number, "rule", f.Rule, "version", f.Version, "failures", n)
	r.notice(fmt.Sprintf("House rule %q v%d is off for the rest of game %d: %s (line %d, in %s). The game goes on without it.",
		f.Rule, f.Version, r.game.Number, reason, f.Line, f.Hook))
}

// NoticeName is the name the room's own chat lines (notices) are written under.
const NoticeName = "Cardhouse"

// notice stores a chat line of the room itself (no account) and sends it to every member.
func (r *Room) notice(text string) {
	msg := &store.ChatMessage{RoomID: r.room.ID, Name: NoticeName, Text: text, CreatedAt: r.now().UTC()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.AddChat(ctx, msg); err != nil {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		r.log.Error("storing a notice", "err", err)
	}
	line := ChatLine{ID: msg.ID, Name: msg.Name, Text: text, At: msg.CreatedAt}
	r.sendChat(line)
}

// fallback is a bot's way past a failing rule: the simple actions seat's view offers other than
// failed, tried in an order drawn from the game's seed, until one is accepted. It reports whether
// one was (or the game moved on meanwhile: a suspension is a step of the game).
func (r *Room) fallback(seat int, failed *sdk.Action) bool {
	r.materialise()
	if seat < 0 || seat >= len(r.views) {
		return false
	}
	var v sdk.View
	if err := json.Unmarshal(r.views[seat], &v); err != nil {
		r.log.Error("reading a bot's view for its fallback", "seat", seat, "err", err)
		return false
	}
	cands := engine.Candidates(v, seat)
	rng := sdk.NewRNG(uint64(r.game.Seed) ^ uint64(r.game.Seq+1)*0x2545F4914F6CDD1D)
	for i := len(cands) - 1; i > 0; i-- {
		j := rng.Intn("fallback", i+1)
		cands[i], cands[j] = cands[j], cands[i]
	}
	seq := r.game.Seq
	for _, c := range cands {
		if failed != nil && sameAction(c, *failed) {
			continue
		}
		err := r.apply(c)
		if err == nil || r.game.Seq != seq || !r.live() {
			return true
		}
	}
	return false
}

func sameAction(a, b sdk.Action) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
