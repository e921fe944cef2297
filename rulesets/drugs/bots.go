package drugs

import (
	"context"
	"slices"
	"strconv"

	"cardhouse/sdk"
	"cardhouse/sdk/search"
)

// Bot chooses an action for req.Seat from its view alone (never the state): nil when the seat is
// not in turn. Level 1 plays a random playable rank (a random number of its cards) and picks up
// only when nothing is playable. Level 2 completes an overdose when it can, otherwise sheds its
// lowest plain rank whole and keeps 2s, 3s, 10s and Jokers for when nothing else goes (a 10 first
// on a big pile); it gives its lowest plain card to the opponent closest to winning. Both flip a
// random face-down position. Levels 3 to 5 search (sdk/search over Sample's worlds, budgets
// growing with the level). The view lists only legal starts, so every answer is legal.
func (r *Rules) Bot(ctx context.Context, req sdk.BotRequest) (*sdk.Action, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v := req.View
	rng := req.RNG
	if rng == nil {
		g := sdk.NewRNG(uint64(req.Seat) + 1)
		rng = &g
	}
	if req.Level >= 3 {
		// Levels 3 to 5: sdk/search's determinised Monte Carlo over worlds sampled from the view
		// and history (search.go); level 2 decides where the search cannot run.
		req.RNG = rng
		fallback := req
		fallback.Level = 2
		return search.Bot(ctx, r, req, func() (*sdk.Action, error) { return r.Bot(ctx, fallback) })
	}
	if a, ok := v.Action(sdk.ActGift); ok && len(a.Cards) > 0 && len(a.Targets) > 0 {
		return giftChoice(req.Seat, v, a, req.Level, rng), nil
	}
	if a, ok := v.Action(sdk.ActFlip); ok && len(a.Indexes) > 0 {
		i := a.Indexes[rng.Intn("bot", len(a.Indexes))]
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActFlip, Index: &i}, nil
	}
	if a, ok := v.Action(sdk.ActPlay); ok && len(a.Cards) > 0 {
		var cards []sdk.Card
		if req.Level >= 2 {
			cards = smartPlay(v, a.Cards)
		} else {
			cards = randomPlay(a.Cards, rng)
		}
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActPlay, Cards: cards, From: a.From}, nil
	}
	if v.Has(sdk.ActPickup) {
		return &sdk.Action{Seat: req.Seat, Type: sdk.ActPickup}, nil
	}
	return nil, nil
}

// byRank groups cards by rank code, in order of first appearance.
func byRank(cards []sdk.Card) [][]sdk.Card {
	var groups [][]sdk.Card
	for _, c := range cards {
		i := slices.IndexFunc(groups, func(g []sdk.Card) bool { return g[0].RankCode() == c.RankCode() })
		if i < 0 {
			groups = append(groups, []sdk.Card{c})
		} else {
			groups[i] = append(groups[i], c)
		}
	}
	return groups
}

func randomPlay(playable []sdk.Card, rng *sdk.RNG) []sdk.Card {
	groups := byRank(playable)
	g := groups[rng.Intn("bot", len(groups))]
	return slices.Clone(g[:1+rng.Intn("bot", len(g))])
}

func indicator(v sdk.View, id string) string {
	for _, in := range v.Indicators {
		if in.ID == id {
			return in.Value
		}
	}
	return ""
}

func smartPlay(v sdk.View, playable []sdk.Card) []sdk.Card {
	groups := byRank(playable)
	pile, _ := v.Zone("pile")
	run, _ := strconv.Atoi(indicator(v, "run"))
	od, _ := strconv.Atoi(indicator(v, "overdose"))
	if n := len(pile.Cards); n > 0 && run > 0 && od > 0 {
		top := pile.Cards[n-1]
		for _, g := range groups {
			if g[0].RankCode() == top.RankCode() && run+len(g) >= od {
				return slices.Clone(g) // overdose: burn and go again
			}
		}
	}
	var plain [][]sdk.Card
	for _, g := range groups {
		if !anywhere(g[0]) {
			plain = append(plain, g)
		}
	}
	if len(plain) > 0 {
		best := plain[0]
		for _, g := range plain[1:] {
			if value(g[0]) < value(best[0]) {
				best = g
			}
		}
		return slices.Clone(best)
	}
	prefer := []string{"2", "3", "10", "JK"}
	if len(pile.Cards) >= 6 {
		prefer = []string{"10", "2", "3", "JK"}
	}
	for _, rank := range prefer {
		for _, g := range groups {
			if g[0].RankCode() == rank {
				return slices.Clone(g[:1]) // one special at a time: keep the rest
			}
		}
	}
	return slices.Clone(groups[0])
}

func giftChoice(seat int, v sdk.View, a sdk.ActionSpec, level int, rng *sdk.RNG) *sdk.Action {
	if level < 2 {
		c := a.Cards[rng.Intn("bot", len(a.Cards))]
		t := a.Targets[rng.Intn("bot", len(a.Targets))]
		return &sdk.Action{Seat: seat, Type: sdk.ActGift, Cards: []sdk.Card{c}, Target: &t}
	}
	// The worst card to keep: the lowest plain card, else the lowest of the rest (never a Joker
	// while anything else is there).
	score := func(c sdk.Card) int {
		switch {
		case c == sdk.Joker:
			return 100
		case anywhere(c):
			return 50 + value(c)
		}
		return value(c)
	}
	give := a.Cards[0]
	for _, c := range a.Cards[1:] {
		if score(c) < score(give) {
			give = c
		}
	}
	// The opponent holding the fewest cards (hand, face up, face down) is closest to winning.
	target, least := a.Targets[0], -1
	for _, t := range a.Targets {
		n := 0
		for _, id := range []string{"hand.", "face_up.", "face_down."} {
			if z, ok := v.Zone(id + strconv.Itoa(t)); ok {
				n += z.Count
			}
		}
		if least < 0 || n < least {
			target, least = t, n
		}
	}
	return &sdk.Action{Seat: seat, Type: sdk.ActGift, Cards: []sdk.Card{give}, Target: &target}
}
