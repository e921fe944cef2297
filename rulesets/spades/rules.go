package spades

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// ID is the Spades ruleset's id.
const ID = "spades"

// Seats is the number of players: two partnerships (SP-1).
const Seats = 4

// HandSize is the cards each seat is dealt: the whole deck shared out (SP-1).
const HandSize = 13

// MercyScore is the total at or below which a team loses with the option mercy (SP-7).
const MercyScore = -200

// Draw labels of this ruleset's random draws (besides sdk.DrawShuffle for the deal).
const (
	// DrawDealer picks the first game's dealer when the host names no opener.
	DrawDealer = "dealer"
)

// actLook is the action of a seat that looks at its cards, giving up blind nil (SP-2).
const actLook = "look"

// Rules is the Spades ruleset; its zero value is ready to use.
type Rules struct{}

// New returns the Spades ruleset.
func New() *Rules { return &Rules{} }

var (
	_ sdk.Ruleset[*State]     = (*Rules)(nil)
	_ sdk.Redealer[*State]    = (*Rules)(nil)
	_ sdk.TableEditor[*State] = (*Rules)(nil)
	_ sdk.Ender[*State]       = (*Rules)(nil)
	_ sdk.Historian[*State]   = (*Rules)(nil)
	_ sdk.Bots                = (*Rules)(nil)
	_ sdk.HouseHooks          = (*Rules)(nil)
)

func itoa(n int) string { return strconv.Itoa(n) }

// Start deals the first hand: the fixed deal when given, else a shuffled deck. The dealer is the
// seat before the deal's first seat, else before the host's opener, else drawn (DrawDealer).
func (r *Rules) Start(_ context.Context, req sdk.StartRequest) (*State, error) {
	if req.Seats != Seats {
		return nil, sdk.Refuse(sdk.CodeBadOption, "Spades is played by exactly 4 players, not %d", req.Seats)
	}
	s := &State{
		Target: req.Options.Int("target"), Mercy: req.Options.Bool("mercy"), BlindNil: req.Options.Bool("blind_nil"),
		Phase: sdk.PhasePlaying, Winner: sdk.NoSeat, Game: 1, RNG: req.RNG,
	}
	if s.Target == 0 {
		s.Target = 500
	}
	switch {
	case req.Opener != nil:
		s.FirstDealer = (*req.Opener + Seats - 1) % Seats
	case req.Deal == nil || req.Deal.First == nil:
		s.FirstDealer = s.RNG.Intn(DrawDealer, Seats)
	}
	if req.Deal == nil {
		s.newHand(s.FirstDealer, nil)
		return s, nil
	}
	l, err := req.Deal.Layout(sdk.FrenchDeck(1, 0), Seats, &s.RNG)
	if err != nil {
		return nil, err
	}
	if len(l.Pile) > 0 || len(l.FaceUp) > 0 || len(l.FaceDown) > 0 {
		return nil, sdk.Refuse(sdk.CodeBadDeal, "deal: Spades has no pile and no rows, only hands")
	}
	hands := l.Hands
	if hands == nil {
		hands = make([][]sdk.Card, Seats)
	}
	deck := l.Deck
	for i := 0; len(deck) > 0; i = (i + 1) % Seats {
		if len(hands[i]) > HandSize {
			return nil, sdk.Refuse(sdk.CodeBadDeal, "deal: seat %d holds %d cards, more than %d", i, len(hands[i]), HandSize)
		}
		if slices.IndexFunc(hands, func(h []sdk.Card) bool { return len(h) < HandSize }) < 0 {
			break
		}
		if len(hands[i]) < HandSize {
			hands[i] = append(hands[i], deck[0])
			deck = deck[1:]
		}
	}
	for i, h := range hands {
		if len(h) != len(hands[0]) || len(h) > HandSize {
			return nil, sdk.Refuse(sdk.CodeBadDeal, "deal: every seat must hold the same number of cards, at most %d (seat %d holds %d, seat 0 %d)", HandSize, i, len(h), len(hands[0]))
		}
	}
	if l.First != sdk.NoSeat {
		s.FirstDealer = (l.First + Seats - 1) % Seats
	}
	s.newHand(s.FirstDealer, hands)
	s.Out = append(l.Out, deck...)
	return s, nil
}

