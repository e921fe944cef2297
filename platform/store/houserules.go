package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Statuses of a house-rule version. A new version is pending until an admin approves or rejects
// it; only approved versions may be enabled by anyone, while the owner may use a pending version
// in rooms they host. An admin may disable a version (approved or pending) later; approving a
// rejected or disabled version reinstates it.
const (
	HouseRulePending  = "pending"
	HouseRuleApproved = "approved"
	HouseRuleRejected = "rejected"
	HouseRuleDisabled = "disabled"
)

// HouseRuleScript is a house-rule script uploaded by a user: its name (the one the script
// declares, unique on the server), its latest description, and the rulesets it is for. Its code
// lives in its versions.
type HouseRuleScript struct {
	ID          int64 `gorm:"primaryKey"`
	OwnerID     int64
	Name        string
	Description string
	// Rulesets are the ruleset ids the script is for, as a JSON list (see RulesetList).
	Rulesets  string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// RulesetList returns the ruleset ids of Rulesets (nil when unreadable).
func (s *HouseRuleScript) RulesetList() []string {
	var ids []string
	_ = json.Unmarshal([]byte(s.Rulesets), &ids)
	return ids
}

// HouseRuleVersion is one uploaded version of a script, numbered from 1: its exact source and its
// SHA-256 checksum, what it declares, and its review status with who set it, when and why.
type HouseRuleVersion struct {
	ID       int64 `gorm:"primaryKey"`
	ScriptID int64
	Number   int
	Source   string
	// Checksum is the hex SHA-256 of Source; a script cannot have two versions with one checksum.
	Checksum    string
	Description string
	// Declared is the engine.HouseRuleInfo the script declares (options, hooks, actions) as JSON.
	Declared     string
	Status       string
	StatusBy     *int64
	StatusAt     *time.Time
	StatusReason string
	CreatedAt    time.Time
}

// Usable reports whether a room hosted by hostID may start a game with this version: approved,
// or pending and owned by the host.
func (v *HouseRuleVersion) Usable(script *HouseRuleScript, hostID int64) bool {
	return v.Status == HouseRuleApproved || (v.Status == HouseRulePending && script.OwnerID == hostID)
}

// RoomHouseRule is a house rule a room has enabled for its next games: one version of a script,
// its option values (validated, as JSON) and its place in the order hooks run.
type RoomHouseRule struct {
	ID        int64 `gorm:"primaryKey"`
	RoomID    int64
	ScriptID  int64
	VersionID int64
	Position  int
	Options   string
	EnabledBy *int64
	CreatedAt time.Time
}

// GameHouseRule pins a game to the exact version of a house rule it started with, and the rule's
// option values (JSON); Position is the rule's place in the game's list.
type GameHouseRule struct {
	GameID    int64 `gorm:"primaryKey;autoIncrement:false"`
	Position  int   `gorm:"primaryKey;autoIncrement:false"`
	VersionID int64
	Options   string
}

// EnabledHouseRule is a room's enabled rule with its script and version.
type EnabledHouseRule struct {
	RoomHouseRule
	Script  HouseRuleScript
	Version HouseRuleVersion
}

// PinnedHouseRule is a game's house rule with the version it was pinned to.
type PinnedHouseRule struct {
	GameHouseRule
	Script  HouseRuleScript
	Version HouseRuleVersion
}

// ErrBadTransition is returned when a review decision does not apply to a version's status
// (rejecting an approved version, approving an approved one).
var ErrBadTransition = errors.New("not possible in this status")

// ---- scripts and versions ----

// CreateHouseRule inserts a new script and its first version (number 1, pending) in one
// transaction, setting both IDs. A taken name returns ErrConflict.
func (s *Store) CreateHouseRule(ctx context.Context, sc *HouseRuleScript, v *HouseRuleVersion) error {
	now := time.Now().UTC()
	sc.CreatedAt, sc.UpdatedAt = now, now
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&HouseRuleScript{}).Where("name = ?", sc.Name).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("house rule %q already exists: %w", sc.Name, ErrConflict)
		}
		if err := tx.Create(sc).Error; err != nil {
			return notFound(err, fmt.Sprintf("house rule %q", sc.Name))
		}
		v.ScriptID, v.Number, v.Status, v.CreatedAt = sc.ID, 1, HouseRulePending, now
		return tx.Create(v).Error
	})
}

