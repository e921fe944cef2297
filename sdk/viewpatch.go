package sdk

import (
	"slices"
	"strconv"
	"strings"
)

// AppendViewPatch appends to b the protocol v2 patch (docs/protocol.md, "Protocol v2") that turns
// old's JSON (AppendJSON) into new's, computed from the typed views, field by field and entry by
// entry, without reading any JSON: a sticky engine that keeps a game's last views writes the
// patches itself, so that the host need not diff the views' bytes. It writes the form the host's
// diff writes (keyed lists by seat, id and type, splices for cards), and a list it cannot key
// (a repeated key, a key that needs escaping) or whose order changed goes whole. ok is false when
// new holds a null (nil players or zones; a trick's nil plays, a team's nil seats, a score
// sheet's nil list), which a merge patch cannot set: send the full view.
func AppendViewPatch(b []byte, old, new *View) (_ []byte, ok bool) {
	return appendViewPatch(b, old, new, nil)
}

// appendViewPatch is AppendViewPatch; with vp, it takes the members vp recorded for the views'
// shared parts instead of writing them again, and records them on vp's first view.
func appendViewPatch(b []byte, old, new *View, vp *ViewPatcher) (_ []byte, ok bool) {
	if new.Players == nil || new.Zones == nil || holdsNull(new) {
		return b, false
	}
	p := patchWriter{b: append(b, '{')}
	if old.Ruleset != new.Ruleset {
		p.str("ruleset", new.Ruleset)
	}
	p.int("viewer", old.Viewer, new.Viewer)
	if old.Phase != new.Phase {
		p.str("phase", new.Phase)
	}
	p.int("turn", old.Turn, new.Turn)
	p.int("direction", old.Direction, new.Direction)
	switch {
	case new.Round == 0 && old.Round != 0:
		p.null("round")
	default:
		p.int("round", old.Round, new.Round)
	}
	p.int("winner", old.Winner, new.Winner)
	// Derived members (docs/protocol.md): the hand counts the zones' patch sets go unsaid in the
	// players' patch when they are the players' hand counts, and are said when not.
	var hands []handSet
	if old.Zones != nil && keyedPatch(old.Zones, new.Zones, zoneKey) {
		hands = handsSetBy(old.Zones, new.Zones)
	}
	if !vp.reuse(&p, memoPlayers, vp.same(old, new, memoPlayers) && vp.sameHands(hands)) {
		m := vp.begin(&p)
		writePlayers(&p, old, new, hands)
		vp.end(&p, memoPlayers, m)
	}
	if old.Zones == nil {
		wholeList(&p, "zones", new.Zones, (*Zone).appendJSON)
	} else if vp == nil {
		patchList(&p, "zones", false, old.Zones, new.Zones, zoneKey, zoneEqual, (*Zone).appendJSON, patchZone)
	} else {
		patchList(&p, "zones", false, old.Zones, new.Zones, zoneKey, vp.zoneEqual, (*Zone).appendJSON, vp.patchZone)
	}
	if !vp.reuse(&p, memoIndicators, vp.same(old, new, memoIndicators)) {
		m := vp.begin(&p)
		patchList(&p, "indicators", true, old.Indicators, new.Indicators, indicatorKey, indicatorEqual, (*Indicator).appendJSON, patchIndicator)
		vp.end(&p, memoIndicators, m)
	}
	patchList(&p, "actions", true, old.Actions, new.Actions, actionKey, actionEqual, (*ActionSpec).appendJSON, patchAction)
	if !vp.reuse(&p, memoDeadlines, vp.same(old, new, memoDeadlines)) {
		m := vp.begin(&p)
		patchList(&p, "deadlines", true, old.Deadlines, new.Deadlines, deadlineKey, deadlineEqual, (*Deadline).appendJSON, patchDeadline)
		vp.end(&p, memoDeadlines, m)
	}
	writeEvents(&p, old.Events, new.Events)
	writeRoles(&p, old.Roles, new.Roles)
	if !vp.reuse(&p, memoTrick, vp.same(old, new, memoTrick)) {
		m := vp.begin(&p)
		patchTrick(&p, "trick", old.Trick, new.Trick)
		vp.end(&p, memoTrick, m)
	}
	if !vp.reuse(&p, memoLastTrick, vp.same(old, new, memoLastTrick)) {
		m := vp.begin(&p)
		patchTrick(&p, "last_trick", old.LastTrick, new.LastTrick)
		vp.end(&p, memoLastTrick, m)
	}
	if !vp.reuse(&p, memoTeams, vp.same(old, new, memoTeams)) {
		m := vp.begin(&p)
		patchList(&p, "teams", true, old.Teams, new.Teams, teamKey, teamEqual, (*Team).appendJSON, patchTeam)
		vp.end(&p, memoTeams, m)
	}
	if !vp.reuse(&p, memoSheet, vp.same(old, new, memoSheet)) {
		m := vp.begin(&p)
		patchSheet(&p, old.Sheet, new.Sheet)
		vp.end(&p, memoSheet, m)
	}
	p.optBool("low_wins", old.LowWins, new.LowWins)
	vp.recorded(old, new, hands)
	return append(p.b, '}'), true
}

