package server

import (
	"net/http"

	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
)

// inviteJSON is what an invite link's landing page says of a room before the friend joins it:
// its code, its variant, who hosts it and how full it is. The room's code is the secret of a
// private room, so whoever holds the code may read this much, signed in or not.
type inviteJSON struct {
	Code     string `json:"code"`
	Ruleset  string `json:"ruleset"`
	Mode     string `json:"mode"`
	Host     string `json:"host"`
	Capacity int    `json:"capacity"`
	// Players are the seated players' names, bots included, in seat order.
	Players []string `json:"players"`
	Status  string   `json:"status"`
	Locked  bool     `json:"locked"`
	// Playing is true while a game is being played (a friend who joins then watches, or takes a
	// seat at the next deal).
	Playing    bool     `json:"playing"`
	HouseRules []string `json:"house_rules,omitempty"`
}

// invitation serves GET /api/invites/:code: the room an invite link names, for its landing page.
// An unknown code is a 404 saying so.
func (s *Server) invitation(c echo.Context) error {
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	info, err := r.Info(c.Request().Context())
	if err != nil {
		return err
	}
	out := inviteJSON{Code: info.Code, Ruleset: info.Ruleset, Mode: info.Mode, Capacity: info.Capacity, Status: info.Status, Locked: info.Locked,
		Players: []string{}, Playing: info.Game != nil && info.Game.Status == store.GameLive}
	seated := make([]string, info.Capacity)
	for _, m := range info.Members {
		if m.UserID != 0 && m.UserID == info.HostID && m.BotLevel == 0 && out.Host == "" {
			out.Host = m.Name
		}
		if m.Role == store.MemberPlayer && m.Seat >= 0 && m.Seat < len(seated) {
			seated[m.Seat] = m.Name
		}
	}
	for _, n := range seated {
		if n != "" {
			out.Players = append(out.Players, n)
		}
	}
	for _, h := range info.HouseRules {
		out.HouseRules = append(out.HouseRules, h.Name)
	}
	return c.JSON(http.StatusOK, out)
}