// AddHouseRuleVersion inserts v as the next version of script scriptID (pending), and sets the
// script's description and rulesets to the new version's, in one transaction. A source identical
// to an earlier version's (same checksum) returns ErrConflict naming that version.
func (s *Store) AddHouseRuleVersion(ctx context.Context, scriptID int64, v *HouseRuleVersion, rulesets string) error {
	now := time.Now().UTC()
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var same HouseRuleVersion
		err := tx.Where("script_id = ? AND checksum = ?", scriptID, v.Checksum).Take(&same).Error
		if err == nil {
			return fmt.Errorf("this source is version %d already: %w", same.Number, ErrConflict)
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
		var last *int
		if err := tx.Model(&HouseRuleVersion{}).Where("script_id = ?", scriptID).Select("MAX(number)").Scan(&last).Error; err != nil {
			return err
		}
		if last == nil {
			return fmt.Errorf("house rule %d: %w", scriptID, ErrNotFound)
		}
		v.ID, v.ScriptID, v.Number, v.Status, v.CreatedAt = 0, scriptID, *last+1, HouseRulePending, now
		v.StatusBy, v.StatusAt, v.StatusReason = nil, nil, ""
		if err := tx.Create(v).Error; err != nil {
			return notFound(err, fmt.Sprintf("house rule %d version %d", scriptID, v.Number))
		}
		return tx.Model(&HouseRuleScript{}).Where("id = ?", scriptID).
			Updates(map[string]any{"description": v.Description, "rulesets": rulesets, "updated_at": now}).Error
	})
}

// HouseRuleByName finds a script by its name.
func (s *Store) HouseRuleByName(ctx context.Context, name string) (*HouseRuleScript, error) {
	var sc HouseRuleScript
	err := s.db.WithContext(ctx).Where("name = ?", name).Take(&sc).Error
	return &sc, notFound(err, fmt.Sprintf("house rule %q", name))
}

// HouseRuleByID finds a script by its ID.
func (s *Store) HouseRuleByID(ctx context.Context, id int64) (*HouseRuleScript, error) {
	var sc HouseRuleScript
	err := s.db.WithContext(ctx).Take(&sc, id).Error
	return &sc, notFound(err, fmt.Sprintf("house rule %d", id))
}

// HouseRuleVersions lists a script's versions, oldest first.
func (s *Store) HouseRuleVersions(ctx context.Context, scriptID int64) ([]HouseRuleVersion, error) {
	var vs []HouseRuleVersion
	err := s.db.WithContext(ctx).Where("script_id = ?", scriptID).Order("number").Find(&vs).Error
	return vs, err
}

// HouseRuleVersionByNumber finds version number of a script.
func (s *Store) HouseRuleVersionByNumber(ctx context.Context, scriptID int64, number int) (*HouseRuleVersion, error) {
	var v HouseRuleVersion
	err := s.db.WithContext(ctx).Where("script_id = ? AND number = ?", scriptID, number).Take(&v).Error
	return &v, notFound(err, fmt.Sprintf("version %d", number))
}

// HouseRuleVersionByID finds a version by its ID.
func (s *Store) HouseRuleVersionByID(ctx context.Context, id int64) (*HouseRuleVersion, error) {
	var v HouseRuleVersion
	err := s.db.WithContext(ctx).Take(&v, id).Error
	return &v, notFound(err, fmt.Sprintf("house rule version %d", id))
}

// HouseRuleFilter selects scripts for ListHouseRules; zero fields select everything.
type HouseRuleFilter struct {
	// OwnerID selects one user's scripts.
	OwnerID int64
	// Ruleset selects scripts for that ruleset id.
	Ruleset string
	// Status selects scripts with at least one version in that status.
	Status string
	// Limit and Offset page the result (Limit 0: no limit).
	Limit, Offset int
}

// ListHouseRules lists the scripts f selects, by name.
func (s *Store) ListHouseRules(ctx context.Context, f HouseRuleFilter) ([]HouseRuleScript, error) {
	q := s.db.WithContext(ctx).Model(&HouseRuleScript{})
	if f.OwnerID != 0 {
		q = q.Where("owner_id = ?", f.OwnerID)
	}
	if f.Ruleset != "" {
		// The list is JSON of plain ids; a quoted id matches one element exactly.
		q = q.Where("rulesets LIKE ?", "%"+jsonQuoted(f.Ruleset)+"%")
	}
	if f.Status != "" {
		q = q.Where("EXISTS (SELECT 1 FROM house_rule_versions v WHERE v.script_id = house_rule_scripts.id AND v.status = ?)", f.Status)
	}
	if f.Limit > 0 {
		q = q.Limit(f.Limit).Offset(f.Offset)
	}
	var out []HouseRuleScript
	err := q.Order("name").Find(&out).Error
	return out, err
}

// jsonQuoted returns id as a JSON string, the form it has inside the stored list.
func jsonQuoted(id string) string {
	b, _ := json.Marshal(id)
	return string(b)
}

