package room

import (
	"cardhouse/platform/store"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

func (r *Room) stopTimers() {
	for id, t := range r.deadlines {
		t.Stop()
		delete(r.deadlines, id)
	}
	r.stopBots()
	for id, t := range r.graces {
		t.Stop()
		delete(r.graces, id)
	}
	if r.quickTimer != nil {
		r.quickTimer.Stop()
		r.quickTimer, r.quickAt = nil, nil
	}
	if r.pause != nil {
		r.pause.Stop()
		r.pause = nil
	}
}

func (r *Room) stopBots() {
	for s, t := range r.bots {
		t.Stop()
		delete(r.bots, s)
	}
}

// schedule arms the timers the current state needs: one per ruleset deadline, and one per bot
// (or covered) seat that is due to act.
func (r *Room) schedule() {
	want := map[string]bool{}
	if r.live() {
		for _, d := range r.status.Deadlines {
			want[d.ID] = true
			if _, ok := r.deadlines[d.ID]; ok {
				continue
			}
			gameID, id := r.game.ID, d.ID
			wait := time.Duration(d.At-r.now().UnixMilli()) * time.Millisecond
			r.deadlines[id] = r.cfg.Clock.AfterFunc(wait, func() { r.post(func() { r.fireDeadline(gameID, id) }) })
		}
	}
	for id, t := range r.deadlines {
		if !want[id] {
			t.Stop()
			delete(r.deadlines, id)
		}
	}
	r.stopBots()
	if !r.live() || r.room.PausedAt != nil {
		r.windowSince, r.windowKey = time.Time{}, ""
		return
	}
	botWait := r.botWait()
	for _, seat := range r.status.Actors {
		m := r.seatMember(seat)
		gameID, seq, s := r.game.ID, r.game.Seq, seat
		switch {
		case m == nil:
		case m.BotLevel > 0 || m.Covered:
			r.bots[seat] = r.cfg.Clock.AfterFunc(botWait, func() { r.post(func() { r.botMove(gameID, seq, s, false) }) })
		case r.room.TurnSeconds > 0 && seat == r.status.Turn:
			// The turn clock: a bot acts once for a player who lets it run out.
			wait := time.Duration(r.room.TurnSeconds) * time.Second
			r.bots[seat] = r.cfg.Clock.AfterFunc(wait, func() { r.post(func() { r.botMove(gameID, seq, s, true) }) })
		}
	}
}

// botWait is how long a bot waits before its move now: BotDelay, and while a window is open in
// which others than the player in turn may act, at least until ReactionTime has passed since it
// opened, so that a person at the table can call or catch first (a human plays in the game).
func (r *Room) botWait() time.Duration {
	wait := r.cfg.BotDelay
	if len(r.status.Actors) < 2 {
		r.windowSince, r.windowKey = time.Time{}, ""
		return wait
	}
	now := r.now()
	if key := fmt.Sprint(r.status.Actors[1:]); r.windowSince.IsZero() || key != r.windowKey {
		r.windowSince, r.windowKey = now, key
	}
	person := slices.ContainsFunc(r.members, func(m *store.Member) bool {
		return m.Role == store.MemberPlayer && m.Seat >= 0 && isHuman(m) && !m.Covered
	})
	if left := r.windowSince.Add(r.cfg.ReactionTime).Sub(now); person && left > wait {
		wait = left
	}
	return wait
}

func (r *Room) fireDeadline(gameID int64, id string) {
	if r.game == nil || r.game.ID != gameID {
		return
	}
	delete(r.deadlines, id)
	due := false
	for _, d := range r.status.Deadlines {
		due = due || d.ID == id
	}
	if !due {
		return
	}
	if err := r.apply(sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: id}); err != nil {
		r.log.Error("a deadline's clock action failed", "deadline", id, "err", err)
		if e, ok := AsError(err); ok && e.Fault != nil && r.live() {
			r.schedule() // a house rule failed: fire again (its failures count to its suspension)
		}
	}
}

