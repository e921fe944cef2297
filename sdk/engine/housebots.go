package engine

// The bots' checks: a bot seat with an open house action chooses through the rule (or at random),
// and a ruleset bot's choice that a house rule refuses is swapped for an action the view offers
// that no rule refuses. Nothing here knows a variant: the candidates come from the view's specs.

import (
	"context"
	"errors"
	"slices"

	"cardhouse/sdk"
)

// bot chooses for a seat with an open house action: the rule's bot hook, or for a blocking action
// a random target, card or choice. It returns nil when the ruleset's bot should choose.
func (h *house[S]) bot(ctx context.Context, s S, seat int, rng *sdk.RNG) (*sdk.Action, error) {
	var opens []OpenHouseAction
	blocking := h.st.blocking() != nil
	for _, o := range h.st.Open {
		if o.Seat == seat && (o.Blocking || !blocking) {
			opens = append(opens, o)
		}
	}
	slices.SortStableFunc(opens, func(a, b OpenHouseAction) int {
		switch {
		case a.Blocking == b.Blocking:
			return 0
		case a.Blocking:
			return -1
		}
		return 1
	})
	for _, o := range opens {
		i := h.ruleOf(o.Spec.Type)
		if i < 0 {
			continue
		}
		var info HouseAction
		for _, a := range h.infos[i].Actions {
			if a.Name == o.Spec.Type {
				info = a
			}
		}
		if info.Bot {
			res, err := h.call(ctx, i, HookCall{Hook: HookBot, Name: info.Name, Table: h.ed.Table(s), Status: h.e.r.Status(s), Seat: seat, RNG: rng})
			if err != nil {
				return nil, err
			}
			if res.Action != nil {
				a := *res.Action
				a.Type, a.Seat = info.Name, seat
				return &a, nil
			}
		}
		if o.Blocking {
			return randomChoice(o.Spec, seat, rng), nil
		}
	}
	return nil, nil
}

// vetBot passes a ruleset bot's choice through the before_action hooks; when a house rule refuses
// it, the bot takes at random one of the view's simple actions that no house rule refuses (or keeps
// its choice when there is none, and the host hears the refusal).
func (h *house[S]) vetBot(ctx context.Context, s S, a sdk.Action, v sdk.View, rng *sdk.RNG) (*sdk.Action, error) {
	if !slices.ContainsFunc(h.infos, func(i HouseRuleInfo) bool { return i.Has(HookBefore) }) {
		return &a, nil
	}
	t := h.ed.Table(s)
	err := h.before(ctx, s, t, &a)
	if err == nil || !errors.Is(err, sdk.ErrIllegal) {
		return &a, err
	}
	var ok []sdk.Action
	for _, c := range candidates(v, a.Seat) {
		if err := h.before(ctx, s, t, &c); err == nil {
			ok = append(ok, c)
		} else if !errors.Is(err, sdk.ErrIllegal) {
			return nil, err
		}
	}
	if len(ok) == 0 {
		return &a, nil
	}
	c := ok[rng.Intn("bot", len(ok))]
	return &c, nil
}

// randomChoice picks the parameters of an offered action at random.
func randomChoice(sp sdk.ActionSpec, seat int, rng *sdk.RNG) *sdk.Action {
	a := &sdk.Action{Seat: seat, Type: sp.Type}
	if len(sp.Targets) > 0 {
		t := sp.Targets[rng.Intn("bot", len(sp.Targets))]
		a.Target = &t
	}
	if len(sp.Cards) > 0 {
		a.Cards = []sdk.Card{sp.Cards[rng.Intn("bot", len(sp.Cards))]}
	}
	if len(sp.Choices) > 0 {
		a.Args = map[string]string{"choice": sp.Choices[rng.Intn("bot", len(sp.Choices))]}
	}
	return a
}

// candidates lists the simple actions a view offers, for a bot whose own choice a house rule
// refused: each card alone (each with every choice, for a card that needs one), or the first Count
// cards for an action that takes exactly Count; each target; each index; each choice of an action
// that is a choice alone (a bid). It reads only what the ruleset declares in the view's specs.
func candidates(v sdk.View, seat int) []sdk.Action {
	var out []sdk.Action
	withChoices := func(a sdk.Action, choices []string) {
		if len(choices) == 0 {
			out = append(out, a)
			return
		}
		for _, ch := range choices {
			out = append(out, a.WithChoice(ch))
		}
	}
	for _, sp := range v.Actions {
		base := sdk.Action{Seat: seat, Type: sp.Type, From: sp.From}
		switch {
		case sp.Count > 1:
			if len(sp.Cards) >= sp.Count {
				a := base
				a.Cards = slices.Clone(sp.Cards[:sp.Count])
				out = append(out, a)
			}
		case len(sp.Cards) > 0:
			for _, c := range sp.Cards {
				a := base
				a.Cards = []sdk.Card{c}
				if slices.Contains(sp.ChoiceFor, c) {
					withChoices(a, sp.Choices)
				} else {
					out = append(out, a)
				}
			}
		case len(sp.Targets) > 0:
			for _, t := range sp.Targets {
				a := base
				a.Target = &t
				out = append(out, a)
			}
		case len(sp.Indexes) > 0:
			for _, ix := range sp.Indexes {
				a := base
				a.Index = &ix
				out = append(out, a)
			}
		default:
			withChoices(base, sp.Choices)
		}
	}
	return out
}