// writePlayers writes the players' member; hands are the hand counts the zones' patch sets.
func writePlayers(p *patchWriter, old, new *View, hands []handSet) {
	if old.Players == nil {
		wholeList(p, "players", new.Players, (*PlayerView).appendJSON)
	} else {
		equal := playerEqual
		patch := patchPlayer
		if len(hands) > 0 {
			equal = func(a, b *PlayerView) bool {
				h, ok := handOf(hands, b.Seat)
				if !ok {
					return playerEqual(a, b)
				}
				if h != b.HandCount {
					return false // the hand count is said
				}
				o := *a
				o.HandCount = b.HandCount // derived
				return playerEqual(&o, b)
			}
			patch = func(p *patchWriter, old, new *PlayerView) {
				if h, ok := handOf(hands, new.Seat); ok {
					if h != new.HandCount { // said even when unchanged: the hand's count is not it
						p.key("hand_count")
						p.b = strconv.AppendInt(p.b, int64(new.HandCount), 10)
					}
					o := *old
					o.HandCount = new.HandCount
					patchPlayer(p, &o, new)
					return
				}
				patchPlayer(p, old, new)
			}
		}
		patchList(p, "players", false, old.Players, new.Players, playerKey, equal, (*PlayerView).appendJSON, patch)
	}
}

// writeEvents writes the events' member: whole when they changed.
func writeEvents(p *patchWriter, old, new []Event) {
	if !slices.EqualFunc(old, new, eventEqual) {
		if len(new) == 0 {
			p.null("events")
		} else {
			p.key("events")
			p.b = append(p.b, '[')
			for i := range new {
				if i > 0 {
					p.b = append(p.b, ',')
				}
				p.b = new[i].appendJSON(p.b)
			}
			p.b = append(p.b, ']')
		}
	}
}

// writeRoles writes the roles' member: replaced whole when they changed.
func writeRoles(p *patchWriter, oldRoles, newRoles map[string]string) {
	old, new := struct{ Roles map[string]string }{oldRoles}, struct{ Roles map[string]string }{newRoles}
	if !mapsEqual(old.Roles, new.Roles) {
		if len(new.Roles) == 0 {
			p.null("roles")
		} else {
			// Replaced whole: a merge patch's object would keep the roles new drops.
			p.key("roles")
			if len(old.Roles) == 0 {
				p.b = appendStringMap(p.b, new.Roles)
			} else {
				p.b = append(p.b, '{')
				n := 0
				for _, k := range sortedKeys(old.Roles) {
					if _, kept := new.Roles[k]; !kept {
						if n > 0 {
							p.b = append(p.b, ',')
						}
						n++
						p.b = appendJSONString(p.b, k)
						p.b = append(p.b, ":null"...)
					}
				}
				for _, k := range sortedKeys(new.Roles) {
					if v, had := old.Roles[k]; had && v == new.Roles[k] {
						continue
					}
					if n > 0 {
						p.b = append(p.b, ',')
					}
					n++
					p.b = appendJSONString(p.b, k)
					p.b = append(p.b, ':')
					p.b = appendJSONString(p.b, new.Roles[k])
				}
				p.b = append(p.b, '}')
			}
		}
	}
}

