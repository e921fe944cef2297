package ginrummy

import "cardhouse/sdk"

// sight is what a seat knows of the cards outside its hand, for the opponent-aware rules of
// thumb of levels 3 to 5 (keen): the cards out of its reach (the discard pile, which only ever
// gives its top, and the cards the other took from it), the cards the other is known to hold
// (taken from the pile), and the cards the other discarded or left on the pile when they were
// its top to take.
type sight struct {
	gone    cardSet
	oppHas  cardSet
	oppShed cardSet
}

// sightOfState is seat's sight in a state (the rollout's, the whole state being a world seat
// plays in; it reads only what seat's view shows).
func sightOfState(s *State, seat int) sight {
	opp := 1 - seat
	var g sight
	g.oppHas = setOf(s.Known[opp])
	g.gone = setOf(s.Pile) | g.oppHas
	if s.Shed != nil {
		g.oppShed = setOf(s.Shed[opp])
	}
	return g
}

// Knobs of keen's discard, in deadwood points.
var (
	// keenDanger is the cost of discarding a card that melds with a card the other is known to
	// hold (it took it from the pile to meld it, and will take this one too).
	keenDanger = 6
	// keenSafe is what discarding a card of a rank the other discarded, or next in suit to a card
	// it discarded, is worth: it is unlikely to take it.
	keenSafe = 1
	// keenLink is what a live meld candidate is worth.
	keenLink = linkCost
)

// keenDiscard is levels 3 to 5's discard among allowed: level 2's measure (the deadwood left, and
// linkCost for each meld candidate the card would break) with the candidates counted only while
// they are live (a card that would complete them is not out of reach), keenDanger for a card the
// other can meld with the cards it is known to hold, keenSafe off for a card like those it threw
// away; among equals the highest card.
func keenDiscard(hand, allowed []sdk.Card, g sight) sdk.Card {
	all := setOf(hand)
	loose := arrange(all).dead
	var best sdk.Card
	bestD, bestV := 1<<10, -1
	for _, c := range allowed {
		d := deadwood(all &^ bitOf(c))
		if loose&bitOf(c) != 0 {
			d += keenLink * liveLinks(c, loose, g.gone|all)
		}
		if g.oppHas != 0 && melds(c, g.oppHas) {
			d += keenDanger
		}
		if g.oppShed != 0 && likeShed(c, g.oppShed) {
			d -= keenSafe
		}
		if d < bestD || d == bestD && Value(c) > bestV {
			best, bestD, bestV = c, d, Value(c)
		}
	}
	return best
}

// liveLinks counts the cards of loose, c aside, that make a meld candidate with c (the same rank,
// or the same suit within two ranks) which a card not in out could still complete.
func liveLinks(c sdk.Card, loose, out cardSet) int {
	n := 0
	for _, d := range loose.cards() {
		if d == c || !related(c, d) {
			continue
		}
		for _, e := range completers(c, d) {
			if out&bitOf(e) == 0 {
				n++
				break
			}
		}
	}
	return n
}

// completers are the cards that make a meld of three with the related cards a and b.
func completers(a, b sdk.Card) []sdk.Card {
	if a.Rank() == b.Rank() {
		out := make([]sdk.Card, 0, 2)
		for su := range 4 {
			c := sdk.Card(su*13 + a.Rank())
			if c != a && c != b {
				out = append(out, c)
			}
		}
		return out
	}
	lo, hi := min(a.Rank(), b.Rank()), max(a.Rank(), b.Rank())
	base := sdk.Card((int(a) - 1) / 13 * 13)
	if hi-lo == 2 {
		return []sdk.Card{base + sdk.Card(lo+1)}
	}
	out := make([]sdk.Card, 0, 2)
	if lo > 1 {
		out = append(out, base+sdk.Card(lo-1))
	}
	if hi < 13 {
		out = append(out, base+sdk.Card(hi+1))
	}
	return out
}

// melds reports whether c makes a meld with cards of m, or extends one (a set of its rank, a run
// of its suit through it).
func melds(c sdk.Card, m cardSet) bool {
	return deadwood(m|bitOf(c)) < deadwood(m)+Value(c)
}

// likeShed reports whether c is of a rank the other discarded, or next in suit to a card it
// discarded.
func likeShed(c sdk.Card, shed cardSet) bool {
	for _, d := range shed.cards() {
		if d.Rank() == c.Rank() || d.Suit() == c.Suit() && (d.Rank() == c.Rank()+1 || d.Rank()+1 == c.Rank()) {
			return true
		}
	}
	return false
}

// sightOfView is seat's sight from its view and history (the shed events of History).
func sightOfView(b *botView, history []sdk.Event) sight {
	opp := 1 - b.seat
	var g sight
	if z, ok := b.view.Zone(takenZone(opp)); ok {
		g.oppHas = setOf(z.Cards)
	}
	if z, ok := b.view.Zone("pile"); ok {
		g.gone = setOf(z.Cards)
	}
	g.gone |= g.oppHas
	for _, e := range history {
		if e.Name == EvShed && e.Seat == opp {
			g.oppShed |= setOf(e.Cards)
		}
	}
	return g
}

// knockCard is the knock's discard among allowed that leaves the least deadwood (among equals
// the highest card), and that deadwood.
func knockCard(hand, allowed []sdk.Card) (sdk.Card, int) {
	all := setOf(hand)
	var best sdk.Card
	bestD, bestV := 1<<10, -1
	for _, c := range allowed {
		d := deadwood(all &^ bitOf(c))
		if d < bestD || d == bestD && Value(c) > bestV {
			best, bestD, bestV = c, d, Value(c)
		}
	}
	return best, bestD
}
