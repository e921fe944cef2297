package sdk

import "context"

// BotRequest is what a bot may know when it chooses: its seat's view and the events its seat has
// seen, never the state itself. A bot that reads only this cannot cheat (L-11).
type BotRequest struct {
	Seat  int
	Level int
	View  View
	// History is what this seat has seen happen this round, oldest first (empty when the ruleset
	// keeps none: see Historian).
	History []Event
	// RNG is the bot's own randomness, seeded by the host per decision.
	RNG *RNG
}

// Bots is an optional extra of a ruleset: bots that choose an action for a seat. Bot returns nil
// when the seat has nothing it wants to do now (a seat not in turn that need not act). Whatever it
// returns must be legal for the view it was given.
type Bots interface {
	Bot(ctx context.Context, req BotRequest) (*Action, error)
}

// Historian is an optional extra: the events a seat has seen this round (filtered for that seat,
// as Event.For does), for bots that remember.
type Historian[S any] interface {
	History(state S, seat int) []Event
}

// BotFunc adapts a function to Bots, as http.HandlerFunc does a handler: a ruleset passes its
// heuristic to search.Bots as sdk.BotFunc(r.heuristic).
type BotFunc func(ctx context.Context, req BotRequest) (*Action, error)

// Bot calls f.
func (f BotFunc) Bot(ctx context.Context, req BotRequest) (*Action, error) { return f(ctx, req) }
