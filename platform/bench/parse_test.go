package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"cardhouse/platform/room"
	"cardhouse/rulesets/drugs"
	"cardhouse/rulesets/hotspot"
	"cardhouse/rulesets/lastcard"
	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"

	"github.com/coder/websocket"
	"github.com/google/go-cmp/cmp"
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

func TestParseMetrics(t *testing.T) {
	metrics := `# HELP cardhouse_commit_actions_total Actions stored by the group committer.
# TYPE cardhouse_commit_actions_total counter
cardhouse_commit_actions_total 1.234567e+06
# HELP cardhouse_commit_batches_total Transactions of the group committer.
# TYPE cardhouse_commit_batches_total counter
cardhouse_commit_batches_total 400000
cardhouse_commit_retried_total 3
cardhouse_actions_total{result="accepted",ruleset="lastcard"} 99
cardhouse_commit_wait_seconds_bucket{le="0.001"} 50
cardhouse_commit_wait_seconds_bucket{le="0.01"} 90
cardhouse_commit_wait_seconds_bucket{le="+Inf"} 100
cardhouse_commit_wait_seconds_sum 1.5
cardhouse_commit_wait_seconds_count 100
cardhouse_engine_call_seconds_bucket{op="act",result="ok",ruleset="lastcard",le="0.001"} 10
cardhouse_engine_call_seconds_bucket{op="act",result="ok",ruleset="lastcard",le="+Inf"} 10
cardhouse_engine_call_seconds_bucket{op="act",result="ok",ruleset="hotspot",le="0.001"} 5
cardhouse_engine_call_seconds_bucket{op="act",result="ok",ruleset="hotspot",le="+Inf"} 6
cardhouse_engine_call_seconds_bucket{op="new_game",result="ok",ruleset="lastcard",le="0.001"} 7
cardhouse_engine_call_seconds_bucket{op="new_game",result="ok",ruleset="lastcard",le="+Inf"} 7
`
	m, err := parseMetrics(strings.NewReader(metrics))
	if err != nil || m.batches != 400000 || m.actions != 1234567 {
		t.Fatalf("parsed %+v, %v; want 400000 batches and 1234567 actions", m, err)
	}
	commit := m.hists["commit wait"]
	if commit[0.001] != 50 || commit[0.01] != 90 || commit[math.Inf(1)] != 100 {
		t.Errorf("commit wait buckets %v", commit)
	}
	if call := m.hists["plugin act call"]; call[0.001] != 15 || call[math.Inf(1)] != 16 {
		t.Errorf("plugin act buckets (summed over rulesets, new_game left out) %v", call)
	}
	if _, ok := m.hists["act in the room"]; ok {
		t.Error("a histogram the server does not have was reported")
	}
	if _, err := parseMetrics(strings.NewReader("cardhouse_commit_batches_total 4\n")); err == nil {
		t.Fatal("metrics without the actions counter parsed")
	}
	if _, err := parseMetrics(strings.NewReader("cardhouse_commit_batches_total x\ncardhouse_commit_actions_total 1\n")); err == nil {
		t.Fatal("a counter that is not a number parsed")
	}
	if _, err := parseMetrics(strings.NewReader("cardhouse_commit_batches_total 1\ncardhouse_commit_actions_total 1\ncardhouse_act_seconds_bucket{le=\"x\"} 1\n")); err == nil {
		t.Fatal("a bucket bound that is not a number parsed")
	}
}

func TestHistogramStage(t *testing.T) {
	before := histogram{0.001: 10, 0.01: 10, math.Inf(1): 10}
	after := histogram{0.001: 60, 0.01: 108, math.Inf(1): 110}
	s := after.since(before).stage("x")
	// 100 observations in the window: 50 up to 1 ms, 48 in (1, 10] ms, 2 above.
	if s.Count != 100 || s.P50 != 1 || s.Over10ms != 0.02 {
		t.Errorf("stage %+v; want 100 observations, p50 1 ms, 2%% over 10 ms", s)
	}
	// The 99th is past the last finite bound: reported as that bound.
	if s.P99 != 10 {
		t.Errorf("p99 %.3f ms; want 10 (the last finite bound)", s.P99)
	}
	// Interpolated within a bucket: all 100 in (1, 2] ms, so the 50th is at 1.5 ms, the 99th at 1.99.
	if q := (histogram{0.001: 0, 0.002: 100, math.Inf(1): 100}).stage("y"); math.Abs(q.P50-1.5) > 1e-9 || math.Abs(q.P99-1.99) > 1e-9 || q.Over10ms != 0 {
		t.Errorf("interpolated %+v; want p50 1.5, p99 1.99, none over 10 ms", q)
	}
	if empty := (histogram{}).stage("z"); empty.Count != 0 || empty.P99 != 0 {
		t.Errorf("empty histogram: %+v", empty)
	}
}

