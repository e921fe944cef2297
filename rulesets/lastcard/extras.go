package lastcard

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// History is what seat has seen happen this round, oldest first (at most the last 256 events;
// "turn" events left out): the round's log with every other seat's drawn cards reduced to their
// count (sdk.Event.For). A line that cannot be read (a state edited by hand) is left out.
func (r *Rules) History(s *State, seat int) []sdk.Event {
	out := make([]sdk.Event, 0, len(s.Log))
	for _, line := range s.Log {
		e, err := decodeEvent(line)
		if err != nil {
			continue
		}
		out = append(out, e.For(seat))
	}
	return out
}

// Redeal returns a copy of s in which every card viewer cannot see (other hands, the deck, cards
// out of play) is shuffled with rng among those places, each keeping its size. What the table
// knows is kept: a card another seat has drawn and not yet played or kept was playable, so a
// playable card takes its place. The copy gets a fresh RNG (a sampled world must not know the
// real game's future shuffles) and its log loses the cards other seats drew, so History(copy,
// viewer) and View(copy, viewer) equal those of s. Once the round is over every hand is shown
// (View), so only the deck and the cards out of play are shuffled.
func (r *Rules) Redeal(s *State, viewer int, rng *sdk.RNG) *State {
	c := s.clone()
	var pool []sdk.Card
	shown := c.Phase != sdk.PhasePlaying
	for seat, h := range c.Hands {
		if seat != viewer && !shown {
			pool = append(pool, h...)
		}
	}
	pool = append(pool, c.Deck...)
	pool = append(pool, c.Out...)
	rng.ShuffleCards(sdk.DrawShuffle, pool)

	drawnSeat := sdk.NoSeat
	var drawn sdk.Card
	if c.Drawn != nil && c.Phase == sdk.PhasePlaying && c.Turn != viewer {
		drawnSeat = c.Turn
		i := slices.IndexFunc(pool, func(x sdk.Card) bool {
			return c.matches(x) && (x != sdk.WildDrawFour || c.Settings.DrawFour == drawFourAnyTime)
		})
		if i < 0 {
			i = slices.Index(pool, *c.Drawn) // nothing else fits: the real card stays the drawn one
		}
		drawn = pool[i]
		pool = slices.Delete(pool, i, i+1)
	}
	take := func(n int) []sdk.Card {
		out := slices.Clone(pool[:n])
		pool = pool[n:]
		return out
	}
	for seat, h := range c.Hands {
		switch {
		case seat == viewer || shown:
		case seat == drawnSeat:
			c.Hands[seat] = append(take(len(h)-1), drawn)
			c.Drawn = &drawn
		default:
			c.Hands[seat] = take(len(h))
		}
	}
	c.Deck = take(len(c.Deck))
	if len(c.Out) > 0 {
		c.Out = take(len(c.Out))
	}
	c.RNG = sdk.NewRNG(rng.Uint64())
	for i, line := range c.Log {
		if e, err := decodeEvent(line); err == nil && e.Private && e.Seat != viewer {
			c.Log[i] = encodeEvent(e.For(viewer))
			c.logQuoted = nil // out of step now: logLine quotes the log again when it next grows
		}
	}
	return c
}

// Table is the generic face of the state for house rules: zones "hand.N", "pile" (bottom first),
// "deck" (top first) and "out"; counters "penalty", "round", "opener", "exposed" (-1 for none),
// "score.N" and "called.N" (1 when seat N has called "Last card!"); values "color" (R, Y, G, B or
// "" for any), "penalty_kind" ("draw_two", "draw_four" or "") and "drawn" (the card the seat in
// turn has just drawn and may still play, or "").
func (r *Rules) Table(s *State) sdk.Table {
	t := sdk.Table{
		Zones: map[string][]sdk.Card{
			"pile": slices.Clone(s.Pile),
			"deck": slices.Clone(s.Deck),
			"out":  slices.Clone(s.Out),
		},
		Turn:      s.Turn,
		Direction: s.Direction,
		Counters: map[string]int{
			"penalty": s.Penalty,
			"round":   s.Round,
			"opener":  s.Opener,
			"exposed": s.Exposed,
		},
		Values: map[string]string{
			"color":        s.Color,
			"penalty_kind": s.PenaltyKind,
			"drawn":        "",
		},
	}
	for seat, h := range s.Hands {
		t.Zones[fmt.Sprintf("hand.%d", seat)] = slices.Clone(h)
		t.Counters[fmt.Sprintf("score.%d", seat)] = s.Scores[seat]
		called := 0
		if s.Called[seat] {
			called = 1
		}
		t.Counters[fmt.Sprintf("called.%d", seat)] = called
	}
	if s.Drawn != nil {
		t.Values["drawn"] = s.Drawn.String()
	}
	return t
}