// HouseRuleVersionsByStatus lists the versions in a status (pending: the admins' review queue),
// oldest first, with their scripts.
func (s *Store) HouseRuleVersionsByStatus(ctx context.Context, status string) ([]PinnedVersion, error) {
	var vs []HouseRuleVersion
	if err := s.db.WithContext(ctx).Where("status = ?", status).Order("id").Find(&vs).Error; err != nil {
		return nil, err
	}
	out := make([]PinnedVersion, 0, len(vs))
	scripts := map[int64]*HouseRuleScript{}
	for _, v := range vs {
		sc, ok := scripts[v.ScriptID]
		if !ok {
			var err error
			if sc, err = s.HouseRuleByID(ctx, v.ScriptID); err != nil {
				return nil, err
			}
			scripts[v.ScriptID] = sc
		}
		out = append(out, PinnedVersion{Script: *sc, Version: v})
	}
	return out, nil
}

// PinnedVersion is a version with its script.
type PinnedVersion struct {
	Script  HouseRuleScript
	Version HouseRuleVersion
}

// ApproveHouseRuleVersion approves a version (pending, rejected or disabled), recording the admin
// actorID, the time and reason (may be empty). Approving an approved version returns
// ErrBadTransition.
func (s *Store) ApproveHouseRuleVersion(ctx context.Context, versionID, actorID int64, reason string) error {
	return s.review(ctx, versionID, actorID, reason, HouseRuleApproved, HouseRulePending, HouseRuleRejected, HouseRuleDisabled)
}

// RejectHouseRuleVersion rejects a pending version, recording the admin actorID, the time and the
// reason (required: the owner reads it). Other statuses return ErrBadTransition (disable an
// approved version instead).
func (s *Store) RejectHouseRuleVersion(ctx context.Context, versionID, actorID int64, reason string) error {
	if strings.TrimSpace(reason) == "" {
		return errors.New("rejecting a house rule needs a reason the owner can read")
	}
	return s.review(ctx, versionID, actorID, reason, HouseRuleRejected, HouseRulePending)
}

// DisableHouseRuleVersion disables an approved or pending version, recording the admin actorID,
// the time and the reason (required). No room can start a game with it afterwards; games already
// started keep the source they started with and go on.
func (s *Store) DisableHouseRuleVersion(ctx context.Context, versionID, actorID int64, reason string) error {
	if strings.TrimSpace(reason) == "" {
		return errors.New("disabling a house rule needs a reason")
	}
	return s.review(ctx, versionID, actorID, reason, HouseRuleDisabled, HouseRuleApproved, HouseRulePending)
}

func (s *Store) review(ctx context.Context, versionID, actorID int64, reason, to string, from ...string) error {
	now := time.Now().UTC()
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var v HouseRuleVersion
		if err := tx.Take(&v, versionID).Error; err != nil {
			return notFound(err, fmt.Sprintf("house rule version %d", versionID))
		}
		if !slices.Contains(from, v.Status) {
			return fmt.Errorf("version %d is %s; it can be %s only when %s: %w", v.Number, v.Status, to, strings.Join(from, " or "), ErrBadTransition)
		}
		res := tx.Model(&HouseRuleVersion{}).Where("id = ? AND status = ?", versionID, v.Status).
			Updates(map[string]any{"status": to, "status_by": actorID, "status_at": now, "status_reason": strings.TrimSpace(reason)})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("house rule version %d changed meanwhile: %w", versionID, ErrConflict)
		}
		return nil
	})
}

// ---- rooms and games ----

// RoomHouseRules lists a room's enabled rules in hook order, with their scripts and versions.
func (s *Store) RoomHouseRules(ctx context.Context, roomID int64) ([]EnabledHouseRule, error) {
	var rs []RoomHouseRule
	if err := s.db.WithContext(ctx).Where("room_id = ?", roomID).Order("position, id").Find(&rs).Error; err != nil {
		return nil, err
	}
	out := make([]EnabledHouseRule, len(rs))
	for i, r := range rs {
		sc, err := s.HouseRuleByID(ctx, r.ScriptID)
		if err != nil {
			return nil, err
		}
		v, err := s.HouseRuleVersionByID(ctx, r.VersionID)
		if err != nil {
			return nil, err
		}
		out[i] = EnabledHouseRule{RoomHouseRule: r, Script: *sc, Version: *v}
	}
	return out, nil
}