// newHand starts a hand dealt by dealer: hands when given, else the shuffled deck (SP-1).
func (s *State) newHand(dealer int, hands [][]sdk.Card) {
	if hands == nil {
		cards := sdk.FrenchDeck(1, 0)
		s.RNG.ShuffleCards(sdk.DrawShuffle, cards)
		hands = make([][]sdk.Card, Seats)
		for i := range hands {
			hands[i] = slices.Clone(cards[i*HandSize : (i+1)*HandSize])
		}
	}
	s.Hands, s.Done, s.Cur, s.Out = hands, nil, nil, nil
	s.Dealer, s.Turn, s.Stage, s.Broken = dealer, (dealer+1)%Seats, StageBid, false
	s.Bids = []int{noBid, noBid, noBid, noBid}
	s.Looked = []bool{!s.BlindNil, !s.BlindNil, !s.BlindNil, !s.BlindNil}
	s.Phase, s.Winner = sdk.PhasePlaying, sdk.NoSeat
}

// parseBid reads a bid's choice: "nil" or "0", "blind_nil", or "1".."13".
func parseBid(choice string) (int, bool) {
	switch choice {
	case BidNil, "0":
		return bidNil, true
	case BidBlindNil:
		return bidBlindNil, true
	}
	n, err := strconv.Atoi(choice)
	if err != nil || n < 1 || n > HandSize || strconv.Itoa(n) != choice {
		return 0, false
	}
	return n, true
}

func refuse(code, format string, args ...any) (sdk.ApplyResponse[*State], error) {
	return sdk.ApplyResponse[*State]{}, sdk.Refuse(code, format, args...)
}

// Apply plays one action on a copy of the state.
func (r *Rules) Apply(_ context.Context, req sdk.ApplyRequest[*State]) (sdk.ApplyResponse[*State], error) {
	in, a := req.State, req.Action
	if in == nil {
		return refuse(sdk.CodeBadAction, "no game")
	}
	if a.Type == sdk.ActDeal {
		if a.Seat != sdk.Host {
			return refuse(sdk.CodeBadAction, "only the host deals")
		}
		if in.Phase == sdk.PhasePlaying {
			return refuse(sdk.CodeBadAction, "the hand is still being played")
		}
		s := in.clone()
		if s.Phase == sdk.PhaseGameOver {
			s.Game++
			s.FirstDealer = (s.FirstDealer + 1) % Seats
			s.Scores, s.Bags, s.Sheet = [2]int{}, [2]int{}, nil
			s.newHand(s.FirstDealer, nil)
		} else {
			s.newHand((s.Dealer+1)%Seats, nil)
		}
		return sdk.ApplyResponse[*State]{State: s, Events: []sdk.Event{
			{Name: "dealt", Seat: sdk.Host, Data: map[string]string{"dealer": itoa(s.Dealer)}},
			{Name: "turn", Seat: s.Turn},
		}}, nil
	}
	if in.Phase != sdk.PhasePlaying {
		return refuse(sdk.CodeGameOver, "the hand is over")
	}
	if a.Seat < 0 || a.Seat >= Seats {
		return refuse(sdk.CodeBadAction, "only a seat of the table plays")
	}
	if a.Type == actLook {
		if in.Stage != StageBid || in.Looked[a.Seat] {
			return refuse(sdk.CodeBadAction, "you have already seen your cards")
		}
		s := in.clone()
		s.Looked[a.Seat] = true
		return sdk.ApplyResponse[*State]{State: s, Events: []sdk.Event{{Name: "looked", Seat: a.Seat}}}, nil
	}
	if a.Seat != in.Turn {
		return refuse(sdk.CodeNotYourTurn, "it is not your turn: seat %d is to %s", in.Turn+1, in.Stage)
	}
	switch a.Type {
	case sdk.ActBid:
		return r.bid(in, a)
	case sdk.ActPlay:
		return r.play(in, a, req.AskHouse)
	}
	return refuse(sdk.CodeBadAction, "Spades has no action %q", a.Type)
}

