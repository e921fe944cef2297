package sdk

import "context"

// Seat numbers of actors that are not seats.
const (
	// Clock acts when a deadline falls due (Action.Deadline names it).
	Clock = -1
	// Host acts to deal the next round or game.
	Host = -2
	// Spectator is the viewer number of the spectators' view.
	Spectator = -1
	// NoSeat marks "no seat" in a Status or an Event (no turn, no winner yet).
	NoSeat = -1
)

// Phases of a game, as Status.Phase and the scenario key `phase` name them.
const (
	PhasePlaying   = "playing"
	PhaseRoundOver = "round_over"
	PhaseGameOver  = "game_over"
)

// Action types shared by the built-in rulesets and the scenario format. A ruleset may add its own.
const (
	ActPlay     = "play"
	ActDraw     = "draw"
	ActPass     = "pass"
	ActCall     = "call"
	ActCatch    = "catch"
	ActPickup   = "pickup"
	ActFlip     = "flip"
	ActGift     = "gift"
	ActDeal     = "deal"
	ActDeadline = "deadline"
	// The trick, bid and meld families (docs/scenarios.md, "Tricks, bids and melds").
	//
	// ActPassCards chooses cards to pass (Cards); the pass happens once every seat has chosen.
	ActPassCards = "pass_cards"
	// ActBid bids; the bid is Args["choice"] ("0" to "13", "nil", "blind_nil"), one of the open
	// action's Choices.
	ActBid = "bid"
	// ActDiscard discards Cards, ending the turn. ActDraw with From "stock" or "discard" draws
	// from that pile.
	ActDiscard = "discard"
	// ActKnock knocks, discarding Cards[0] face down (Gin Rummy).
	ActKnock = "knock"
	// ActLayoff lays Cards off onto the meld numbered Index of seat Target (Target nil: the only
	// other seat with melds laid out).
	ActLayoff = "layoff"
)

// The piles ActDraw's From names in a variant with a stock and a discard pile.
const (
	FromStock   = "stock"
	FromDiscard = "discard"
)

// Info describes a ruleset: who it is, how many seats, its options and its rules text.
type Info struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Version string `json:"version"`
	Summary string `json:"summary"`
	// Rules is the "how to play" page in Markdown; the client shows it, so a new variant brings its
	// own rules page.
	Rules    string   `json:"rules"`
	MinSeats int      `json:"min_seats"`
	MaxSeats int      `json:"max_seats"`
	Options  []Option `json:"options"`
	// Presets are named option sets the room form offers, the first being the defaults.
	Presets   []Preset `json:"presets,omitempty"`
	BotLevels []int    `json:"bot_levels,omitempty"`
	// StateVersion is the version of the state's encoding; raise it when the state type changes in
	// a way old blobs cannot be read with, and implement Upgrader.
	StateVersion int `json:"state_version"`
	// CardBack names the back the client draws on face-down cards: "french" (the default) or
	// "color" (the back of the coloured cards, Card.IsColorCard); without one the client draws the
	// back of the family of the cards in sight.
	CardBack string `json:"card_back,omitempty"`
	// Sample is a few of the variant's cards (three read best), drawn face up beside its name in
	// the lobby; without them the lobby draws three French cards.
	Sample []Card `json:"sample,omitempty"`
	// EventTexts are the move log's sentences for the variant's events, by event name, in player
	// words; a key "NAME KEY=VALUE" words the events of that name whose Data[KEY] is VALUE (tried
	// before "NAME"), and "" writes no line. The client fills in {seat} (the acting seat's name),
	// {cards} (the event's cards in words, or "a card" / "N cards" when hidden), {count}, {target}
	// (Data["target"] as a seat's name) and {KEY} for any other Data key; {FIELD:seat} writes a
	// seat number as its name, {FIELD:choice} a suit or colour code as its name, {FIELD:cards} a
	// number as "N cards": "played": "{seat} played {cards}", "caught": "{seat} was caught by
	// {by:seat}". The client has no words of its own for a variant's events: an event without a
	// text is written as its bare name ("turn" writes none).
	EventTexts map[string]string `json:"event_texts,omitempty"`
	// Texts are the variant's player-facing texts in other languages: by locale ("fr", "ar"), then
	// by the English text exactly as the variant writes it (its name and summary, an option's
	// label, description, default text and choice labels, a preset's name and description, an
	// action's label and choice labels, a zone's, an indicator's and a team's name, a score
	// sheet's words, an event text with its placeholders kept as they are):
	//
	//	Texts: map[string]map[string]string{"fr": {"Draw": "Piocher", "{seat} played {cards}": "{seat} a joué {cards}"}}
	//
	// The English stays the variant's own words and the key: the views, the log and the rules are
	// written once, in English, and the client shows each text in the player's locale, the
	// English where a locale lacks one (web/static/js/i18n.js). A plain map: a ruleset needs no
	// translation library.
	Texts map[string]map[string]string `json:"texts,omitempty"`
	// RulesText is the rules page (Rules) in other languages, by locale, in Markdown.
	RulesText map[string]string `json:"rules_text,omitempty"`
}

