package adapter

import (
	"sync"

	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// The host reads most of a plugin's replies with proto.Unmarshal, which copies every bytes field
// out of the frame into an allocation of its own. For a step those are the new state and every
// seat's view, about 12 KiB per action and most of the host's garbage. decodeReply gathers a
// step's views instead into one recycled buffer, the transit, and the caller moves them from
// there into the buffer it passed as engine.ActRequest.ViewBuf (ownViews). A room that alternates two
// such buffers then allocates nothing for its views. The state is still copied: the host keeps it.

// Field numbers of the messages decodeReply reads itself (ruleset.proto).
const (
	replyID       = 1  // Reply.id
	replyStep     = 3  // Reply.step
	stepViews     = 4  // StepResponse.views
	stepSpectator = 5  // StepResponse.spectator
	stepPatches   = 8  // StepResponse.patches
	stepSpecPatch = 9  // StepResponse.spectator_patch
	stepActions   = 11 // StepResponse.actions
)

// transitMaxKeep bounds the transit buffers kept for reuse; a larger one (a huge step) is left to
// the collector.
const transitMaxKeep = 1 << 20

// transits recycles the buffers a step's views cross in, from the frame to their owner.
var transits = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// decodeReply decodes the frame b into r as proto.Unmarshal does (unknown fields dropped), except
// that a step's views and spectators' view lie in a transit buffer, returned (nil when there are
// none), which the caller gives back with ownViews once it no longer needs them. Any reply that
// is not a plain step goes through proto.Unmarshal.
func decodeReply(b []byte, r *pb.Reply) (*[]byte, error) {
	id, step, ok := splitStepReply(b)
	if !ok {
		return nil, proto.Unmarshal(b, r)
	}
	s := new(pb.StepResponse)
	transit, err := decodeStep(step, s)
	if err != nil {
		return nil, err
	}
	r.Id, r.Response = id, &pb.Reply_Step{Step: s}
	return transit, nil
}

// splitStepReply finds the id and the step of a Reply that holds only those, each at most once;
// anything else (another response, an unknown field, a malformed frame) is not ok and left to
// proto.Unmarshal, which merges repeated fields and reports errors as the protocol defines.
func splitStepReply(b []byte) (id uint64, step []byte, ok bool) {
	seenID := false
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, nil, false
		}
		b = b[n:]
		switch {
		case num == replyID && typ == protowire.VarintType && !seenID:
			if id, n = protowire.ConsumeVarint(b); n < 0 {
				return 0, nil, false
			}
			seenID = true
		case num == replyStep && typ == protowire.BytesType && step == nil:
			if step, n = protowire.ConsumeBytes(b); n < 0 {
				return 0, nil, false
			}
			if step == nil {
				step = []byte{} // present but empty: an empty step
			}
		default:
			return 0, nil, false
		}
		b = b[n:]
	}
	return id, step, step != nil
}

// decodeStep decodes a StepResponse into s. Its fields other than the views and the patches go
// through proto.Unmarshal (merging, in runs between those, as one message would); the views are
// gathered into a transit buffer, each a full slice of its own part of it, and the patches and
// the seats' open actions (a lean step's, which the host keeps) into one allocation of their own
// rather than one each.
func decodeStep(b []byte, s *pb.StepResponse) (*[]byte, error) {
	var spans [10][]byte // the views as they lie in the frame; more seats grow it
	views := spans[:0]
	var spectator []byte
	var keptSpans [12]keptField // the patches and actions as they lie in the frame
	kept := keptSpans[:0]
	merge := proto.UnmarshalOptions{Merge: true, DiscardUnknown: true} // the host reads no unknown field
	run := 0                                                           // start of the fields not yet decoded
	for at := 0; at < len(b); {
		num, typ, n := protowire.ConsumeTag(b[at:])
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		ours := false
		switch num {
		case stepViews, stepSpectator, stepPatches, stepSpecPatch, stepActions:
			ours = typ == protowire.BytesType
		}
		if ours {
			v, m := protowire.ConsumeBytes(b[at+n:])
			if m < 0 {
				return nil, protowire.ParseError(m)
			}
			if at > run {
				if err := merge.Unmarshal(b[run:at], s); err != nil {
					return nil, err
				}
			}
			switch num {
			case stepViews:
				views = append(views, v)
			case stepSpectator:
				spectator = v // a singular field: the last one wins
			default:
				kept = append(kept, keptField{num, v})
			}
			at += n + m
			run = at
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b[at+n:])
		if m < 0 {
			return nil, protowire.ParseError(m)
		}
		at += n + m
	}
	if run < len(b) {
		if err := merge.Unmarshal(b[run:], s); err != nil {
			return nil, err
		}
	}
	placeKept(s, kept)
	if len(views) == 0 && len(spectator) == 0 {
		return nil, nil
	}
	transit := transits.Get().(*[]byte)
	*transit = placeViews(s, *transit, views, spectator)
	return transit, nil
}

// ownViews moves the views of s out of transit into into, from its start, when its capacity is
// enough (the contract of engine.ActRequest.ViewBuf), else into one new buffer, and gives transit
// back. A nil transit (the views were decoded by proto.Unmarshal) leaves s as it is.
func ownViews(s *pb.StepResponse, transit *[]byte, into []byte) {
	if transit == nil {
		return
	}
	placeViews(s, into, s.Views, s.Spectator)
	releaseTransit(transit)
}

// placeViews writes views and then spectator into buf, from its start (into a new buffer when
// buf is too small), and points s's views at them, each a full slice of its own part. An empty
// spectators' view is nil, as proto3 reads an empty singular bytes field. It returns the buffer
// written.
func placeViews(s *pb.StepResponse, buf []byte, views [][]byte, spectator []byte) []byte {
	size := len(spectator)
	for _, v := range views {
		size += len(v)
	}
	buf = buf[:0]
	if cap(buf) < size {
		buf = make([]byte, 0, size)
	}
	if len(s.Views) != len(views) {
		s.Views = make([][]byte, len(views))
	}
	for i, v := range views {
		start := len(buf)
		buf = append(buf, v...)
		s.Views[i] = buf[start:len(buf):len(buf)]
	}
	s.Spectator = nil
	if len(spectator) > 0 {
		start := len(buf)
		buf = append(buf, spectator...)
		s.Spectator = buf[start:len(buf):len(buf)]
	}
	return buf
}

// releaseTransit gives a transit buffer back; an outsized one is left to the collector.
func releaseTransit(transit *[]byte) {
	if transit != nil && cap(*transit) <= transitMaxKeep {
		*transit = (*transit)[:0]
		transits.Put(transit)
	}
}

// keptField is a patch or an open-actions field of a step as it lies in the frame.
type keptField struct {
	num protowire.Number
	v   []byte
}

// placeKept copies the patches and open actions of a step into one allocation and points s's
// fields at them (repeated fields in order, the spectators' patch the last given), each a full
// slice of its own part, as proto.Unmarshal would set them.
func placeKept(s *pb.StepResponse, kept []keptField) {
	if len(kept) == 0 {
		return
	}
	size := 0
	for _, k := range kept {
		size += len(k.v)
	}
	buf := make([]byte, 0, size)
	for _, k := range kept {
		start := len(buf)
		buf = append(buf, k.v...)
		v := buf[start:len(buf):len(buf)]
		switch k.num {
		case stepPatches:
			s.Patches = append(s.Patches, v)
		case stepSpecPatch:
			s.SpectatorPatch = v
		case stepActions:
			s.Actions = append(s.Actions, v)
		}
	}
}
