package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/sdk"
)

// Accounts that remember (issue 32): a player's profile (games and wins per variant, ratings,
// recent games linked to their replays) and a leaderboard per variant (docs/api.md).

func (s *Server) playerRoutes(api *echo.Group) {
	api.GET("/leaderboard/:ruleset", s.leaderboard)
	api.GET("/players/:id", s.player)
	api.GET("/games/:code/:n", s.watchReplay, s.needUser)
	api.GET("/me/rooms", s.myRooms, s.needUser)
	api.GET("/ratings/:ruleset", s.ratingsOf)
}

// ratingsOf is the ratings in a variant of the accounts ?users=1,2,3 (at most 50) that have one,
// for the names at a table: {"ratings": {"1": 3.4}}.
func (s *Server) ratingsOf(c echo.Context) error {
	var ids []int64
	if v := c.QueryParam("users"); v != "" {
		for _, p := range strings.Split(v, ",") {
			id, err := strconv.ParseInt(p, 10, 64)
			if err != nil || id <= 0 {
				return apiError(http.StatusBadRequest, "bad_users", "users is a list of user ids separated by commas, got "+strconv.Quote(v))
			}
			ids = append(ids, id)
		}
	}
	if len(ids) > 50 {
		return apiError(http.StatusBadRequest, "bad_users", "ask for at most 50 users at once")
	}
	rs, err := s.cfg.Store.RatingsIn(c.Request().Context(), c.Param("ruleset"), ids)
	if err != nil {
		return err
	}
	out := map[string]float64{}
	for id, r := range rs {
		out[strconv.FormatInt(id, 10)] = round1(r.Ordinal)
	}
	return c.JSON(http.StatusOK, map[string]any{"ratings": out})
}

// myRooms is "my games": the open rooms the caller is a member of, to go back to.
func (s *Server) myRooms(c echo.Context) error {
	rooms, err := s.cfg.Store.OpenRoomsOf(c.Request().Context(), userOf(c).ID)
	if err != nil {
		return err
	}
	type mine struct {
		Code    string `json:"code"`
		Ruleset string `json:"ruleset"`
		Mode    string `json:"mode"`
		Dealt   bool   `json:"dealt"`
	}
	out := []mine{}
	for _, r := range rooms {
		out = append(out, mine{Code: r.Code, Ruleset: r.Ruleset, Mode: r.Mode, Dealt: r.GameID != nil})
	}
	return c.JSON(http.StatusOK, map[string]any{"rooms": out})
}

// watchReplay is the replay viewer's game: a finished game's log and its frames as one seat saw
// them (?seat=N, the game's seats from 0) or as the spectators did (no seat). Open to anyone
// signed in, so that a replay's link can be shared, and only once the game is over: a frame
// shows what that seat could see then, never a hand before the game shows it.
func (s *Server) watchReplay(c echo.Context) error {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 1 {
		return apiError(http.StatusBadRequest, "bad_path", "the game number must be 1 or more, got "+strconv.Quote(c.Param("n")))
	}
	viewer := sdk.Spectator
	if v := c.QueryParam("seat"); v != "" {
		if viewer, err = strconv.Atoi(v); err != nil || viewer < 0 {
			return apiError(http.StatusBadRequest, "bad_seat", "seat must be a seat number from 0, got "+strconv.Quote(v))
		}
	}
	rep, err := s.cfg.Rooms.ReplayAs(c.Request().Context(), strings.ToUpper(c.Param("code")), n, viewer)
	if err != nil {
		return err
	}
	if rep.Status == store.GameLive {
		return apiError(http.StatusConflict, "game_running", "a game's replay opens once the game is over")
	}
	names, err := s.seatNames(c.Request().Context(), rep.Room, rep.Game, rep.Seats)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, struct {
		*room.Replay
		// Names are the names of the members dealt each seat ("" for one no longer in the room).
		Names []string `json:"names"`
	}{rep, names})
}

// seatNames are the names of the members a game of a room dealt its seats, by seat ("" for a
// member since removed from the room), so a replay says who played rather than "Seat 2".
func (s *Server) seatNames(ctx context.Context, code string, number, seats int) ([]string, error) {
	names := make([]string, seats)
	sr, err := s.cfg.Store.RoomByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	g, err := s.cfg.Store.GameByNumber(ctx, sr.ID, number)
	if err != nil {
		return nil, err
	}
	var ids []int64
	if g.SeatMembers != "" {
		if err := json.Unmarshal([]byte(g.SeatMembers), &ids); err != nil {
			return nil, fmt.Errorf("game %d of room %s: reading its seats' members: %w", number, code, err)
		}
	}
	ms, err := s.cfg.Store.Members(ctx, sr.ID)
	if err != nil {
		return nil, err
	}
	byID := map[int64]string{}
	for _, m := range ms {
		byID[m.ID] = m.Name
	}
	for seat, id := range ids {
		if seat < len(names) {
			names[seat] = byID[id]
		}
	}
	return names, nil
}

