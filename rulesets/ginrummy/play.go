package ginrummy

import (
	"slices"
	"strconv"

	"cardhouse/sdk"
)

// pass declines the upcard (GR-4) or ends laying off (GR-6).
func (t *turn) pass(a sdk.Action) error {
	s := t.s
	switch s.Stage {
	case StageUpcard:
		s.Passes++
		t.emit(sdk.Event{Name: EvPassed, Seat: a.Seat, Data: map[string]string{"stage": StageUpcard}})
		if s.Passes == 1 {
			s.Turn = s.Dealer
		} else {
			// GR-4: both passed; the non-dealer draws from the stock and play goes on.
			s.Turn, s.Stage, s.MustStock = s.nonDealer(), StagePlay, true
		}
		t.emit(sdk.Event{Name: EvTurn, Seat: s.Turn})
		return nil
	case StageLayoff:
		t.emit(sdk.Event{Name: EvPassed, Seat: a.Seat, Data: map[string]string{"stage": StageLayoff}})
		t.score()
		return nil
	}
	return refuse(CodeWrongStage, "you can pass only on the upcard or to end laying off")
}

// discardable checks that seat may now put c down (discard or knock): it has drawn, holds c and
// did not just take it from the discard pile.
func (t *turn) discardable(seat int, cards []sdk.Card, what string) (sdk.Card, error) {
	s := t.s
	if s.Stage != StagePlay {
		return 0, refuse(CodeWrongStage, "you cannot %s now", what)
	}
	if !s.Drawn {
		return 0, refuse(CodeMustDraw, "draw a card first, from the stock or the discard pile")
	}
	if len(cards) != 1 {
		return 0, refuse(sdk.CodeBadAction, "%s exactly one card", what)
	}
	c := cards[0]
	if !slices.Contains(s.Hands[seat], c) {
		return 0, refuse(sdk.CodeNotHeld, "you do not hold %s", c)
	}
	if c == s.Taken {
		return 0, refuse(CodeTakenCard, "you just took %s from the discard pile: you may not discard it this turn", c)
	}
	return c, nil
}

// remove takes c out of seat's hand (and out of what the other knows of it).
func (s *State) remove(seat int, c sdk.Card) {
	s.Hands[seat] = slices.DeleteFunc(s.Hands[seat], func(d sdk.Card) bool { return d == c })
	s.Known[seat] = slices.DeleteFunc(s.Known[seat], func(d sdk.Card) bool { return d == c })
}

func (t *turn) discard(a sdk.Action) error {
	s := t.s
	c, err := t.discardable(a.Seat, a.Cards, "discard")
	if err != nil {
		return err
	}
	s.remove(a.Seat, c)
	s.Pile = append(s.Pile, c)
	if s.Shed == nil {
		s.Shed = [][]sdk.Card{{}, {}}
	}
	s.Shed[a.Seat] = append(s.Shed[a.Seat], c)
	s.Drawn, s.Taken = false, 0
	t.emit(sdk.Event{Name: EvPlayed, Seat: a.Seat, Cards: []sdk.Card{c}, Count: 1})
	if len(s.Stock) <= 2 {
		// GR-8: a discard without a knock leaves two cards in the stock: the hand is void.
		t.void()
		return nil
	}
	s.Turn = 1 - a.Seat
	t.emit(sdk.Event{Name: EvTurn, Seat: s.Turn})
	return nil
}

// void ends the hand with no score; the same dealer deals the next one (GR-8).
func (t *turn) void() {
	s := t.s
	s.Void, s.Stage, s.Phase, s.Winner = true, StageOver, sdk.PhaseRoundOver, sdk.NoSeat
	s.Rows = append(s.Rows, sdk.ScoreRow{Label: "Hand " + strconv.Itoa(s.Hand), Cells: []int{0, 0}, Notes: []string{"void", "void"}})
	t.emit(sdk.Event{Name: EvVoidHand, Seat: sdk.NoSeat})
}

