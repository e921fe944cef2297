package houserules_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
)

// tiny is a small ruleset for testing house rules without the real variants: one French deck,
// play a card of the top's suit or rank or draw one (or the pending penalty); first to empty their
// hand wins and scores one point per card left in the other hands. It implements TableEditor,
// Bots and HouseHooks (question "may_play" with args card and on).
type tiny struct{}

type tinyState struct {
	Seats   int          `json:"seats"`
	Hands   [][]sdk.Card `json:"hands"`
	Pile    []sdk.Card   `json:"pile"`
	Deck    []sdk.Card   `json:"deck"`
	Turn    int          `json:"turn"`
	Dir     int          `json:"dir"`
	Winner  int          `json:"winner"`
	Phase   string       `json:"phase"`
	Penalty int          `json:"penalty"`
	Scores  []int        `json:"scores"`
	Hand    int          `json:"hand_size"`
	RNG     sdk.RNG      `json:"rng"`
}

var (
	_ sdk.Ruleset[tinyState]     = tiny{}
	_ sdk.TableEditor[tinyState] = tiny{}
	_ sdk.Bots                   = tiny{}
	_ sdk.HouseHooks             = tiny{}
)

func (tiny) Info() sdk.Info {
	return sdk.Info{ID: "tiny", Name: "Tiny", Version: "1", MinSeats: 2, MaxSeats: 4, BotLevels: []int{1},
		Options: []sdk.Option{{Name: "hand_size", Type: sdk.OptionInt, Default: 5, Min: 1, Max: 10}}}
}

func (tiny) HouseHooks() []sdk.HouseHook {
	return []sdk.HouseHook{{Name: "may_play", Description: "may card be played on on?", Args: []string{"card", "on"}}}
}

func (t tiny) Start(_ context.Context, req sdk.StartRequest) (tinyState, error) {
	s := tinyState{Seats: req.Seats, Dir: 1, Winner: sdk.NoSeat, Phase: sdk.PhasePlaying, Scores: make([]int, req.Seats),
		Hand: req.Options.Int("hand_size"), RNG: req.RNG}
	if req.Deal != nil {
		l, err := req.Deal.Layout(sdk.FrenchDeck(1, 0), req.Seats, &s.RNG)
		if err != nil {
			return s, err
		}
		s.Hands, s.Pile, s.Deck = l.Hands, l.Pile, l.Deck
		if s.Hands == nil {
			s.Hands = make([][]sdk.Card, req.Seats)
		}
		if l.First != sdk.NoSeat {
			s.Turn = l.First
		}
		return s, nil
	}
	t.deal(&s)
	return s, nil
}

func (tiny) deal(s *tinyState) {
	deck := sdk.FrenchDeck(1, 0)
	s.RNG.ShuffleCards(sdk.DrawShuffle, deck)
	s.Hands = make([][]sdk.Card, s.Seats)
	for i := range s.Seats {
		s.Hands[i], deck = slices.Clone(deck[:s.Hand]), deck[s.Hand:]
	}
	s.Pile, s.Deck = []sdk.Card{deck[0]}, deck[1:]
	s.Phase, s.Winner, s.Penalty, s.Dir = sdk.PhasePlaying, sdk.NoSeat, 0, 1
}