// holdsNull reports whether the view's JSON holds a null below its top (a nil list that the view
// does not omit), which a merge patch cannot set.
func holdsNull(v *View) bool {
	if v.Trick != nil && v.Trick.Plays == nil || v.LastTrick != nil && v.LastTrick.Plays == nil {
		return true
	}
	for i := range v.Teams {
		if v.Teams[i].Seats == nil {
			return true
		}
	}
	if s := v.Sheet; s != nil {
		if s.Columns == nil || s.Rows == nil || s.Totals == nil {
			return true
		}
		for i := range s.Rows {
			if s.Rows[i].Cells == nil {
				return true
			}
		}
	}
	return false
}

// patchTrick writes a trick's member: the trick whole when it appears, null when it goes, and
// otherwise its changes, the plays as a splice of those added when the trick only grew.
func patchTrick(p *patchWriter, k string, old, new *Trick) {
	switch {
	case new == nil:
		if old != nil {
			p.null(k)
		}
		return
	case old == nil:
		p.key(k)
		p.b = new.appendJSON(p.b)
		return
	case old.Leader == new.Leader && slices.Equal(old.Plays, new.Plays) && intPtrEqual(old.Winner, new.Winner):
		return
	}
	p.key(k)
	t := patchWriter{b: append(p.b, '{')}
	t.int("leader", old.Leader, new.Leader)
	if !slices.Equal(old.Plays, new.Plays) {
		t.key("plays")
		n := len(old.Plays)
		if n >= 2 && len(new.Plays) > n && slices.Equal(old.Plays, new.Plays[:n]) {
			t.b = append(t.b, `{"$splice":[`...)
			t.b = strconv.AppendInt(t.b, int64(n), 10)
			t.b = append(t.b, ",0"...)
			for _, tp := range new.Plays[n:] {
				t.b = append(t.b, ',')
				t.b = appendTrickPlay(t.b, tp)
			}
			t.b = append(t.b, "]}"...)
		} else {
			t.b = appendTrickPlays(t.b, new.Plays)
		}
	}
	optInt(&t, "winner", old.Winner, new.Winner)
	p.b = append(t.b, '}')
}

func teamKey(t *Team) string { return strconv.Itoa(t.ID) }

func teamEqual(a, b *Team) bool {
	return a.ID == b.ID && a.Name == b.Name && slices.Equal(a.Seats, b.Seats) && a.Score == b.Score &&
		intPtrEqual(a.Contract, b.Contract) && intPtrEqual(a.Tricks, b.Tricks) && intPtrEqual(a.Bags, b.Bags)
}

func patchTeam(p *patchWriter, old, new *Team) {
	if old.Name != new.Name {
		p.str("name", new.Name)
	}
	if !slices.Equal(old.Seats, new.Seats) {
		p.key("seats")
		p.b = appendInts(p.b, new.Seats)
	}
	p.int("score", old.Score, new.Score)
	optInt(p, "contract", old.Contract, new.Contract)
	optInt(p, "tricks", old.Tricks, new.Tricks)
	optInt(p, "bags", old.Bags, new.Bags)
}

func rowEqual(a, b ScoreRow) bool {
	return a.Label == b.Label && slices.Equal(a.Cells, b.Cells) && slices.Equal(a.Notes, b.Notes)
}

