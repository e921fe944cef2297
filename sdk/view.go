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

	// The families' parts (docs/writing-a-variant.md, "Tricks, bids, teams and melds"): each is
	// left empty by a variant that has no use for it, and the client draws each the same way for
	// every variant that fills it.

	// Trick is the trick being played, nil outside trick play; LastTrick the trick taken last, which
	// stays reviewable while the next is played (nil before the first is taken).
	Trick     *Trick `json:"trick,omitempty"`
	LastTrick *Trick `json:"last_trick,omitempty"`
	// Teams are the partnerships, when seats play in teams (Spades: seats 0 and 2, 1 and 3).
	Teams []Team `json:"teams,omitempty"`
	// Sheet is the score sheet of the game so far, hand by hand, so that a page opened late shows
	// every earlier hand.
	Sheet *ScoreSheet `json:"sheet,omitempty"`
	// LowWins says that the lowest total wins (Hearts); the client orders standings by it.
	LowWins bool `json:"low_wins,omitempty"`
}

// Trick is the cards played to one trick, in the order played, each with the seat that played it.
type Trick struct {
	// Leader is the seat that led the trick.
	Leader int         `json:"leader"`
	Plays  []TrickPlay `json:"plays"`
	// Winner is the seat that took the trick, once it is taken; nil while it is played.
	Winner *int `json:"winner,omitempty"`
}

// TrickPlay is one card played to a trick.
type TrickPlay struct {
	Seat int  `json:"seat"`
	Card Card `json:"card"`
}

// Team is a partnership of seats and what the team has this game and this hand. The optional
// numbers are left nil by a variant that has no such thing.
type Team struct {
	ID    int    `json:"id"`
	Name  string `json:"name"`
	Seats []int  `json:"seats"`
	Score int    `json:"score"`
	// Contract is the tricks the team bid this hand (nil before the bidding ends).
	Contract *int `json:"contract,omitempty"`
	// Tricks are the tricks the team took this hand toward its contract.
	Tricks *int `json:"tricks,omitempty"`
	// Bags are the overtricks the team has gathered this game (Spades: ten cost 100 points).
	Bags *int `json:"bags,omitempty"`
}

// ScoreSheet is a game's score hand by hand: a column per seat, or per team when By is "team",
// a row per hand scored, and the totals.
type ScoreSheet struct {
	// By is "seat" or "team"; Columns name the seats or teams in order (seat or team number).
	By      string     `json:"by"`
	Columns []string   `json:"columns"`
	Rows    []ScoreRow `json:"rows"`
	Totals  []int      `json:"totals"`
}

// ScoreRow is one hand's line: its label ("Hand 3"), what each column scored, and an optional
// note per column ("moon", "set", "gin"; "" for none).
type ScoreRow struct {
	Label string   `json:"label"`
	Cells []int    `json:"cells"`
	Notes []string `json:"notes,omitempty"`
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
	// Tricks are the tricks the seat has taken this hand, in a trick-taking variant.
	Tricks *int `json:"tricks,omitempty"`
	// Bid is the seat's bid as the table shows it ("4", "Nil", "Blind nil"); "" before it bids.
	Bid string `json:"bid,omitempty"`
	// Team is the seat's team (View.Teams[i].ID), in a variant of partnerships.
	Team *int `json:"team,omitempty"`
}

// Zone kinds.
const (
	ZoneHand   = "hand"
	ZonePile   = "pile"
	ZoneDeck   = "deck"
	ZoneRow    = "row"
	ZoneBurned = "burned"
	// ZoneMeld is one laid-out group of cards (a set or a run): Owner's meld number Meld. An action
	// that lays cards off onto a meld names its zone in ActionSpec.Zones, and the action carries
	// the meld's owner as Target and its number as Index.
	ZoneMeld = "meld"
	// ZoneDeadwood is a laid-out hand's cards that are in no meld.
	ZoneDeadwood = "deadwood"
	// ZonePassing is the cards a seat has chosen to pass (face down to everyone else).
	ZonePassing = "passing"
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
	// Meld is the meld's number among its owner's melds, for a zone of kind ZoneMeld.
	Meld *int `json:"meld,omitempty"`
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
	// Count, when not 0, is exactly how many cards the action takes (Hearts' pass of three): the
	// client shows the count chosen and enables the action only at Count. It implies Multi.
	Count int `json:"count,omitempty"`
	// From names the zone the cards come from, when not the hand.
	From string `json:"from,omitempty"`
	// Choices are the names to pick from when a card needs one (suits, colours); ChoiceFor lists
	// the cards that need a choice.
	Choices   []string `json:"choices,omitempty"`
	ChoiceFor []Card   `json:"choice_for,omitempty"`
	// ChoiceLabels, when set, are the names the client shows for Choices, one each in order
	// ("Nil" for "nil", "Blind nil"); without them the client words the choice itself.
	ChoiceLabels []string `json:"choice_labels,omitempty"`
	// Zones are the zones (by ID) the action may target, such as the melds a card may be laid off
	// onto; the action then carries the zone's Owner as Target and its Meld as Index.
	Zones   []string `json:"zones,omitempty"`
	Targets []int    `json:"targets,omitempty"`
	Indexes []int    `json:"indexes,omitempty"`
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

// ViewsMaker is an optional extra of a Ruleset: Views makes the views of one state for several
// viewers at once, so that what is the same for every viewer (the players, the pile, the
// indicators, the trick, the teams, the score sheet) is built once and shared between the views,
// and its patch is written once for all of them (ViewPatcher). Views sets views[i] to exactly
// View(state, viewers[i]) for every i (the conformance kit checks it at every step of random
// games, and that the patches are the whole views' diff); len(views) == len(viewers). A part may
// be shared between the views made by one call (the same slice, map or pointer), never with the
// state, and nobody changes a view once it is made.
type ViewsMaker[S any] interface {
	Views(state S, viewers []int, views []View)
}