// TestDecodeJSONMatchesStd holds the client's decoder (goccy/go-json) to encoding/json on every
// view of a game of each variant, from the deal to the end (or 400 steps): the same sdk.View
// from the same bytes, and an error for what is not JSON.
func TestDecodeJSONMatchesStd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, r := range []struct {
		e   engine.Engine
		bot sdk.Bots
	}{{engine.New(lastcard.New()), lastcard.New()}, {engine.New(hotspot.New()), hotspot.New()}, {engine.New(drugs.New()), drugs.New()}} {
		e := r.e
		d, err := e.Describe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(d.ID, func(t *testing.T) {
			views := 0
			compare := func(st *engine.Step) error {
				for seat, raw := range append(slices.Clone(st.Views), st.Spectator) {
					var want, got sdk.View
					if err := json.Unmarshal(raw, &want); err != nil {
						return fmt.Errorf("encoding/json cannot read the view: %w", err)
					}
					if err := decodeJSON(raw, &got); err != nil {
						return fmt.Errorf("decodeJSON cannot read the view: %w\n%s", err, raw)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						return fmt.Errorf("view %d: decodeJSON reads (-encoding/json +decodeJSON):\n%s", seat, diff)
					}
					views++
				}
				return nil
			}
			rng := sdk.NewRNG(11)
			res, err := botplay.Play(ctx, e, botplay.Config{Seats: 4, Seed: 7, Options: onlineOptions(d), Now: 1, Views: true, ThinkMS: 1, MaxSteps: 400,
				// Every seat is asked in seat order; a seat's bot reads the view as decodeJSON read it.
				Order: func(st sdk.Status) []int { return []int{0, 1, 2, 3} },
				Bot: func(ctx context.Context, t *botplay.Turn) (*sdk.Action, error) {
					var v sdk.View
					if err := decodeJSON(t.Step.Views[t.Seat], &v); err != nil || len(v.Actions) == 0 {
						return nil, err
					}
					return r.bot.Bot(ctx, sdk.BotRequest{Seat: t.Seat, Level: 1, View: v, RNG: &rng})
				},
				OnAct: func(_ context.Context, a botplay.Attempt) error {
					if a.Err != nil {
						return nil
					}
					if views == 0 { // the first action: the start's views too
						if err := compare(a.BeforeStep); err != nil {
							return fmt.Errorf("the start: %w", err)
						}
					}
					if err := compare(a.Step); err != nil {
						return fmt.Errorf("after %s: %w", botplay.Describe(a.Action), err)
					}
					return nil
				}})
			if err != nil {
				t.Fatalf("after %d steps: %v", res.Steps, err)
			}
			if views < 100 {
				t.Fatalf("only %d views compared", views)
			}
		})
	}
	var v sdk.View
	for _, bad := range []string{`{"phase":`, `{"zones":[{"cards":[7]}]}`, `not json`} {
		if json.Unmarshal([]byte(bad), &v) == nil {
			t.Fatalf("encoding/json reads %s", bad)
		}
		if decodeJSON([]byte(bad), &v) == nil {
			t.Errorf("decodeJSON reads %s, encoding/json does not", bad)
		}
	}
}

// TestDrainWaitsForTheHost checks the window's end: a room settles only once no action sent in
// the window waits for its answer and its host has read every view a player of the room read
// (otherwise an action accepted by one socket could miss the host's count of applied actions).
func TestDrainWaitsForTheHost(t *testing.T) {
	host, guest := &player{host: true}, &player{}
	rm := &benchRoom{players: []*player{host, guest}}
	host.lastGame, host.lastSeq, host.viewGame, host.viewSeq = 2, 10, 2, 10
	guest.viewGame, guest.viewSeq = 2, 11
	if !rm.settling() {
		t.Error("a guest read seq 11, the host only 10: the room should still settle")
	}
	host.lastSeq, host.viewSeq = 11, 11
	if rm.settling() {
		t.Error("the host has caught up and nothing is pending: the room should be settled")
	}
	guest.pending, guest.pendingPhase = "a7", phaseMeasure
	if !rm.settling() {
		t.Error("an act sent in the window waits for its answer: the room should still settle")
	}
	guest.pendingPhase = phaseWarmup
	if rm.settling() {
		t.Error("an act sent in the warm-up is not counted: the room should be settled")
	}
	guest.pending, guest.viewGame, guest.viewSeq = "", 3, 1
	if !rm.settling() {
		t.Error("a guest reads the next game's first view: the room should still settle")
	}
	drain(context.Background(), []*benchRoom{rm}, 20*time.Millisecond) // gives up at its limit
}

