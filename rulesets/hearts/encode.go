package hearts

import (
	"strconv"

	"cardhouse/sdk"
)

var _ sdk.StateAppender[*State] = (*Rules)(nil)

// AppendState writes s as json.Marshal does, field by field in State's order with its tags and
// omitempty rules, without reflection: the engine encodes a state on every action. The
// conformance kit checks it byte for byte against json.Marshal at every state of its playouts, so
// a field added to State and forgotten here fails the tests.
func (r *Rules) AppendState(b []byte, s *State) []byte {
	b = append(b, `{"passing":`...)
	b = strconv.AppendBool(b, s.Passing)
	b = append(b, `,"moon":`...)
	b = sdk.AppendJSONString(b, s.Moon)
	b = appendInt(b, `,"target":`, s.Target)
	b = appendInt(b, `,"games":`, s.Games)
	b = appendInt(b, `,"hand":`, s.Hand)
	b = append(b, `,"phase":`...)
	b = sdk.AppendJSONString(b, s.Phase)
	b = append(b, `,"stage":`...)
	b = sdk.AppendJSONString(b, s.Stage)
	b = appendRows(append(b, `,"hands":`...), s.Hands)
	b = appendRows(append(b, `,"chosen":`...), s.Chosen)
	b = appendRows(append(b, `,"passed":`...), s.Passed)
	if len(s.Out) > 0 {
		b = sdk.AppendCardsJSON(append(b, `,"out":`...), s.Out)
	}
	b = appendInt(b, `,"leader":`, s.Leader)
	b = appendPlays(append(b, `,"trick":`...), s.Trick)
	b = appendPlays(append(b, `,"played":`...), s.Played)
	b = sdk.AppendIntsJSON(append(b, `,"takers":`...), s.Takers)
	b = append(b, `,"broken":`...)
	b = strconv.AppendBool(b, s.Broken)
	b = appendInt(b, `,"turn":`, s.Turn)
	b = appendInt(b, `,"opener":`, s.Opener)
	b = sdk.AppendIntsJSON(append(b, `,"scores":`...), s.Scores)
	b = append(b, `,"sheet":`...)
	if s.Sheet == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, row := range s.Sheet {
			if i > 0 {
				b = append(b, ',')
			}
			b = sdk.AppendIntsJSON(append(b, `{"cells":`...), row.Cells)
			b = append(appendInt(b, `,"moon":`, row.Moon), '}')
		}
		b = append(b, ']')
	}
	b = appendInt(b, `,"winner":`, s.Winner)
	if len(s.Winners) > 0 {
		b = sdk.AppendIntsJSON(append(b, `,"winners":`...), s.Winners)
	}
	b = s.RNG.AppendJSON(append(b, `,"rng":`...))
	if s.Simulated {
		b = append(b, `,"simulated":true`...)
	}
	return append(b, '}')
}

func appendInt(b []byte, key string, n int) []byte {
	return strconv.AppendInt(append(b, key...), int64(n), 10)
}

func appendRows(b []byte, rows [][]sdk.Card) []byte {
	if rows == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = sdk.AppendCardsJSON(b, r)
	}
	return append(b, ']')
}

func appendPlays(b []byte, plays []Play) []byte {
	if plays == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, p := range plays {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInt(b, `{"seat":`, p.Seat)
		b = sdk.AppendJSONString(append(b, `,"card":`...), p.Card.String())
		b = append(b, '}')
	}
	return append(b, ']')
}
