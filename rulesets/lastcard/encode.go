package lastcard

import (
	"strconv"

	"cardhouse/sdk"
)

var _ sdk.StateAppender[*State] = (*Rules)(nil)

// AppendState writes s as json.Marshal does, field by field in State's order with its tags and
// omitempty rules, without reflection and without escaping the log again (logQuoted): the engine
// encodes a state on every action, and this is several times faster. The conformance kit checks
// it byte for byte against json.Marshal at every state of its playouts, so a field added to State
// and forgotten here fails the tests.
func (r *Rules) AppendState(b []byte, s *State) []byte {
	b = append(b, `{"settings":{"stack_draw_two":`...)
	b = strconv.AppendBool(b, s.Settings.StackDrawTwo)
	b = append(b, `,"draw_four":`...)
	b = sdk.AppendJSONString(b, s.Settings.DrawFour)
	b = append(b, `,"last_card_mode":`...)
	b = sdk.AppendJSONString(b, s.Settings.LastCardMode)
	b = append(b, `,"target":`...)
	b = sdk.AppendJSONString(b, s.Settings.Target)
	b = append(b, `},"rng":`...)
	b = s.RNG.AppendJSON(b)
	b = append(b, `,"phase":`...)
	b = sdk.AppendJSONString(b, s.Phase)
	b = appendInt(b, `,"round":`, s.Round)
	b = appendInt(b, `,"opener":`, s.Opener)
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
	b = append(b, `,"pile":`...)
	b = sdk.AppendCardsJSON(b, s.Pile)
	b = append(b, `,"deck":`...)
	b = sdk.AppendCardsJSON(b, s.Deck)
	if len(s.Out) > 0 {
		b = append(b, `,"out":`...)
		b = sdk.AppendCardsJSON(b, s.Out)
	}
	b = appendInt(b, `,"turn":`, s.Turn)
	b = appendInt(b, `,"direction":`, s.Direction)
	b = append(b, `,"color":`...)
	b = sdk.AppendJSONString(b, s.Color)
	if s.Penalty != 0 {
		b = appendInt(b, `,"penalty":`, s.Penalty)
	}
	if s.PenaltyKind != "" {
		b = append(b, `,"penalty_kind":`...)
		b = sdk.AppendJSONString(b, s.PenaltyKind)
	}
	if s.Drawn != nil {
		b = append(b, `,"drawn":`...)
		b = sdk.AppendJSONString(b, cardText(*s.Drawn))
	}
	b = append(b, `,"called":`...)
	b = sdk.AppendBoolsJSON(b, s.Called)
	b = appendInt(b, `,"exposed":`, s.Exposed)
	b = append(b, `,"scores":`...)
	b = sdk.AppendIntsJSON(b, s.Scores)
	b = appendInt(b, `,"winner":`, s.Winner)
	if len(s.Log) > 0 {
		b = append(b, `,"log":[`...)
		quoted := len(s.logQuoted) == len(s.Log)
		for i, line := range s.Log {
			if i > 0 {
				b = append(b, ',')
			}
			if quoted {
				b = append(b, s.logQuoted[i]...)
			} else {
				b = sdk.AppendJSONString(b, line)
			}
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendInt(b []byte, name string, n int) []byte {
	return strconv.AppendInt(append(b, name...), int64(n), 10)
}

// cardText is a card's code as its MarshalText writes it ("" for the zero Card).
func cardText(c sdk.Card) string {
	if c == 0 {
		return ""
	}
	return c.String()
}
