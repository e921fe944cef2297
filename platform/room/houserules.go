package room

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"cardhouse/platform/store"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// HouseRuleInfo is a house rule a room has enabled, as room info shows it: the version the next
// deal starts with, its option values and the schema the room form shows them with.
type HouseRuleInfo struct {
	Name        string `json:"name"`
	Version     int    `json:"version"`
	Description string `json:"description"`
	OwnerID     int64  `json:"owner_id"`
	// Status is the version's review status (approved, pending, rejected, disabled); Usable says
	// whether the next deal may start with it (approved, or pending and owned by the host).
	Status  string         `json:"status"`
	Usable  bool           `json:"usable"`
	Options map[string]any `json:"options"`
	Schema  []sdk.Option   `json:"schema,omitempty"`
	// Actions are the actions the rule adds (shown in players' views while open).
	Actions []engine.HouseAction `json:"actions,omitempty"`
}

// houseRuleInfos describes the room's enabled rules (actor only).
func (r *Room) houseRuleInfos() []HouseRuleInfo {
	out := make([]HouseRuleInfo, 0, len(r.houseRules))
	for _, e := range r.houseRules {
		var decl engine.HouseRuleInfo
		_ = json.Unmarshal([]byte(e.Version.Declared), &decl)
		hi := HouseRuleInfo{Name: e.Script.Name, Version: e.Version.Number, Description: e.Version.Description,
			OwnerID: e.Script.OwnerID, Status: e.Version.Status, Usable: e.Version.Usable(&e.Script, r.room.HostID),
			Options: map[string]any{}, Schema: decl.Options, Actions: decl.Actions}
		_ = json.Unmarshal([]byte(e.Options), &hi.Options)
		out = append(out, hi)
	}
	return out
}

// pinNames names the house rules of a game as "name vN", in order.
func pinNames(pins []store.PinnedHouseRule) []string {
	var out []string
	for _, p := range pins {
		out = append(out, fmt.Sprintf("%s v%d", p.Script.Name, p.Version.Number))
	}
	return out
}

// loadHouseRules reads the room's enabled rules and the current game's pins (newRoom).
func (r *Room) loadHouseRules(ctx context.Context) error {
	hr, err := r.cfg.Store.RoomHouseRules(ctx, r.room.ID)
	if err != nil {
		return fmt.Errorf("loading the house rules of room %s: %w", r.code, err)
	}
	r.houseRules = hr
	if r.game != nil {
		pins, err := r.cfg.Store.GameHouseRules(ctx, r.game.ID)
		if err != nil {
			return fmt.Errorf("loading the house rules of room %s game %d: %w", r.code, r.game.Number, err)
		}
		r.gameRules = pinNames(pins)
		r.gameRuleOwners = map[string]int64{}
		for _, p := range pins {
			r.gameRuleOwners[p.Script.Name] = p.Script.OwnerID
		}
	}
	return nil
}

// forwardHouseLog sends what the game's house rules printed in a step (print, game.log) to the
// connections of each rule's owner and of admins: a rule's author debugs it in a real room, and
// players never see it (actor only).
func (r *Room) forwardHouseLog(rep *engine.HouseReport) {
	if rep == nil || len(rep.Log) == 0 {
		return
	}
	r.keepHouseLog(rep.Log)
	for c := range r.clients {
		r.pushHouseLog(c, rep.Log)
	}
}

// pushHouseLog sends c the lines of log it may see: every line to an admin, a rule's own lines to
// its owner, none to others.
func (r *Room) pushHouseLog(c *Client, log []engine.HouseLine) {
	var lines []engine.HouseLine
	for _, l := range log {
		if owner, ok := r.gameRuleOwners[l.Rule]; c.admin || (ok && owner == c.UserID) {
			lines = append(lines, l)
		}
	}
	if len(lines) > 0 {
		c.push(encode(Outgoing{Type: MsgHouseLog, HouseLog: lines}))
	}
}

// maxKeptHouseLines is how many of the current game's Rule output lines the room keeps for a
// connection that comes (back): a page reloaded shows them again.
const maxKeptHouseLines = 200

// keepHouseLog keeps the current game's newest Rule output lines (a new game starts afresh).
func (r *Room) keepHouseLog(log []engine.HouseLine) {
	if r.game == nil {
		return
	}
	if r.houseLogGame != r.game.ID {
		r.houseLogGame, r.houseLog = r.game.ID, nil
	}
	r.houseLog = append(r.houseLog, log...)
	if n := len(r.houseLog); n > maxKeptHouseLines {
		r.houseLog = slices.Clone(r.houseLog[n-maxKeptHouseLines:])
	}
}