// patchSheet writes the score sheet's member: whole when it appears, null when it goes, and
// otherwise its changes, the rows as a splice of those added when hands were only added.
func patchSheet(p *patchWriter, old, new *ScoreSheet) {
	switch {
	case new == nil:
		if old != nil {
			p.null("sheet")
		}
		return
	case old == nil:
		p.key("sheet")
		p.b = new.appendJSON(p.b)
		return
	}
	sameCols := old.Columns != nil && slices.Equal(old.Columns, new.Columns)
	sameRows := old.Rows != nil && slices.EqualFunc(old.Rows, new.Rows, rowEqual)
	sameTotals := old.Totals != nil && slices.Equal(old.Totals, new.Totals)
	if old.By == new.By && sameCols && sameRows && sameTotals {
		return
	}
	p.key("sheet")
	s := patchWriter{b: append(p.b, '{')}
	if old.By != new.By {
		s.str("by", new.By)
	}
	if !sameCols {
		s.key("columns")
		s.b = appendStrings(s.b, new.Columns)
	}
	if !sameRows {
		s.key("rows")
		n := len(old.Rows)
		if n >= 1 && len(new.Rows) > n && slices.EqualFunc(old.Rows, new.Rows[:n], rowEqual) {
			s.b = append(s.b, `{"$splice":[`...)
			s.b = strconv.AppendInt(s.b, int64(n), 10)
			s.b = append(s.b, ",0"...)
			for i := n; i < len(new.Rows); i++ {
				s.b = append(s.b, ',')
				s.b = appendScoreRow(s.b, &new.Rows[i])
			}
			s.b = append(s.b, "]}"...)
		} else {
			s.b = appendScoreRows(s.b, new.Rows)
		}
	}
	if !sameTotals {
		s.key("totals")
		s.b = appendInts(s.b, new.Totals)
	}
	p.b = append(s.b, '}')
}

// patchWriter writes the members of one patch object.
type patchWriter struct {
	b []byte
	n int
}

func (p *patchWriter) key(k string) {
	if p.n > 0 {
		p.b = append(p.b, ',')
	}
	p.n++
	p.b = append(p.b, '"')
	p.b = append(p.b, k...)
	p.b = append(p.b, '"', ':')
}

func (p *patchWriter) null(k string) {
	p.key(k)
	p.b = append(p.b, "null"...)
}

func (p *patchWriter) str(k, v string) {
	p.key(k)
	p.b = appendJSONString(p.b, v)
}

func (p *patchWriter) int(k string, old, new int) {
	if old != new {
		p.key(k)
		p.b = strconv.AppendInt(p.b, int64(new), 10)
	}
}

// optStr writes a member that the view omits when empty.
func (p *patchWriter) optStr(k, old, new string) {
	switch {
	case old == new:
	case new == "":
		p.null(k)
	default:
		p.str(k, new)
	}
}

func (p *patchWriter) optBool(k string, old, new bool) {
	switch {
	case old == new:
	case !new:
		p.null(k)
	default:
		p.key(k)
		p.b = append(p.b, "true"...)
	}
}

// optList writes a list member that the view omits when empty, whole when it changed.
func optList[T comparable](p *patchWriter, k string, old, new []T, write func([]byte, []T) []byte) {
	switch {
	case slices.Equal(old, new):
	case len(new) == 0:
		if len(old) > 0 {
			p.null(k)
		}
	default:
		p.key(k)
		p.b = write(p.b, new)
	}
}

