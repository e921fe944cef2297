package sdk

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the view's JSON to b. The output is byte for byte what encoding/json writes
// for a View (the tests hold it to that), at a fraction of the cost: a view is encoded once per
// viewer per action, the hottest encoding of the platform.
func (v *View) AppendJSON(b []byte) []byte {
	b = append(b, `{"ruleset":`...)
	b = appendJSONString(b, v.Ruleset)
	b = appendIntField(b, `,"viewer":`, v.Viewer)
	b = append(b, `,"phase":`...)
	b = appendJSONString(b, v.Phase)
	b = appendIntField(b, `,"turn":`, v.Turn)
	b = appendIntField(b, `,"direction":`, v.Direction)
	if v.Round != 0 {
		b = appendIntField(b, `,"round":`, v.Round)
	}
	b = appendIntField(b, `,"winner":`, v.Winner)
	b = append(b, `,"players":`...)
	if v.Players == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range v.Players {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.Players[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"zones":`...)
	if v.Zones == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range v.Zones {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.Zones[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	if len(v.Indicators) > 0 {
		b = append(b, `,"indicators":[`...)
		for i := range v.Indicators {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.Indicators[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	if len(v.Actions) > 0 {
		b = append(b, `,"actions":`...)
		b = AppendActionsJSON(b, v.Actions)
	}
	if len(v.Deadlines) > 0 {
		b = append(b, `,"deadlines":[`...)
		for i := range v.Deadlines {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.Deadlines[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	if len(v.Events) > 0 {
		b = append(b, `,"events":[`...)
		for i := range v.Events {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.Events[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	if len(v.Roles) > 0 {
		b = append(b, `,"roles":`...)
		b = appendStringMap(b, v.Roles)
	}
	if v.Trick != nil {
		b = append(b, `,"trick":`...)
		b = v.Trick.appendJSON(b)
	}
	if v.LastTrick != nil {
		b = append(b, `,"last_trick":`...)
		b = v.LastTrick.appendJSON(b)
	}
	if len(v.Teams) > 0 {
		b = append(b, `,"teams":[`...)
		for i := range v.Teams {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.Teams[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	if v.Sheet != nil {
		b = append(b, `,"sheet":`...)
		b = v.Sheet.appendJSON(b)
	}
	if v.LowWins {
		b = append(b, `,"low_wins":true`...)
	}
	return append(b, '}')
}

func (t *Trick) appendJSON(b []byte) []byte {
	b = appendIntField(b, `{"leader":`, t.Leader)
	b = append(b, `,"plays":`...)
	if t.Plays == nil {
		b = append(b, "null"...)
	} else {
		b = appendTrickPlays(b, t.Plays)
	}
	if t.Winner != nil {
		b = appendIntField(b, `,"winner":`, *t.Winner)
	}
	return append(b, '}')
}

func appendTrickPlays(b []byte, plays []TrickPlay) []byte {
	b = append(b, '[')
	for i, p := range plays {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTrickPlay(b, p)
	}
	return append(b, ']')
}

func appendTrickPlay(b []byte, p TrickPlay) []byte {
	b = appendIntField(b, `{"seat":`, p.Seat)
	b = append(b, `,"card":"`...)
	if p.Card != 0 {
		b = append(b, p.Card.String()...)
	}
	return append(b, `"}`...)
}

func (t *Team) appendJSON(b []byte) []byte {
	b = appendIntField(b, `{"id":`, t.ID)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, t.Name)
	b = append(b, `,"seats":`...)
	b = AppendIntsJSON(b, t.Seats)
	b = appendIntField(b, `,"score":`, t.Score)
	if t.Contract != nil {
		b = appendIntField(b, `,"contract":`, *t.Contract)
	}
	if t.Tricks != nil {
		b = appendIntField(b, `,"tricks":`, *t.Tricks)
	}
	if t.Bags != nil {
		b = appendIntField(b, `,"bags":`, *t.Bags)
	}
	return append(b, '}')
}

func (s *ScoreSheet) appendJSON(b []byte) []byte {
	b = append(b, `{"by":`...)
	b = appendJSONString(b, s.By)
	b = append(b, `,"columns":`...)
	if s.Columns == nil {
		b = append(b, "null"...)
	} else {
		b = appendStrings(b, s.Columns)
	}
	b = append(b, `,"rows":`...)
	if s.Rows == nil {
		b = append(b, "null"...)
	} else {
		b = appendScoreRows(b, s.Rows)
	}
	b = append(b, `,"totals":`...)
	b = AppendIntsJSON(b, s.Totals)
	return append(b, '}')
}

// AppendActionsJSON appends actions as JSON, the array a view's "actions" member holds (byte for
// byte AppendJSON's): what a host that does not hold a seat's whole view needs to check an action's
// shape (engine.Step.Actions).
func AppendActionsJSON(b []byte, actions []ActionSpec) []byte {
	b = append(b, '[')
	for i := range actions {
		if i > 0 {
			b = append(b, ',')
		}
		b = actions[i].appendJSON(b)
	}
	return append(b, ']')
}

func (p *PlayerView) appendJSON(b []byte) []byte {
	b = appendIntField(b, `{"seat":`, p.Seat)
	b = appendIntField(b, `,"hand_count":`, p.HandCount)
	if p.Score != nil {
		b = appendIntField(b, `,"score":`, *p.Score)
	}
	if p.Points != nil {
		b = appendIntField(b, `,"points":`, *p.Points)
	}
	if len(p.Tags) > 0 {
		b = append(b, `,"tags":`...)
		b = appendStrings(b, p.Tags)
	}
	if p.Tricks != nil {
		b = appendIntField(b, `,"tricks":`, *p.Tricks)
	}
	if p.Bid != "" {
		b = append(b, `,"bid":`...)
		b = appendJSONString(b, p.Bid)
	}
	if p.Team != nil {
		b = appendIntField(b, `,"team":`, *p.Team)
	}
	return append(b, '}')
}

func (z *Zone) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, z.ID)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, z.Kind)
	b = appendIntField(b, `,"owner":`, z.Owner)
	if z.Label != "" {
		b = append(b, `,"label":`...)
		b = appendJSONString(b, z.Label)
	}
	if len(z.Cards) > 0 {
		b = append(b, `,"cards":`...)
		b = appendCards(b, z.Cards)
	}
	b = appendIntField(b, `,"count":`, z.Count)
	if z.Hidden {
		b = append(b, `,"hidden":true`...)
	}
	if len(z.Slots) > 0 {
		b = append(b, `,"slots":[`...)
		for i, s := range z.Slots {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendBool(b, s)
		}
		b = append(b, ']')
	}
	if z.Meld != nil {
		b = appendIntField(b, `,"meld":`, *z.Meld)
	}
	return append(b, '}')
}

func (in *Indicator) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, in.ID)
	b = append(b, `,"label":`...)
	b = appendJSONString(b, in.Label)
	b = append(b, `,"value":`...)
	b = appendJSONString(b, in.Value)
	if in.Kind != "" {
		b = append(b, `,"kind":`...)
		b = appendJSONString(b, in.Kind)
	}
	return append(b, '}')
}

func (d *Deadline) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, d.ID)
	b = appendIntField(b, `,"seat":`, d.Seat)
	b = append(b, `,"at":`...)
	b = strconv.AppendInt(b, d.At, 10)
	if d.Kind != "" {
		b = append(b, `,"kind":`...)
		b = appendJSONString(b, d.Kind)
	}
	return append(b, '}')
}