// EnableRoomHouseRule enables a rule in a room: when the room has the script already, its
// version and options are replaced in place; otherwise it goes last. It sets r's ID and Position.
func (s *Store) EnableRoomHouseRule(ctx context.Context, r *RoomHouseRule) error {
	if r.CreatedAt.IsZero() {
		r.CreatedAt = time.Now().UTC()
	}
	return s.roomWrite(ctx, func(tx *gorm.DB) error {
		var old RoomHouseRule
		err := tx.Where("room_id = ? AND script_id = ?", r.RoomID, r.ScriptID).Take(&old).Error
		switch {
		case err == nil:
			r.ID, r.Position = old.ID, old.Position
			return tx.Model(&RoomHouseRule{}).Where("id = ?", old.ID).
				Updates(map[string]any{"version_id": r.VersionID, "options": r.Options, "enabled_by": r.EnabledBy}).Error
		case !errors.Is(err, gorm.ErrRecordNotFound):
			return err
		}
		var last *int
		if err := tx.Model(&RoomHouseRule{}).Where("room_id = ?", r.RoomID).Select("MAX(position)").Scan(&last).Error; err != nil {
			return err
		}
		r.ID, r.Position = 0, 0
		if last != nil {
			r.Position = *last + 1
		}
		return notFound(tx.Create(r).Error, "enabling house rule")
	})
}

// DisableRoomHouseRule removes script scriptID from a room's enabled rules; ErrNotFound when the
// room has not enabled it.
func (s *Store) DisableRoomHouseRule(ctx context.Context, roomID, scriptID int64) error {
	return s.roomWrite(ctx, func(tx *gorm.DB) error {
		res := tx.Where("room_id = ? AND script_id = ?", roomID, scriptID).Delete(&RoomHouseRule{})
		if res.Error == nil && res.RowsAffected == 0 {
			return fmt.Errorf("the room has not enabled house rule %d: %w", scriptID, ErrNotFound)
		}
		return res.Error
	})
}

// StartGameWithHouseRules is StartGame that also pins the game to the house-rule versions it
// starts with (their GameID is set here), all in one transaction.
func (s *Store) StartGameWithHouseRules(ctx context.Context, g *Game, r *Room, ms []*Member, pins []GameHouseRule) error {
	return s.roomWrite(ctx, func(tx *gorm.DB) error {
		if err := tx.Create(g).Error; err != nil {
			return err
		}
		for i := range pins {
			pins[i].GameID = g.ID
			if err := tx.Create(&pins[i]).Error; err != nil {
				return err
			}
		}
		r.GameID = &g.ID
		r.UpdatedAt = time.Now().UTC()
		if err := tx.Select("*").Save(r).Error; err != nil {
			return err
		}
		for _, m := range ms {
			if err := tx.Select("*").Save(m).Error; err != nil {
				return err
			}
		}
		return nil
	})
}

// GameHouseRules lists the house rules a game started with, in order, with the exact versions.
func (s *Store) GameHouseRules(ctx context.Context, gameID int64) ([]PinnedHouseRule, error) {
	var pins []GameHouseRule
	if err := s.db.WithContext(ctx).Where("game_id = ?", gameID).Order("position").Find(&pins).Error; err != nil {
		return nil, err
	}
	out := make([]PinnedHouseRule, len(pins))
	for i, p := range pins {
		v, err := s.HouseRuleVersionByID(ctx, p.VersionID)
		if err != nil {
			return nil, err
		}
		sc, err := s.HouseRuleByID(ctx, v.ScriptID)
		if err != nil {
			return nil, err
		}
		out[i] = PinnedHouseRule{GameHouseRule: p, Script: *sc, Version: *v}
	}
	return out, nil
}

// CreateRoomWithHouseRules is CreateRoom that also enables house rules in the new room (their
// RoomID, ID and Position are set here, in order), all in one transaction.
func (s *Store) CreateRoomWithHouseRules(ctx context.Context, r *Room, members []*Member, rules []RoomHouseRule) error {
	now := time.Now().UTC()
	r.CreatedAt, r.UpdatedAt = now, now
	return notFound(s.write(ctx, func(tx *gorm.DB) error {
		if err := tx.Create(r).Error; err != nil {
			return err
		}
		for _, m := range members {
			m.RoomID = r.ID
			if m.CreatedAt.IsZero() {
				m.CreatedAt = now
			}
			if err := tx.Create(m).Error; err != nil {
				return err
			}
		}
		for i := range rules {
			rules[i].ID, rules[i].RoomID, rules[i].Position = 0, r.ID, i
			if rules[i].CreatedAt.IsZero() {
				rules[i].CreatedAt = now
			}
			if err := tx.Create(&rules[i]).Error; err != nil {
				return err
			}
		}
		return nil
	}), "creating room "+r.Code)
}