// knock discards Cards[0] face down and lays both hands out (GR-6, GR-11); with no card and the
// big_gin option, all eleven cards are laid out as melds (GR-7).
func (t *turn) knock(a sdk.Action) error {
	s := t.s
	seat := a.Seat
	big := false
	var c sdk.Card
	if len(a.Cards) == 0 && s.BigGin {
		if s.Stage != StagePlay || !s.Drawn {
			return refuse(CodeMustDraw, "draw a card first")
		}
		if d := Deadwood(s.Hands[seat]); d != 0 {
			return refuse(CodeTooMuch, "big gin needs all your cards in melds; your best arrangement leaves %d deadwood", d)
		}
		big = true
	} else {
		var err error
		if c, err = t.discardable(seat, a.Cards, "knock with"); err != nil {
			return err
		}
		rest := slices.DeleteFunc(slices.Clone(s.Hands[seat]), func(d sdk.Card) bool { return d == c })
		d := Deadwood(rest)
		ok := d <= s.KnockLimit
		if ans, asked := t.askHouse(HookMayKnock, map[string]string{"seat": strconv.Itoa(seat), "deadwood": strconv.Itoa(d), "limit": strconv.Itoa(s.KnockLimit)}); asked {
			ok = ans == "yes" || ans == "true"
		}
		if !ok {
			return refuse(CodeTooMuch, "you may knock only with %d deadwood or less after the discard; without %s you would have %d", s.KnockLimit, c, d)
		}
		s.remove(seat, c)
		s.KnockCard = c
	}
	s.Knocker = seat
	s.Drawn, s.Taken = false, 0
	s.Melds, s.Dead = make([][][]sdk.Card, Seats), make([][]sdk.Card, Seats)
	for i := range Seats {
		s.Melds[i], s.Dead[i] = Arrange(s.Hands[i])
		if s.Melds[i] == nil {
			s.Melds[i] = [][]sdk.Card{}
		}
		if s.Dead[i] == nil {
			s.Dead[i] = []sdk.Card{}
		}
		s.Hands[i] = []sdk.Card{}
		s.Known[i] = []sdk.Card{}
	}
	kd := Points(s.Dead[seat])
	t.emit(sdk.Event{Name: EvKnocked, Seat: seat, Data: map[string]string{"deadwood": strconv.Itoa(kd)}})
	if kd == 0 {
		s.Gin = "gin"
		data := map[string]string{}
		if big {
			s.Gin = "big gin"
			data["big"] = "true"
		}
		t.emit(sdk.Event{Name: EvGin, Seat: seat, Data: data})
		t.score()
		return nil
	}
	s.Stage, s.Turn = StageLayoff, 1-seat
	t.emit(sdk.Event{Name: EvTurn, Seat: s.Turn})
	return nil
}

func (t *turn) askHouse(q string, args map[string]string) (string, bool) {
	if t.ask == nil {
		return "", false
	}
	return t.ask(q, args)
}

// layoff lays Cards of the defender's deadwood onto the knocker's meld Index (GR-6, GR-11).
func (t *turn) layoff(a sdk.Action) error {
	s := t.s
	if s.Stage != StageLayoff {
		return refuse(CodeWrongStage, "you can lay off only after the other player knocks")
	}
	k := s.Knocker
	if a.Target != nil && *a.Target != k {
		return refuse(sdk.CodeBadAction, "lay off onto the knocker's melds")
	}
	if a.Index == nil || *a.Index < 0 || *a.Index >= len(s.Melds[k]) {
		return refuse(sdk.CodeBadAction, "name one of the knocker's melds, 0 to %d", len(s.Melds[k])-1)
	}
	if len(a.Cards) == 0 {
		return refuse(sdk.CodeBadAction, "name the cards to lay off")
	}
	dead, ok := sdk.RemoveCards(s.Dead[a.Seat], a.Cards)
	if !ok {
		return refuse(sdk.CodeNotHeld, "you can lay off only your deadwood cards")
	}
	meld := s.Melds[k][*a.Index]
	joined := append(slices.Clone(meld), a.Cards...)
	if !IsMeld(joined) {
		return refuse(CodeNoMeld, "%s do not extend the meld %s", cardWords(a.Cards), cardWords(meld))
	}
	s.Melds[k][*a.Index] = setOf(joined).cards()
	s.Dead[a.Seat] = dead
	t.emit(sdk.Event{Name: EvLaidOff, Seat: a.Seat, Cards: slices.Clone(a.Cards), Count: len(a.Cards),
		Data: map[string]string{"meld": strconv.Itoa(*a.Index), "target": strconv.Itoa(k)}})
	return nil
}

func cardWords(cards []sdk.Card) string {
	out := ""
	for i, c := range cards {
		if i > 0 {
			out += " "
		}
		out += c.String()
	}
	return out
}

// score scores the hand (GR-7) and ends it, or the game at the target with its bonuses (GR-9).
func (t *turn) score() {
	s := t.s
	k := s.Knocker
	d := 1 - k
	kd, dd := Points(s.Dead[k]), Points(s.Dead[d])
	row := sdk.ScoreRow{Label: "Hand " + strconv.Itoa(s.Hand), Cells: []int{0, 0}, Notes: []string{"", ""}}
	var scorer, pts int
	switch {
	case s.Gin == "big gin":
		scorer, pts = k, bigGinBonus+dd
		row.Notes[k] = "big gin"
	case s.Gin == "gin":
		scorer, pts = k, ginBonus+dd
		row.Notes[k] = "gin"
	case kd < dd:
		scorer, pts = k, dd-kd
	default:
		scorer, pts = d, kd-dd+undercutBonus
		row.Notes[d] = "undercut"
		t.emit(sdk.Event{Name: EvUndercut, Seat: d})
	}
	row.Cells[scorer] = pts
	s.Rows = append(s.Rows, row)
	s.Scores[scorer] += pts
	s.HandsWon[scorer]++
	s.Stage, s.Winner, s.Phase = StageOver, scorer, sdk.PhaseRoundOver
	t.emit(sdk.Event{Name: EvHandScored, Seat: scorer, Count: pts, Data: map[string]string{
		"points": strconv.Itoa(pts), "knocker_deadwood": strconv.Itoa(kd), "defender_deadwood": strconv.Itoa(dd),
		"score": strconv.Itoa(s.Scores[scorer]),
	}})
	won := map[string]string{"hand": strconv.Itoa(s.Hand)}
	if s.Scores[scorer] >= s.Target {
		s.Phase = sdk.PhaseGameOver
		won["game"] = "true"
		t.bonuses(scorer)
	}
	t.emit(sdk.Event{Name: EvWon, Seat: scorer, Data: won})
}