func (a *ActionSpec) appendJSON(b []byte) []byte {
	b = append(b, `{"type":`...)
	b = appendJSONString(b, a.Type)
	b = append(b, `,"label":`...)
	b = appendJSONString(b, a.Label)
	if len(a.Cards) > 0 {
		b = append(b, `,"cards":`...)
		b = appendCards(b, a.Cards)
	}
	if a.Multi {
		b = append(b, `,"multi":true`...)
	}
	if a.Count != 0 {
		b = appendIntField(b, `,"count":`, a.Count)
	}
	if a.From != "" {
		b = append(b, `,"from":`...)
		b = appendJSONString(b, a.From)
	}
	if len(a.Choices) > 0 {
		b = append(b, `,"choices":`...)
		b = appendStrings(b, a.Choices)
	}
	if len(a.ChoiceFor) > 0 {
		b = append(b, `,"choice_for":`...)
		b = appendCards(b, a.ChoiceFor)
	}
	if len(a.ChoiceLabels) > 0 {
		b = append(b, `,"choice_labels":`...)
		b = appendStrings(b, a.ChoiceLabels)
	}
	if len(a.Zones) > 0 {
		b = append(b, `,"zones":`...)
		b = appendStrings(b, a.Zones)
	}
	if len(a.Targets) > 0 {
		b = append(b, `,"targets":`...)
		b = appendInts(b, a.Targets)
	}
	if len(a.Indexes) > 0 {
		b = append(b, `,"indexes":`...)
		b = appendInts(b, a.Indexes)
	}
	if len(a.Args) > 0 {
		b = append(b, `,"args":`...)
		b = appendStrings(b, a.Args)
	}
	return append(b, '}')
}

func (e *Event) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendJSONString(b, e.Name)
	b = appendIntField(b, `,"seat":`, e.Seat)
	if len(e.Cards) > 0 {
		b = append(b, `,"cards":`...)
		b = appendCards(b, e.Cards)
	}
	if e.Count != 0 {
		b = appendIntField(b, `,"count":`, e.Count)
	}
	if len(e.Data) > 0 {
		b = append(b, `,"data":`...)
		b = appendStringMap(b, e.Data)
	}
	if e.Private {
		b = append(b, `,"private":true`...)
	}
	return append(b, '}')
}

func appendIntField(b []byte, name string, n int) []byte {
	return strconv.AppendInt(append(b, name...), int64(n), 10)
}

func appendInts(b []byte, ns []int) []byte {
	b = append(b, '[')
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

func appendScoreRows(b []byte, rows []ScoreRow) []byte {
	b = append(b, '[')
	for i := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendScoreRow(b, &rows[i])
	}
	return append(b, ']')
}

func appendScoreRow(b []byte, r *ScoreRow) []byte {
	b = append(b, `{"label":`...)
	b = appendJSONString(b, r.Label)
	b = append(b, `,"cells":`...)
	b = AppendIntsJSON(b, r.Cells)
	if len(r.Notes) > 0 {
		b = append(b, `,"notes":`...)
		b = appendStrings(b, r.Notes)
	}
	return append(b, '}')
}

// appendCards writes cards as their codes; the zero Card (a gap) is "", as MarshalText writes it.
func appendCards(b []byte, cards []Card) []byte {
	b = append(b, '[')
	for i, c := range cards {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		if c != 0 {
			b = append(b, c.String()...)
		}
		b = append(b, '"')
	}
	return append(b, ']')
}

// appendStringMap writes a map with its keys sorted, as encoding/json does.
func appendStringMap(b []byte, m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONString(b, m[k])
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s exactly as encoding/json does with HTML escaping on (json.Marshal's
// default): <, > and & as \u003c \u003e \u0026, control characters escaped, invalid UTF-8 as
// \ufffd, and U+2028, U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
