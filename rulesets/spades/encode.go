package spades

import (
	"strconv"

	"cardhouse/sdk"
)

var _ sdk.StateAppender[*State] = (*Rules)(nil)

// AppendState appends s's JSON to b, byte for byte what json.Marshal writes for it (the engine
// stores every new state with it; the conformance kit checks it against json.Marshal).
func (r *Rules) AppendState(b []byte, s *State) []byte {
	b = appendInt(b, `{"target":`, s.Target)
	b = append(b, `,"mercy":`...)
	b = strconv.AppendBool(b, s.Mercy)
	b = append(b, `,"blind_nil":`...)
	b = strconv.AppendBool(b, s.BlindNil)
	b = append(b, `,"hands":`...)
	if s.Hands == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, h := range s.Hands {
			if i > 0 {
				b = append(b, ',')
			}
			b = sdk.AppendCardsJSON(b, h)
		}
		b = append(b, ']')
	}
	if len(s.Done) > 0 {
		b = append(b, `,"done":[`...)
		for i, t := range s.Done {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendTrick(b, t)
		}
		b = append(b, ']')
	}
	if s.Cur != nil {
		b = append(b, `,"cur":`...)
		b = appendTrick(b, *s.Cur)
	}
	if len(s.Out) > 0 {
		b = append(b, `,"out":`...)
		b = sdk.AppendCardsJSON(b, s.Out)
	}
	b = append(b, `,"stage":`...)
	b = sdk.AppendJSONString(b, s.Stage)
	b = appendInt(b, `,"dealer":`, s.Dealer)
	b = appendInt(b, `,"turn":`, s.Turn)
	b = append(b, `,"bids":`...)
	b = sdk.AppendIntsJSON(b, s.Bids)
	b = append(b, `,"looked":`...)
	b = sdk.AppendBoolsJSON(b, s.Looked)
	if s.Broken {
		b = append(b, `,"broken":true`...)
	}
	b = appendInt(b, `,"scores":[`, s.Scores[0])
	b = appendInt(b, `,`, s.Scores[1])
	b = appendInt(b, `],"bags":[`, s.Bags[0])
	b = appendInt(b, `,`, s.Bags[1])
	b = append(b, ']')
	if len(s.Sheet) > 0 {
		b = append(b, `,"sheet":[`...)
		for i, h := range s.Sheet {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInt(b, `{"points":[`, h.Points[0])
			b = appendInt(b, `,`, h.Points[1])
			b = append(b, `],"notes":[`...)
			b = sdk.AppendJSONString(b, h.Notes[0])
			b = append(b, ',')
			b = sdk.AppendJSONString(b, h.Notes[1])
			b = append(b, "]}"...)
		}
		b = append(b, ']')
	}
	b = append(b, `,"phase":`...)
	b = sdk.AppendJSONString(b, s.Phase)
	b = appendInt(b, `,"winner":`, s.Winner)
	b = appendInt(b, `,"first_dealer":`, s.FirstDealer)
	b = appendInt(b, `,"game":`, s.Game)
	b = append(b, `,"rng":`...)
	b = s.RNG.AppendJSON(b)
	return append(b, '}')
}

func appendTrick(b []byte, t Trick) []byte {
	b = appendInt(b, `{"leader":`, t.Leader)
	b = append(b, `,"plays":`...)
	if t.Plays == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range t.Plays {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInt(b, `{"seat":`, p.Seat)
			b = append(b, `,"card":`...)
			b = sdk.AppendJSONString(b, p.Card.String())
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendInt(b, `,"winner":`, t.Winner)
	return append(b, '}')
}

func appendInt(b []byte, key string, n int) []byte {
	b = append(b, key...)
	return strconv.AppendInt(b, int64(n), 10)
}
