package admin

// House-rule review: admins read uploaded scripts and approve, reject or disable their versions
// (through the store methods of the house-rule storage, platform/store/houserules.go).

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"

	"github.com/aymanbagabas/go-udiff"
	"github.com/labstack/echo/v4"
)

// VersionInfo is one version of a house-rule script; Source is set only when reading one script.
type VersionInfo struct {
	ID           int64      `json:"id"`
	Number       int        `json:"number"`
	Checksum     string     `json:"checksum"`
	Description  string     `json:"description"`
	Status       string     `json:"status"`
	StatusBy     string     `json:"status_by,omitempty"`
	StatusAt     *time.Time `json:"status_at,omitempty"`
	StatusReason string     `json:"status_reason,omitempty"`
	CreatedAt    time.Time  `json:"created_at"`
	Lines        int        `json:"lines"`
	Source       string     `json:"source,omitempty"`
	// Diff is the unified diff from the version before (read with sources only; "" for the first
	// version or a source unchanged).
	Diff string `json:"diff,omitempty"`
	// Previous is the number of the version Diff starts from (0 for none).
	Previous int `json:"previous,omitempty"`
}

// ScriptInfo is a house-rule script with its versions, newest first.
type ScriptInfo struct {
	ID          int64         `json:"id"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	OwnerID     int64         `json:"owner_id"`
	Owner       string        `json:"owner"`
	Rulesets    []string      `json:"rulesets"`
	CreatedAt   time.Time     `json:"created_at"`
	Versions    []VersionInfo `json:"versions"`
	// Pending counts the versions waiting for review.
	Pending int `json:"pending"`
}

// HouseRuleList is every script (or those with a version in one status) and the review queue.
type HouseRuleList struct {
	Scripts []ScriptInfo `json:"scripts"`
	// Queue are the versions waiting for review, oldest first, each with its script's id and name.
	Queue []QueuedVersion `json:"queue"`
}

// QueuedVersion is a pending version in the review queue.
type QueuedVersion struct {
	ScriptID int64       `json:"script_id"`
	Name     string      `json:"name"`
	Version  VersionInfo `json:"version"`
}

// userNames caches account names for one request.
type userNames struct {
	a     *Admin
	ctx   context.Context
	names map[int64]string
}

func (n *userNames) name(id int64) string {
	if s, ok := n.names[id]; ok {
		return s
	}
	s := fmt.Sprintf("user %d", id)
	if u, err := n.a.st.UserByID(n.ctx, id); err == nil {
		s = accountName(u)
	}
	n.names[id] = s
	return s
}

func (a *Admin) versionInfo(v *store.HouseRuleVersion, names *userNames, withSource bool) VersionInfo {
	vi := VersionInfo{ID: v.ID, Number: v.Number, Checksum: v.Checksum, Description: v.Description, Status: v.Status,
		StatusAt: v.StatusAt, StatusReason: v.StatusReason, CreatedAt: v.CreatedAt, Lines: strings.Count(v.Source, "\n") + 1}
	if v.StatusBy != nil {
		vi.StatusBy = names.name(*v.StatusBy)
	}
	if withSource {
		vi.Source = v.Source
	}
	return vi
}

func (a *Admin) scriptInfo(ctx context.Context, sc *store.HouseRuleScript, names *userNames, withSource bool) (ScriptInfo, error) {
	si := ScriptInfo{ID: sc.ID, Name: sc.Name, Description: sc.Description, OwnerID: sc.OwnerID, Owner: names.name(sc.OwnerID),
		Rulesets: sc.RulesetList(), CreatedAt: sc.CreatedAt, Versions: []VersionInfo{}}
	if si.Rulesets == nil {
		si.Rulesets = []string{}
	}
	vs, err := a.st.HouseRuleVersions(ctx, sc.ID)
	if err != nil {
		return si, err
	}
	for i := len(vs) - 1; i >= 0; i-- {
		vi := a.versionInfo(&vs[i], names, withSource)
		if withSource && i > 0 {
			prev := &vs[i-1]
			vi.Previous = prev.Number
			vi.Diff = udiff.Unified(fmt.Sprintf("version %d", prev.Number), fmt.Sprintf("version %d", vs[i].Number), prev.Source, vs[i].Source)
		}
		si.Versions = append(si.Versions, vi)
		if vs[i].Status == store.HouseRulePending {
			si.Pending++
		}
	}
	return si, nil
}

// HouseRules lists the scripts with a version in status ("" for every script) and the queue of
// pending versions.
func (a *Admin) HouseRules(ctx context.Context, status string) (*HouseRuleList, error) {
	names := &userNames{a: a, ctx: ctx, names: map[int64]string{}}
	scripts, err := a.st.ListHouseRules(ctx, store.HouseRuleFilter{Status: status})
	if err != nil {
		return nil, err
	}
	out := &HouseRuleList{Scripts: []ScriptInfo{}, Queue: []QueuedVersion{}}
	for i := range scripts {
		si, err := a.scriptInfo(ctx, &scripts[i], names, false)
		if err != nil {
			return nil, err
		}
		out.Scripts = append(out.Scripts, si)
	}
	queue, err := a.st.HouseRuleVersionsByStatus(ctx, store.HouseRulePending)
	if err != nil {
		return nil, err
	}
	for i := range queue {
		out.Queue = append(out.Queue, QueuedVersion{ScriptID: queue[i].Script.ID, Name: queue[i].Script.Name,
			Version: a.versionInfo(&queue[i].Version, names, false)})
	}
	return out, nil
}

// HouseRule reads one script with the source of each version.
func (a *Admin) HouseRule(ctx context.Context, id int64) (*ScriptInfo, error) {
	sc, err := a.st.HouseRuleByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(http.StatusNotFound, "no_house_rule", "there is no house rule %d", id)
	}
	if err != nil {
		return nil, err
	}
	si, err := a.scriptInfo(ctx, sc, &userNames{a: a, ctx: ctx, names: map[int64]string{}}, true)
	if err != nil {
		return nil, err
	}
	return &si, nil
}

// Review decisions on a house-rule version.
const (
	ReviewApprove = "approve"
	ReviewReject  = "reject"
	ReviewDisable = "disable"
)

// ReviewHouseRule approves, rejects or disables house-rule version versionID. Rejecting and
// disabling need a reason (the owner reads it); approving may have one. A decision that does not
// apply to the version's status (rejecting an approved version) is a 409 naming both.
func (a *Admin) ReviewHouseRule(ctx context.Context, by Actor, versionID int64, decision, reason string) error {
	reason, err := checkReason(reason, decision != ReviewApprove)
	if err != nil {
		return err
	}
	v, err := a.st.HouseRuleVersionByID(ctx, versionID)
	if errors.Is(err, store.ErrNotFound) {
		return errorf(http.StatusNotFound, "no_version", "there is no house-rule version %d", versionID)
	}
	if err != nil {
		return err
	}
	sc, err := a.st.HouseRuleByID(ctx, v.ScriptID)
	if err != nil {
		return err
	}
	switch decision {
	case ReviewApprove:
		err = a.st.ApproveHouseRuleVersion(ctx, versionID, by.ID, reason)
	case ReviewReject:
		err = a.st.RejectHouseRuleVersion(ctx, versionID, by.ID, reason)
	case ReviewDisable:
		err = a.st.DisableHouseRuleVersion(ctx, versionID, by.ID, reason)
	default:
		return errorf(http.StatusBadRequest, "bad_decision", "decision: want approve, reject or disable, got %q", decision)
	}
	label := fmt.Sprintf("%s v%d", sc.Name, v.Number)
	switch {
	case errors.Is(err, store.ErrBadTransition):
		return errorf(http.StatusConflict, "bad_transition", "house rule %s: %v", label, err)
	case errors.Is(err, store.ErrConflict):
		return errorf(http.StatusConflict, "changed", "house rule %s changed meanwhile; reload and try again", label)
	case err != nil:
		return err
	}
	a.audit(ctx, by, "houserule."+decision, "houserule_version", idStr(versionID), label, reason)
	return nil
}

func (a *Admin) apiHouseRules(c echo.Context) error {
	status, err := oneOf(c, "status", store.HouseRulePending, store.HouseRuleApproved, store.HouseRuleRejected, store.HouseRuleDisabled)
	if err != nil {
		return err
	}
	l, err := a.HouseRules(c.Request().Context(), status)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l)
}

func (a *Admin) apiHouseRule(c echo.Context) error {
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	si, err := a.HouseRule(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, si)
}

func (a *Admin) apiReview(c echo.Context, decision string) error {
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	var b reasonBody
	if err := bind(c, &b); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := a.ReviewHouseRule(ctx, actorOf(c), id, decision, b.Reason); err != nil {
		return err
	}
	v, err := a.st.HouseRuleVersionByID(ctx, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"version": a.versionInfo(v, &userNames{a: a, ctx: ctx, names: map[int64]string{}}, false), "script_id": v.ScriptID})
}

func (a *Admin) apiApproveVersion(c echo.Context) error { return a.apiReview(c, ReviewApprove) }
func (a *Admin) apiRejectVersion(c echo.Context) error  { return a.apiReview(c, ReviewReject) }
func (a *Admin) apiDisableVersion(c echo.Context) error { return a.apiReview(c, ReviewDisable) }

// DryRunReport is a version's dry run as the reviewer reads it: the check's result and, in a few
// lines, what it says (the games, the hook counts, the hooks that never did anything), or the
// problem that failed it.
type DryRunReport struct {
	OK      bool                 `json:"ok"`
	Summary string               `json:"summary"`
	Check   *room.HouseRuleCheck `json:"check,omitempty"`
}

// DryRun checks house-rule version versionID as an upload is checked (room.Manager.CheckHouseRule:
// the trial start and bot games in the rulesets' check processes, never the live ones, every
// option's extremes tried) and words the result for the reviewer. A failed check is a report
// with OK false, not an error.
func (a *Admin) DryRun(ctx context.Context, versionID int64) (*DryRunReport, error) {
	v, err := a.st.HouseRuleVersionByID(ctx, versionID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(http.StatusNotFound, "no_version", "there is no house-rule version %d", versionID)
	}
	if err != nil {
		return nil, err
	}
	sc, err := a.st.HouseRuleByID(ctx, v.ScriptID)
	if err != nil {
		return nil, err
	}
	check, err := a.rooms.CheckHouseRule(ctx, room.CheckRequest{Source: v.Source, Rulesets: sc.RulesetList()}, room.DryRun{})
	if err != nil {
		var re *room.Error
		if errors.As(err, &re) && re.Kind == room.KindInvalid {
			return &DryRunReport{Summary: fmt.Sprintf("%s v%d fails its check: %s", sc.Name, v.Number, re.Reason)}, nil
		}
		return nil, err
	}
	var b strings.Builder
	ended := 0
	for _, g := range check.Games {
		if g.Ended {
			ended++
		}
	}
	fmt.Fprintf(&b, "%s v%d checks out: %d dry-run games, %d played to their end", sc.Name, v.Number, len(check.Games), ended)
	if check.CutOff > 0 {
		fmt.Fprintf(&b, ", %d cut off before their end", check.CutOff)
	}
	b.WriteString(".")
	if len(check.Hooks) > 0 {
		b.WriteString(" Hooks:")
		for i, h := range check.Hooks {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %s ran %d times, did something %d", h.Hook, h.Calls, h.Fired)
		}
		b.WriteString(".")
	}
	if len(check.Never) > 0 {
		fmt.Fprintf(&b, " Never did anything: %s.", strings.Join(check.Never, ", "))
	}
	fmt.Fprintf(&b, " The steps took %d ms of %d ms.", check.StepMS, check.BudgetMS)
	return &DryRunReport{OK: true, Summary: b.String(), Check: check}, nil
}

func (a *Admin) apiDryRunVersion(c echo.Context) error {
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	rep, err := a.DryRun(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}