func (s tinyState) clone() tinyState {
	c := s
	c.Hands = make([][]sdk.Card, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Pile, c.Deck, c.Scores, c.RNG = slices.Clone(s.Pile), slices.Clone(s.Deck), slices.Clone(s.Scores), s.RNG.Clone()
	return c
}

func (s tinyState) next() int { return ((s.Turn+s.Dir)%s.Seats + s.Seats) % s.Seats }

func legal(c, top sdk.Card) bool { return c.Suit() == top.Suit() || c.Rank() == top.Rank() }

func (t tiny) Apply(_ context.Context, req sdk.ApplyRequest[tinyState]) (sdk.ApplyResponse[tinyState], error) {
	s, a := req.State.clone(), req.Action
	var no sdk.ApplyResponse[tinyState]
	if a.Type == sdk.ActDeal && a.Seat == sdk.Host {
		if s.Phase != sdk.PhaseGameOver {
			return no, sdk.Refuse(sdk.CodeBadAction, "the game is still on")
		}
		t.deal(&s)
		return sdk.ApplyResponse[tinyState]{State: s, Events: []sdk.Event{{Name: "dealt", Seat: sdk.NoSeat}}}, nil
	}
	if s.Phase != sdk.PhasePlaying {
		return no, sdk.Refuse(sdk.CodeGameOver, "the game is over")
	}
	if a.Seat != s.Turn {
		return no, sdk.Refuse(sdk.CodeNotYourTurn, "it is seat %d's turn", s.Turn)
	}
	switch a.Type {
	case sdk.ActPlay:
		if len(a.Cards) != 1 {
			return no, sdk.Refuse(sdk.CodeBadAction, "play one card")
		}
		c, top := a.Cards[0], s.Pile[len(s.Pile)-1]
		ok := legal(c, top) && s.Penalty == 0
		if ans, asked := req.AskHouse("may_play", map[string]string{"card": c.String(), "on": top.String()}); asked {
			ok = ans == "true"
		}
		if !ok {
			return no, sdk.Refuse("no_match", "%s does not go on %s", c, top)
		}
		hand, held := sdk.RemoveCards(s.Hands[a.Seat], a.Cards)
		if !held {
			return no, sdk.Refuse(sdk.CodeNotHeld, "seat %d does not hold %s", a.Seat, c)
		}
		s.Hands[a.Seat], s.Pile = hand, append(s.Pile, c)
		evs := []sdk.Event{{Name: "played", Seat: a.Seat, Cards: a.Cards}}
		if len(hand) == 0 {
			s.Phase, s.Winner = sdk.PhaseGameOver, a.Seat
			for i, h := range s.Hands {
				if i != a.Seat {
					s.Scores[a.Seat] += len(h)
				}
			}
			return sdk.ApplyResponse[tinyState]{State: s, Events: append(evs, sdk.Event{Name: "won", Seat: a.Seat})}, nil
		}
		s.Turn = s.next()
		return sdk.ApplyResponse[tinyState]{State: s, Events: append(evs, sdk.Event{Name: "turn", Seat: s.Turn})}, nil
	case sdk.ActDraw:
		n := max(1, s.Penalty)
		s.Penalty = 0
		var drawn []sdk.Card
		for range n {
			if len(s.Deck) == 0 && len(s.Pile) > 1 {
				s.Deck, s.Pile = slices.Clone(s.Pile[:len(s.Pile)-1]), s.Pile[len(s.Pile)-1:]
				s.RNG.ShuffleCards(sdk.DrawShuffle, s.Deck)
			}
			if len(s.Deck) == 0 {
				break
			}
			drawn, s.Deck = append(drawn, s.Deck[0]), s.Deck[1:]
		}
		s.Hands[a.Seat] = append(s.Hands[a.Seat], drawn...)
		s.Turn = s.next()
		return sdk.ApplyResponse[tinyState]{State: s, Events: []sdk.Event{
			{Name: "drew", Seat: a.Seat, Cards: drawn, Private: true}, {Name: "turn", Seat: s.Turn}}}, nil
	}
	return no, sdk.Refuse(sdk.CodeBadAction, "tiny has no action %q", a.Type)
}

func (tiny) View(s tinyState, viewer int) sdk.View {
	v := sdk.View{Phase: s.Phase, Turn: s.Turn, Direction: s.Dir, Winner: s.Winner}
	for i, h := range s.Hands {
		z := sdk.Zone{ID: "hand." + strconv.Itoa(i), Kind: sdk.ZoneHand, Owner: i, Count: len(h)}
		if i == viewer {
			z.Cards = slices.Clone(h)
		} else {
			z.Hidden = true
		}
		v.Zones = append(v.Zones, z)
		v.Players = append(v.Players, sdk.PlayerView{Seat: i, HandCount: len(h)})
	}
	v.Zones = append(v.Zones, sdk.Zone{ID: "pile", Kind: sdk.ZonePile, Owner: sdk.NoSeat, Cards: slices.Clone(s.Pile), Count: len(s.Pile)},
		sdk.Zone{ID: "deck", Kind: sdk.ZoneDeck, Owner: sdk.NoSeat, Count: len(s.Deck), Hidden: true})
	if s.Phase == sdk.PhasePlaying && viewer == s.Turn {
		var playable []sdk.Card
		for _, c := range s.Hands[viewer] {
			if s.Penalty == 0 && legal(c, s.Pile[len(s.Pile)-1]) {
				playable = append(playable, c)
			}
		}
		if len(playable) > 0 {
			v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActPlay, Label: "Play", Cards: playable})
		}
		v.Actions = append(v.Actions, sdk.ActionSpec{Type: sdk.ActDraw, Label: "Draw"})
	}
	return v
}

