package admin

// What the admin area reads: the dashboard, accounts, rooms, plugins and the audit log, in the
// shapes the JSON API returns and the pages render.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sort"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

func sortedStrings(s []string) []string { slices.Sort(s); return s }

// Dashboard is the site's health at a glance.
type Dashboard struct {
	// PlayersOnline counts the distinct accounts with a live connection to a room; Connections
	// counts the connections.
	PlayersOnline int `json:"players_online"`
	Connections   int `json:"connections"`
	// LiveRooms counts rooms with a running actor; LiveGames their games in progress, of which
	// PausedGames wait for their players to come back.
	LiveRooms   int `json:"live_rooms"`
	LiveGames   int `json:"live_games"`
	PausedGames int `json:"paused_games"`
	// ActionsLastMinute counts the actions accepted in the last minute; ActionsPerMinute is the
	// mean over the last 15 minutes.
	ActionsLastMinute int64   `json:"actions_last_minute"`
	ActionsPerMinute  float64 `json:"actions_per_minute"`
	// Plugins is each ruleset's engine health.
	Plugins []PluginInfo `json:"plugins"`
	// Errors counts errors since the server started, by kind (engine, store, slow_client), and
	// Actions the actions by result (accepted, refused, failed).
	Errors  map[string]float64 `json:"errors"`
	Actions map[string]float64 `json:"actions"`
	// RecentAudit are the newest admin actions.
	RecentAudit []store.AuditEntry `json:"recent_audit"`
	// Problems counts what the problems view lists (problems.go).
	Problems ProblemCounts `json:"problems"`
}