// bonuses adds the game bonus (doubled for a shutout) and the line bonuses (GR-9).
func (t *turn) bonuses(winner int) {
	s := t.s
	loser := 1 - winner
	game := sdk.ScoreRow{Label: "Game bonus", Cells: []int{0, 0}, Notes: []string{"", ""}}
	game.Cells[winner] = gameBonus
	shutout := s.HandsWon[loser] == 0
	if shutout {
		game.Cells[winner] = 2 * gameBonus
		game.Notes[winner] = "shutout"
	}
	line := sdk.ScoreRow{Label: "Line bonus", Cells: []int{lineBonus * s.HandsWon[0], lineBonus * s.HandsWon[1]}}
	for i := range Seats {
		s.Scores[i] += game.Cells[i] + line.Cells[i]
	}
	s.Rows = append(s.Rows, game, line)
	t.emit(sdk.Event{Name: EvGameBonuses, Seat: winner, Data: map[string]string{
		"game_bonus": strconv.Itoa(game.Cells[winner]), "shutout": strconv.FormatBool(shutout),
	}})
}

// deal is the host's deal after a hand (the next hand; the dealer alternates, or stays after a
// void hand, GR-1, GR-8) or after a game (a new game, the dealer moving on).
func (t *turn) deal() error {
	s := t.s
	switch s.Phase {
	case sdk.PhasePlaying:
		return refuse(CodeGameOn, "the hand is still being played: deal when it is over")
	case sdk.PhaseGameOver:
		s.Game++
		s.Hand = 1
		s.Scores, s.HandsWon, s.Rows = make([]int, Seats), make([]int, Seats), nil
		s.Dealer = 1 - s.Dealer
	default:
		s.Hand++
		if !s.Void {
			s.Dealer = 1 - s.Dealer
		}
	}
	s.dealRandom()
	s.Shed = nil
	t.emit(sdk.Event{Name: EvDealt, Seat: s.Dealer, Cards: []sdk.Card{s.top()}, Count: 1,
		Data: map[string]string{"hand": strconv.Itoa(s.Hand), "game": strconv.Itoa(s.Game)}})
	t.emit(sdk.Event{Name: EvTurn, Seat: s.Turn})
	return nil
}

var _ sdk.Ender[*State] = (*Rules)(nil)

// End ends the hand for a house rule (game.end_round and game.end_game in Lua) through the hand's
// own scoring: the winner wins the hand and scores the difference of the two hands' deadwood (as
// laid out after a knock, else of their best arrangements; at least 0), and the game ends at the
// target, or at once with req.Game, with its bonuses (GR-9). Every hand is then shown.
func (r *Rules) End(s *State, req sdk.EndRequest) (*State, []sdk.Event, error) {
	if !s.playing() {
		return nil, nil, sdk.Refuse(CodeHandOver, "the hand is already over")
	}
	if req.Winner < 0 || req.Winner >= Seats {
		return nil, nil, sdk.Refuse(sdk.CodeHouseRule, "winner %d is not a seat of this 2-player game", req.Winner)
	}
	t := &turn{s: s.clone()}
	c := t.s
	w := req.Winner
	_, dw := c.meldsOf(w)
	_, dl := c.meldsOf(1 - w)
	pts := max(0, Points(dl)-Points(dw))
	row := sdk.ScoreRow{Label: "Hand " + strconv.Itoa(c.Hand), Cells: []int{0, 0}, Notes: []string{"", ""}}
	row.Cells[w] = pts
	c.Rows = append(c.Rows, row)
	c.Scores[w] += pts
	c.HandsWon[w]++
	c.Stage, c.Winner, c.Phase, c.Drawn, c.Taken = StageOver, w, sdk.PhaseRoundOver, false, 0
	t.emit(sdk.Event{Name: EvHandScored, Seat: w, Count: pts, Data: map[string]string{"points": strconv.Itoa(pts), "score": strconv.Itoa(c.Scores[w])}})
	won := map[string]string{"hand": strconv.Itoa(c.Hand)}
	if req.Game || c.Scores[w] >= c.Target {
		c.Phase = sdk.PhaseGameOver
		won["game"] = "true"
		t.bonuses(w)
	}
	t.emit(sdk.Event{Name: EvWon, Seat: w, Data: won})
	return c, t.evs, nil
}
