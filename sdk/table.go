package sdk

// Table is the generic, editable face of a game state: what house rules read and change, and
// what tools can show without knowing the ruleset. Zone names follow the view's zone IDs:
// "hand.N", "pile" (bottom first), "deck" (top first), "face_up.N", "face_down.N", "burned", "out".
// A positional row keeps its gaps as the zero Card.
type Table struct {
	Zones     map[string][]Card `json:"zones"`
	Turn      int               `json:"turn"`
	Direction int               `json:"direction"`
	// Counters are the ruleset's numbers by name: "penalty", "score.N", "run", ...
	Counters map[string]int `json:"counters,omitempty"`
	// Values are the ruleset's named words: "suit", "color", "phase", ...
	Values map[string]string `json:"values,omitempty"`
}

// Clone returns a deep copy.
func (t Table) Clone() Table {
	c := Table{Turn: t.Turn, Direction: t.Direction, Zones: make(map[string][]Card, len(t.Zones))}
	for k, v := range t.Zones {
		c.Zones[k] = append([]Card(nil), v...)
	}
	if t.Counters != nil {
		c.Counters = make(map[string]int, len(t.Counters))
		for k, v := range t.Counters {
			c.Counters[k] = v
		}
	}
	if t.Values != nil {
		c.Values = make(map[string]string, len(t.Values))
		for k, v := range t.Values {
			c.Values[k] = v
		}
	}
	return c
}

// Cards lists every card of the table's zones, gaps left out: the cards a house rule's change
// must keep, each exactly once.
func (t Table) Cards() []Card {
	var out []Card
	for _, z := range t.Zones {
		for _, c := range z {
			if c != 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// TableEditor is an optional extra every built-in ruleset implements: house-rule hooks read the
// table and hand back an edited one. SetTable returns a new state (the input is not modified) with
// the table's zones, turn, direction, counters and values, or a refusal naming what it cannot take
// (an unknown zone, a turn that is no seat). Keys it does not know are refused, not ignored.
type TableEditor[S any] interface {
	Table(state S) Table
	SetTable(state S, t Table) (S, error)
}

// EndRequest asks a ruleset, on a house rule's behalf, to end the round being played or the whole
// game (game.end_round(seat) and game.end_game(seat) in Lua).
type EndRequest struct {
	// Winner is the seat that wins the round (or the game).
	Winner int `json:"winner"`
	// Game ends the whole game, not only the round. A ruleset without rounds ends the game either way.
	Game bool `json:"game,omitempty"`
}

// Ender is an optional extra of a TableEditor: it lets house rules end a round or a game. End
// returns a new state (the input is not modified) in which the round, or with req.Game the game,
// is over with req.Winner as its winner, reached through the ruleset's own end of round and
// scoring (so a round that ends the game at its target does), and the events that announce it, as
// the ruleset's own end would emit them. The engine calls it only while Status.Phase is
// PhasePlaying; a request it cannot honour (a winner that is no seat) is refused with a RuleError.
type Ender[S any] interface {
	End(state S, req EndRequest) (S, []Event, error)
}
