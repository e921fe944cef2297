package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/sdk"

	"github.com/labstack/echo/v4"
)

// rulesets lists the rulesets and, as "disabled", those an admin disabled for new rooms with the
// reason (the lobby does not offer a new room of them).
func (s *Server) rulesets(c echo.Context) error {
	disabled := s.cfg.Rooms.DisabledRulesets()
	if disabled == nil {
		disabled = map[string]string{}
	}
	return c.JSON(http.StatusOK, map[string]any{"rulesets": s.cfg.Rooms.Rulesets(), "disabled": disabled})
}

func (s *Server) lobby(c echo.Context) error {
	rooms := s.lobbyRooms(c.Request().Context())
	if rooms == nil {
		rooms = []room.LobbyRoom{}
	}
	return c.JSON(http.StatusOK, map[string]any{"rooms": rooms})
}

func (s *Server) createRoom(c echo.Context) error {
	var req createRoomRequest
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Start && req.Mode != "computer" {
		return fieldError("start", "only a game against the computer starts at once (mode \"computer\"): other rooms wait for their players and the host's Deal")
	}
	r, err := s.cfg.Rooms.Create(c.Request().Context(), userOf(c), req.CreateRequest)
	if err != nil {
		return err
	}
	if req.Start {
		// Every other seat is a bot: nobody is awaited, so the game is dealt now.
		if err := r.Deal(c.Request().Context(), userOf(c)); err != nil {
			return err
		}
	}
	info, err := r.Info(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]any{"room": info})
}

// createRoomRequest is a new room (room.CreateRequest) and Start: deal its first game at once,
// for a game against the computer (the lobby's one tap), which awaits nobody.
type createRoomRequest struct {
	room.CreateRequest
	Start bool `json:"start"`
}

func (s *Server) theRoom(c echo.Context) (*room.Room, error) {
	return s.cfg.Rooms.Get(c.Request().Context(), c.Param("code"))
}

func (s *Server) roomInfo(c echo.Context) error {
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	info, err := r.Info(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"room": info})
}

func (s *Server) join(c echo.Context) error {
	var req struct {
		Spectate bool `json:"spectate"`
	}
	if err := bind(c, &req); err != nil {
		return err
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	m, err := r.Join(c.Request().Context(), userOf(c), req.Spectate)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"member": m})
}

