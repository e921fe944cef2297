package sdk

// View is the table as one viewer may see it: a generic description that one client renders for
// every ruleset. A seat's view holds no card that seat cannot see; the spectators' view holds no
// hand while a round is played. Once it is over a ruleset may show every hand left, to everyone
// (the reveal: the round's summary shows what each seat still held).
type View struct {
	Ruleset    string       `json:"ruleset"`
	Viewer     int          `json:"viewer"`
	Phase      string       `json:"phase"`
	Turn       int          `json:"turn"`
	Direction  int          `json:"direction"`
	Round      int          `json:"round,omitempty"`
	Winner     int          `json:"winner"`
	Players    []PlayerView `json:"players"`
	Zones      []Zone       `json:"zones"`
	Indicators []Indicator  `json:"indicators,omitempty"`
	// Actions are the actions open to the viewer now.
	Actions   []ActionSpec `json:"actions,omitempty"`
	Deadlines []Deadline   `json:"deadlines,omitempty"`
	// Events of the last step, as this viewer may see them (the engine fills them in).
	Events []Event `json:"events,omitempty"`
	// Roles gives cards a role the client draws with its own face, keyed by card code or by rank
	// code (Card.RankCode): DRUGS {"10": "burn", "2": "reset", ...}.
	Roles map[string]string `json:"roles,omitempty"`
}

// PlayerView is one seat as the viewer sees it.
type PlayerView struct {
	Seat      int  `json:"seat"`
	HandCount int  `json:"hand_count"`
	Score     *int `json:"score,omitempty"`
	// Points, at a round's end in a variant that scores one, are what the seat's hand left
	// counts (Last Card: the winner scores the others' points).
	Points *int `json:"points,omitempty"`
	// Tags are short states the client shows by the seat: "called", "out", "winner", "gifting".
	Tags []string `json:"tags,omitempty"`
}

// Zone kinds.
const (
	ZoneHand   = "hand"
	ZonePile   = "pile"
	ZoneDeck   = "deck"
	ZoneRow    = "row"
	ZoneBurned = "burned"
)

// Zone is a place cards lie: a hand, the discard pile, the deck, a face-up or face-down row.
// Cards is set when the viewer sees the cards (in order, bottom or left first); otherwise only
// Count. Slots, for positional rows, tells which positions hold a card (a gap stays a gap).
type Zone struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Owner int    `json:"owner"`
	Label string `json:"label,omitempty"`
	Cards []Card `json:"cards,omitempty"`
	Count int    `json:"count"`
	// Hidden is true when the viewer sees only the count (or the slots).
	Hidden bool   `json:"hidden,omitempty"`
	Slots  []bool `json:"slots,omitempty"`
}

// Indicator is a value the table shows: the active suit or colour, the penalty, the direction,
// a run of one rank, a timer. Kind tells the client how to draw it ("suit", "color", "count",
// "flag", "text").
type Indicator struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Value string `json:"value"`
	Kind  string `json:"kind,omitempty"`
}

// ActionSpec is an action open to the viewer, with what it may be done with.
type ActionSpec struct {
	Type  string `json:"type"`
	Label string `json:"label"`
	// Cards that may start or make this action (the playable cards, the cards one may give).
	Cards []Card `json:"cards,omitempty"`
	// Multi is true when several cards may go in one action (a group, a Queen sequence).
	Multi bool `json:"multi,omitempty"`
	// From names the zone the cards come from, when not the hand.
	From string `json:"from,omitempty"`
	// Choices are the names to pick from when a card needs one (suits, colours); ChoiceFor lists
	// the cards that need a choice.
	Choices   []string `json:"choices,omitempty"`
	ChoiceFor []Card   `json:"choice_for,omitempty"`
	Targets   []int    `json:"targets,omitempty"`
	Indexes   []int    `json:"indexes,omitempty"`
	// Args are the Action.Args keys this action takes (Last Card's "call" with a play). "choice"
	// needs no mention: an action with Choices takes it. The host refuses a seat's action that
	// carries a key no open action of its type declares, so nothing undeclared is ever stored.
	Args []string `json:"args,omitempty"`
}

// Has reports whether an action of type t is open in the view.
func (v *View) Has(t string) bool {
	for _, a := range v.Actions {
		if a.Type == t {
			return true
		}
	}
	return false
}

// Action returns the open action of type t, if any.
func (v *View) Action(t string) (ActionSpec, bool) {
	for _, a := range v.Actions {
		if a.Type == t {
			return a, true
		}
	}
	return ActionSpec{}, false
}

// Zone returns the zone with the given ID, if any.
func (v *View) Zone(id string) (Zone, bool) {
	for _, z := range v.Zones {
		if z.ID == id {
			return z, true
		}
	}
	return Zone{}, false
}
