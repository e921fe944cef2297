package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/sdk"
	"cardhouse/sdk/engine"

	"github.com/labstack/echo/v4"
)

// houseRuleRoutes registers the house-rule API (docs/api.md, "House rules"): scripts and their
// versions under /api/house-rules, a room's enabled rules under /api/rooms/{code}/house-rules.
// Admin review (approve, reject, disable) is the admin area's, on the store's methods.
func (s *Server) houseRuleRoutes(api, rg *echo.Group) {
	hr := api.Group("/house-rules", s.needUser)
	hr.GET("", s.listHouseRules)
	hr.POST("", s.uploadHouseRule)
	hr.POST("/check", s.checkHouseRule)
	hr.POST("/try", s.tryHouseRule)
	hr.GET("/:name", s.readHouseRule)
	hr.POST("/:name/versions", s.uploadHouseRuleVersion)
	rg.POST("/house-rules", s.enableHouseRule)
	rg.DELETE("/house-rules/:name", s.disableHouseRule)
}

// houseRuleJSON is a script as the API shows it.
type houseRuleJSON struct {
	ID          int64         `json:"id"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	OwnerID     int64         `json:"owner_id"`
	Rulesets    []string      `json:"rulesets"`
	CreatedAt   time.Time     `json:"created_at"`
	UpdatedAt   time.Time     `json:"updated_at"`
	Versions    []versionJSON `json:"versions"`
}

// versionJSON is one version as the API shows it; Source only where asked for.
type versionJSON struct {
	Number       int                  `json:"number"`
	Checksum     string               `json:"checksum"`
	Description  string               `json:"description"`
	Status       string               `json:"status"`
	StatusReason string               `json:"status_reason,omitempty"`
	StatusAt     *time.Time           `json:"status_at,omitempty"`
	CreatedAt    time.Time            `json:"created_at"`
	Options      []sdk.Option         `json:"options"`
	Hooks        []string             `json:"hooks,omitempty"`
	Answers      []string             `json:"answers,omitempty"`
	Actions      []engine.HouseAction `json:"actions,omitempty"`
	Source       string               `json:"source,omitempty"`
	// Failures are the version's failures in live games, for its owner and admins only; absent
	// when it never failed.
	Failures *failuresJSON `json:"failures,omitempty"`
}

// failuresJSON is what "my rules" shows of a version's live failures: how many, in how many games,
// how many suspended it, and the newest (its message, line, hook, room and game).
type failuresJSON struct {
	Count       int64                   `json:"count"`
	Games       int64                   `json:"games"`
	Suspensions int64                   `json:"suspensions"`
	Last        *store.HouseRuleFailure `json:"last,omitempty"`
}

func toVersionJSON(v *store.HouseRuleVersion, withSource bool) versionJSON {
	var decl engine.HouseRuleInfo
	_ = json.Unmarshal([]byte(v.Declared), &decl)
	out := versionJSON{Number: v.Number, Checksum: v.Checksum, Description: v.Description, Status: v.Status,
		StatusReason: v.StatusReason, StatusAt: v.StatusAt, CreatedAt: v.CreatedAt, Options: decl.Options,
		Hooks: decl.Hooks, Answers: decl.Answers, Actions: decl.Actions}
	if out.Options == nil {
		out.Options = []sdk.Option{}
	}
	if withSource {
		out.Source = v.Source
	}
	return out
}

// mayReview reports whether u sees every version of sc (its owner and admins); others see the
// approved versions only.
func mayReview(u *store.User, sc *store.HouseRuleScript) bool {
	return u.ID == sc.OwnerID || u.Role == store.RoleAdmin
}

// describeScript renders sc with the versions u may see; ok is false when u may see none.
func (s *Server) describeScript(c echo.Context, sc *store.HouseRuleScript, withSource bool) (houseRuleJSON, bool, error) {
	u := userOf(c)
	vs, err := s.cfg.Store.HouseRuleVersions(c.Request().Context(), sc.ID)
	if err != nil {
		return houseRuleJSON{}, false, err
	}
	out := houseRuleJSON{ID: sc.ID, Name: sc.Name, Description: sc.Description, OwnerID: sc.OwnerID,
		Rulesets: sc.RulesetList(), CreatedAt: sc.CreatedAt, UpdatedAt: sc.UpdatedAt, Versions: []versionJSON{}}
	all := mayReview(u, sc)
	var stats []store.HouseRuleFailureStat
	if all {
		if stats, err = s.cfg.Store.HouseRuleFailureStats(c.Request().Context(), sc.Name); err != nil {
			return houseRuleJSON{}, false, err
		}
	}
	for i := range vs {
		if all || vs[i].Status == store.HouseRuleApproved {
			vj := toVersionJSON(&vs[i], withSource)
			if all {
				if vj.Failures, err = s.failuresOf(c.Request().Context(), stats, sc.Name, vs[i].Number); err != nil {
					return houseRuleJSON{}, false, err
				}
			}
			out.Versions = append(out.Versions, vj)
		}
	}
	return out, len(out.Versions) > 0, nil
}

// failuresOf is version number of rule's live failures from its stats, with the newest read; nil
// when it never failed.
func (s *Server) failuresOf(ctx context.Context, stats []store.HouseRuleFailureStat, rule string, number int) (*failuresJSON, error) {
	for _, st := range stats {
		if st.Rule != rule || st.Version != number {
			continue
		}
		last, err := s.cfg.Store.HouseRuleFailures(ctx, store.HouseRuleFailureQuery{Rule: rule, Version: number, Limit: 1})
		if err != nil {
			return nil, err
		}
		out := &failuresJSON{Count: st.Failures, Games: st.Games, Suspensions: st.Suspensions}
		if len(last) > 0 {
			out.Last = &last[0]
		}
		return out, nil
	}
	return nil, nil
}

type uploadReq struct {
	Source   string   `json:"source"`
	Rulesets []string `json:"rulesets"`
	// Options are values of the rule's own options for the dry run (a check's; defaults for
	// the rest), Extremes false plays those only instead of trying every option's extremes too.
	Options  map[string]any `json:"options,omitempty"`
	Extremes *bool          `json:"extremes,omitempty"`
}

func checksum(source string) string {
	sum := sha256.Sum256([]byte(source))
	return hex.EncodeToString(sum[:])
}

// checkUpload validates an upload through the rulesets' plugins and returns the version to store.
func (s *Server) checkUpload(c echo.Context, req uploadReq) (*store.HouseRuleVersion, *room.HouseRuleCheck, string, error) {
	if userOf(c).Guest {
		return nil, nil, "", apiError(http.StatusForbidden, "guest", "guests cannot upload house rules; register an account first")
	}
	ids := slices.Clone(req.Rulesets)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	check, err := s.cfg.Rooms.CheckHouseRule(c.Request().Context(), room.CheckRequest{Source: req.Source, Rulesets: ids,
		Options: req.Options, NoExtremes: req.Extremes != nil && !*req.Extremes}, s.cfg.HouseRuleDryRun)
	if err != nil {
		return nil, nil, "", err
	}
	decl, _ := json.Marshal(check.Info)
	rs, _ := json.Marshal(ids)
	v := &store.HouseRuleVersion{Source: req.Source, Checksum: checksum(req.Source), Description: check.Info.Description, Declared: string(decl)}
	return v, check, string(rs), nil
}

func (s *Server) uploadHouseRule(c echo.Context) error {
	var req uploadReq
	if err := bind(c, &req); err != nil {
		return err
	}
	v, check, rulesets, err := s.checkUpload(c, req)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	sc := &store.HouseRuleScript{OwnerID: userOf(c).ID, Name: check.Info.Name, Description: check.Info.Description, Rulesets: rulesets}
	if err := s.cfg.Store.CreateHouseRule(ctx, sc, v); err != nil {
		if errors.Is(err, store.ErrConflict) {
			hint := "another user's script has that name; rename yours (its `name = ...`)"
			if old, e := s.cfg.Store.HouseRuleByName(ctx, check.Info.Name); e == nil && old.OwnerID == userOf(c).ID {
				hint = "it is yours: upload a new version with POST /api/house-rules/" + old.Name + "/versions"
			}
			return apiError(http.StatusConflict, "name_taken", "a house rule named "+strconv.Quote(check.Info.Name)+" exists already: "+hint)
		}
		return err
	}
	return s.uploaded(c, sc, v, check)
}

// checkHouseRule checks a script exactly as an upload does (the plugins' trial start and the dry
// run) and stores nothing: the upload page's Check, and `rules check` for people without the
// command line. The answer is what the script declares, the dry-run games, the hook counts over
// them (and the hooks that never did anything), the games cut off and the time the steps took.
func (s *Server) checkHouseRule(c echo.Context) error {
	var req uploadReq
	if err := bind(c, &req); err != nil {
		return err
	}
	_, check, _, err := s.checkUpload(c, req)
	if err != nil {
		return err
	}
	info := check.Info
	if info.Options == nil {
		info.Options = []sdk.Option{}
	}
	return c.JSON(http.StatusOK, map[string]any{"ok": true, "declared": info, "dry_run": check.Games, "hooks": check.Hooks,
		"never": check.Never, "cut_off": check.CutOff, "option_sets": check.OptionSets, "step_ms": check.StepMS, "budget_ms": check.BudgetMS})
}

func (s *Server) uploaded(c echo.Context, sc *store.HouseRuleScript, v *store.HouseRuleVersion, check *room.HouseRuleCheck) error {
	sc, err := s.cfg.Store.HouseRuleByID(c.Request().Context(), sc.ID)
	if err != nil {
		return err
	}
	out, _, err := s.describeScript(c, sc, false)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]any{"house_rule": out, "version": toVersionJSON(v, false), "dry_run": check.Games, "hooks": check.Hooks,
		"never": check.Never, "cut_off": check.CutOff, "option_sets": check.OptionSets, "step_ms": check.StepMS, "budget_ms": check.BudgetMS})
}

func (s *Server) theScript(c echo.Context) (*store.HouseRuleScript, error) {
	sc, err := s.cfg.Store.HouseRuleByName(c.Request().Context(), c.Param("name"))
	if errors.Is(err, store.ErrNotFound) {
		return nil, apiError(http.StatusNotFound, "no_house_rule", "there is no house rule named "+strconv.Quote(c.Param("name")))
	}
	return sc, err
}

func (s *Server) uploadHouseRuleVersion(c echo.Context) error {
	var req uploadReq
	if err := bind(c, &req); err != nil {
		return err
	}
	sc, err := s.theScript(c)
	if err != nil {
		return err
	}
	if sc.OwnerID != userOf(c).ID {
		return apiError(http.StatusForbidden, "not_owner", "only the owner of house rule "+strconv.Quote(sc.Name)+" can upload versions of it")
	}
	if len(req.Rulesets) == 0 {
		req.Rulesets = sc.RulesetList()
	}
	v, check, rulesets, err := s.checkUpload(c, req)
	if err != nil {
		return err
	}
	if check.Info.Name != sc.Name {
		return fieldError("source", "the script declares the name "+strconv.Quote(check.Info.Name)+"; a version of "+strconv.Quote(sc.Name)+" must keep its name")
	}
	if err := s.cfg.Store.AddHouseRuleVersion(c.Request().Context(), sc.ID, v, rulesets); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return apiError(http.StatusConflict, "unchanged", "house rule "+strconv.Quote(sc.Name)+": "+strings.TrimSuffix(err.Error(), ": "+store.ErrConflict.Error()))
		}
		return err
	}
	return s.uploaded(c, sc, v, check)
}

func (s *Server) readHouseRule(c echo.Context) error {
	sc, err := s.theScript(c)
	if err != nil {
		return err
	}
	out, ok, err := s.describeScript(c, sc, true)
	if err != nil {
		return err
	}
	if !ok {
		// Nothing approved yet, and not the owner's: as good as absent.
		return apiError(http.StatusNotFound, "no_house_rule", "there is no house rule named "+strconv.Quote(sc.Name))
	}
	return c.JSON(http.StatusOK, map[string]any{"house_rule": out})
}

// listHouseRules lists scripts without sources: ?mine=true the caller's own (every status);
// ?ruleset=ID those for a ruleset the caller may enable (approved ones and their own); neither,
// every script with an approved version.
func (s *Server) listHouseRules(c echo.Context) error {
	u := userOf(c)
	ctx := c.Request().Context()
	mine := c.QueryParam("mine") == "true"
	ruleset := c.QueryParam("ruleset")
	var scripts []store.HouseRuleScript
	var err error
	switch {
	case mine:
		scripts, err = s.cfg.Store.ListHouseRules(ctx, store.HouseRuleFilter{OwnerID: u.ID, Ruleset: ruleset})
	default:
		var approved, own []store.HouseRuleScript
		if approved, err = s.cfg.Store.ListHouseRules(ctx, store.HouseRuleFilter{Ruleset: ruleset, Status: store.HouseRuleApproved}); err != nil {
			return err
		}
		if ruleset != "" {
			if own, err = s.cfg.Store.ListHouseRules(ctx, store.HouseRuleFilter{OwnerID: u.ID, Ruleset: ruleset}); err != nil {
				return err
			}
		}
		scripts = approved
		for _, o := range own {
			if !slices.ContainsFunc(scripts, func(x store.HouseRuleScript) bool { return x.ID == o.ID }) {
				scripts = append(scripts, o)
			}
		}
		slices.SortFunc(scripts, func(a, b store.HouseRuleScript) int { return strings.Compare(a.Name, b.Name) })
	}
	if err != nil {
		return err
	}
	out := []houseRuleJSON{}
	for i := range scripts {
		if ruleset != "" && !slices.Contains(scripts[i].RulesetList(), ruleset) {
			continue
		}
		d, ok, err := s.describeScript(c, &scripts[i], false)
		if err != nil {
			return err
		}
		if ok {
			out = append(out, d)
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"house_rules": out})
}

type enableReq struct {
	Name string `json:"name"`
	// Version is the version number; 0 takes the newest the room may use.
	Version int            `json:"version"`
	Options map[string]any `json:"options"`
}

func (s *Server) enableHouseRule(c echo.Context) error {
	var req enableReq
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Name == "" {
		return fieldError("name", "required: the house rule's name")
	}
	if req.Version < 0 {
		return fieldError("version", "a version number is 1 or more (0 or absent: the newest you may use)")
	}
	ctx := c.Request().Context()
	u := userOf(c)
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	sc, v, err := s.cfg.Rooms.ResolveHouseRule(ctx, req.Name, req.Version, u.ID)
	if err != nil {
		return err
	}
	info, err := r.EnableHouseRule(ctx, u, sc, v, req.Options)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"room": info})
}

func (s *Server) disableHouseRule(c echo.Context) error {
	sc, err := s.theScript(c)
	if err != nil {
		return err
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	info, err := r.DisableHouseRule(c.Request().Context(), userOf(c), sc)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"room": info})
}