func (s *Server) leave(c echo.Context) error {
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	if err := r.Leave(c.Request().Context(), userOf(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) lock(c echo.Context) error {
	var req struct {
		Locked *bool `json:"locked"`
	}
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Locked == nil {
		return fieldError("locked", "want true or false")
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	if err := r.SetLocked(c.Request().Context(), userOf(c), *req.Locked); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"locked": *req.Locked})
}

func (s *Server) decide(c echo.Context) error {
	id, err := pathID(c, "member")
	if err != nil {
		return err
	}
	var req struct {
		Approve *bool `json:"approve"`
	}
	if err := bind(c, &req); err != nil {
		return err
	}
	if req.Approve == nil {
		return fieldError("approve", "want true or false")
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	if err := r.Decide(c.Request().Context(), userOf(c), id, *req.Approve); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type memberReq struct {
	MemberID int64 `json:"member_id"`
}

// kickReq is the body of a kick: who, and how long the room keeps them out (minutes, or a ban
// until the host lifts it; neither: room.DefaultKickCooldown).
type kickReq struct {
	MemberID int64 `json:"member_id"`
	Minutes  *int  `json:"minutes"`
	Ban      bool  `json:"ban"`
}

// options checks the choice and turns it into the room's options.
func (k kickReq) options() (room.KickOptions, error) {
	maxMin := int(room.MaxKickCooldown / time.Minute)
	switch {
	case k.MemberID <= 0:
		return room.KickOptions{}, fieldError("member_id", "give the member's id (a positive number)")
	case k.Ban && k.Minutes != nil:
		return room.KickOptions{}, fieldError("minutes", "a ban from the room has no length: send ban or minutes, not both")
	case k.Minutes != nil && (*k.Minutes < 1 || *k.Minutes > maxMin):
		return room.KickOptions{}, fieldError("minutes", fmt.Sprintf("want 1 to %d (a day), got %d", maxMin, *k.Minutes))
	case k.Ban:
		return room.KickOptions{Ban: true}, nil
	case k.Minutes != nil:
		return room.KickOptions{Cooldown: time.Duration(*k.Minutes) * time.Minute}, nil
	}
	return room.KickOptions{}, nil
}

func (s *Server) kick(c echo.Context) error {
	var req kickReq
	if err := bind(c, &req); err != nil {
		return err
	}
	opts, err := req.options()
	if err != nil {
		return err
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	if err := r.Kick(c.Request().Context(), userOf(c), req.MemberID, opts); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// bans lists the players the room keeps out after a kick; host only.
func (s *Server) bans(c echo.Context) error {
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	bs, err := r.Bans(c.Request().Context(), userOf(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"bans": bs})
}

// liftBan lets a kicked player join again; host only.
func (s *Server) liftBan(c echo.Context) error {
	id, err := pathID(c, "user")
	if err != nil {
		return err
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	if err := r.LiftBan(c.Request().Context(), userOf(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// seatLook names a pass-the-device seat and sets its look (room.SetSeatLook), checked as a
// profile is.
func (s *Server) seatLook(c echo.Context) error {
	id, err := pathID(c, "member")
	if err != nil {
		return err
	}
	p, err := bindProfile(c)
	if err != nil {
		return err
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	m, err := r.SetSeatLook(c.Request().Context(), userOf(c), id, room.SeatLook{Name: p.DisplayName, Avatar: p.Avatar, Colour: p.Colour})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"member": m})
}

func (s *Server) passHost(c echo.Context) error {
	var req memberReq
	if err := bind(c, &req); err != nil {
		return err
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	if err := r.PassHost(c.Request().Context(), userOf(c), req.MemberID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) addBot(c echo.Context) error {
	var req struct {
		Level int `json:"level"`
	}
	if err := bind(c, &req); err != nil {
		return err
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	m, err := r.AddBot(c.Request().Context(), userOf(c), req.Level)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"member": m})
}

func (s *Server) deal(c echo.Context) error {
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	if err := r.Deal(c.Request().Context(), userOf(c)); err != nil {
		return err
	}
	info, err := r.Info(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"room": info})
}

type actReq struct {
	Seat   *int        `json:"seat"`
	Action *sdk.Action `json:"action"`
}

func (s *Server) actInput(c echo.Context) (*room.Room, actReq, error) {
	var req actReq
	if err := bind(c, &req); err != nil {
		return nil, req, err
	}
	if req.Action == nil {
		return nil, req, fieldError("action", "required")
	}
	r, err := s.theRoom(c)
	return r, req, err
}

func (s *Server) act(c echo.Context) error {
	r, req, err := s.actInput(c)
	if err != nil {
		return err
	}
	if err := r.Act(c.Request().Context(), userOf(c), req.Seat, *req.Action); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"accepted": true})
}

func (s *Server) check(c echo.Context) error {
	r, req, err := s.actInput(c)
	if err != nil {
		return err
	}
	err = r.Check(c.Request().Context(), userOf(c), req.Seat, *req.Action)
	if e, ok := room.AsError(err); ok && e.Kind == room.KindConflict {
		out := map[string]any{"ok": false, "code": e.Code, "reason": e.Reason}
		if e.Ruling != "" {
			out["ruling"] = e.Ruling
		}
		return c.JSON(http.StatusOK, out)
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"ok": true})
}

func (s *Server) recentChat(c echo.Context, roomCode string) ([]room.ChatLine, error) {
	return s.recentChatOf(c.Request().Context(), roomCode)
}

func (s *Server) recentChatOf(ctx context.Context, roomCode string) ([]room.ChatLine, error) {
	sr, err := s.cfg.Store.RoomByCode(ctx, roomCode)
	if err != nil {
		return nil, err
	}
	msgs, err := s.cfg.Store.Chat(ctx, sr.ID, 50)
	if err != nil {
		return nil, err
	}
	out := make([]room.ChatLine, len(msgs))
	for i, m := range msgs {
		out[i] = room.ChatLine{ID: m.ID, Name: m.Name, Text: m.Text, At: m.CreatedAt}
		if m.UserID != nil {
			out[i].UserID = *m.UserID
		}
	}
	return out, nil
}

func (s *Server) isMember(c echo.Context, r *room.Room) error {
	info, err := r.Info(c.Request().Context())
	if err != nil {
		return err
	}
	uid := userOf(c).ID
	for _, m := range info.Members {
		if m.UserID == uid && m.Role != "pending" {
			return nil
		}
	}
	return apiError(http.StatusForbidden, "not_member", "you are not a member of room "+info.Code)
}

func (s *Server) chatLog(c echo.Context) error {
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	if err := s.isMember(c, r); err != nil {
		return err
	}
	lines, err := s.recentChat(c, r.Code())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"chat": lines})
}

func (s *Server) chat(c echo.Context) error {
	var req struct {
		Text string `json:"text"`
	}
	if err := bind(c, &req); err != nil {
		return err
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	line, err := r.Say(c.Request().Context(), userOf(c), req.Text)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"chat": line})
}

func (s *Server) replay(c echo.Context) error {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 1 {
		return apiError(http.StatusBadRequest, "bad_path", "the game number must be 1 or more, got "+strconv.Quote(c.Param("n")))
	}
	if userOf(c).Role == store.RoleAdmin {
		// Admins read any game's replay, of a closed room too, without joining (docs/api.md).
		rep, err := s.cfg.Rooms.Replay(c.Request().Context(), strings.ToUpper(c.Param("code")), n)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, rep)
	}
	r, err := s.theRoom(c)
	if err != nil {
		return err
	}
	if err := s.isMember(c, r); err != nil {
		return err
	}
	rep, err := s.cfg.Rooms.Replay(c.Request().Context(), r.Code(), n)
	if err != nil {
		return err
	}
	// The log of a game still being played tells who holds which card (gifts): only admins see it.
	if rep.Status == "live" && userOf(c).Role != "admin" {
		return apiError(http.StatusConflict, "game_running", "a game's log is open once the game is over")
	}
	return c.JSON(http.StatusOK, rep)
}
