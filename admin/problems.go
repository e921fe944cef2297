package admin

// The problems view (issue 23): live games that have not moved for a while, house rules failing in
// live games (per rule and version, with the rooms), plugins that died, and store failures. The
// dashboard shows their counts.

import (
	"context"
	"errors"
	"net/http"
	"time"

	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
)

// DefaultStuckMinutes is how long a live game may go without an accepted action before the
// problems view calls it stuck, unless asked otherwise (query minutes): longer than any turn clock
// (600 s) and than the default pause before an abandoned game is given up (5 min).
const DefaultStuckMinutes = 10

// StuckGame is a live game that has not moved for a while, with what its room looks like now.
type StuckGame struct {
	store.StaleGame
	// Running is true while the room's actor runs; Connected counts its connections then.
	Running   bool `json:"running"`
	Connected int  `json:"connected"`
	Paused    bool `json:"paused"`
	// Idle is how long the game has not moved, in whole minutes.
	IdleMinutes int `json:"idle_minutes"`
}

// ProblemCounts are the problems at a glance (the dashboard's tiles).
type ProblemCounts struct {
	StuckGames        int     `json:"stuck_games"`
	HouseRuleFailures int64   `json:"house_rule_failures"`
	PluginDeaths      uint64  `json:"plugin_deaths"`
	StoreFailures     float64 `json:"store_failures"`
}

// Problems is the problems view.
type Problems struct {
	// Minutes is how long a live game went without an accepted action to be listed in Stuck.
	Minutes int           `json:"minutes"`
	Counts  ProblemCounts `json:"counts"`
	Stuck   []StuckGame   `json:"stuck"`
	// HouseRules count the failures per rule and version; Failures are the newest failures.
	HouseRules []store.HouseRuleFailureStat `json:"house_rules"`
	Failures   []store.HouseRuleFailure     `json:"failures"`
	// Rules are the failing rules' scripts by name (their review page) and their versions by
	// number (each one's id and status, for the one-click disable); a rule whose script is gone
	// is absent.
	Rules map[string]FailingScript `json:"rules"`
	// Plugins are the rulesets whose plugin process died (crashed during a call or between
	// calls, or was killed after a timeout), with their last error.
	Plugins []PluginInfo `json:"plugins"`
}

// FailingScript is a failing rule's script: its id and its versions.
type FailingScript struct {
	ID       int64                  `json:"id"`
	Versions map[int]FailingVersion `json:"versions"`
}

// FailingVersion is one version of a failing rule: its id and review status.
type FailingVersion struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
}

// failingScripts reads the scripts of the failing rules.
func (a *Admin) failingScripts(ctx context.Context, stats []store.HouseRuleFailureStat) (map[string]FailingScript, error) {
	out := map[string]FailingScript{}
	for _, st := range stats {
		if _, done := out[st.Rule]; done {
			continue
		}
		sc, err := a.st.HouseRuleByName(ctx, st.Rule)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		vs, err := a.st.HouseRuleVersions(ctx, sc.ID)
		if err != nil {
			return nil, err
		}
		fs := FailingScript{ID: sc.ID, Versions: map[int]FailingVersion{}}
		for _, v := range vs {
			fs.Versions[v.Number] = FailingVersion{ID: v.ID, Status: v.Status}
		}
		out[st.Rule] = fs
	}
	return out, nil
}

// Problems reads the problems view; minutes 0 is DefaultStuckMinutes.
func (a *Admin) Problems(ctx context.Context, minutes int) (*Problems, error) {
	return a.problems(ctx, minutes, a.Plugins(ctx, nil))
}

// problems reads the problems view with the plugins already read (the dashboard has them).
func (a *Admin) problems(ctx context.Context, minutes int, plugins []PluginInfo) (*Problems, error) {
	if minutes <= 0 {
		minutes = DefaultStuckMinutes
	}
	now := a.now()
	stale, err := a.st.StaleGames(ctx, now.Add(-time.Duration(minutes)*time.Minute), 200)
	if err != nil {
		return nil, err
	}
	out := &Problems{Minutes: minutes, Stuck: []StuckGame{}, Plugins: []PluginInfo{}}
	for _, g := range stale {
		sg := StuckGame{StaleGame: g, IdleMinutes: int(now.Sub(g.LastAction) / time.Minute)}
		if r := a.rooms.Running(g.Code); r != nil {
			if in, err := r.Info(ctx); err == nil {
				sg.Running, sg.Paused = true, in.Paused
				for _, m := range in.Members {
					if m.Connected {
						sg.Connected++
					}
				}
			}
		}
		out.Stuck = append(out.Stuck, sg)
	}
	if out.HouseRules, err = a.st.HouseRuleFailureStats(ctx); err != nil {
		return nil, err
	}
	if out.HouseRules == nil {
		out.HouseRules = []store.HouseRuleFailureStat{}
	}
	if out.Failures, err = a.st.HouseRuleFailures(ctx, store.HouseRuleFailureQuery{Limit: 50}); err != nil {
		return nil, err
	}
	if out.Rules, err = a.failingScripts(ctx, out.HouseRules); err != nil {
		return nil, err
	}
	for _, p := range plugins {
		if p.Crashes > 0 || p.Timeouts > 0 {
			out.Plugins = append(out.Plugins, p)
			out.Counts.PluginDeaths += p.Crashes + p.Timeouts
		}
	}
	out.Counts.StuckGames = len(out.Stuck)
	for _, s := range out.HouseRules {
		out.Counts.HouseRuleFailures += s.Failures
	}
	if m := a.rooms.Metrics(); m != nil {
		out.Counts.StoreFailures = counterValues(m.Errors, "kind")["store"]
	}
	return out, nil
}

func (a *Admin) problemsQuery(c echo.Context) (*Problems, error) {
	minutes, err := queryInt(c, "minutes")
	if err != nil {
		return nil, err
	}
	return a.Problems(c.Request().Context(), minutes)
}

func (a *Admin) apiProblems(c echo.Context) error {
	p, err := a.problemsQuery(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

func (a *Admin) problemsPage(c echo.Context) error {
	p, err := a.problemsQuery(c)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, "problems", "Problems", "problems", p, nil)
}
