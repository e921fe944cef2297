package store

import "time"

// Roles of an account (P-1).
const (
	RolePlayer = "player"
	RoleAdmin  = "admin"
)

// User is an account: registered (Username set, PasswordHash set) or a guest (Guest, no password).
type User struct {
	ID           int64   `gorm:"primaryKey"`
	Username     *string `gorm:"unique"`
	DisplayName  string
	PasswordHash string `json:"-"`
	Role         string
	Guest        bool
	Banned       bool
	// Avatar and Colour are the player's look (the DRUGS "YOUR LOOK"): an avatar name and a
	// #rrggbb colour.
	Avatar string
	Colour string
	// Locale is the language the account chose for the site (platform/i18n.Locales), "" for none.
	Locale string
	// GuestKeyHash is the SHA-256 (hex) of the guest key of the browser a guest was made in (the
	// cardhouse_guest cookie), "" for accounts: a guest's seat comes back by name silently only
	// to another guest of the same browser (docs/protocol.md, "Rejoining").
	GuestKeyHash string `json:"-"`
	CreatedAt    time.Time
}

// Session is a logged-in browser. The cookie carries a random token; only its SHA-256 is stored.
// CSRF is the token state-changing requests must echo in the X-CSRF-Token header.
type Session struct {
	TokenHash string `gorm:"primaryKey"`
	UserID    int64
	CSRF      string `gorm:"column:csrf"`
	CreatedAt time.Time
	ExpiresAt time.Time
	// LastSeenAt is when the session was last used (written at most every SeenEvery).
	LastSeenAt *time.Time
}

// Room modes (P-8).
const (
	ModeOnline   = "online"
	ModeComputer = "computer"
	ModeDevice   = "device"
)

// Room statuses: an open room is live (reloaded at start); a closed one is history.
const (
	RoomOpen   = "open"
	RoomClosed = "closed"
)

// Room is a table with a short code, a host, a ruleset with validated options, and members.
type Room struct {
	ID      int64 `gorm:"primaryKey"`
	Code    string
	HostID  int64
	Ruleset string
	// Options are the validated options as JSON.
	Options  string
	Mode     string
	Approval bool
	Locked   bool
	// Capacity is the number of seats (up to the ruleset's maximum).
	Capacity int
	// TurnSeconds is the optional turn clock: how long a seated human has to act before a bot
	// acts for them once (0: no clock).
	TurnSeconds int
	// Private rooms are reached by their code only and never listed; Quick rooms were opened by
	// quick play and start by themselves (migration 00017).
	Private bool
	Quick   bool
	Status  string
	// GameID is the current (or last) game, if any.
	GameID    *int64
	PausedAt  *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Member roles in a room.
const (
	MemberPlayer    = "player"
	MemberSpectator = "spectator"
	MemberPending   = "pending"
)

// Member is someone (or a bot) in a room. Seat is -1 when not seated. A bot has no UserID and a
// BotLevel above 0. In a pass-the-device room one user owns several seated members.
type Member struct {
	ID       int64 `gorm:"primaryKey"`
	RoomID   int64
	UserID   *int64
	Name     string
	Role     string
	Seat     int
	BotLevel int
	// WantsSeat marks a spectator who takes a free seat at the next Deal (P-4).
	WantsSeat bool
	// Covered is true while a bot plays a dropped player's seat (P-6).
	Covered bool
	// Avatar and Colour are the seat's own look (pass-the-device seats); empty: the account's.
	Avatar    string
	Colour    string
	CreatedAt time.Time
}

// Game statuses.
const (
	GameLive      = "live"
	GameOver      = "over"
	GameAbandoned = "abandoned"
)

// Game is one game of a room: everything needed to replay it from its action log (ruleset, seats,
// seed, options, the clock at its start) and a recent state with the number of actions applied.
type Game struct {
	ID      int64 `gorm:"primaryKey"`
	RoomID  int64
	Number  int
	Ruleset string
	Seats   int
	// Seed is the game's RNG seed, stored as the same 64 bits in a signed column.
	Seed    int64
	Options string
	// SeatMembers is a JSON list of member IDs by seat.
	SeatMembers string
	// SeatUsers is a JSON list of the user ID dealt each seat (0: a bot), so the game's end knows
	// who played it after a player left (ratings.go; "" for games dealt before migration 00016).
	SeatUsers string
	Opener    int
	StartNow  int64
	// State is the game's state after its first Seq actions: it is stored with an action only
	// every so often (at a phase's or the game's end, and every few actions: the room decides), so
	// the actions after it (ActionsAfter) rebuild the latest state. LastSeq is the last action's
	// seq, read by the queries that load games (not a column).
	State     []byte
	Seq       int
	LastSeq   int `gorm:"->;column:last_seq"`
	Phase     string
	Status    string
	StartedAt time.Time
	EndedAt   *time.Time
}

// ActionRecord is one accepted action of a game, in order (Seq from 1).
type ActionRecord struct {
	ID     int64 `gorm:"primaryKey"`
	GameID int64
	Seq    int
	Seat   int
	// Action is the sdk.Action as JSON.
	Action    string
	Now       int64
	CreatedAt time.Time
}

// TableName names the action log table.
func (ActionRecord) TableName() string { return "actions" }

// ChatMessage is one line of a room's chat, stored as plain text.
type ChatMessage struct {
	ID        int64 `gorm:"primaryKey"`
	RoomID    int64
	UserID    *int64
	Name      string
	Text      string
	CreatedAt time.Time
}