// optCards writes a list of cards: a splice of the one changed run when that is shorter.
func (p *patchWriter) optCards(k string, old, new []Card) {
	if len(old) == 0 || len(new) == 0 || slices.Equal(old, new) {
		optList(p, k, old, new, appendCards)
		return
	}
	s := 0
	for s < len(old) && s < len(new) && old[s] == new[s] {
		s++
	}
	e := 0
	for e < len(old)-s && e < len(new)-s && old[len(old)-1-e] == new[len(new)-1-e] {
		e++
	}
	// Cards are 2-3 byte codes, quoted: compare sizes as the host's diff does.
	size := len(`{"$splice":[,]}`) + 4 + 6*(len(new)-s-e)
	if size >= 1+6*len(new) {
		optList(p, k, old, new, appendCards)
		return
	}
	p.key(k)
	p.b = append(p.b, `{"$splice":[`...)
	p.b = strconv.AppendInt(p.b, int64(s), 10)
	p.b = append(p.b, ',')
	p.b = strconv.AppendInt(p.b, int64(len(old)-s-e), 10)
	for _, c := range new[s : len(new)-e] {
		p.b = append(p.b, ',', '"')
		if c != 0 {
			p.b = append(p.b, c.String()...)
		}
		p.b = append(p.b, '"')
	}
	p.b = append(p.b, ']', '}')
}

// patchList writes the patch of a keyed list (docs/protocol.md: an object of the changed, added
// and removed entries by key), or the list whole when its keys cannot name entries or their
// order changed, or null when it became empty (the view then omits it).
func patchList[T any](p *patchWriter, name string, omitEmpty bool, old, new []T, key func(*T) string,
	equal func(*T, *T) bool, whole func(*T, []byte) []byte, patch func(*patchWriter, *T, *T)) {
	if len(old) == 0 && len(new) == 0 {
		return
	}
	if len(new) == 0 {
		if omitEmpty {
			p.null(name)
		} else {
			p.key(name)
			p.b = append(p.b, '[', ']')
		}
		return
	}
	// Most steps keep every entry in place: then each is compared with the one at its index.
	same := len(old) == len(new)
	for i := 0; same && i < len(new); i++ {
		same = key(&old[i]) == key(&new[i])
	}
	if len(old) == 0 || !keysUsable(new, key) || !same && (!keysUsable(old, key) || !inDefaultOrder(old, new, key)) {
		p.key(name)
		p.b = append(p.b, '[')
		for i := range new {
			if i > 0 {
				p.b = append(p.b, ',')
			}
			p.b = whole(&new[i], p.b)
		}
		p.b = append(p.b, ']')
		return
	}
	mark := len(p.b)
	p.key(name)
	e := patchWriter{b: append(p.b, '{')}
	if !same {
		for i := range old {
			if find(new, key, key(&old[i])) < 0 {
				e.null(key(&old[i]))
			}
		}
	}
	var ep patchWriter
	for i := range new {
		j := i
		if !same {
			j = find(old, key, key(&new[i]))
		}
		switch {
		case j < 0:
			e.key(key(&new[i]))
			e.b = whole(&new[i], e.b)
		case !equal(&old[j], &new[i]):
			e.key(key(&new[i]))
			ep = patchWriter{b: append(e.b, '{')}
			patch(&ep, &old[j], &new[i])
			e.b = append(ep.b, '}')
		}
	}
	if e.n == 0 { // nothing changed
		p.b = p.b[:mark]
		p.n--
		return
	}
	p.b = append(e.b, '}')
}

func find[T any](list []T, key func(*T) string, k string) int {
	for i := range list {
		if key(&list[i]) == k {
			return i
		}
	}
	return -1
}

// keysUsable reports whether every entry's key can name it in a patch as written: unique, not
// "$..." (the patch form's own members), and needing no escape.
func keysUsable[T any](list []T, key func(*T) string) bool {
	for i := range list {
		k := key(&list[i])
		if k == "" || k[0] == '$' {
			return false
		}
		for j := 0; j < len(k); j++ {
			if c := k[j]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return false
			}
		}
		for j := range i {
			if key(&list[j]) == k {
				return false
			}
		}
	}
	return true
}

// inDefaultOrder reports whether new's entries are old's that stay, in their order, then the
// added ones: the order a patch without "$order" gives.
func inDefaultOrder[T any](old, new []T, key func(*T) string) bool {
	i := 0
	for j := range old {
		k := key(&old[j])
		if find(new, key, k) < 0 {
			continue
		}
		if i >= len(new) || key(&new[i]) != k {
			return false
		}
		i++
	}
	for ; i < len(new); i++ {
		if find(old, key, key(&new[i])) >= 0 {
			return false
		}
	}
	return true
}