// SetTable returns a copy of s carrying the table's zones, turn, direction, counters and values.
// Keys absent from the table keep their current value; an unknown key, a card that is not a Last
// Card card, a turn or seat that is no seat, a direction other than 1 or -1, a negative count,
// an unknown colour or penalty kind, or a drawn card the seat in turn does not hold is refused
// (sdk.CodeHouseRule) and s is unchanged. The SDK checks afterwards that no card was lost or
// invented.
func (r *Rules) SetTable(s *State, t sdk.Table) (*State, error) {
	c := s.clone()
	n := c.seats()
	bad := func(format string, args ...any) error {
		return sdk.Refuse(sdk.CodeHouseRule, "table: "+format, args...)
	}
	seatKey := func(key, prefix string) (int, bool) {
		rest, ok := strings.CutPrefix(key, prefix)
		if !ok {
			return 0, false
		}
		i, err := strconv.Atoi(rest)
		return i, err == nil && i >= 0 && i < n && strconv.Itoa(i) == rest
	}
	for key, cards := range t.Zones {
		for _, card := range cards {
			if !card.IsColorCard() {
				return nil, bad("zone %q holds %s, which is not a Last Card card", key, card)
			}
		}
		cards = slices.Clone(cards)
		if seat, ok := seatKey(key, "hand."); ok {
			c.Hands[seat] = cards
			continue
		}
		switch key {
		case "pile":
			c.Pile = cards
		case "deck":
			c.Deck = cards
		case "out":
			c.Out = cards
		default:
			return nil, bad("unknown zone %q (Last Card has hand.0 to hand.%d, pile, deck, out)", key, n-1)
		}
	}
	if t.Turn < 0 || t.Turn >= n {
		return nil, bad("turn %d is not a seat of this %d-seat game", t.Turn, n)
	}
	c.Turn = t.Turn
	if t.Direction != 1 && t.Direction != -1 {
		return nil, bad("direction must be 1 or -1, got %d", t.Direction)
	}
	c.Direction = t.Direction
	for key, v := range t.Counters {
		if seat, ok := seatKey(key, "score."); ok {
			if v < 0 {
				return nil, bad("%s must not be negative, got %d", key, v)
			}
			c.Scores[seat] = v
			continue
		}
		if seat, ok := seatKey(key, "called."); ok {
			if v != 0 && v != 1 {
				return nil, bad("%s must be 0 or 1, got %d", key, v)
			}
			c.Called[seat] = v == 1
			continue
		}
		switch key {
		case "penalty":
			if v < 0 {
				return nil, bad("penalty must not be negative, got %d", v)
			}
			c.Penalty = v
		case "round":
			if v < 1 {
				return nil, bad("round counts from 1, got %d", v)
			}
			c.Round = v
		case "opener":
			if v < 0 || v >= n {
				return nil, bad("opener %d is not a seat", v)
			}
			c.Opener = v
		case "exposed":
			if v < sdk.NoSeat || v >= n {
				return nil, bad("exposed %d is not a seat (or -1 for none)", v)
			}
			c.Exposed = v
		default:
			return nil, bad("unknown counter %q (Last Card has penalty, round, opener, exposed, score.N, called.N)", key)
		}
	}
	for key, v := range t.Values {
		switch key {
		case "color":
			if v != "" && !validColor(v) {
				return nil, bad("color must be R, Y, G, B or empty, got %q", v)
			}
			c.Color = v
		case "penalty_kind":
			if v != "" && v != kindDrawTwo && v != kindDrawFour {
				return nil, bad("penalty_kind must be %s, %s or empty, got %q", kindDrawTwo, kindDrawFour, v)
			}
			c.PenaltyKind = v
		case "drawn":
			if v == "" {
				c.Drawn = nil
				continue
			}
			card, err := sdk.ParseCard(v)
			if err != nil || !card.IsColorCard() {
				return nil, bad("drawn must be a Last Card card code, got %q", v)
			}
			c.Drawn = &card
		default:
			return nil, bad("unknown value %q (Last Card has color, penalty_kind, drawn)", key)
		}
	}
	switch {
	case c.Penalty > 0 && c.PenaltyKind == "":
		return nil, bad("a penalty of %d needs a penalty_kind", c.Penalty)
	case c.Penalty == 0:
		c.PenaltyKind = ""
	}
	if c.Drawn != nil && !slices.Contains(c.Hands[c.Turn], *c.Drawn) {
		return nil, bad("drawn card %s is not in the hand of seat %d, who is in turn", *c.Drawn, c.Turn)
	}
	if c.Exposed != sdk.NoSeat && (len(c.Hands[c.Exposed]) != 1 || c.Called[c.Exposed]) {
		c.Exposed = sdk.NoSeat // nothing left to catch
	}
	return c, nil
}

var _ sdk.Ender[*State] = (*Rules)(nil)

// End ends the round for a house rule: winner scores the cards the others hold (L-9), and the
// game ends when that reaches the target or it is a single round, exactly as when winner plays
// their last card; with req.Game the game ends after this round's scoring whatever the scores.
func (r *Rules) End(s *State, req sdk.EndRequest) (*State, []sdk.Event, error) {
	if s.Phase != sdk.PhasePlaying {
		return nil, nil, sdk.Refuse(CodeRoundOver, "the round is already over")
	}
	if req.Winner < 0 || req.Winner >= s.seats() {
		return nil, nil, sdk.Refuse(sdk.CodeHouseRule, "winner %d is not a seat of this %d-seat game", req.Winner, s.seats())
	}
	t := &turn{s: s.clone()}
	points := t.s.scoreRound(req.Winner)
	if req.Game {
		t.s.Phase = sdk.PhaseGameOver
	}
	t.announceEnd(req.Winner, points)
	return t.s, t.events, nil
}
