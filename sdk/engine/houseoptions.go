package engine

// A new game's house rules: each compiled (described), named once, its options validated and
// normalised against what it declares, its answers and actions checked against the ruleset's.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"cardhouse/sdk"
)

// openHouse readies a game's house rules; errors are plain (the caller decides their kind).
func (e *engine[S]) openHouse(ctx context.Context, rules []sdk.HouseRule, st *houseState) (*house[S], error) {
	names := make([]string, len(rules))
	for i, r := range rules {
		names[i] = fmt.Sprintf("%q", r.Name)
	}
	if e.cfg.house == nil {
		return nil, fmt.Errorf("this game names house rules (%s) but the %s plugin was built without a house-rule runner (serve it with sdk.New(ruleset, houserules.Enable()))", strings.Join(names, ", "), e.info.ID)
	}
	ed, ok := any(e.r).(sdk.TableEditor[S])
	if !ok {
		return nil, fmt.Errorf("this game names house rules (%s) but ruleset %s does not implement sdk.TableEditor, which house rules need", strings.Join(names, ", "), e.info.ID)
	}
	h := &house[S]{e: e, ed: ed, rules: rules, st: st, infos: make([]HouseRuleInfo, len(rules))}
	for i, r := range rules {
		info, err := e.cfg.house.Describe(ctx, r)
		if err != nil {
			return nil, err
		}
		h.infos[i] = info
	}
	if h.st.Memory == nil {
		h.st.Memory = map[string]map[string]any{}
	}
	return h, nil
}

// prepareHouse checks a new game's house rules: names unique, options valid (returned normalised),
// declared actions and answers not clashing.
func (e *engine[S]) prepareHouse(ctx context.Context, req *NewGameRequest) (*house[S], error) {
	rules := slices.Clone(req.HouseRules)
	st := &houseState{RNG: sdk.NewRNG(req.Seed ^ 0x686f757365)} // "house": its own stream, same seed
	for label, vals := range req.Forced {
		st.RNG.Force(label, vals...)
	}
	h, err := e.openHouse(ctx, rules, st)
	if err != nil {
		return nil, err
	}
	var questions []string
	if hh, ok := e.r.(sdk.HouseHooks); ok {
		for _, q := range hh.HouseHooks() {
			questions = append(questions, q.Name)
		}
	}
	seenRule := map[string]bool{}
	actionOwner := map[string]string{}
	for i, info := range h.infos {
		r := &h.rules[i]
		if r.Name == "" {
			r.Name = info.Name
		}
		if r.Name != info.Name {
			msg := fmt.Sprintf("the script declares the name %q", info.Name)
			return nil, &ruleFailure{fault: sdk.HouseFault{Rule: r.Name, Version: r.Version, Message: msg}, msg: fmt.Sprintf("house rule %q: %s", r.Name, msg)}
		}
		if seenRule[r.Name] {
			return nil, fmt.Errorf("house rule %q is enabled twice", r.Name)
		}
		seenRule[r.Name] = true
		opts, err := sdk.ValidateOptions(info.Options, r.Options)
		if err != nil {
			return nil, &sdk.RuleError{Code: sdk.CodeBadOption, Reason: fmt.Sprintf("house rule %q: %v", r.Name, err),
				Fault: &sdk.HouseFault{Rule: r.Name, Version: r.Version, Message: err.Error()}}
		}
		r.Options = opts
		for _, a := range info.Answers {
			if !slices.Contains(questions, a) {
				asks := "asks none"
				if len(questions) > 0 {
					asks = "asks " + strings.Join(questions, ", ")
				}
				return nil, fmt.Errorf("house rule %q answers the question %q, which ruleset %s does not ask (it %s)", r.Name, a, e.info.ID, asks)
			}
		}
		for _, a := range info.Actions {
			if other, ok := actionOwner[a.Name]; ok {
				return nil, fmt.Errorf("house rules %q and %q both add an action %q", other, r.Name, a.Name)
			}
			actionOwner[a.Name] = r.Name
		}
	}
	return h, nil
}