// bid applies a seat's bid (SP-2).
func (r *Rules) bid(in *State, a sdk.Action) (sdk.ApplyResponse[*State], error) {
	if in.Stage != StageBid {
		return refuse(codeWrongStage, "the bidding is over: play a card")
	}
	b, ok := parseBid(a.Args["choice"])
	if !ok {
		return refuse(codeBadBid, "bid nil or a number of tricks from 1 to 13, not %q", a.Args["choice"])
	}
	if b == bidBlindNil && !in.BlindNil {
		return refuse(codeBadBid, "blind nil is not allowed at this table")
	}
	if b == bidBlindNil && in.Looked[a.Seat] {
		return refuse(codeBadBid, "blind nil only before you look at your cards")
	}
	s := in.clone()
	s.Bids[a.Seat] = b
	evs := []sdk.Event{{Name: "bid", Seat: a.Seat, Data: map[string]string{"bid": bidWords(b), "choice": fmt.Sprint(bidCode(b))}}}
	if b != bidBlindNil {
		s.Looked[a.Seat] = true
	}
	if s.biddingDone() {
		s.Stage = StagePlay
		for i := range s.Looked {
			s.Looked[i] = true // the blind nil bidder picks up the cards to play them
		}
		s.Turn = (s.Dealer + 1) % Seats
	} else {
		s.Turn = (s.Turn + 1) % Seats
	}
	evs = append(evs, sdk.Event{Name: "turn", Seat: s.Turn})
	return sdk.ApplyResponse[*State]{State: s, Events: evs}, nil
}

// play applies a card played to the trick (SP-3 to SP-5), and scores the hand after its last
// trick (SP-6, SP-7).
func (r *Rules) play(in *State, a sdk.Action, ask asker) (sdk.ApplyResponse[*State], error) {
	if in.Stage != StagePlay {
		return refuse(codeWrongStage, "the bidding is not over: bid first")
	}
	if len(a.Cards) != 1 {
		return refuse(sdk.CodeBadAction, "play exactly one card")
	}
	c := a.Cards[0]
	if ok, code, why := in.legal(a.Seat, c); !ok {
		return refuse(code, "%s", why)
	}
	s := in.clone()
	evs := s.playCard(a.Seat, c, !s.Simulated, ask)
	return sdk.ApplyResponse[*State]{State: s, Events: evs}, nil
}

// asker answers the ruleset's house-rule questions (sdk.ApplyRequest.AskHouse); nil asks none.
type asker func(question string, args map[string]string) (string, bool)

// HandPoints is the question asked of house rules when a hand is scored, for each team: its
// answer, a number, replaces the points the team scores for the hand.
const HandPoints = "hand_points"

// HouseHooks declares the question house rules may answer: hand_points.
func (r *Rules) HouseHooks() []sdk.HouseHook {
	return []sdk.HouseHook{{
		Name: HandPoints,
		Description: "When a hand is scored, for each team: the points the team scores for the hand (a number), " +
			"given its team (0: seats 1 and 3, 1: seats 2 and 4), contract, tricks (toward the contract), nil_tricks " +
			"(taken by its nil bidders), points (what the base rules score, the bag penalty included) and notes.",
		Args: []string{"team", "contract", "tricks", "nil_tricks", "points", "notes"},
	}}
}

// playCard plays c for seat in place (legality already checked); with events false it builds
// no events (a search's playouts). ask, when not nil, is asked HandPoints at the hand's end.
func (s *State) playCard(seat int, c sdk.Card, events bool, ask asker) []sdk.Event {
	var evs []sdk.Event
	i := slices.Index(s.Hands[seat], c)
	s.Hands[seat] = slices.Delete(s.Hands[seat], i, i+1)
	if s.Cur == nil {
		s.Cur = &Trick{Leader: seat, Winner: sdk.NoSeat}
	}
	s.Cur.Plays = append(s.Cur.Plays, Play{Seat: seat, Card: c})
	if events {
		evs = append(evs, sdk.Event{Name: "played", Seat: seat, Cards: []sdk.Card{c}})
	}
	if c.Suit() == sdk.Spades && !s.Broken {
		s.Broken = true
		if events {
			evs = append(evs, sdk.Event{Name: "spades_broken", Seat: seat})
		}
	}
	if len(s.Cur.Plays) < Seats {
		s.Turn = (seat + 1) % Seats
		if events {
			evs = append(evs, sdk.Event{Name: "turn", Seat: s.Turn})
		}
		return evs
	}
	w, _ := s.Cur.winning()
	s.Cur.Winner = w
	s.Done = append(s.Done, *s.Cur)
	s.Cur = nil
	s.Turn = w
	if events {
		evs = append(evs, sdk.Event{Name: "trick_won", Seat: w, Data: map[string]string{"seat": itoa(w), "tricks": itoa(s.tricks(w))}})
	}
	if len(s.Hands[w]) > 0 {
		if events {
			evs = append(evs, sdk.Event{Name: "turn", Seat: s.Turn})
		}
		return evs
	}
	return append(evs, s.score(events, ask)...)
}

