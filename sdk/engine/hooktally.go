package engine

// HookCount is how often one hook of one rule ran over some steps, and how often it did
// something (refused, changed the table, ended the round, answered, opened its action, chose for
// a bot or emitted an event): a hook that runs but never fires shows a rule that never applies.
type HookCount struct {
	Rule string `json:"rule"`
	// Hook is HookTrace.Where: "after_action", "actions.swap_hands.open", "answers.may_play".
	Hook  string `json:"hook"`
	Calls int    `json:"calls"`
	Fired int    `json:"fired"`
}

// HookTally adds up the hook calls of steps' reports (traced: ActRequest.Trace). The zero value
// is empty and ready.
type HookTally struct {
	counts []HookCount
	index  map[[2]string]int
}

// Declare adds a row with no calls for every hook rule declares, so that a hook never called
// shows too. Bot hooks run when a bot is asked, not in a step, so they have no row.
func (t *HookTally) Declare(rule string, info HouseRuleInfo) {
	for _, h := range info.Hooks {
		t.row(rule, h)
	}
	for _, q := range info.Answers {
		t.row(rule, "answers."+q)
	}
	for _, a := range info.Actions {
		t.row(rule, "actions."+a.Name+"."+HookOpen)
		t.row(rule, "actions."+a.Name+"."+HookApply)
	}
}

// Add counts the calls of a step's report (nil counts nothing).
func (t *HookTally) Add(r *HouseReport) {
	if r == nil {
		return
	}
	for _, c := range r.Calls {
		row := t.row(c.Rule, c.Where())
		row.Calls++
		if c.Fired() {
			row.Fired++
		}
	}
}

// Counts returns the rows, in the order they were first declared or seen.
func (t *HookTally) Counts() []HookCount { return append([]HookCount(nil), t.counts...) }

func (t *HookTally) row(rule, hook string) *HookCount {
	if t.index == nil {
		t.index = map[[2]string]int{}
	}
	k := [2]string{rule, hook}
	i, ok := t.index[k]
	if !ok {
		i = len(t.counts)
		t.index[k] = i
		t.counts = append(t.counts, HookCount{Rule: rule, Hook: hook})
	}
	return &t.counts[i]
}

// Where names the hook called as a script spells it: "after_action", "actions.swap.open",
// "answers.may_play".
func (c HookTrace) Where() string {
	switch c.Hook {
	case HookOpen, HookApply, HookBot:
		return "actions." + c.Name + "." + c.Hook
	case HookAsk:
		return "answers." + c.Name
	}
	return c.Hook
}

// Fired reports whether the call did something.
func (c HookTrace) Fired() bool { return c.Did != "" || len(c.Events) > 0 }