// TestClusterMetricsSummedOverNodes reads a cluster's series (cardhouse_cluster_*), sums them over
// labels and over the nodes, and leaves the histograms' buckets and the other series out.
func TestClusterMetricsSummedOverNodes(t *testing.T) {
	t.Parallel()
	node := func(relayed, renewals float64) serverMetrics {
		m, err := parseMetrics(strings.NewReader(fmt.Sprintf(`cardhouse_commit_batches_total 10
cardhouse_commit_actions_total 20
# TYPE cardhouse_cluster_relayed_sockets gauge
cardhouse_cluster_relayed_sockets{side="edge"} 2
cardhouse_cluster_relayed_sockets{side="owner"} 3
cardhouse_cluster_relayed_frames_total{dir="in"} %g
cardhouse_cluster_relayed_frames_total{dir="out"} 1
cardhouse_cluster_lease_renewals_total %g
cardhouse_cluster_bus_request_seconds_bucket{le="0.001"} 7
cardhouse_cluster_bus_request_seconds_count 7
cardhouse_connections 12
cardhouse_room_busy_total 3
cardhouse_node_restarts_total 1
go_goroutines 40
`, relayed, renewals)))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	var sum serverMetrics
	sum.add(node(4, 2))
	sum.add(node(5, 3))
	want := map[string]float64{"cardhouse_cluster_relayed_frames_total": 11, "cardhouse_cluster_lease_renewals_total": 5, "cardhouse_cluster_bus_request_seconds_count": 14,
		"cardhouse_cluster_relayed_sockets": 10}
	if diff := cmp.Diff(want, sum.cluster); diff != "" {
		t.Errorf("cluster series (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]bool{"cardhouse_cluster_relayed_sockets": true}, sum.gauges); diff != "" {
		t.Errorf("gauges (-want +got):\n%s", diff)
	}
	// Over a window a count reads as its change, a gauge as its level.
	var res Result
	later := sum
	later.cluster = map[string]float64{"cardhouse_cluster_relayed_frames_total": 15, "cardhouse_cluster_lease_renewals_total": 5, "cardhouse_cluster_bus_request_seconds_count": 20,
		"cardhouse_cluster_relayed_sockets": 10}
	res.readMetrics([]*serverMetrics{&sum}, []*serverMetrics{&later}, io.Discard)
	if diff := cmp.Diff(map[string]float64{"cardhouse_cluster_relayed_frames_total": 4, "cardhouse_cluster_bus_request_seconds_count": 6, "cardhouse_cluster_relayed_sockets": 10}, res.ClusterMetrics); diff != "" {
		t.Errorf("the window's cluster figures (-want +got):\n%s", diff)
	}
	if sum.batches != 20 || sum.actions != 40 {
		t.Errorf("summed commits: %v batches, %v actions; want 20, 40", sum.batches, sum.actions)
	}
}

// TestReconnectable holds which ends of a socket the players reconnect after: the server going
// away (a node stopping, a room moving) and a socket dropped without a close frame; not a close
// the server meant (a policy close for a slow client, a kick) nor a normal one.
func TestReconnectable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"going away", websocket.CloseError{Code: websocket.StatusGoingAway, Reason: "server shutting down"}, true},
		{"dropped", fmt.Errorf("failed to get reader: %w", io.ErrUnexpectedEOF), true},
		{"policy", websocket.CloseError{Code: websocket.StatusPolicyViolation, Reason: "too slow"}, false},
		{"normal", websocket.CloseError{Code: websocket.StatusNormalClosure}, false},
		{"internal error", fmt.Errorf("reading: %w", websocket.CloseError{Code: websocket.StatusInternalError}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := reconnectable(tc.err); got != tc.want {
				t.Errorf("reconnectable(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

// TestPatchHeader reads the patch messages of protocol v2 as the server writes them: seq always,
// base only when it is not seq-1, now only when the deadlines changed.
func TestPatchHeader(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		msg, patch string
		base, seq  int
	}{
		{`{"type":"patch","seq":42,"patch":{"turn":2}}`, `{"turn":2}`, 41, 42},
		{`{"type":"patch","seq":42,"base":40,"patch":{"turn":2,"events":[{"name":"now"}]}}`, `{"turn":2,"events":[{"name":"now"}]}`, 40, 42},
		{`{"type":"patch","seat":1,"seq":7,"patch":{"deadlines":{"turn":{"at":9}}},"now":1800000000000}`, `{"deadlines":{"turn":{"at":9}}}`, 6, 7},
	} {
		if got := messageType([]byte(tc.msg)); got != room.MsgPatch {
			t.Errorf("type of %s = %q", tc.msg, got)
		}
		base, seq, patch, ok := patchHeader([]byte(tc.msg))
		if !ok || base != tc.base || seq != tc.seq || string(patch) != tc.patch {
			t.Errorf("patchHeader(%s) = %d %d %s %v, want %d %d %s", tc.msg, base, seq, patch, ok, tc.base, tc.seq, tc.patch)
		}
	}
}