// sendHouseLog sends a connection that just came the current game's Rule output it may see.
func (r *Room) sendHouseLog(c *Client) {
	if r.game == nil || r.houseLogGame != r.game.ID {
		return
	}
	r.pushHouseLog(c, r.houseLog)
}

// sdkRule is the house rule an engine runs for an enabled (or pinned) version.
func sdkRule(sc *store.HouseRuleScript, v *store.HouseRuleVersion, options string) (sdk.HouseRule, error) {
	rule := sdk.HouseRule{Name: sc.Name, Version: v.Number, Source: v.Source}
	if err := json.Unmarshal([]byte(options), &rule.Options); err != nil {
		return rule, fmt.Errorf("house rule %q v%d: reading its stored options: %w", sc.Name, v.Number, err)
	}
	return rule, nil
}

// unusable says why a room cannot start a game with version v of sc.
func unusable(sc *store.HouseRuleScript, v *store.HouseRuleVersion) *Error {
	why := ""
	switch v.Status {
	case store.HouseRulePending:
		return errf(KindForbidden, "not_approved", "house rule %q v%d is waiting for an admin's review; until then only its owner may use it in rooms they host", sc.Name, v.Number)
	case store.HouseRuleRejected:
		why = "was rejected by an admin"
	case store.HouseRuleDisabled:
		why = "was disabled by an admin"
	default:
		why = "is " + v.Status
	}
	if v.StatusReason != "" {
		why += " (" + v.StatusReason + ")"
	}
	return errf(KindForbidden, "not_approved", "house rule %q v%d %s", sc.Name, v.Number, why)
}

// dealHouseRules re-reads the room's enabled rules (an admin may have disabled one since) and
// returns them as the engine runs them and as the new game's pins. A rule the room may no longer
// use refuses the deal, naming it: the host disables it or enables another version.
func (r *Room) dealHouseRules() ([]sdk.HouseRule, []store.GameHouseRule, []string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hr, err := r.cfg.Store.RoomHouseRules(ctx, r.room.ID)
	if err != nil {
		r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
		return nil, nil, nil, errf(KindUnavailable, "store_failure", "the room's house rules could not be read; try again")
	}
	r.houseRules = hr
	var (
		rules []sdk.HouseRule
		pins  []store.GameHouseRule
		names []string
	)
	for i, e := range hr {
		if !e.Version.Usable(&e.Script, r.room.HostID) {
			ue := unusable(&e.Script, &e.Version)
			ue.Kind, ue.Code = KindConflict, "house_rule_unusable"
			ue.Reason += "; the host must disable it in this room (or enable another version) to deal"
			return nil, nil, nil, ue
		}
		rule, err := sdkRule(&e.Script, &e.Version, e.Options)
		if err != nil {
			return nil, nil, nil, err
		}
		rules = append(rules, rule)
		pins = append(pins, store.GameHouseRule{Position: i, VersionID: e.VersionID, Options: e.Options})
		names = append(names, fmt.Sprintf("%s v%d", e.Script.Name, e.Version.Number))
	}
	return rules, pins, names, nil
}

// EnableHouseRule enables version v of script sc in the room with the option values raw
// (validated against what the version declares, defaults filled in), or replaces the version and
// options of a script the room has enabled already. Host only, between games: a game keeps the
// versions it started with. The version must be approved, or pending and the host's own; the
// script must be for the room's ruleset; and a trial start of a game with every enabled rule must
// succeed (names, actions and questions that clash are refused here, not at the deal). A refusal
// changes nothing.
func (r *Room) EnableHouseRule(ctx context.Context, u *store.User, sc *store.HouseRuleScript, v *store.HouseRuleVersion, raw map[string]any) (Info, error) {
	var out Info
	err := r.do(ctx, func() error {
		if err := r.hostOnly(u, "enable house rules"); err != nil {
			return err
		}
		if r.live() {
			return errf(KindConflict, "game_running", "house rules change between games: a game is being played (it keeps the rules it started with)")
		}
		opts, err := checkChoice(sc, v, r.room.Ruleset, r.room.HostID, raw)
		if err != nil {
			return err
		}
		optJSON, _ := json.Marshal(opts)
		rule := sdk.HouseRule{Name: sc.Name, Version: v.Number, Source: v.Source, Options: opts}

		// The rules as the next deal would start them, this one in its place (or last).
		var rules []sdk.HouseRule
		placed := false
		for _, e := range r.houseRules {
			if e.ScriptID == sc.ID {
				rules, placed = append(rules, rule), true
				continue
			}
			er, err := sdkRule(&e.Script, &e.Version, e.Options)
			if err != nil {
				return err
			}
			rules = append(rules, er)
		}
		if !placed {
			rules = append(rules, rule)
		}
		if err := r.trialStart(rules); err != nil {
			return err
		}

		uid := u.ID
		rec := &store.RoomHouseRule{RoomID: r.room.ID, ScriptID: sc.ID, VersionID: v.ID, Options: string(optJSON), EnabledBy: &uid}
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.cfg.Store.EnableRoomHouseRule(sctx, rec); err != nil {
			r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
			return errf(KindUnavailable, "store_failure", "the house rule could not be stored; nothing changed, try again")
		}
		if hr, err := r.cfg.Store.RoomHouseRules(sctx, r.room.ID); err == nil {
			r.houseRules = hr
		}
		r.log.Info("house rule enabled", "rule", sc.Name, "version", v.Number)
		r.broadcastRoom()
		out = r.info()
		return nil
	})
	return out, err
}