func (tiny) Status(s tinyState) sdk.Status {
	st := sdk.Status{Phase: s.Phase, Seats: s.Seats, Turn: s.Turn, Winner: s.Winner}
	if s.Phase == sdk.PhasePlaying {
		st.Actors = []int{s.Turn}
	} else {
		st.Turn = sdk.NoSeat
	}
	return st
}

func (tiny) Observe(s tinyState) sdk.Observation {
	hands := make([][]string, len(s.Hands))
	counts := make([]int, len(s.Hands))
	for i, h := range s.Hands {
		hands[i], counts[i] = sdk.CardStrings(h), len(h)
	}
	return sdk.Observation{"turn": s.Turn, "top": s.Pile[len(s.Pile)-1].String(), "hands": hands, "hand_count": counts,
		"phase": s.Phase, "penalty": s.Penalty, "scores": slices.Clone(s.Scores), "direction": s.Dir}
}

func (tiny) Cards(s tinyState) []sdk.Card {
	var out []sdk.Card
	for _, h := range s.Hands {
		out = append(out, h...)
	}
	return append(append(out, s.Pile...), s.Deck...)
}

func (tiny) Table(s tinyState) sdk.Table {
	t := sdk.Table{Zones: map[string][]sdk.Card{"pile": slices.Clone(s.Pile), "deck": slices.Clone(s.Deck)},
		Turn: s.Turn, Direction: s.Dir, Counters: map[string]int{"penalty": s.Penalty}}
	for i, h := range s.Hands {
		t.Zones[fmt.Sprintf("hand.%d", i)] = slices.Clone(h)
		t.Counters[fmt.Sprintf("score.%d", i)] = s.Scores[i]
	}
	return t
}

func (tiny) SetTable(s tinyState, t sdk.Table) (tinyState, error) {
	s = s.clone()
	for name, cards := range t.Zones {
		switch {
		case name == "pile":
			if len(cards) == 0 {
				return s, fmt.Errorf("the pile may not be empty")
			}
			s.Pile = slices.Clone(cards)
		case name == "deck":
			s.Deck = slices.Clone(cards)
		case strings.HasPrefix(name, "hand."):
			i, err := strconv.Atoi(strings.TrimPrefix(name, "hand."))
			if err != nil || i < 0 || i >= s.Seats {
				return s, fmt.Errorf("no zone %q", name)
			}
			s.Hands[i] = slices.Clone(cards)
		default:
			return s, fmt.Errorf("no zone %q", name)
		}
	}
	if t.Turn < 0 || t.Turn >= s.Seats {
		return s, fmt.Errorf("turn %d is not a seat", t.Turn)
	}
	if t.Direction != 1 && t.Direction != -1 {
		return s, fmt.Errorf("direction must be 1 or -1, got %d", t.Direction)
	}
	s.Turn, s.Dir = t.Turn, t.Direction
	for k, n := range t.Counters {
		switch {
		case k == "penalty":
			s.Penalty = n
		case strings.HasPrefix(k, "score."):
			i, err := strconv.Atoi(strings.TrimPrefix(k, "score."))
			if err != nil || i < 0 || i >= s.Seats {
				return s, fmt.Errorf("no counter %q", k)
			}
			s.Scores[i] = n
		default:
			return s, fmt.Errorf("no counter %q", k)
		}
	}
	if len(t.Values) > 0 {
		return s, fmt.Errorf("tiny has no values")
	}
	return s, nil
}

func (tiny) Bot(_ context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	if p, ok := req.View.Action(sdk.ActPlay); ok {
		return &sdk.Action{Type: sdk.ActPlay, Cards: p.Cards[:1]}, nil
	}
	if req.View.Has(sdk.ActDraw) {
		return &sdk.Action{Type: sdk.ActDraw}, nil
	}
	return nil, nil
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