// score scores the hand just ended (SP-6) and ends it, or the game (SP-7).
func (s *State) score(events bool, ask asker) []sdk.Event {
	var hs HandScore
	for tm := range 2 {
		pts, notes := 0, []string{}
		con, took := s.contract(tm), s.teamTricks(tm)
		bags := 0
		if con > 0 || took > 0 {
			if took >= con {
				pts += 10*con + took - con
				bags += took - con
			} else {
				pts -= 10 * con
				notes = append(notes, "set")
			}
		}
		for seat := tm; seat < Seats; seat += 2 {
			b := s.Bids[seat]
			if b != bidNil && b != bidBlindNil {
				continue
			}
			worth, name := 100, "nil"
			if b == bidBlindNil {
				worth, name = 200, "blind nil"
			}
			n := s.tricks(seat)
			if n == 0 {
				pts += worth
				notes = append(notes, name+" made")
			} else {
				pts -= worth
				notes = append(notes, name+" failed")
				pts += n // a nil bidder's tricks are bags for the team (SP-6)
				bags += n
			}
		}
		s.Bags[tm] += bags
		for s.Bags[tm] >= 10 {
			s.Bags[tm] -= 10
			pts -= 100
			notes = append(notes, "bags -100")
		}
		if ask != nil {
			nilTricks := 0
			for seat := tm; seat < Seats; seat += 2 {
				if s.Bids[seat] == bidNil || s.Bids[seat] == bidBlindNil {
					nilTricks += s.tricks(seat)
				}
			}
			if ans, ok := ask(HandPoints, map[string]string{
				"team": itoa(tm), "contract": itoa(con), "tricks": itoa(took), "nil_tricks": itoa(nilTricks),
				"points": itoa(pts), "notes": joinNotes(notes),
			}); ok {
				if f, err := strconv.ParseFloat(ans, 64); err == nil {
					pts = int(math.Round(f))
					notes = append(notes, "house rule")
				}
			}
		}
		s.Scores[tm] += pts
		hs.Points[tm] = pts
		hs.Notes[tm] = joinNotes(notes)
	}
	s.Sheet = append(s.Sheet, hs)
	s.Phase, s.Turn = sdk.PhaseRoundOver, sdk.NoSeat
	var evs []sdk.Event
	if events {
		evs = append(evs, sdk.Event{Name: "hand_scored", Seat: sdk.NoSeat, Data: map[string]string{
			"hand":    itoa(len(s.Sheet)),
			"points0": signed(hs.Points[0]), "points1": signed(hs.Points[1]),
			"score0": itoa(s.Scores[0]), "score1": itoa(s.Scores[1]),
			"notes0": hs.Notes[0], "notes1": hs.Notes[1],
			"result0": result(hs.Points[0], hs.Notes[0]), "result1": result(hs.Points[1], hs.Notes[1]),
		}})
	}
	if w := s.gameWinner(); w >= 0 {
		s.Phase, s.Winner = sdk.PhaseGameOver, w
		if events {
			evs = append(evs, sdk.Event{Name: "won", Seat: w, Data: map[string]string{"target": itoa(w + 2), "team": itoa(w)}})
		}
	}
	return evs
}

// gameWinner is the team that has won the game after a hand (its first seat, which is the team's
// number), or -1 when another hand is played (SP-7): a team at MercyScore or below loses (with
// the option mercy); a team at the target ends the game and the higher total wins; equal totals
// play another hand.
func (s *State) gameWinner() int {
	a, b := s.Scores[0], s.Scores[1]
	end := a >= s.Target || b >= s.Target
	if s.Mercy && (a <= MercyScore || b <= MercyScore) {
		end = true
	}
	if !end || a == b {
		return -1
	}
	if a > b {
		return 0
	}
	return 1
}

func joinNotes(notes []string) string {
	out := ""
	for i, n := range notes {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// result is a team's hand in words: "+63", "-20 (set)".
func result(points int, notes string) string {
	if notes == "" {
		return signed(points)
	}
	return signed(points) + " (" + notes + ")"
}

func signed(n int) string {
	if n > 0 {
		return "+" + itoa(n)
	}
	return itoa(n)
}
