package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"cardhouse/sdk"
)

// GenericLevel is the bot level every engine offers: a ruleset that declares no bot of this level
// (no sdk.Bots, or Info.BotLevels without it) has it played by the generic bot (GenericMove), so
// that a variant is playable against the computer from its first line.
const GenericLevel = 1

// GenericTries bounds the random candidates the generic bot tries before it falls back to the
// simplest actions: enough that a view whose open actions are mostly legal as offered (the usual
// case) almost never reaches the fallback, few enough that a view whose offers are mostly refused
// (a Multi group the rules constrain) costs a bounded number of Apply calls.
const GenericTries = 12

// GenericFallbacks bounds the simplest actions tried after the random ones (GenericSimplest
// lists them in order): a hand of a whole deck against every meld on the table stays bounded.
const GenericFallbacks = 64

// Levels returns the bot levels an engine of a ruleset with info offers, ascending: the levels the
// ruleset declares (Info.BotLevels, when it has bots: sdk.Bots), and GenericLevel, which its own
// bot plays when it declares it (or declares no level at all: a bot that names no level is its
// level 1) and the generic bot otherwise. Any other level is refused.
func Levels(info sdk.Info, bots bool) []int {
	var out []int
	if bots {
		out = slices.Clone(info.BotLevels)
	}
	if !slices.Contains(out, GenericLevel) {
		out = append(out, GenericLevel)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// WhoPlays says who plays level for a ruleset with info (bots: it implements sdk.Bots): its own
// bot (true) or the generic bot (false); a level not among Levels is refused with a *sdk.RuleError
// of sdk.CodeNotAvailable that names the levels there are.
func WhoPlays(info sdk.Info, bots bool, level int) (own bool, err error) {
	if levels := Levels(info, bots); !slices.Contains(levels, level) {
		return false, &sdk.RuleError{Code: sdk.CodeNotAvailable, Reason: fmt.Sprintf("%s has no bot of level %d (it has %v)", info.Name, level, levels)}
	}
	if !bots {
		return false, nil
	}
	if len(info.BotLevels) == 0 {
		return level == GenericLevel, nil
	}
	return slices.Contains(info.BotLevels, level), nil
}

// GenericMove is the generic level-1 bot: it chooses seat's action at random from the seat's view
// alone (L-11), nil when the view offers no action. A candidate takes one of the view's open
// actions (each weighing the cards it offers, one when none: pickSpec) and fills it from what the
// action offers: its From; exactly Count of its Cards when it has a Count, one to three of them
// when it is Multi, else one; a choice among its Choices, sent as Args["choice"], when it has any
// and ChoiceFor is empty or names a chosen card; one of its Zones (the zone's Owner as Target, its
// Meld as Index), else one of its Targets, and one of its Indexes. try says whether the ruleset accepts a candidate (false for a refusal, an
// error for anything else: GenericMove returns it). After GenericTries refused candidates it tries
// the simplest actions of the view in order (GenericSimplest, at most GenericFallbacks of them),
// and when the ruleset refuses every one it returns the first, so that the host hears the refusal.
// Its only randomness is rng, with the label "bot".
func GenericMove(v sdk.View, seat int, rng *sdk.RNG, try func(sdk.Action) (bool, error)) (*sdk.Action, error) {
	if len(v.Actions) == 0 {
		return nil, nil
	}
	for range GenericTries {
		a, ok := randomCandidate(v, pickSpec(v.Actions, rng), seat, rng)
		if !ok {
			continue
		}
		ok, err := try(a)
		if err != nil {
			return nil, err
		}
		if ok {
			return &a, nil
		}
	}
	simple := GenericSimplest(v, seat)
	if len(simple) == 0 {
		return nil, nil
	}
	for _, a := range simple[:min(len(simple), GenericFallbacks)] {
		ok, err := try(a)
		if err != nil {
			return nil, err
		}
		if ok {
			return &a, nil
		}
	}
	return &simple[0], nil
}

// pickSpec picks one of specs at random, each weighing the cards it offers (one when it offers
// none), so that every move is about as likely as any other: a draw comes about as often as
// playing any one playable card, not as often as every play together (uniform over the actions,
// a random bot draws so often that a game may never end).
func pickSpec(specs []sdk.ActionSpec, rng *sdk.RNG) sdk.ActionSpec {
	weight := func(sp sdk.ActionSpec) int { return max(1, len(sp.Cards)) }
	total := 0
	for _, sp := range specs {
		total += weight(sp)
	}
	k := rng.Intn("bot", total)
	for _, sp := range specs {
		if k -= weight(sp); k < 0 {
			return sp
		}
	}
	return specs[len(specs)-1]
}

// randomCandidate fills sp at random; false when it cannot be filled (fewer cards than its Count,
// a zone the view does not show).
func randomCandidate(v sdk.View, sp sdk.ActionSpec, seat int, rng *sdk.RNG) (sdk.Action, bool) {
	a := sdk.Action{Seat: seat, Type: sp.Type, From: sp.From}
	if n := len(sp.Cards); n > 0 {
		k := 1
		switch {
		case sp.Count > 0:
			k = sp.Count
		case sp.Multi:
			k = 1 + rng.Intn("bot", min(3, n))
		}
		if k > n {
			return a, false
		}
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		rng.Shuffle("bot", n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		for _, i := range idx[:k] {
			a.Cards = append(a.Cards, sp.Cards[i])
		}
	} else if sp.Count > 0 {
		return a, false
	}
	if needsChoice(sp, a.Cards) {
		a.Args = map[string]string{"choice": sp.Choices[rng.Intn("bot", len(sp.Choices))]}
	}
	if len(sp.Zones) > 0 {
		z, ok := v.Zone(sp.Zones[rng.Intn("bot", len(sp.Zones))])
		if !ok {
			return a, false
		}
		aimAt(&a, z)
	} else if len(sp.Targets) > 0 {
		t := sp.Targets[rng.Intn("bot", len(sp.Targets))]
		a.Target = &t
	}
	if len(sp.Indexes) > 0 && a.Index == nil {
		i := sp.Indexes[rng.Intn("bot", len(sp.Indexes))]
		a.Index = &i
	}
	return a, true
}

// needsChoice reports whether an action of sp with cards takes a choice.
func needsChoice(sp sdk.ActionSpec, cards []sdk.Card) bool {
	if len(sp.Choices) == 0 {
		return false
	}
	if len(sp.ChoiceFor) == 0 {
		return true
	}
	return slices.ContainsFunc(cards, func(c sdk.Card) bool { return slices.Contains(sp.ChoiceFor, c) })
}

// aimAt makes a aim at zone z: its owner as Target, its meld number as Index.
func aimAt(a *sdk.Action, z sdk.Zone) {
	owner := z.Owner
	a.Target = &owner
	if z.Meld != nil {
		m := *z.Meld
		a.Index = &m
	}
}

// GenericSimplest lists the simplest actions seat's view v offers, simplest first: the open
// actions that take nothing (a draw, a pass), then each other open action in the view's order
// filled in every way with the fewest cards (one card at a time, or the first Count), the first
// of its Choices, and each of its Zones, Targets and Indexes in turn.
func GenericSimplest(v sdk.View, seat int) []sdk.Action {
	var bare, rest []sdk.Action
	for _, sp := range v.Actions {
		base := sdk.Action{Seat: seat, Type: sp.Type, From: sp.From}
		var hands [][]sdk.Card
		switch {
		case sp.Count > 0 && len(sp.Cards) >= sp.Count:
			hands = [][]sdk.Card{slices.Clone(sp.Cards[:sp.Count])}
		case sp.Count > 0:
			continue // it cannot be made
		case len(sp.Cards) > 0:
			for _, c := range sp.Cards {
				hands = append(hands, []sdk.Card{c})
			}
		default:
			hands = [][]sdk.Card{nil}
		}
		aims := []func(*sdk.Action){func(*sdk.Action) {}}
		switch {
		case len(sp.Zones) > 0:
			aims = aims[:0]
			for _, id := range sp.Zones {
				if z, ok := v.Zone(id); ok {
					aims = append(aims, func(a *sdk.Action) { aimAt(a, z) })
				}
			}
		case len(sp.Targets) > 0:
			aims = aims[:0]
			for _, t := range sp.Targets {
				aims = append(aims, func(a *sdk.Action) { a.Target = &t })
			}
		}
		indexes := []*int{nil}
		if len(sp.Indexes) > 0 {
			indexes = indexes[:0]
			for _, i := range sp.Indexes {
				indexes = append(indexes, &i)
			}
		}
		simple := len(sp.Cards) == 0 && len(sp.Choices) == 0 && len(sp.Zones) == 0 && len(sp.Targets) == 0 && len(sp.Indexes) == 0
		for _, cards := range hands {
			for _, aim := range aims {
				for _, ix := range indexes {
					a := base
					a.Cards = cards
					if needsChoice(sp, cards) {
						a.Args = map[string]string{"choice": sp.Choices[0]}
					}
					aim(&a)
					if ix != nil && a.Index == nil {
						i := *ix
						a.Index = &i
					}
					if simple {
						bare = append(bare, a)
					} else {
						rest = append(rest, a)
					}
				}
			}
		}
	}
	return append(bare, rest...)
}

// accepts is the generic bot's try for an engine: the ruleset's own Apply (without house rules,
// whose before hooks then vet the choice as for any bot) on state s, at clock 0 (a bot call has
// no clock: seat actions do not depend on it). A refusal is false; a ruleset failure an error.
func (e *engine[S]) accepts(ctx context.Context, s S) func(sdk.Action) (bool, error) {
	return func(a sdk.Action) (bool, error) {
		_, err := e.r.Apply(ctx, sdk.ApplyRequest[S]{State: s, Action: a})
		if err == nil {
			return true, nil
		}
		if errors.Is(err, sdk.ErrIllegal) {
			return false, nil
		}
		return false, e.fail("bot", err)
	}
}

// ViewBots returns the ruleset's own bots (sdk.Bots) behind an engine New made, for a client that
// chooses from the views it receives and never holds a state (the load benchmark's players); false
// when e is no such engine or its ruleset has no bot of its own. The generic bot is not offered
// there: it tries its candidates on the state, which such a client does not have.
func ViewBots(e Engine) (sdk.Bots, bool) {
	v, ok := e.(interface{ viewBots() (sdk.Bots, bool) })
	if !ok {
		return nil, false
	}
	return v.viewBots()
}

func (e *engine[S]) viewBots() (sdk.Bots, bool) {
	b, ok := e.r.(sdk.Bots)
	return b, ok
}
