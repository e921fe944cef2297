package store

// What the admin area's problems view reads (issue 23): house rules that failed in live games,
// and live games with no accepted action for a while. Migration 00008_house_rule_failures adds
// the table.

import (
	"context"
	"time"
)

// HouseRuleFailure is one failure of a house rule's hook in a live game: where (the room, the
// game, the action's seq it was tried at, the seat and the action's type, whether a bot sent it),
// which rule (name, version, hook, line), what it said, and when. Suspended marks the failure
// after which the room suspended the rule for the rest of the game.
type HouseRuleFailure struct {
	ID         int64     `gorm:"primaryKey" json:"id"`
	RoomID     int64     `json:"room_id"`
	RoomCode   string    `json:"room"`
	GameID     int64     `json:"game_id"`
	GameNumber int       `json:"game"`
	Seq        int       `json:"seq"`
	Rule       string    `json:"rule"`
	Version    int       `json:"version"`
	Hook       string    `json:"hook,omitempty"`
	Line       int       `json:"line,omitempty"`
	Seat       int       `json:"seat"`
	Action     string    `json:"action,omitempty"`
	Bot        bool      `json:"bot"`
	Message    string    `json:"message"`
	Suspended  bool      `json:"suspended"`
	CreatedAt  time.Time `json:"created_at"`
}

// AddHouseRuleFailure stores f and sets its ID.
func (s *Store) AddHouseRuleFailure(ctx context.Context, f *HouseRuleFailure) error {
	if f.CreatedAt.IsZero() {
		f.CreatedAt = time.Now().UTC()
	}
	return s.db.WithContext(ctx).Create(f).Error
}

// HouseRuleFailureStat counts the failures of one version of a house rule: how many, in how many
// games, how many of them suspended the rule, and the newest.
type HouseRuleFailureStat struct {
	Rule        string    `json:"rule"`
	Version     int       `json:"version"`
	Failures    int64     `json:"failures"`
	Games       int64     `json:"games"`
	Suspensions int64     `json:"suspensions"`
	Last        time.Time `json:"last"`
	// LastID is the newest failure's ID (its message and room: HouseRuleFailures).
	LastID int64 `json:"last_id"`
}

// HouseRuleFailureStats counts the stored failures per rule and version, the most recently
// failing first; with rules, of those rules only.
func (s *Store) HouseRuleFailureStats(ctx context.Context, rules ...string) ([]HouseRuleFailureStat, error) {
	var out []HouseRuleFailureStat
	db := s.db.WithContext(ctx).Model(&HouseRuleFailure{})
	if len(rules) > 0 {
		db = db.Where("rule IN ?", rules)
	}
	err := db.
		Select("rule, version, COUNT(*) AS failures, COUNT(DISTINCT game_id) AS games, " +
			"SUM(CASE WHEN suspended THEN 1 ELSE 0 END) AS suspensions, MAX(id) AS last_id").
		Group("rule, version").Order("last_id DESC").Scan(&out).Error
	if err != nil || len(out) == 0 {
		return out, err
	}
	// The newest failure's time, read by its ID (MAX of a time column scans as text in SQLite).
	ids := make([]int64, len(out))
	for i, st := range out {
		ids[i] = st.LastID
	}
	var lasts []HouseRuleFailure
	if err := s.db.WithContext(ctx).Select("id, created_at").Where("id IN ?", ids).Find(&lasts).Error; err != nil {
		return nil, err
	}
	at := map[int64]time.Time{}
	for _, f := range lasts {
		at[f.ID] = f.CreatedAt
	}
	for i := range out {
		out[i].Last = at[out[i].LastID]
	}
	return out, nil
}

// HouseRuleFailureQuery filters the failures; zero fields do not filter. Limit 0 is 50.
type HouseRuleFailureQuery struct {
	Rule    string
	Version int
	GameID  int64
	Limit   int
}

// HouseRuleFailures lists stored failures, newest first.
func (s *Store) HouseRuleFailures(ctx context.Context, q HouseRuleFailureQuery) ([]HouseRuleFailure, error) {
	db := s.db.WithContext(ctx).Model(&HouseRuleFailure{})
	if q.Rule != "" {
		db = db.Where("rule = ?", q.Rule)
	}
	if q.Version != 0 {
		db = db.Where("version = ?", q.Version)
	}
	if q.GameID != 0 {
		db = db.Where("game_id = ?", q.GameID)
	}
	if q.Limit <= 0 {
		q.Limit = 50
	}
	out := []HouseRuleFailure{}
	err := db.Order("id DESC").Limit(q.Limit).Find(&out).Error
	return out, err
}

// CountHouseRuleFailures counts the stored failures of rule in game gameID (a room that reloads
// its game goes on counting where it was).
func (s *Store) CountHouseRuleFailures(ctx context.Context, gameID int64, rule string) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&HouseRuleFailure{}).Where("game_id = ? AND rule = ?", gameID, rule).Count(&n).Error
	return n, err
}

// StaleGame is a game stored as live whose last accepted action (or its start, when it has none)
// is older than asked: the room's code and status, and when it last moved.
type StaleGame struct {
	RoomID     int64     `json:"room_id"`
	Code       string    `json:"room"`
	RoomStatus string    `json:"room_status"`
	Ruleset    string    `json:"ruleset"`
	GameID     int64     `json:"game_id"`
	Number     int       `json:"game"`
	Seq        int       `json:"actions"`
	StartedAt  time.Time `json:"started_at"`
	// LastAction is when the game last moved: its newest action, or its start.
	LastAction time.Time `json:"last_action"`
}

// StaleGames lists the live games that have not moved since before, the stillest first (at most
// limit, 0: 100).
func (s *Store) StaleGames(ctx context.Context, before time.Time, limit int) ([]StaleGame, error) {
	if limit <= 0 {
		limit = 100
	}
	type row struct {
		RoomID     int64
		Code       string
		RoomStatus string
		Ruleset    string
		GameID     int64
		Number     int
		StartedAt  time.Time
	}
	var rows []row
	// A game that moved since before has an action created after it: the others are still.
	err := s.db.WithContext(ctx).Table("games").
		Select("rooms.id AS room_id, rooms.code, rooms.status AS room_status, games.ruleset, games.id AS game_id, games.number, games.started_at").
		Joins("JOIN rooms ON rooms.id = games.room_id").
		Where("games.status = ? AND games.started_at < ?", GameLive, before.UTC()).
		Where("NOT EXISTS (SELECT 1 FROM actions a WHERE a.game_id = games.id AND a.created_at >= ?)", before.UTC()).
		Order("games.id").Limit(limit).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.GameID
	}
	last, err := s.LastActions(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := []StaleGame{}
	for _, r := range rows {
		g := StaleGame{RoomID: r.RoomID, Code: r.Code, RoomStatus: r.RoomStatus, Ruleset: r.Ruleset, GameID: r.GameID,
			Number: r.Number, StartedAt: r.StartedAt, LastAction: r.StartedAt}
		if a, ok := last[r.GameID]; ok {
			g.Seq, g.LastAction = a.Seq, a.At
		}
		out = append(out, g)
	}
	return out, nil
}
