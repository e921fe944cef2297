package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"cardhouse/platform/room"
	"cardhouse/sdk"
)

// TestCheapParseReadsServerMessages holds the players' hand-rolled parsing to the server's own
// encoding of its messages (room.Outgoing): the type, the view's seat, game and seq, the view's
// bytes, its phase and whether actions are open.
func TestCheapParseReadsServerMessages(t *testing.T) {
	t.Parallel()
	view := sdk.View{Ruleset: "lastcard", Viewer: 2, Phase: sdk.PhasePlaying, Turn: 2,
		Players: []sdk.PlayerView{{Seat: 0, HandCount: 7}}, Zones: []sdk.Zone{{ID: "pile", Kind: sdk.ZonePile, Owner: -1, Count: 3}},
		Actions: []sdk.ActionSpec{{Type: sdk.ActDraw, Label: "Draw"}}}
	raw := view.AppendJSON(nil)
	over := sdk.View{Ruleset: "hotspot", Viewer: -1, Phase: sdk.PhaseGameOver, Winner: 1}
	rawOver := over.AppendJSON(nil)
	seat, spec, seq, zero := 2, -1, 41, 0
	for _, tc := range []struct {
		name          string
		msg           room.Outgoing
		seat, seq     int
		game          int
		view          []byte
		phase         string
		actionsOpened bool
	}{
		{"seat view", room.Outgoing{V: 1, Type: room.MsgView, Seat: &seat, Game: 3, Seq: &seq, View: raw, Now: 1_800_000_000_123}, 2, 41, 3, raw, sdk.PhasePlaying, true},
		{"spectators' view, seq 0", room.Outgoing{V: 1, Type: room.MsgView, Seat: &spec, Game: 12, Seq: &zero, View: rawOver, Now: 5}, -1, 0, 12, rawOver, sdk.PhaseGameOver, false},
		{"no clock", room.Outgoing{V: 1, Type: room.MsgView, Seat: &seat, Game: 1, Seq: &seq, View: raw}, 2, 41, 1, raw, sdk.PhasePlaying, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.Marshal(tc.msg)
			if err != nil {
				t.Fatal(err)
			}
			if got := messageType(data); got != room.MsgView {
				t.Errorf("type %q, want view", got)
			}
			s, g, q, v, ok := viewHeader(data)
			if !ok || s != tc.seat || g != tc.game || q != tc.seq || string(v) != string(tc.view) {
				t.Fatalf("viewHeader = %d %d %d %s %v, want %d %d %d %s", s, g, q, v, ok, tc.seat, tc.game, tc.seq, tc.view)
			}
			if p := viewPhase(v); p != tc.phase {
				t.Errorf("phase %q, want %q", p, tc.phase)
			}
			if got := bytes.Contains(v, []byte(`"actions":[`)); got != tc.actionsOpened {
				t.Errorf("actions open: %v, want %v", got, tc.actionsOpened)
			}
		})
	}
	for _, typ := range []string{room.MsgAccepted, room.MsgError, room.MsgRoom, room.MsgHello, room.MsgBye} {
		data, _ := json.Marshal(room.Outgoing{V: 1, Type: typ, ID: "a1", Code: "x"})
		if got := messageType(data); got != typ {
			t.Errorf("type of %s = %q", data, got)
		}
	}
	if got := messageType([]byte(`{"type":"pong","v":1}`)); got != room.MsgPong {
		t.Errorf("type of a message in another field order = %q, want pong", got)
	}
}

// TestLatencyPercentiles checks the nearest-rank percentiles on known samples: 1 to 100 ms.
func TestLatencyPercentiles(t *testing.T) {
	t.Parallel()
	var s []int32
	for i := 100; i >= 1; i-- {
		s = append(s, int32(i*1000))
	}
	got := latencyOf(s)
	want := Latency{Samples: 100, Mean: 50.5, P50: 50, P95: 95, P99: 99, Max: 100}
	if got != want {
		t.Errorf("latencyOf(1..100 ms) = %+v, want %+v", got, want)
	}
	if one := latencyOf([]int32{2500}); one.P50 != 2.5 || one.P99 != 2.5 || one.Max != 2.5 {
		t.Errorf("one sample of 2.5 ms: %+v", one)
	}
	if none := latencyOf(nil); none != (Latency{}) {
		t.Errorf("no sample: %+v", none)
	}
}

func TestParseCommitCounts(t *testing.T) {
	metrics := `# HELP cardhouse_commit_actions_total Actions stored by the group committer.
# TYPE cardhouse_commit_actions_total counter
cardhouse_commit_actions_total 1.234567e+06
# HELP cardhouse_commit_batches_total Transactions of the group committer.
# TYPE cardhouse_commit_batches_total counter
cardhouse_commit_batches_total 400000
cardhouse_commit_retried_total 3
cardhouse_actions_total{result="accepted",ruleset="lastcard"} 99
`
	c, err := parseCommitCounts(strings.NewReader(metrics))
	if err != nil || c.batches != 400000 || c.actions != 1234567 {
		t.Fatalf("parsed %+v, %v; want 400000 batches and 1234567 actions", c, err)
	}
	if _, err := parseCommitCounts(strings.NewReader("cardhouse_commit_batches_total 4\n")); err == nil {
		t.Fatal("metrics without the actions counter parsed")
	}
	if _, err := parseCommitCounts(strings.NewReader("cardhouse_commit_batches_total x\ncardhouse_commit_actions_total 1\n")); err == nil {
		t.Fatal("a counter that is not a number parsed")
	}
}
