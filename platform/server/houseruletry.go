package server

import (
	"encoding/json"
	"net/http"

	"cardhouse/platform/room"

	"github.com/labstack/echo/v4"
)

type tryReq struct {
	Source   string         `json:"source"`
	Ruleset  string         `json:"ruleset"`
	Seats    int            `json:"seats"`
	BotLevel int            `json:"bot_level"`
	Options  map[string]any `json:"options,omitempty"`
	Seed     uint64         `json:"seed"`
}

// tryHouseRule plays one test game of a script as edited (nothing stored) with bots, in the
// ruleset's check process, for the house-rules page's test table (docs/api.md, "House rules"):
// the answer is NDJSON, one room.TryEvent per line as the game makes it (flushed at once), so the
// page's console fills as the game runs. A request refused before the game starts (no ruleset, a
// script that does not compile) is an ordinary error answer; a rule that fails during the game
// ends the stream with a line {"kind":"problem","error":{...}}, the error as any other answer
// carries it (with its problem: line, hook, message, hint).
func (s *Server) tryHouseRule(c echo.Context) error {
	if userOf(c).Guest {
		return apiError(http.StatusForbidden, "guest", "guests cannot test house rules; register an account first")
	}
	var req tryReq
	if err := bind(c, &req); err != nil {
		return err
	}
	w := c.Response()
	enc := json.NewEncoder(w)
	started := false
	begin := func() {
		if started {
			return
		}
		started = true
		w.Header().Set(echo.HeaderContentType, "application/x-ndjson; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusOK)
	}
	err := s.cfg.Rooms.TryHouseRule(c.Request().Context(), room.TryRequest{Source: req.Source, Ruleset: req.Ruleset, Seats: req.Seats,
		BotLevel: req.BotLevel, Options: req.Options, Seed: req.Seed}, s.cfg.HouseRuleDryRun, func(ev room.TryEvent) {
		begin()
		if enc.Encode(ev) == nil {
			w.Flush()
		}
	})
	if err == nil {
		return nil
	}
	if !started {
		return err
	}
	_, body := s.classify(err)
	_ = enc.Encode(map[string]any{"kind": "problem", "error": body})
	w.Flush()
	return nil
}
