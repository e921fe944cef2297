package sdk

// HouseHooks is an optional extra: the questions a ruleset asks house rules while it applies an
// action (for example "may_play": may card X be played on card Y?). It finds them on
// ApplyRequest.Ask; a question no rule answers leaves the base rules in charge. Views and bots are
// computed without asking, so a rule that answers should agree with the view or refuse in its
// before_action hook (the engine takes the cards before_action refuses out of the views).
type HouseHooks interface {
	HouseHooks() []HouseHook
}

// HouseHook is a question a ruleset asks house rules.
type HouseHook struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Args        []string `json:"args,omitempty"`
}

// Asker answers a ruleset's declared questions from the game's house rules. Ask returns the first
// answer of the rules in order, and ok false when none answers. A rule that fails while answering
// makes the engine refuse the action whatever the ruleset then returns.
type Asker interface {
	Ask(question string, args map[string]string) (answer string, ok bool)
}

// AskHouse asks the game's house rules a declared question; ok is false when the game has none or
// none answers.
func (r ApplyRequest[S]) AskHouse(question string, args map[string]string) (answer string, ok bool) {
	if r.Ask == nil {
		return "", false
	}
	return r.Ask.Ask(question, args)
}