// botMove asks the bot for seat's action and applies it, if the game is still where it was when
// the move was scheduled. turnClock makes a bot act for a human whose turn clock ran out.
func (r *Room) botMove(gameID int64, seq, seat int, turnClock bool) {
	if !r.live() || r.game.ID != gameID || r.game.Seq != seq || r.room.PausedAt != nil {
		return
	}
	delete(r.bots, seat)
	m := r.seatMember(seat)
	if m == nil || (m.BotLevel == 0 && !m.Covered && !turnClock) {
		return
	}
	level := m.BotLevel
	if level == 0 {
		level = r.coverLevel()
	}
	r.botActing = true
	defer func() { r.botActing = false }()
	seed := uint64(r.game.Seed) ^ uint64(seq+1)*0x9E3779B97F4A7C15 ^ uint64(seat+1)<<56
	var ans *engine.BotAnswer
	err := r.call("bot", func(ctx context.Context) error {
		return r.withState(func(state []byte, ref engine.GameRef) error {
			var err error
			ans, err = r.engine.Bot(ctx, &engine.BotCall{GameRef: ref, State: state, Seat: seat, Level: level, Seed: seed})
			return err
		})
	})
	if err != nil {
		if r.fault(sdk.Action{Seat: seat, Type: "bot"}, err) {
			r.botFallback(seq, seat, nil)
			return
		}
		r.log.Error("bot failed to choose", "seat", seat, "level", level, "err", err)
		return
	}
	if ans == nil || ans.Action == nil {
		return
	}
	a := *ans.Action
	a.Seat = seat
	if err := r.apply(a); err != nil {
		if e, ok := AsError(err); ok && e.Fault != nil {
			r.botFallback(seq, seat, &a)
			return
		}
		r.log.Error("bot action refused", "seat", seat, "action", a.Type, "err", err)
	}
}

// botFallback goes on after a house rule failed on a bot's move (faults.go): the game may have
// moved on already (the rule was suspended, and the suspension armed the next moves); else the
// bot tries the other actions its view offers, and when none is accepted it tries again after
// its delay (each failure counts, until the rule is suspended).
func (r *Room) botFallback(seq, seat int, failed *sdk.Action) {
	if !r.live() || r.game.Seq != seq {
		return
	}
	if r.fallback(seat, failed) {
		return
	}
	if r.live() && r.game.Seq == seq {
		r.schedule()
	}
}

// updatePause pauses a live game when every seated human has dropped, resumes it when one is
// back, and abandons it once paused for the room's pause limit (D-12: option pause_minutes, else
// Config.PauseLimit).
func (r *Room) updatePause() {
	humans, anyOn := 0, false
	for _, m := range r.members {
		if m.Role == store.MemberPlayer && m.Seat >= 0 && isHuman(m) {
			humans++
			anyOn = anyOn || r.connected(*m.UserID)
		}
	}
	should := r.live() && humans > 0 && !anyOn
	switch {
	case should && r.room.PausedAt == nil:
		t := r.now().UTC()
		r.room.PausedAt = &t
		r.saveRoom()
		r.armPause()
		r.stopBots()
		r.broadcastRoom()
	case should && r.pause == nil:
		r.armPause()
	case !should && r.room.PausedAt != nil:
		r.room.PausedAt = nil
		if r.pause != nil {
			r.pause.Stop()
			r.pause = nil
		}
		r.saveRoom()
		r.broadcastRoom()
		r.schedule()
	}
}

// PauseOption is the room option that sets the room's own pause limit in minutes, for a ruleset
// that declares it (DRUGS, D-12); rooms without it wait Config.PauseLimit.
const PauseOption = "pause_minutes"

// pauseLimit is how long this room's paused game waits before it is abandoned.
func (r *Room) pauseLimit() time.Duration {
	var o map[string]any
	_ = json.Unmarshal([]byte(r.room.Options), &o)
	if m, ok := o[PauseOption].(float64); ok && m > 0 {
		return time.Duration(m * float64(time.Minute))
	}
	return r.cfg.PauseLimit
}

func (r *Room) armPause() {
	left := r.pauseLimit() - r.now().Sub(*r.room.PausedAt)
	gameID := r.game.ID
	r.pause = r.cfg.Clock.AfterFunc(left, func() { r.post(func() { r.abandon(gameID) }) })
}

func (r *Room) abandon(gameID int64) {
	r.pause = nil
	if !r.live() || r.game.ID != gameID || r.room.PausedAt == nil {
		return
	}
	t := r.now().UTC()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.cfg.Store.SetGameStatus(ctx, gameID, store.GameAbandoned, &t); err != nil {
		r.log.Error("abandoning a game", "err", err)
		return
	}
	r.game.Status, r.game.EndedAt = store.GameAbandoned, &t
	r.room.PausedAt = nil
	r.saveRoom()
	r.stopTimers()
	r.log.Info("game abandoned: every player dropped", "game", r.game.Number)
	r.broadcastRoom()
}

func (r *Room) cover(memberID int64) {
	delete(r.graces, memberID)
	m := r.memberByID(memberID)
	if m == nil || m.UserID == nil || r.connected(*m.UserID) || m.Covered || !r.live() {
		return
	}
	m.Covered = true
	_ = r.saveMembers(m)
	r.log.Info("a bot covers a dropped player", "seat", m.Seat, "name", m.Name)
	r.broadcastRoom()
	r.schedule()
}
