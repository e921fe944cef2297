package toy

import (
	"context"

	"cardhouse/sdk"
)

// Botless is the toy without its bot: it declares no bot level and implements no sdk.Bots, as a
// variant does from its first line. The engine seats its generic level-1 bot for it
// (engine.GenericMove); the kit and botplay test that bot against it.
type Botless struct{ r Ruleset }

var (
	_ sdk.Ruleset[State]     = Botless{}
	_ sdk.Redealer[State]    = Botless{}
	_ sdk.TableEditor[State] = Botless{}
	_ sdk.Ender[State]       = Botless{}
)

// Info is the toy's, with no bot levels.
func (b Botless) Info() sdk.Info {
	info := b.r.Info()
	info.BotLevels = nil
	return info
}

// Start is the toy's.
func (b Botless) Start(ctx context.Context, req sdk.StartRequest) (State, error) {
	return b.r.Start(ctx, req)
}

// Apply is the toy's.
func (b Botless) Apply(ctx context.Context, req sdk.ApplyRequest[State]) (sdk.ApplyResponse[State], error) {
	return b.r.Apply(ctx, req)
}

// View is the toy's.
func (b Botless) View(s State, viewer int) sdk.View { return b.r.View(s, viewer) }

// Status is the toy's.
func (b Botless) Status(s State) sdk.Status { return b.r.Status(s) }

// Observe is the toy's.
func (b Botless) Observe(s State) sdk.Observation { return b.r.Observe(s) }

// Cards is the toy's.
func (b Botless) Cards(s State) []sdk.Card { return b.r.Cards(s) }

// Redeal is the toy's.
func (b Botless) Redeal(s State, viewer int, rng *sdk.RNG) State { return b.r.Redeal(s, viewer, rng) }

// Table is the toy's.
func (b Botless) Table(s State) sdk.Table { return b.r.Table(s) }

// SetTable is the toy's.
func (b Botless) SetTable(s State, t sdk.Table) (State, error) { return b.r.SetTable(s, t) }

// End is the toy's.
func (b Botless) End(s State, req sdk.EndRequest) (State, []sdk.Event, error) { return b.r.End(s, req) }
