package adapter

import (
	"bytes"
	"testing"

	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// field appends one length-delimited field.
func field(b []byte, num protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
}

func mustMarshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// stepFrame is a Reply holding step, as raw bytes: the step's fields in the given order.
func stepFrame(id uint64, step []byte) []byte {
	b := protowire.AppendVarint(protowire.AppendTag(nil, replyID, protowire.VarintType), id)
	return field(b, replyStep, step)
}

func TestDecodeReplyMatchesProto(t *testing.T) {
	t.Parallel()
	status := mustMarshal(t, &pb.Status{Phase: "playing", Seats: 4, Turn: 2, Actors: []int32{2}})
	otherStatus := mustMarshal(t, &pb.Status{Round: 3})
	refusal := mustMarshal(t, &pb.Error{Kind: &pb.Error_Refusal{Refusal: &pb.Refusal{Code: "not_your_turn", Reason: "wait"}}})
	event := mustMarshal(t, &pb.Event{Name: "played", Seat: 1, Cards: []uint32{5, 9}, Data: map[string]string{"k": "v"}})
	eventsSet := protowire.AppendVarint(protowire.AppendTag(nil, 7, protowire.VarintType), 1)
	unknown := protowire.AppendVarint(protowire.AppendTag(nil, 99, protowire.VarintType), 5)

	var raw []byte // the step's fields in an order of its own: views between the others
	raw = field(raw, 1, []byte("state-1"))
	raw = field(raw, stepViews, []byte(`{"v":0}`))
	raw = field(raw, 3, status)
	raw = field(raw, stepViews, nil) // an empty view stays an (empty) view
	raw = field(raw, stepSpectator, []byte(`{"first":1}`))
	raw = append(raw, unknown...)
	raw = field(raw, 6, event)
	raw = field(raw, stepViews, []byte(`{"v":2}`))
	raw = field(raw, 3, otherStatus) // a message field given twice merges
	raw = field(raw, stepSpectator, []byte(`{"last":1}`))
	raw = field(raw, 1, []byte("state-2")) // a singular field given twice: the last wins
	raw = append(raw, eventsSet...)
	raw = field(raw, stepPatches, []byte(`{"p":0}`))
	raw = field(raw, stepActions, nil) // an empty entry stays an entry
	raw = field(raw, stepSpecPatch, []byte(`{"first":1}`))
	raw = field(raw, 1, []byte("state-3"))
	raw = field(raw, stepPatches, []byte(`{"p":1}`))
	raw = field(raw, stepActions, []byte(`[{"type":"draw"}]`))
	raw = field(raw, stepSpecPatch, []byte(`{"last":1}`))

	cases := []struct {
		name  string
		frame []byte
		views bool // a transit buffer is expected
	}{
		{"a step as the plugin sends it", mustMarshal(t, &pb.Reply{Id: 7, Response: &pb.Reply_Step{Step: &pb.StepResponse{
			State: []byte("state"), Status: &pb.Status{Phase: "playing", Seats: 2},
			Views: [][]byte{[]byte(`{"seat":0}`), []byte(`{"seat":1}`)}, Spectator: []byte(`{"seat":-1}`),
			Events: []*pb.Event{{Name: "drew", Seat: 1, Count: 2}}, EventsSet: true}}}), true},
		{"views without a spectators' view", mustMarshal(t, &pb.Reply{Id: 8, Response: &pb.Reply_Step{Step: &pb.StepResponse{
			State: []byte("s"), Views: [][]byte{[]byte(`{}`)}}}}), true},
		{"a lean step: patches and actions, no views", mustMarshal(t, &pb.Reply{Id: 19, Response: &pb.Reply_Step{Step: &pb.StepResponse{
			Status: &pb.Status{Phase: "playing", Seats: 2}, Patches: [][]byte{[]byte(`{"turn":1}`), []byte(`{}`)}, SpectatorPatch: []byte(`{"turn":1}`),
			Actions: [][]byte{nil, []byte(`[{"type":"draw"}]`)}, Events: []*pb.Event{{Name: "drew", Seat: 1, Count: 1}}, EventsSet: true}}}), false},
		{"no views", mustMarshal(t, &pb.Reply{Id: 9, Response: &pb.Reply_Step{Step: &pb.StepResponse{State: []byte("s"), EventsSet: true}}}), false},
		{"a refusal", mustMarshal(t, &pb.Reply{Id: 10, Response: &pb.Reply_Step{Step: &pb.StepResponse{Error: &pb.Error{Kind: &pb.Error_Refusal{Refusal: &pb.Refusal{Code: "x"}}}}}}), false},
		{"an empty step", stepFrame(11, nil), false},
		{"fields out of order, repeated and unknown", stepFrame(12, raw), true},
		{"a refusal after views", stepFrame(13, field(field(nil, stepViews, []byte("v")), 15, refusal)), true},
		{"an empty spectators' view only", stepFrame(14, field(nil, stepSpectator, nil)), false},
		{"an inspection (proto.Unmarshal)", mustMarshal(t, &pb.Reply{Id: 15, Response: &pb.Reply_Inspect{Inspect: &pb.InspectResponse{
			Views: [][]byte{[]byte(`{}`)}, Spectator: []byte(`{}`)}}}), false},
		{"a status (proto.Unmarshal)", mustMarshal(t, &pb.Reply{Id: 16, Response: &pb.Reply_Status{Status: &pb.CallStatus{Code: 4, Message: "late"}}}), false},
		{"the id after the step", append(field(nil, replyStep, field(nil, stepViews, []byte("v"))), protowire.AppendVarint(protowire.AppendTag(nil, replyID, protowire.VarintType), 17)...), true},
		{"two steps (proto.Unmarshal merges them)", append(stepFrame(18, field(nil, stepViews, []byte("a"))), field(nil, replyStep, field(nil, stepViews, []byte("b")))...), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Unknown fields are dropped rather than kept: compare without them.
			want := new(pb.Reply)
			if err := (proto.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(c.frame, want); err != nil {
				t.Fatal(err)
			}
			frame := bytes.Clone(c.frame)
			got := new(pb.Reply)
			transit, err := decodeReply(frame, got)
			if err != nil {
				t.Fatal(err)
			}
			if (transit != nil) != c.views {
				t.Fatalf("transit buffer %v, want one: %v", transit != nil, c.views)
			}
			if !proto.Equal(want, got) {
				t.Fatalf("decoded\n%v\nwant (proto.Unmarshal)\n%v", got, want)
			}
			if s := got.GetStep(); s != nil {
				if (s.Spectator == nil) != (want.GetStep().Spectator == nil) {
					t.Errorf("spectators' view %q, proto.Unmarshal gives %q", s.Spectator, want.GetStep().Spectator)
				}
				for i, v := range s.Views { // a full slice each, as they share the transit buffer
					if v == nil || (transit != nil && cap(v) != len(v)) {
						t.Errorf("view %d: len %d cap %d nil %v, want a full, non-nil slice", i, len(v), cap(v), v == nil)
					}
				}
			}
			// Nothing decoded refers to the frame: it is the socket's read buffer.
			clear(frame)
			if !proto.Equal(want, got) {
				t.Fatalf("clearing the frame changed the reply: %v", got)
			}
		})
	}
}

func TestDecodeReplyErrors(t *testing.T) {
	t.Parallel()
	good := mustMarshal(t, &pb.Reply{Id: 1, Response: &pb.Reply_Step{Step: &pb.StepResponse{
		State: []byte("state"), Status: &pb.Status{Phase: "playing"}, Views: [][]byte{[]byte("view")}}}})
	for _, frame := range [][]byte{
		good[:len(good)-2],                                   // cut short
		stepFrame(2, []byte{0x22, 0x09, 'v'}),                // a view longer than the step
		stepFrame(3, field(nil, 3, []byte{0x0a, 0x05, 'x'})), // a status cut short
		stepFrame(4, []byte{0xff}),                           // a bad tag
	} {
		if err := proto.Unmarshal(frame, new(pb.Reply)); err == nil {
			t.Fatalf("proto.Unmarshal accepts %x: not a bad frame", frame)
		}
		if transit, err := decodeReply(frame, new(pb.Reply)); err == nil {
			t.Errorf("decodeReply accepts %x (transit %v), proto.Unmarshal does not", frame, transit != nil)
		}
	}
}

func TestOwnViews(t *testing.T) {
	t.Parallel()
	frame := mustMarshal(t, &pb.Reply{Id: 1, Response: &pb.Reply_Step{Step: &pb.StepResponse{
		Views: [][]byte{[]byte("seat zero"), []byte("one")}, Spectator: []byte("spectators")}}})
	const size = len("seat zero") + len("one") + len("spectators")
	for _, c := range []struct {
		name   string
		into   []byte
		inside bool
	}{
		{"into a buffer large enough", make([]byte, 0, size), true},
		{"a buffer too small", make([]byte, 3, size-1), false},
		{"no buffer", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := new(pb.Reply)
			transit, err := decodeReply(frame, r)
			if err != nil || transit == nil {
				t.Fatalf("decode: %v, transit %v", err, transit)
			}
			s := r.GetStep()
			ownViews(s, transit, c.into)
			want := [][]byte{[]byte("seat zero"), []byte("one"), []byte("spectators")}
			got := append(append([][]byte(nil), s.Views...), s.Spectator)
			for i := range want {
				if !bytes.Equal(got[i], want[i]) || cap(got[i]) != len(got[i]) {
					t.Fatalf("view %d is %q (cap %d), want %q as a full slice", i, got[i], cap(got[i]), want[i])
				}
			}
			if inside := cap(c.into) > 0 && &got[0][0] == &c.into[:1][0]; inside != c.inside {
				t.Errorf("views in the given buffer: %v, want %v", inside, c.inside)
			}
			// The transit buffer went back to the pool: a later reply may reuse it.
			clear((*transit)[:cap(*transit)])
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("view %d changed with the transit buffer: %q", i, got[i])
				}
			}
		})
	}
}