// wholeList writes items under key whole, as the full view has them.
func wholeList[T any](p *patchWriter, key string, items []T, enc func(*T, []byte) []byte) {
	p.key(key)
	p.b = append(p.b, '[')
	for i := range items {
		if i > 0 {
			p.b = append(p.b, ',')
		}
		p.b = enc(&items[i], p.b)
	}
	p.b = append(p.b, ']')
}

func playerKey(p *PlayerView) string { return strconv.Itoa(p.Seat) }
func zoneKey(z *Zone) string         { return z.ID }
func indicatorKey(i *Indicator) string {
	return i.ID
}
func actionKey(a *ActionSpec) string { return a.Type }
func deadlineKey(d *Deadline) string { return d.ID }

func playerEqual(a, b *PlayerView) bool {
	return a.Seat == b.Seat && a.HandCount == b.HandCount && intPtrEqual(a.Score, b.Score) &&
		intPtrEqual(a.Points, b.Points) && slices.Equal(a.Tags, b.Tags) && intPtrEqual(a.Tricks, b.Tricks) &&
		a.Bid == b.Bid && intPtrEqual(a.Team, b.Team)
}

func intPtrEqual(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func patchPlayer(p *patchWriter, old, new *PlayerView) {
	p.int("hand_count", old.HandCount, new.HandCount)
	optInt(p, "score", old.Score, new.Score)
	optInt(p, "points", old.Points, new.Points)
	optList(p, "tags", old.Tags, new.Tags, appendStrings)
	optInt(p, "tricks", old.Tricks, new.Tricks)
	p.optStr("bid", old.Bid, new.Bid)
	optInt(p, "team", old.Team, new.Team)
}

// optInt patches a number the view leaves out when nil.
func optInt(p *patchWriter, key string, old, new *int) {
	switch {
	case new == nil:
		if old != nil {
			p.null(key)
		}
	case old == nil || *old != *new:
		p.key(key)
		p.b = strconv.AppendInt(p.b, int64(*new), 10)
	}
}

func zoneEqual(a, b *Zone) bool {
	return a.ID == b.ID && a.Kind == b.Kind && a.Owner == b.Owner && a.Label == b.Label && a.Count == b.Count &&
		a.Hidden == b.Hidden && slices.Equal(a.Cards, b.Cards) && slices.Equal(a.Slots, b.Slots) && intPtrEqual(a.Meld, b.Meld)
}

func patchZone(p *patchWriter, old, new *Zone) {
	if old.Kind != new.Kind {
		p.str("kind", new.Kind)
	}
	p.int("owner", old.Owner, new.Owner)
	p.optStr("label", old.Label, new.Label)
	p.optCards("cards", old.Cards, new.Cards)
	switch {
	case !setsCards(old, new):
		p.int("count", old.Count, new.Count)
	case new.Count != len(new.Cards): // the receiver would take the cards' length: say it
		p.key("count")
		p.b = strconv.AppendInt(p.b, int64(new.Count), 10)
	}
	p.optBool("hidden", old.Hidden, new.Hidden)
	optList(p, "slots", old.Slots, new.Slots, AppendBoolsJSON)
	optInt(p, "meld", old.Meld, new.Meld)
}

func indicatorEqual(a, b *Indicator) bool { return *a == *b }

func patchIndicator(p *patchWriter, old, new *Indicator) {
	if old.Label != new.Label {
		p.str("label", new.Label)
	}
	if old.Value != new.Value {
		p.str("value", new.Value)
	}
	p.optStr("kind", old.Kind, new.Kind)
}

func actionEqual(a, b *ActionSpec) bool {
	return a.Type == b.Type && a.Label == b.Label && a.Multi == b.Multi && a.Count == b.Count && a.From == b.From &&
		slices.Equal(a.ChoiceLabels, b.ChoiceLabels) && slices.Equal(a.Zones, b.Zones) && slices.Equal(a.Cards, b.Cards) && slices.Equal(a.Choices, b.Choices) && slices.Equal(a.ChoiceFor, b.ChoiceFor) &&
		slices.Equal(a.Targets, b.Targets) && slices.Equal(a.Indexes, b.Indexes) && slices.Equal(a.Args, b.Args)
}

func patchAction(p *patchWriter, old, new *ActionSpec) {
	if old.Label != new.Label {
		p.str("label", new.Label)
	}
	p.optCards("cards", old.Cards, new.Cards)
	p.optBool("multi", old.Multi, new.Multi)
	switch {
	case old.Count == new.Count:
	case new.Count == 0:
		p.null("count")
	default:
		p.key("count")
		p.b = strconv.AppendInt(p.b, int64(new.Count), 10)
	}
	p.optStr("from", old.From, new.From)
	optList(p, "choices", old.Choices, new.Choices, appendStrings)
	optList(p, "choice_for", old.ChoiceFor, new.ChoiceFor, appendCards)
	optList(p, "choice_labels", old.ChoiceLabels, new.ChoiceLabels, appendStrings)
	optList(p, "zones", old.Zones, new.Zones, appendStrings)
	optList(p, "targets", old.Targets, new.Targets, appendInts)
	optList(p, "indexes", old.Indexes, new.Indexes, appendInts)
	optList(p, "args", old.Args, new.Args, appendStrings)
}

func deadlineEqual(a, b *Deadline) bool { return *a == *b }

func patchDeadline(p *patchWriter, old, new *Deadline) {
	p.int("seat", old.Seat, new.Seat)
	if old.At != new.At {
		p.key("at")
		p.b = strconv.AppendInt(p.b, new.At, 10)
	}
	p.optStr("kind", old.Kind, new.Kind)
}

func eventEqual(a, b Event) bool {
	return a.Name == b.Name && a.Seat == b.Seat && a.Count == b.Count && a.Private == b.Private &&
		slices.Equal(a.Cards, b.Cards) && mapsEqual(a.Data, b.Data)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// setsCards reports whether a zone's patch sets its cards (to cards, not to none): the patch then
// leaves the count out when it is their length (docs/protocol.md, "Derived members").
func setsCards(old, new *Zone) bool {
	return len(new.Cards) > 0 && !slices.Equal(old.Cards, new.Cards)
}

// handSet is the count a zones' patch sets for the hand of a seat.
type handSet struct{ seat, count int }

// handsSetBy returns the hands ("hand.<seat>" zones) whose count the zones' patch from old to new
// sets: a hand added, or one whose count or (set) cards change.
func handsSetBy(old, new []Zone) []handSet {
	var hands []handSet
	for i := range new {
		z := &new[i]
		if !strings.HasPrefix(z.ID, "hand.") {
			continue
		}
		seat, err := strconv.Atoi(z.ID[len("hand."):])
		if err != nil || strconv.Itoa(seat) != z.ID[len("hand."):] {
			continue
		}
		j := find(old, zoneKey, z.ID)
		if j < 0 || old[j].Count != z.Count || setsCards(&old[j], z) {
			hands = append(hands, handSet{seat, z.Count})
		}
	}
	return hands
}

func handOf(hands []handSet, seat int) (int, bool) {
	for _, h := range hands {
		if h.seat == seat {
			return h.count, true
		}
	}
	return 0, false
}

// keyedPatch reports whether patchList writes the list's patch by key (not whole, not null): the
// receiver derives hand counts only from a keyed zones' patch.
func keyedPatch[T any](old, new []T, key func(*T) string) bool {
	if len(old) == 0 || len(new) == 0 || !keysUsable(new, key) {
		return false
	}
	same := len(old) == len(new)
	for i := 0; same && i < len(new); i++ {
		same = key(&old[i]) == key(&new[i])
	}
	return same || keysUsable(old, key) && inDefaultOrder(old, new, key)
}
