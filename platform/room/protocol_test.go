package room

import (
	"bytes"
	"encoding/json"
	"testing"

	"cardhouse/sdk"
)

// viewMessage writes exactly what encode writes for a view message, without re-reading the view.
func TestViewMessageIsTheEncodedMessage(t *testing.T) {
	v := sdk.View{Ruleset: "x", Viewer: 1, Phase: sdk.PhasePlaying, Turn: 1,
		Zones:      []sdk.Zone{{ID: "hand.1", Kind: sdk.ZoneHand, Owner: 1, Cards: sdk.MustParseCards("AS"), Count: 1}},
		Indicators: []sdk.Indicator{{ID: "note", Label: `a "quoted" <b>label</b> & more`, Value: "é\u2028"}}}
	view := v.AppendJSON(nil)
	for _, c := range []struct {
		seat, game, seq int
		now             int64
		view            []byte
	}{
		{1, 3, 17, 1764417600123, view},
		{sdk.Spectator, 1, 0, 1, view},
		{0, 0, 0, 0, nil},
		{2, 12, 400, -5, []byte(`{}`)},
	} {
		seat, seq := c.seat, c.seq
		want := encode(Outgoing{Type: MsgView, Seat: &seat, Game: c.game, Seq: &seq, View: c.view, Now: c.now})
		got := viewMessage(c.seat, c.game, c.seq, c.now, c.view)
		if !bytes.Equal(got, want) {
			t.Errorf("viewMessage(%d, %d, %d, %d):\n got %s\nwant %s", c.seat, c.game, c.seq, c.now, got, want)
		}
		if !json.Valid(got) {
			t.Errorf("not JSON: %s", got)
		}
	}
}

// TestPatchMessage: a patch message says only what the connection does not know
// (docs/protocol.md, "The patch message"): no v and no game; the seat only when asked (several
// views held), the base only when it is not seq-1, the clock only when the deadlines change.
func TestPatchMessage(t *testing.T) {
	const now = 1_800_000_042_000
	turn := []byte(`{"turn":2}`)
	deadlines := []byte(`{"deadlines":{"last_card.1":{"at":1800000047000}}}`)
	for _, c := range []struct {
		name            string
		seat, base, seq int
		withSeat        bool
		patch           []byte
		want            string
	}{
		{"the usual", 1, 41, 42, false, turn, `{"type":"patch","seq":42,"patch":{"turn":2}}`},
		{"several views held", 1, 41, 42, true, turn, `{"type":"patch","seat":1,"seq":42,"patch":{"turn":2}}`},
		{"a base further back", -1, 39, 42, false, turn, `{"type":"patch","seq":42,"base":39,"patch":{"turn":2}}`},
		{"the deadlines change", 0, 41, 42, false, deadlines, `{"type":"patch","seq":42,"patch":{"deadlines":{"last_card.1":{"at":1800000047000}}},"now":1800000042000}`},
	} {
		got := appendPatchMessage(nil, c.seat, c.base, c.seq, patchClock(c.patch, now), c.withSeat, c.patch)
		if string(got) != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		if !json.Valid(got) {
			t.Errorf("%s: not JSON: %s", c.name, got)
		}
	}
	if got := string(acceptedMessage(ProtocolPatches, "c12", new(int))); got != `{"type":"accepted","id":"c12","seq":0}` {
		t.Errorf("v2 accepted: %s", got)
	}
	if got := string(acceptedMessage(ProtocolVersion, "c12", nil)); got != `{"v":1,"type":"accepted","id":"c12"}` {
		t.Errorf("v1 accepted: %s", got)
	}
}
