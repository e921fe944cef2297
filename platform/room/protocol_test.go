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