// HouseRule is a house-rule script enabled for a game, pinned to the exact version it started with.
type HouseRule struct {
	Name    string         `json:"name"`
	Version int            `json:"version"`
	Source  string         `json:"source"`
	Options map[string]any `json:"options,omitempty"`
}

// Deal fixes a starting layout (a scenario's `deal:`). Every card named must come out of the
// game's card set; cards not named go where Rest says ("deck", the default, after Deck; or "out").
// Rulesets read it through Layout.
type Deal struct {
	Pile     []Card   `json:"pile,omitempty"`
	Hands    [][]Card `json:"hands,omitempty"`
	FaceUp   [][]Card `json:"face_up,omitempty"`
	FaceDown [][]Card `json:"face_down,omitempty"`
	Deck     []Card   `json:"deck,omitempty"`
	First    *int     `json:"first,omitempty"`
	Rest     string   `json:"rest,omitempty"`
}

// StartRequest starts a game.
type StartRequest struct {
	Seats int
	// Options are already validated against Info.Options (and OptionChecker, if implemented).
	Options Options
	Seed    uint64
	// HouseRules are the scripts enabled for this game; the engine runs their hooks around Start and
	// Apply (see WithHouseRules), so a ruleset needs nothing but TableEditor for them.
	HouseRules []HouseRule
	// Deal, when set, fixes the layout instead of a random deal.
	Deal *Deal
	// Forced outcomes of labelled draws, already queued in RNG.
	RNG RNG
	// Opener is the seat the host's rotation names to open this game (the last game's opener moved
	// one seat on), nil for the first game. A ruleset whose rules rotate the opener (Hotspot H-12,
	// Last Card L-10) honours it; one whose rules choose otherwise (DRUGS D-9 draws every game)
	// ignores it. Deal.First wins over both.
	Opener *int
	// Now is the game clock in milliseconds.
	Now int64
}

// Action is what a seat (or the clock, or the host) does. Type says which; the other fields are
// the action's arguments, each used by the types that need it.
type Action struct {
	Seat  int    `json:"seat"`
	Type  string `json:"type"`
	Cards []Card `json:"cards,omitempty"`
	// Suit and Color are the old places of a choice (a suit "S", "H", "D", "C"; a colour "R",
	// "Y", "G", "B"), kept so that actions stored before choices moved to Args["choice"], and the
	// scenario format's suit: and color: keys, still apply: read a choice with Choice, never
	// these, and send one as Args["choice"].
	Suit  string `json:"suit,omitempty"`
	Color string `json:"color,omitempty"`
	// From names the zone the cards come from when not the hand ("face_up").
	From string `json:"from,omitempty"`
	// Target is a seat the action aims at (catch, gift).
	Target *int `json:"target,omitempty"`
	// Index is a position (flip).
	Index *int `json:"index,omitempty"`
	// Deadline names the deadline that fell due, for a Clock action.
	Deadline string `json:"deadline,omitempty"`
	// Args carries the parameters of actions a ruleset or house rule adds.
	Args map[string]string `json:"args,omitempty"`
}

// ArgChoice is the Args key of an action's choice among its ActionSpec's Choices (a suit to
// follow, a colour, a bid, a pile): every choice travels there, whatever it names.
const ArgChoice = "choice"

// Choice is the choice the action makes among its spec's Choices: Args["choice"]; else, for an
// action in the old form (stored before choices moved to Args, or a scenario's suit: or color:
// key), its Suit, else its Color. "" when it makes none.
func (a Action) Choice() string {
	if c := a.Args[ArgChoice]; c != "" {
		return c
	}
	if a.Suit != "" {
		return a.Suit
	}
	return a.Color
}

// WithChoice returns the action making choice (in Args["choice"]; Args is copied, not changed).
func (a Action) WithChoice(choice string) Action {
	args := make(map[string]string, len(a.Args)+1)
	for k, v := range a.Args {
		args[k] = v
	}
	args[ArgChoice] = choice
	a.Args = args
	return a
}