// BenchmarkDecodeStep reads one Last Card-sized step reply (a 3.9 KiB state, four seats' views of
// 1.7 KiB, a status and two events) as the host did before (proto.Unmarshal) and does now
// (decodeReply, then ownViews into a room's buffer).
func BenchmarkDecodeStep(b *testing.B) {
	view := bytes.Repeat([]byte(`{"zone":"hand","cards":["R7","G2"]},`), 48)
	frame, err := proto.Marshal(&pb.Reply{Id: 42, Response: &pb.Reply_Step{Step: &pb.StepResponse{
		State:  bytes.Repeat([]byte("s"), 3900),
		Status: &pb.Status{Phase: "playing", Seats: 4, Turn: 1, Actors: []int32{1}},
		Views:  [][]byte{view, view, view, view},
		Events: []*pb.Event{{Name: "played", Seat: 0, Cards: []uint32{12}}, {Name: "turn", Seat: 1}}, EventsSet: true}}})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("proto.Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(frame)))
		for b.Loop() {
			if err := proto.Unmarshal(frame, new(pb.Reply)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decodeReply+ownViews", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(frame)))
		room := make([]byte, 0, 8<<10)
		for b.Loop() {
			r := new(pb.Reply)
			transit, err := decodeReply(frame, r)
			if err != nil {
				b.Fatal(err)
			}
			ownViews(r.GetStep(), transit, room)
		}
	})
}
