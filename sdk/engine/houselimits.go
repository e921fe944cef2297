package engine

import "time"

// Default limits of one house-rule hook call. A HouseRuleRunner enforces them (sdk/houserules
// takes them as its defaults); they live here, where the host can read them without the Lua
// runner, so the server names the same numbers to modders (the hints beside a failed rule).
const (
	// HouseCallTimeout is a hook call's time budget: CPU time of the call's thread, or wall-clock
	// time where thread CPU clocks are unavailable. Generous for a hook (a small one takes
	// microseconds), small enough that a hostile script costs one refused action.
	HouseCallTimeout = 100 * time.Millisecond
	// HouseMemoryCap is how much a hook call may allocate.
	HouseMemoryCap = 64 << 20
	// HouseMaxEvents is how many events one hook call may emit: more would flood the players.
	HouseMaxEvents = 32
)