// Event is something that happened, for the log and the players' animations. Events with Private
// set show their Cards only to Seat; everyone else sees Count.
type Event struct {
	Name    string            `json:"name"`
	Seat    int               `json:"seat"`
	Cards   []Card            `json:"cards,omitempty"`
	Count   int               `json:"count,omitempty"`
	Data    map[string]string `json:"data,omitempty"`
	Private bool              `json:"private,omitempty"`
}

// For returns the event as viewer may see it.
func (e Event) For(viewer int) Event {
	if e.Private && viewer != e.Seat {
		if e.Count == 0 {
			e.Count = len(e.Cards)
		}
		e.Cards = nil
	}
	return e
}

// Deadline is a moment on the game clock when the host must send a Clock action naming ID.
type Deadline struct {
	ID   string `json:"id"`
	Seat int    `json:"seat"`
	// At is the game clock in milliseconds.
	At   int64  `json:"at"`
	Kind string `json:"kind,omitempty"`
}

// Status is what the host needs to run a game: whose move, what is due.
type Status struct {
	Phase  string `json:"phase"`
	Seats  int    `json:"seats"`
	Turn   int    `json:"turn"`
	Winner int    `json:"winner"`
	Round  int    `json:"round,omitempty"`
	// Actors are the seats with an action open now, the seat in turn first (others may call LAST
	// CARD or catch). Bots are asked for these.
	Actors    []int      `json:"actors,omitempty"`
	Deadlines []Deadline `json:"deadlines,omitempty"`
}

// Observation holds the scenario observation keys of docs/scenarios.md: "turn", "top", "hands", ...
// Values are JSON-like: int, bool, string, []string of card codes, []int, [][]string, nil.
type Observation map[string]any

// ApplyRequest asks a ruleset to apply one action to a state.
type ApplyRequest[S any] struct {
	State  S
	Action Action
	// Now is the game clock in milliseconds: deadlines are set relative to it.
	Now int64
	// Ask answers the ruleset's declared questions (HouseHooks) from the game's house rules; nil
	// when the game has none. Use AskHouse, which handles nil.
	Ask Asker
}

// ApplyResponse is the new state and what happened. The input state is never modified.
type ApplyResponse[S any] struct {
	State  S
	Events []Event
}

// Ruleset is a card variant: pure Go, no I/O, no clock, no global randomness. S is its state type.
//
// Apply must not mutate its input state; Start and Apply draw randomness only from the RNG kept
// in the state. A refused action returns an error wrapping *RuleError (see Refuse).
type Ruleset[S any] interface {
	Info() Info
	Start(ctx context.Context, req StartRequest) (S, error)
	Apply(ctx context.Context, req ApplyRequest[S]) (ApplyResponse[S], error)
	// View is the table as viewer (a seat, or Spectator) may see it.
	View(state S, viewer int) View
	Status(state S) Status
	// Observe returns the scenario observation.
	Observe(state S) Observation
	// Cards returns every card of the game wherever it is (hands, piles, deck, rows, burned, out);
	// the SDK checks after every action that none was lost or invented.
	Cards(state S) []Card
}

// OptionChecker is an optional extra: cross-field checks and defaults that depend on the number
// of seats. It receives options already validated field by field, and returns them completed.
type OptionChecker interface {
	CheckOptions(seats int, opts Options) (Options, error)
}

// Redealer is an optional extra the conformance kit and search bots need: Redeal returns a copy of
// state in which every card viewer cannot see has been shuffled (with rng) among the places viewer
// cannot see. A correct ruleset's View(state, viewer) is unchanged by it.
type Redealer[S any] interface {
	Redeal(state S, viewer int, rng *RNG) S
}

// StateAppender is an optional extra for speed: AppendState appends state's JSON to b, byte for
// byte what json.Marshal writes for it, without reflection. The engine stores every new state with
// it (a state is encoded on every action), and still reads states with json.Unmarshal. rulesettest.Run
// checks it against json.Marshal at every state of its playouts; the sdk's Append*JSON helpers
// write strings, cards, numbers and the RNG as json.Marshal does.
type StateAppender[S any] interface {
	AppendState(b []byte, state S) []byte
}

// Upgrader is an optional extra that reads state blobs written by an older StateVersion.
type Upgrader interface {
	UpgradeState(fromVersion int, state []byte) ([]byte, error)
}