// DisableHouseRule removes script sc from the room's enabled rules; host only, between games.
func (r *Room) DisableHouseRule(ctx context.Context, u *store.User, sc *store.HouseRuleScript) (Info, error) {
	var out Info
	err := r.do(ctx, func() error {
		if err := r.hostOnly(u, "disable house rules"); err != nil {
			return err
		}
		if r.live() {
			return errf(KindConflict, "game_running", "house rules change between games: a game is being played (it keeps the rules it started with)")
		}
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := r.cfg.Store.DisableRoomHouseRule(sctx, r.room.ID, sc.ID)
		if errors.Is(err, store.ErrNotFound) {
			return errf(KindNotFound, "not_enabled", "house rule %q is not enabled in room %s", sc.Name, r.code)
		}
		if err != nil {
			r.cfg.Metrics.Errors.WithLabelValues("store").Inc()
			return errf(KindUnavailable, "store_failure", "the house rule could not be disabled; nothing changed, try again")
		}
		if hr, err := r.cfg.Store.RoomHouseRules(sctx, r.room.ID); err == nil {
			r.houseRules = hr
		}
		r.log.Info("house rule disabled", "rule", sc.Name)
		r.broadcastRoom()
		out = r.info()
		return nil
	})
	return out, err
}

// checkChoice checks that a room of ruleset hosted by hostID may enable version v of sc with the
// option values raw, and returns them validated (defaults filled in).
func checkChoice(sc *store.HouseRuleScript, v *store.HouseRuleVersion, ruleset string, hostID int64, raw map[string]any) (sdk.Options, error) {
	if !slices.Contains(sc.RulesetList(), ruleset) {
		return nil, errf(KindInvalid, "wrong_ruleset", "house rule %q is for %s, not for this room's ruleset %s", sc.Name, strings.Join(sc.RulesetList(), ", "), ruleset)
	}
	if !v.Usable(sc, hostID) {
		return nil, unusable(sc, v)
	}
	var decl engine.HouseRuleInfo
	if err := json.Unmarshal([]byte(v.Declared), &decl); err != nil {
		return nil, fmt.Errorf("house rule %q v%d: reading what it declares: %w", sc.Name, v.Number, err)
	}
	opts, err := sdk.ValidateOptions(decl.Options, raw)
	if err != nil {
		return nil, houseOptionErrors(sc.Name, err)
	}
	return opts, nil
}

// ResolveHouseRule finds the script named name and its version number version; version 0 takes
// the newest version userID may use in rooms they host (or, when none, the newest, so that enabling
// it says why not). Unknown names and versions are KindNotFound errors.
func (m *Manager) ResolveHouseRule(ctx context.Context, name string, version int, userID int64) (*store.HouseRuleScript, *store.HouseRuleVersion, error) {
	sc, err := m.cfg.Store.HouseRuleByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, errf(KindNotFound, "no_house_rule", "there is no house rule named %q", name)
	}
	if err != nil {
		return nil, nil, err
	}
	vs, err := m.cfg.Store.HouseRuleVersions(ctx, sc.ID)
	if err != nil {
		return nil, nil, err
	}
	for i := len(vs) - 1; i >= 0; i-- {
		if version == vs[i].Number || (version == 0 && vs[i].Usable(sc, userID)) {
			return sc, &vs[i], nil
		}
	}
	if version == 0 && len(vs) > 0 {
		return sc, &vs[len(vs)-1], nil
	}
	return nil, nil, errf(KindNotFound, "no_version", "house rule %q has no version %d", name, version)
}

// HouseRuleChoice is a house rule picked in the room form (CreateRequest.HouseRules): a script by
// name, a version (0: the newest the host may use) and its option values.
type HouseRuleChoice struct {
	Name    string         `json:"name"`
	Version int            `json:"version,omitempty"`
	Options map[string]any `json:"options,omitempty"`
}