// liveInfos returns the info of every running room, by code.
func (a *Admin) liveInfos(ctx context.Context) []room.Info {
	var out []room.Info
	for _, r := range a.rooms.Live() {
		in, err := r.Info(ctx)
		if err != nil {
			continue // stopped meanwhile
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// counterValues sums a counter vector's values by the value of label.
func counterValues(cv *prometheus.CounterVec, label string) map[string]float64 {
	out := map[string]float64{}
	if cv == nil {
		return out
	}
	ch := make(chan prometheus.Metric, 64)
	go func() { cv.Collect(ch); close(ch) }()
	for m := range ch {
		var d dto.Metric
		if m.Write(&d) != nil || d.Counter == nil {
			continue
		}
		for _, l := range d.Label {
			if l.GetName() == label {
				out[l.GetValue()] += d.Counter.GetValue()
			}
		}
	}
	return out
}

// Dashboard reads the dashboard.
func (a *Admin) Dashboard(ctx context.Context) (*Dashboard, error) {
	d := &Dashboard{}
	online := map[int64]bool{}
	infos := a.liveInfos(ctx)
	for _, in := range infos {
		d.LiveRooms++
		if in.Game != nil && in.Game.Status == store.GameLive {
			d.LiveGames++
			if in.Paused {
				d.PausedGames++
			}
		}
		for _, m := range in.Members {
			if m.Connected && !online[m.UserID] {
				online[m.UserID] = true
			}
		}
	}
	d.PlayersOnline = len(online)
	if m := a.rooms.Metrics(); m != nil {
		var g dto.Metric
		if m.Connections.Write(&g) == nil && g.Gauge != nil {
			d.Connections = int(g.Gauge.GetValue())
		}
		d.Errors = counterValues(m.Errors, "kind")
		d.Actions = counterValues(m.Actions, "result")
	}
	now := a.now()
	var err error
	if d.ActionsLastMinute, err = a.st.CountActionsSince(ctx, now.Add(-time.Minute)); err != nil {
		return nil, err
	}
	n15, err := a.st.CountActionsSince(ctx, now.Add(-15*time.Minute))
	if err != nil {
		return nil, err
	}
	d.ActionsPerMinute = float64(n15) / 15
	d.Plugins = a.Plugins(ctx, infos)
	p, err := a.problems(ctx, 0, d.Plugins)
	if err != nil {
		return nil, err
	}
	d.Problems = p.Counts
	if d.RecentAudit, _, err = a.st.Audit(ctx, store.AuditQuery{Limit: 10}); err != nil {
		return nil, err
	}
	return d, nil
}

// UserSummary is an account in the list.
type UserSummary struct {
	ID          int64      `json:"id"`
	Username    string     `json:"username,omitempty"`
	DisplayName string     `json:"display_name"`
	Role        string     `json:"role"`
	Guest       bool       `json:"guest"`
	Banned      bool       `json:"banned"`
	CreatedAt   time.Time  `json:"created_at"`
	DeletedAt   *time.Time `json:"deleted_at,omitempty"`
	// Online is true while the account has a live connection to a room.
	Online bool `json:"online"`
	// LastSeenAt is when one of its sessions was last used (to a few minutes; nil: not seen
	// since the server began recording it).
	LastSeenAt *time.Time `json:"last_seen_at,omitempty"`
}

func summary(row *store.AccountRow, online map[int64]bool) UserSummary {
	s := UserSummary{ID: row.ID, DisplayName: row.DisplayName, Role: row.Role, Guest: row.Guest, Banned: row.Banned,
		CreatedAt: row.CreatedAt, DeletedAt: row.DeletedAt, Online: online[row.ID], LastSeenAt: row.LastSeenAt}
	if row.Username != nil {
		s.Username = *row.Username
	}
	return s
}

// Page is one page of a list: Offset and Limit as asked, Total before paging.
type Page struct {
	Offset int   `json:"offset"`
	Limit  int   `json:"limit"`
	Total  int64 `json:"total"`
}

// UserList is a page of accounts.
type UserList struct {
	Page
	Users []UserSummary `json:"users"`
}

// onlineUsers returns the accounts connected to a live room.
func (a *Admin) onlineUsers(ctx context.Context) map[int64]bool {
	out := map[int64]bool{}
	for _, in := range a.liveInfos(ctx) {
		for _, m := range in.Members {
			if m.Connected {
				out[m.UserID] = true
			}
		}
	}
	return out
}

// Users lists accounts.
func (a *Admin) Users(ctx context.Context, q store.UserQuery) (*UserList, error) {
	if q.Limit <= 0 || q.Limit > 200 {
		q.Limit = 50
	}
	rows, total, err := a.st.Accounts(ctx, q)
	if err != nil {
		return nil, err
	}
	online := a.onlineUsers(ctx)
	out := &UserList{Page: Page{Offset: q.Offset, Limit: q.Limit, Total: total}, Users: []UserSummary{}}
	for i := range rows {
		out.Users = append(out.Users, summary(&rows[i], online))
	}
	return out, nil
}

// RoomSummary is a room in a list.
type RoomSummary struct {
	Code      string    `json:"code"`
	Ruleset   string    `json:"ruleset"`
	Mode      string    `json:"mode"`
	Status    string    `json:"status"`
	HostID    int64     `json:"host_id"`
	Capacity  int       `json:"capacity"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Running is true while the room's actor runs; Members and Connected are read from it then.
	Running   bool `json:"running"`
	Members   int  `json:"members,omitempty"`
	Connected int  `json:"connected,omitempty"`
	// Game is the current (or last) game's number and status, when any.
	Game       int    `json:"game,omitempty"`
	GameStatus string `json:"game_status,omitempty"`
	// Owner is the node of a cluster whose actor runs the room (it holds the room's live lease);
	// "" on a single node or when no node runs it.
	Owner string `json:"owner,omitempty"`
	// LastActivity is when the room last changed or its game last moved (liverooms.go). Idle
	// marks an open room with nobody connected; Stuck one whose live game has not moved for the
	// minutes asked; Stale an idle one whose game was abandoned or that nothing happened in for
	// that long.
	LastActivity time.Time `json:"last_activity"`
	Idle         bool      `json:"idle,omitempty"`
	Stuck        bool      `json:"stuck,omitempty"`
	Stale        bool      `json:"stale,omitempty"`
}

// GameSummary is a game in a list, without its state.
type GameSummary struct {
	Code      string     `json:"code,omitempty"`
	Number    int        `json:"number"`
	Ruleset   string     `json:"ruleset"`
	Seats     int        `json:"seats"`
	Actions   int        `json:"actions"`
	Phase     string     `json:"phase"`
	Status    string     `json:"status"`
	StartedAt time.Time  `json:"started_at"`
	EndedAt   *time.Time `json:"ended_at,omitempty"`
}

func gameSummary(code string, g *store.Game) GameSummary {
	return GameSummary{Code: code, Number: g.Number, Ruleset: g.Ruleset, Seats: g.Seats, Actions: max(g.Seq, g.LastSeq), Phase: g.Phase,
		Status: g.Status, StartedAt: g.StartedAt, EndedAt: g.EndedAt}
}

// UserDetail is one account with its rooms, recent games and the admin actions on it.
type UserDetail struct {
	User UserSummary `json:"user"`
	// BanReason is the reason of the ban in force, from the audit log ("" when not banned).
	BanReason string             `json:"ban_reason,omitempty"`
	Rooms     []RoomSummary      `json:"rooms"`
	Games     []GameSummary      `json:"games"`
	Audit     []store.AuditEntry `json:"audit"`
	// DeletionPolicy says what deleting the account does to its games.
	DeletionPolicy string `json:"deletion_policy"`
	// Sessions are its signed-in browsers, Chat its last lines in every room (moderation.go).
	Sessions []SessionInfo `json:"sessions"`
	Chat     []ChatInfo    `json:"chat"`
}

// User reads one account, deleted or not.
func (a *Admin) User(ctx context.Context, id int64) (*UserDetail, error) {
	row, err := a.st.Account(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(http.StatusNotFound, "no_user", "there is no user %d", id)
	}
	if err != nil {
		return nil, err
	}
	out := &UserDetail{User: summary(row, a.onlineUsers(ctx)), DeletionPolicy: DeletionPolicy}
	rooms, _, err := a.st.Rooms(ctx, store.RoomQuery{UserID: id, Limit: 50})
	if err != nil {
		return nil, err
	}
	out.Rooms = a.roomSummaries(ctx, rooms)
	games, err := a.st.UserGames(ctx, id, 20)
	if err != nil {
		return nil, err
	}
	out.Games = []GameSummary{}
	for i := range games {
		out.Games = append(out.Games, gameSummary(games[i].Code, &games[i].Game))
	}
	if out.Audit, _, err = a.st.Audit(ctx, store.AuditQuery{TargetType: "user", TargetID: idStr(id), Limit: 50}); err != nil {
		return nil, err
	}
	if err := a.moderation(ctx, out, id); err != nil {
		return nil, err
	}
	if row.Banned {
		for _, e := range out.Audit {
			if e.Action == "user.ban" {
				out.BanReason = e.Detail
				break
			}
		}
	}
	return out, nil
}

func (a *Admin) roomSummaries(ctx context.Context, rooms []store.Room) []RoomSummary {
	return a.roomSummariesFor(ctx, rooms, DefaultStuckMinutes)
}

// roomSummariesFor summarises rooms, marking them stuck or stale after minutes without activity.
// It reads the same few statements whatever the number of rooms (the live list refreshes every
// few seconds): the running rooms answer from memory, the others' games and their newest actions
// are read in one batch each (stored).
func (a *Admin) roomSummariesFor(ctx context.Context, rooms []store.Room, minutes int) []RoomSummary {
	out := []RoomSummary{}
	owners := a.owners(ctx, rooms)
	running := make([]*room.Room, len(rooms))
	for i, sr := range rooms {
		running[i] = a.rooms.Running(sr.Code)
	}
	games, last := a.stored(ctx, rooms, running)
	for i, sr := range rooms {
		var lastMove time.Time
		s := RoomSummary{Code: sr.Code, Ruleset: sr.Ruleset, Mode: sr.Mode, Status: sr.Status, HostID: sr.HostID,
			Capacity: sr.Capacity, CreatedAt: sr.CreatedAt, UpdatedAt: sr.UpdatedAt, Owner: owners[sr.ID]}
		if r := running[i]; r != nil {
			if in, err := r.Info(ctx); err == nil {
				s.Running, s.Members = true, len(in.Members)
				for _, m := range in.Members {
					if m.Connected {
						s.Connected++
					}
				}
				if in.Game != nil {
					s.Game, s.GameStatus, lastMove = in.Game.Number, in.Game.Status, in.Game.LastMove
				}
			}
		}
		if !s.Running && sr.GameID != nil {
			if g, ok := games[*sr.GameID]; ok {
				s.Game, s.GameStatus, lastMove = g.Number, g.Status, g.StartedAt
				if la, ok := last[g.ID]; ok && sr.Status == store.RoomOpen {
					lastMove = la.At
				}
			}
		}
		a.activity(ctx, &s, &sr, lastMove, minutes)
		out = append(out, s)
	}
	return out
}

// stored reads the games of the rooms that do not run (running[i] is rooms[i]'s actor, or nil)
// and the newest actions of the open ones' games, by game ID. A failure to read them leaves them
// out: the list is still worth showing. (A room that stops between Running and its Info shows no
// game until the next refresh: its game was not read here.)
func (a *Admin) stored(ctx context.Context, rooms []store.Room, running []*room.Room) (map[int64]*store.Game, map[int64]store.LastAction) {
	var ids, open []int64
	for i, sr := range rooms {
		if running[i] != nil || sr.GameID == nil {
			continue
		}
		ids = append(ids, *sr.GameID)
		if sr.Status == store.RoomOpen {
			open = append(open, *sr.GameID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	games, err := a.st.GamesByID(ctx, ids)
	if err != nil {
		a.log.Warn("reading the rooms' games", "err", err)
		return nil, nil
	}
	last, err := a.st.LastActions(ctx, open)
	if err != nil {
		a.log.Warn("reading the rooms' last actions", "err", err)
	}
	return games, last
}

// owners names the node running each open room of a cluster (none on a single node). A failure to
// read them leaves the owners out: the list is still worth showing.
func (a *Admin) owners(ctx context.Context, rooms []store.Room) map[int64]string {
	if a.rooms.Node() == "" {
		return nil
	}
	var ids []int64
	for _, sr := range rooms {
		if sr.Status == store.RoomOpen {
			ids = append(ids, sr.ID)
		}
	}
	owners, err := a.st.RoomOwners(ctx, ids)
	if err != nil {
		a.log.Warn("reading the rooms' owners", "err", err)
	}
	return owners
}

// RoomList is a page of rooms.
type RoomList struct {
	Page
	Rooms []RoomSummary `json:"rooms"`
}

// Rooms lists rooms. activity ("" for any, or ActivityIdle, ActivityStuck, ActivityStale) keeps
// the open rooms of that activity, stuck or stale after minutes (0: DefaultStuckMinutes).
func (a *Admin) Rooms(ctx context.Context, q store.RoomQuery, activity string, minutes int) (*RoomList, error) {
	if q.Limit <= 0 || q.Limit > 200 {
		q.Limit = 50
	}
	if minutes <= 0 {
		minutes = DefaultStuckMinutes
	}
	if activity == "" {
		rooms, total, err := a.st.Rooms(ctx, q)
		if err != nil {
			return nil, err
		}
		return &RoomList{Page: Page{Offset: q.Offset, Limit: q.Limit, Total: total}, Rooms: a.roomSummariesFor(ctx, rooms, minutes)}, nil
	}
	all := q
	all.Status, all.Offset, all.Limit = store.RoomOpen, 0, maxActivityScan
	rooms, _, err := a.st.Rooms(ctx, all)
	if err != nil {
		return nil, err
	}
	kept, total := filterActivity(a.roomSummariesFor(ctx, rooms, minutes), activity, q.Offset, q.Limit)
	return &RoomList{Page: Page{Offset: q.Offset, Limit: q.Limit, Total: total}, Rooms: kept}, nil
}

// MemberDetail is a room member as the admin sees it.
type MemberDetail struct {
	ID        int64  `json:"id"`
	UserID    int64  `json:"user_id,omitempty"`
	Name      string `json:"name"`
	Role      string `json:"role"`
	Seat      int    `json:"seat"`
	BotLevel  int    `json:"bot_level,omitempty"`
	Covered   bool   `json:"covered,omitempty"`
	Connected bool   `json:"connected"`
	Host      bool   `json:"host"`
}

// ChatLine is one stored chat line.
type ChatLine struct {
	UserID *int64    `json:"user_id,omitempty"`
	Name   string    `json:"name"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
}

// LogEntry is one action of a game's log.
type LogEntry struct {
	Seq    int             `json:"seq"`
	Seat   int             `json:"seat"`
	Action json.RawMessage `json:"action"`
	At     time.Time       `json:"at"`
}

// GameLog is one game with its action log.
type GameLog struct {
	Game GameSummary `json:"game"`
	Log  []LogEntry  `json:"log"`
}

// RoomDetail is one room: its settings, members (seated players, spectators, pending requests),
// chat, games and the log of one game (the current one unless asked).
type RoomDetail struct {
	Room     RoomSummary     `json:"room"`
	Options  json.RawMessage `json:"options"`
	Approval bool            `json:"approval"`
	Locked   bool            `json:"locked"`
	Paused   bool            `json:"paused"`
	HostName string          `json:"host_name"`
	Members  []MemberDetail  `json:"members"`
	Chat     []ChatLine      `json:"chat"`
	Games    []GameSummary   `json:"games"`
	Log      *GameLog        `json:"log,omitempty"`
	// Bans are the users the room keeps out after a kick (moderation.go).
	Bans []room.BanInfo `json:"bans"`
	// GameLive: a game is being played in the room now (read from the running room).
	GameLive bool `json:"game_live"`
}

// Words of the kick confirmation, by what a kick does to the member: the same as the web client's
// (web/static/js/app.js, KICK_WORDS).
const (
	kickWordsGame = "A bot takes their seat in the game being played."
	kickWordsSeat = "They leave the room, and their seat is free for someone else."
	kickWordsRoom = "They leave the room."
)

// KickWords says what removing m does, for the room page's confirmation: a seated player in a
// game being played is replaced by a bot, a seated player between games frees the seat, anyone
// else (a spectator, a pending member) only leaves the room.
func (d *RoomDetail) KickWords(m MemberDetail) string {
	seated := m.Role == "player" && m.Seat >= 0
	switch {
	case seated && d.GameLive:
		return kickWordsGame
	case seated:
		return kickWordsSeat
	default:
		return kickWordsRoom
	}
}

// ChatShown is how many of a room's newest chat lines the room page shows.
const ChatShown = 100

// Room reads room code; gameNumber picks the game whose log is included (0: the newest).
func (a *Admin) Room(ctx context.Context, code string, gameNumber int) (*RoomDetail, error) {
	sr, err := a.storedRoom(ctx, code)
	if err != nil {
		return nil, err
	}
	summary := a.roomSummaries(ctx, []store.Room{*sr})[0]
	if summary.Owner != "" && summary.Owner != a.rooms.Node() && !summary.Running {
		// Another node runs the room: the request goes there (platform/server forwards it), which
		// reads the room live.
		return nil, room.RunElsewhere(sr)
	}
	out := &RoomDetail{Room: summary, Options: json.RawMessage(sr.Options),
		Approval: sr.Approval, Locked: sr.Locked, Paused: sr.PausedAt != nil, Members: []MemberDetail{}, Chat: []ChatLine{}}
	if !json.Valid(out.Options) {
		out.Options = json.RawMessage("{}")
	}
	if host, err := a.st.UserByID(ctx, sr.HostID); err == nil {
		out.HostName = accountName(host)
	}
	var live *room.Info
	if r := a.rooms.Running(sr.Code); r != nil {
		if in, err := r.Info(ctx); err == nil {
			live = &in
			out.Locked, out.Approval, out.Paused = in.Locked, in.Approval, in.Paused
			out.GameLive = in.Game != nil && in.Game.Status == store.GameLive
		}
	}
	if live != nil {
		for _, m := range live.Members {
			out.Members = append(out.Members, MemberDetail{ID: m.ID, UserID: m.UserID, Name: m.Name, Role: m.Role, Seat: m.Seat,
				BotLevel: m.BotLevel, Covered: m.Covered, Connected: m.Connected, Host: m.UserID != 0 && m.UserID == live.HostID})
		}
	} else {
		ms, err := a.st.Members(ctx, sr.ID)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			md := MemberDetail{ID: m.ID, Name: m.Name, Role: m.Role, Seat: m.Seat, BotLevel: m.BotLevel, Covered: m.Covered}
			if m.UserID != nil {
				md.UserID, md.Host = *m.UserID, *m.UserID == sr.HostID
			}
			out.Members = append(out.Members, md)
		}
	}
	chat, err := a.st.Chat(ctx, sr.ID, ChatShown)
	if err != nil {
		return nil, err
	}
	for _, c := range chat {
		out.Chat = append(out.Chat, ChatLine{UserID: c.UserID, Name: c.Name, Text: c.Text, At: c.CreatedAt})
	}
	games, err := a.st.RoomGames(ctx, sr.ID)
	if err != nil {
		return nil, err
	}
	out.Games = []GameSummary{}
	for i := range games {
		out.Games = append(out.Games, gameSummary(sr.Code, &games[i]))
	}
	if len(games) > 0 {
		if gameNumber == 0 {
			gameNumber = games[0].Number
		}
		if out.Log, err = a.GameLog(ctx, sr, gameNumber); err != nil {
			return nil, err
		}
	}
	if out.Bans, err = a.roomBans(ctx, sr); err != nil {
		return nil, err
	}
	return out, nil
}

// GameLog reads game number n of a room with its action log.
func (a *Admin) GameLog(ctx context.Context, sr *store.Room, n int) (*GameLog, error) {
	g, err := a.st.GameByNumber(ctx, sr.ID, n)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(http.StatusNotFound, "no_game", "room %s has no game %d", sr.Code, n)
	}
	if err != nil {
		return nil, err
	}
	acts, err := a.st.Actions(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	out := &GameLog{Game: gameSummary(sr.Code, g), Log: []LogEntry{}}
	for _, r := range acts {
		raw := json.RawMessage(r.Action)
		if !json.Valid(raw) {
			raw, _ = json.Marshal(r.Action)
		}
		out.Log = append(out.Log, LogEntry{Seq: r.Seq, Seat: r.Seat, Action: raw, At: r.CreatedAt})
	}
	return out, nil
}

// PluginInfo is one ruleset's engine: what it is, how its process is, how it has answered.
type PluginInfo struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Version    string `json:"version"`
	SDKVersion string `json:"sdk_version"`
	// Process is false for an engine running inside the server (tests); the fields below it are
	// then zero.
	Process  bool   `json:"process"`
	Command  string `json:"command,omitempty"`
	Running  bool   `json:"running"`
	PID      int    `json:"pid,omitempty"`
	Protocol int    `json:"protocol,omitempty"`
	Launches uint64 `json:"launches"`
	Restarts uint64 `json:"restarts"`
	Calls    uint64 `json:"calls"`
	Refusals uint64 `json:"refusals"`
	Errors   uint64 `json:"errors"`
	Crashes  uint64 `json:"crashes"`
	Timeouts uint64 `json:"timeouts"`
	// MeanLatency, P50 and P99 are over every call, in microseconds; P50 and P99 are the upper
	// bounds of the histogram buckets they fall in.
	MeanLatency float64 `json:"mean_latency_us"`
	P50         float64 `json:"p50_us"`
	P99         float64 `json:"p99_us"`
	LastError   string  `json:"last_error,omitempty"`
	// Disabled is true when new rooms may not use the ruleset, for DisabledReason.
	Disabled       bool   `json:"disabled"`
	DisabledReason string `json:"disabled_reason,omitempty"`
	// Rooms counts the running rooms of the ruleset, Games their games in progress.
	Rooms int `json:"rooms"`
	Games int `json:"games"`
}

// Healthy reports whether the engine can answer now: it runs inside the server, or its plugin
// process is running. (A process that died is relaunched by the next call; until then it is not
// healthy.)
func (p PluginInfo) Healthy() bool { return !p.Process || p.Running }

// Plugins reads every ruleset's engine; infos are the running rooms (nil: read them).
func (a *Admin) Plugins(ctx context.Context, infos []room.Info) []PluginInfo {
	if infos == nil {
		infos = a.liveInfos(ctx)
	}
	disabled := a.rooms.DisabledRulesets()
	descs := map[string]int{}
	rs := a.rooms.Rulesets()
	for i, d := range rs {
		descs[d.ID] = i
	}
	engines := a.rooms.Engines()
	out := []PluginInfo{}
	for _, id := range sortedStrings(mapKeys(engines)) {
		p := PluginInfo{ID: id}
		if i, ok := descs[id]; ok {
			p.Name, p.Version, p.SDKVersion = rs[i].Name, rs[i].Version, rs[i].SDKVersion
		}
		if s, ok := a.rooms.PluginStats(id); ok {
			p.Process, p.Command, p.Running, p.PID, p.Protocol = true, s.Command, s.Running, s.PID, s.Protocol
			p.Launches, p.Restarts, p.Calls, p.Refusals, p.Errors = s.Launches, s.Restarts, s.Calls, s.Refusals, s.Errors
			p.Crashes, p.Timeouts, p.LastError = s.Crashes, s.Timeouts, s.LastError
			p.MeanLatency, p.P50, p.P99 = s.MeanLatency, s.P50, s.P99
			if s.Version != "" {
				p.Version, p.SDKVersion = s.Version, s.SDKVersion
			}
			if p.Name == "" {
				p.Name = s.Name
			}
		}
		p.DisabledReason, p.Disabled = disabled[id]
		for _, in := range infos {
			if in.Ruleset == id {
				p.Rooms++
				if in.Game != nil && in.Game.Status == store.GameLive {
					p.Games++
				}
			}
		}
		out = append(out, p)
	}
	return out
}

func mapKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// AuditList is a page of the audit log.
type AuditList struct {
	Page
	Entries []store.AuditEntry `json:"entries"`
}

// Audit reads the audit log.
func (a *Admin) Audit(ctx context.Context, q store.AuditQuery) (*AuditList, error) {
	if q.Limit <= 0 || q.Limit > 500 {
		q.Limit = 100
	}
	es, total, err := a.st.Audit(ctx, q)
	if err != nil {
		return nil, err
	}
	if es == nil {
		es = []store.AuditEntry{}
	}
	return &AuditList{Page: Page{Offset: q.Offset, Limit: q.Limit, Total: total}, Entries: es}, nil
}
