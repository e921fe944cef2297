package room

import (
	"encoding/json"
	"testing"
)

// acceptedByMarshal is the v2 accepted message as json.Marshal writes it: what acceptedMessage
// writes by hand must be byte for byte the same.
func acceptedByMarshal(id string, seq *int) []byte {
	b, err := json.Marshal(struct {
		Type string `json:"type"`
		ID   string `json:"id,omitempty"`
		Seq  *int   `json:"seq,omitempty"`
	}{MsgAccepted, id, seq})
	if err != nil {
		panic(err)
	}
	return b
}

func TestAcceptedMessageIsMarshals(t *testing.T) {
	ids := []string{"", "c12", "a\"b\\c", "<script>&", "tab\tnl\nctl\x01\x1f", "é漢字🂡", "bad\xffutf8\xc3", "line\u2028sep\u2029", string(make([]byte, 300))}
	seqs := []*int{nil, new(int), func() *int { n := 123456789; return &n }(), func() *int { n := -3; return &n }()}
	for _, id := range ids {
		for _, seq := range seqs {
			want, got := acceptedByMarshal(id, seq), acceptedMessage(ProtocolPatches, id, seq)
			if string(got) != string(want) {
				t.Errorf("id %q seq %v:\n got %s\nwant %s", id, seq, got, want)
			}
		}
	}
}

// BenchmarkAcceptedMessage: impl=marshal is the encoding before (json.Marshal of the struct),
// impl=direct acceptedMessage's.
func BenchmarkAcceptedMessage(b *testing.B) {
	seq := 1234
	for _, c := range []struct {
		name string
		f    func() []byte
	}{{"impl=marshal", func() []byte { return acceptedByMarshal("c1234", &seq) }},
		{"impl=direct", func() []byte { return acceptedMessage(ProtocolPatches, "c1234", &seq) }}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = c.f()
			}
		})
	}
}
