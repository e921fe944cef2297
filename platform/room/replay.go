package room

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"cardhouse/platform/store"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// openerSeat is the seat that opened game g. Game.Opener holds the seat when the host passed it to
// the ruleset, and -1-seat when the ruleset chose (so a replay passes no opener either).
func openerSeat(g *store.Game) int {
	if g.Opener >= 0 {
		return g.Opener
	}
	return -1 - g.Opener
}

func passedOpener(g *store.Game) *int {
	if g.Opener >= 0 {
		o := g.Opener
		return &o
	}
	return nil
}

// LoggedAction is one entry of a game's action log.
type LoggedAction struct {
	Seq    int        `json:"seq"`
	Seat   int        `json:"seat"`
	Action sdk.Action `json:"action"`
	Now    int64      `json:"now"`
}

// Replay is a game rebuilt from its log: the log, the status reached, and whether the rebuilt
// state is byte for byte the stored one (the state stored after the first Game.Seq actions).
type Replay struct {
	Room    string         `json:"room"`
	Game    int            `json:"game"`
	Ruleset string         `json:"ruleset"`
	Seats   int            `json:"seats"`
	Status  string         `json:"status"`
	Log     []LoggedAction `json:"log"`
	Final   sdk.Status     `json:"final"`
	Matches bool           `json:"matches"`
	// HouseRules name the house rules the game started with ("name vN"), as it keeps them.
	HouseRules []string `json:"house_rules,omitempty"`
	// Frames, when asked for (ReplayFrames), are the spectators' view after the deal (Seq 0) and
	// after each action of the log, in order.
	Frames []Frame `json:"frames,omitempty"`
}

// Frame is the spectators' view of a replayed game after the action Seq (0: after the deal).
type Frame struct {
	Seq  int             `json:"seq"`
	View json.RawMessage `json:"view"`
}

// MaxFrames bounds the views ReplayFrames rebuilds: a longer game's replay is refused rather than
// rebuilding thousands of views for one request.
const MaxFrames = 5000

// Replay rebuilds game number of room code from its seed, options and action log through the
// ruleset's engine and compares the state it reaches after the stored state's actions with the
// stored state.
func (m *Manager) Replay(ctx context.Context, code string, number int) (*Replay, error) {
	return m.replay(ctx, code, number, false)
}

// ReplayFrames is Replay with the spectators' view after the deal and after every action
// (Replay.Frames): a game stepped through as a spectator saw it. A log longer than MaxFrames
// actions is refused.
func (m *Manager) ReplayFrames(ctx context.Context, code string, number int) (*Replay, error) {
	return m.replay(ctx, code, number, true)
}

// ReplayAs is ReplayFrames from the view of seat viewer (sdk.Spectator: the spectators'): each
// frame is what that seat saw then, so no hand shows before the game shows it (issue 32).
func (m *Manager) ReplayAs(ctx context.Context, code string, number, viewer int) (*Replay, error) {
	return m.replayAs(ctx, code, number, true, viewer)
}

func (m *Manager) replay(ctx context.Context, code string, number int, frames bool) (*Replay, error) {
	return m.replayAs(ctx, code, number, frames, sdk.Spectator)
}

func (m *Manager) replayAs(ctx context.Context, code string, number int, frames bool, viewer int) (*Replay, error) {
	sr, err := m.cfg.Store.RoomByCode(ctx, code)
	if err != nil {
		return nil, errf(KindNotFound, "no_room", "there is no room with code %q", code)
	}
	g, err := m.cfg.Store.GameByNumber(ctx, sr.ID, number)
	if err != nil {
		return nil, errf(KindNotFound, "no_game", "room %s has no game %d", sr.Code, number)
	}
	eng := m.engine(g.Ruleset)
	ok := eng != nil
	if !ok {
		return nil, errf(KindUnavailable, "no_ruleset", "ruleset %q is not available on this server", g.Ruleset)
	}
	recs, err := m.cfg.Store.Actions(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	out := &Replay{Room: sr.Code, Game: g.Number, Ruleset: g.Ruleset, Seats: g.Seats, Status: g.Status, Log: []LoggedAction{}}
	var opts map[string]any
	if err := json.Unmarshal([]byte(g.Options), &opts); err != nil {
		return nil, fmt.Errorf("game %d: reading its options: %w", g.Number, err)
	}
	if frames && len(recs) > MaxFrames {
		return nil, errf(KindConflict, "replay_too_long", "game %d of room %s has %d actions; a replay shows at most %d", g.Number, sr.Code, len(recs), MaxFrames)
	}
	rules, err := m.gameHouseRules(ctx, g)
	if err != nil {
		return nil, err
	}
	for _, r := range rules {
		out.HouseRules = append(out.HouseRules, fmt.Sprintf("%s v%d", r.Name, r.Version))
	}
	step, err := eng.NewGame(ctx, &engine.NewGameRequest{Seats: g.Seats, Options: opts, Seed: uint64(g.Seed), Opener: passedOpener(g), Now: g.StartNow, NoViews: !frames, HouseRules: rules})
	if err != nil {
		return nil, fmt.Errorf("replaying game %d: starting it: %w", g.Number, err)
	}
	// The stored state is that of the game's first g.Seq actions (states are stored every few
	// actions): the replay must reach it there.
	out.Matches = g.Seq == 0 && bytes.Equal(step.State, g.State)
	if viewer != sdk.Spectator && (viewer < 0 || viewer >= g.Seats) {
		return nil, errf(KindInvalid, "bad_seat", "game %d has seats 0 to %d, not %d", g.Number, g.Seats-1, viewer)
	}
	frame := func(seq int, st *engine.Step) {
		if !frames {
			return
		}
		v := st.Spectator
		if viewer != sdk.Spectator && viewer < len(st.Views) {
			v = st.Views[viewer]
		}
		out.Frames = append(out.Frames, Frame{Seq: seq, View: json.RawMessage(bytes.Clone(v))})
	}
	frame(0, step)
	for _, rec := range recs {
		var a sdk.Action
		if err := json.Unmarshal([]byte(rec.Action), &a); err != nil {
			return nil, fmt.Errorf("replaying game %d: action %d is unreadable: %w", g.Number, rec.Seq, err)
		}
		out.Log = append(out.Log, LoggedAction{Seq: rec.Seq, Seat: rec.Seat, Action: a, Now: rec.Now})
		if step, err = eng.Act(ctx, &engine.ActRequest{State: step.State, Action: a, Now: rec.Now, NoViews: !frames}); err != nil {
			return nil, fmt.Errorf("replaying game %d: action %d (%s of seat %d): %w", g.Number, rec.Seq, a.Type, a.Seat, err)
		}
		frame(rec.Seq, step)
		if rec.Seq == g.Seq {
			out.Matches = bytes.Equal(step.State, g.State)
		}
	}
	out.Final = step.Status
	return out, nil
}