// ratingJSON is a rating as the site shows it: Rating is the ordinal (mu - 3 sigma), rounded
// to one decimal, with the mean and spread behind it.
type ratingJSON struct {
	Ruleset string  `json:"ruleset"`
	Rating  float64 `json:"rating"`
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Games   int     `json:"games"`
	Wins    int     `json:"wins"`
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

func toRatingJSON(r store.PlayerRating) ratingJSON {
	return ratingJSON{Ruleset: r.Ruleset, Rating: round1(r.Ordinal), Mu: round1(r.Mu), Sigma: round1(r.Sigma), Games: r.Games, Wins: r.Wins}
}

type boardRowJSON struct {
	Rank        int    `json:"rank"`
	UserID      int64  `json:"user_id"`
	DisplayName string `json:"display_name"`
	ratingJSON
}

type boardJSON struct {
	Ruleset string         `json:"ruleset"`
	Rows    []boardRowJSON `json:"rows"`
}

// intParam reads an optional query number in [lo, hi]; a bad one is a clear 400.
func intParam(c echo.Context, name string, def, lo, hi int) (int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, apiError(http.StatusBadRequest, "bad_"+name, name+" must be a whole number from "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi))
	}
	return n, nil
}

func (s *Server) leaderboard(c echo.Context) error {
	ruleset := c.Param("ruleset")
	known := false
	for _, d := range s.cfg.Rooms.Rulesets() {
		if d.ID == ruleset {
			known = true
		}
	}
	if !known {
		return apiError(http.StatusNotFound, "no_ruleset", "no variant "+strconv.Quote(ruleset)+" on this server")
	}
	limit, err := intParam(c, "limit", 50, 1, 200)
	if err != nil {
		return err
	}
	offset, err := intParam(c, "offset", 0, 0, 1_000_000)
	if err != nil {
		return err
	}
	rows, err := s.cfg.Store.Leaderboard(c.Request().Context(), ruleset, limit, offset)
	if err != nil {
		return err
	}
	out := boardJSON{Ruleset: ruleset, Rows: []boardRowJSON{}}
	for i, r := range rows {
		out.Rows = append(out.Rows, boardRowJSON{Rank: offset + i + 1, UserID: r.UserID, DisplayName: r.DisplayName, ratingJSON: toRatingJSON(r.PlayerRating)})
	}
	return c.JSON(http.StatusOK, out)
}

type historyJSON struct {
	Room       string   `json:"room"`
	Game       int      `json:"game"`
	Ruleset    string   `json:"ruleset"`
	Seat       int      `json:"seat"`
	Place      int      `json:"place"`
	Players    int      `json:"players"`
	Left       bool     `json:"left,omitempty"`
	Status     string   `json:"status"`
	EndedAt    string   `json:"ended_at"`
	RatingFrom *float64 `json:"rating_from,omitempty"`
	RatingTo   *float64 `json:"rating_to,omitempty"`
}

type playerJSON struct {
	ID          int64                `json:"id"`
	DisplayName string               `json:"display_name"`
	Avatar      string               `json:"avatar"`
	Colour      string               `json:"colour"`
	Guest       bool                 `json:"guest"`
	Stats       []store.VariantStats `json:"stats"`
	Ratings     []ratingJSON         `json:"ratings"`
	History     []historyJSON        `json:"history"`
}

func ordinal(mu, sigma *float64) *float64 {
	if mu == nil || sigma == nil {
		return nil
	}
	v := round1(*mu - 3**sigma)
	return &v
}

// player is a profile: open to anyone signed in or not, like a leaderboard; a guest's profile
// shows the guest's own games only to that guest.
func (s *Server) player(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return apiError(http.StatusBadRequest, "bad_id", "a player id is a positive whole number")
	}
	ctx := c.Request().Context()
	u, err := s.cfg.Store.UserByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && u.Guest && (userOf(c) == nil || userOf(c).ID != id) {
		return apiError(http.StatusNotFound, "no_player", "no player "+strconv.FormatInt(id, 10))
	}
	if err != nil {
		return err
	}
	limit, err := intParam(c, "limit", 20, 1, 100)
	if err != nil {
		return err
	}
	out := playerJSON{ID: u.ID, DisplayName: u.DisplayName, Avatar: u.Avatar, Colour: u.Colour, Guest: u.Guest,
		Stats: []store.VariantStats{}, Ratings: []ratingJSON{}, History: []historyJSON{}}
	stats, err := s.cfg.Store.Stats(ctx, id)
	if err != nil {
		return err
	}
	out.Stats = append(out.Stats, stats...)
	rs, err := s.cfg.Store.Ratings(ctx, id)
	if err != nil {
		return err
	}
	for _, r := range rs {
		out.Ratings = append(out.Ratings, toRatingJSON(r))
	}
	hist, err := s.cfg.Store.History(ctx, id, limit, 0)
	if err != nil {
		return err
	}
	for _, h := range hist {
		out.History = append(out.History, historyJSON{Room: h.RoomCode, Game: h.GameNumber, Ruleset: h.Ruleset, Seat: h.Seat,
			Place: h.Place, Players: h.Players, Left: h.LeftGame, Status: h.Status, EndedAt: h.EndedAt.UTC().Format("2006-01-02T15:04:05Z"),
			RatingFrom: ordinal(h.MuBefore, h.SigmaBefore), RatingTo: ordinal(h.MuAfter, h.SigmaAfter)})
	}
	return c.JSON(http.StatusOK, out)
}