// formHouseRules checks the house rules of a room form as enabling them one by one would, plus a
// trial start with all of them, and returns them ready to store with the room.
func (m *Manager) formHouseRules(ctx context.Context, host *store.User, req CreateRequest, opts sdk.Options) ([]store.RoomHouseRule, error) {
	if len(req.HouseRules) == 0 {
		return nil, nil
	}
	var (
		out   []store.RoomHouseRule
		rules []sdk.HouseRule
		errs  sdk.OptionErrors
		seen  = map[int64]bool{}
	)
	uid := host.ID
	for i, ch := range req.HouseRules {
		field := fmt.Sprintf("house_rules[%d]", i)
		sc, v, err := m.ResolveHouseRule(ctx, ch.Name, ch.Version, host.ID)
		if err == nil && seen[sc.ID] {
			err = errf(KindInvalid, "duplicate", "house rule %q is chosen twice", sc.Name)
		}
		var vo sdk.Options
		if err == nil {
			vo, err = checkChoice(sc, v, req.Ruleset, host.ID, ch.Options)
		}
		var oe sdk.OptionErrors
		var re *Error
		switch {
		case errors.As(err, &oe):
			errs = append(errs, oe...)
			continue
		case errors.As(err, &re):
			errs = append(errs, sdk.OptionError{Field: field, Reason: re.Reason})
			continue
		case err != nil:
			return nil, err
		}
		seen[sc.ID] = true
		oj, _ := json.Marshal(vo)
		out = append(out, store.RoomHouseRule{ScriptID: sc.ID, VersionID: v.ID, Options: string(oj), EnabledBy: &uid})
		rules = append(rules, sdk.HouseRule{Name: sc.Name, Version: v.Number, Source: v.Source, Options: vo})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	cctx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()
	_, err := m.engine(req.Ruleset).NewGame(cctx, &engine.NewGameRequest{Seats: req.Seats, Options: map[string]any(opts), Seed: 1, HouseRules: rules, NoViews: true})
	if re, ok := sdk.AsRefusal(err); ok {
		return nil, sdk.OptionErrors{{Field: "house_rules", Reason: re.Reason}}
	} else if err != nil {
		return nil, errf(KindUnavailable, "engine", "ruleset %s failed to check the house rules: %v", req.Ruleset, err)
	}
	return out, nil
}

// trialStart starts a throw-away game of the room's ruleset with rules through its engine, as the
// next deal would: the engine compiles them, validates their options and checks they fit the
// ruleset and one another.
func (r *Room) trialStart(rules []sdk.HouseRule) error {
	if r.engine == nil || r.desc == nil {
		return errf(KindUnavailable, "no_ruleset", "ruleset %q is not available on this server", r.room.Ruleset)
	}
	var opts map[string]any
	_ = json.Unmarshal([]byte(r.room.Options), &opts)
	seats := min(max(r.room.Capacity, r.desc.MinSeats), r.desc.MaxSeats)
	err := r.call("check", func(ctx context.Context) error {
		_, err := r.engine.NewGame(ctx, &engine.NewGameRequest{Seats: seats, Options: opts, Seed: 1, HouseRules: rules, NoViews: true})
		return err
	})
	if re, ok := sdk.AsRefusal(err); ok {
		return &Error{Kind: KindInvalid, Code: "bad_house_rule", Reason: re.Reason, Fault: re.Fault}
	}
	if err != nil {
		return errf(KindUnavailable, "engine", "ruleset %s failed to check the house rules: %v", r.room.Ruleset, err)
	}
	return nil
}

// houseOptionErrors names a house rule's bad option values as fields "house_rules.NAME.options.X".
func houseOptionErrors(name string, err error) error {
	var oe sdk.OptionErrors
	if !errors.As(err, &oe) {
		return err
	}
	out := make(sdk.OptionErrors, len(oe))
	for i, e := range oe {
		out[i] = sdk.OptionError{Field: "house_rules." + name + ".options." + e.Field,
			Reason: strings.Replace(e.Reason, "this ruleset has", "house rule "+name+" has", 1)}
	}
	return out
}

// gameHouseRules returns the house rules game g started with, as its engine ran them (replays).
func (m *Manager) gameHouseRules(ctx context.Context, g *store.Game) ([]sdk.HouseRule, error) {
	pins, err := m.cfg.Store.GameHouseRules(ctx, g.ID)
	if err != nil {
		return nil, fmt.Errorf("game %d: reading its house rules: %w", g.Number, err)
	}
	var rules []sdk.HouseRule
	for _, p := range pins {
		rule, err := sdkRule(&p.Script, &p.Version, p.Options)
		if err != nil {
			return nil, err
		}
		rules = append(rules, rule)
	}
	return rules, nil
}
