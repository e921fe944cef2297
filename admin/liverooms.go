package admin

// The live room list (issue 23): each room's last activity, filters for idle, stuck and stale
// rooms, and closing stale rooms in bulk (a room whose game was abandoned stays open until someone
// closes it). The page refreshes itself and sorts by any column (assets/rooms.js).

import (
	"context"
	"net/http"
	"strings"
	"time"

	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
)

// Room activities the list filters by (query activity).
const (
	// ActivityIdle rooms are open with nobody connected.
	ActivityIdle = "idle"
	// ActivityStuck rooms have a live game that has not moved for the minutes asked (query
	// minutes, default DefaultStuckMinutes).
	ActivityStuck = "stuck"
	// ActivityStale rooms are idle and either their game was abandoned or nothing happened in
	// them for the minutes asked: closing them loses nobody anything.
	ActivityStale = "stale"
)

// maxActivityScan bounds the open rooms an activity filter reads before paging.
const maxActivityScan = 2000

// activity fills a summary's last activity and its idle, stuck and stale marks.
func (a *Admin) activity(ctx context.Context, s *RoomSummary, sr *store.Room, lastMove time.Time, minutes int) {
	s.LastActivity = sr.UpdatedAt
	if lastMove.After(s.LastActivity) {
		s.LastActivity = lastMove
	}
	if sr.Status != store.RoomOpen {
		return
	}
	old := a.now().Sub(s.LastActivity) >= time.Duration(minutes)*time.Minute
	s.Idle = s.Connected == 0
	s.Stuck = s.GameStatus == store.GameLive && old
	s.Stale = s.Idle && (s.GameStatus == store.GameAbandoned || old)
}

// roomActivity reads the activity filter and its minutes.
func roomActivity(c echo.Context) (string, int, error) {
	act, err := oneOf(c, "activity", ActivityIdle, ActivityStuck, ActivityStale)
	if err != nil {
		return "", 0, err
	}
	minutes, err := queryInt(c, "minutes")
	if err != nil {
		return "", 0, err
	}
	if minutes == 0 {
		minutes = DefaultStuckMinutes
	}
	return act, minutes, nil
}

// filterActivity keeps the rooms of one activity and pages them.
func filterActivity(rooms []RoomSummary, activity string, offset, limit int) ([]RoomSummary, int64) {
	kept := []RoomSummary{}
	for _, r := range rooms {
		if (activity == ActivityIdle && r.Idle) || (activity == ActivityStuck && r.Stuck) || (activity == ActivityStale && r.Stale) {
			kept = append(kept, r)
		}
	}
	total := int64(len(kept))
	if offset >= len(kept) {
		return []RoomSummary{}, total
	}
	return kept[offset:min(offset+limit, len(kept))], total
}

// closeRoomsBody closes several rooms with one reason.
type closeRoomsBody struct {
	Codes  []string `json:"codes"`
	Reason string   `json:"reason"`
}

// MaxBulkClose bounds the rooms one request closes.
const MaxBulkClose = 200

// ClosedRooms says what a bulk close did: the rooms closed, and why each other one was not.
type ClosedRooms struct {
	Closed []string      `json:"closed"`
	Failed []RoomRefusal `json:"failed"`
}

// RoomRefusal is a room a bulk action left alone, and why.
type RoomRefusal struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// CloseRooms closes each room of codes as CloseRoom does (each audited); a room that cannot be
// closed (unknown, closed already) is listed in Failed and the others are closed all the same.
func (a *Admin) CloseRooms(ctx context.Context, by Actor, codes []string, reason string) (*ClosedRooms, error) {
	if _, err := checkReason(reason, true); err != nil {
		return nil, err
	}
	if len(codes) == 0 {
		return nil, errorf(http.StatusBadRequest, "no_rooms", "codes: choose at least one room to close")
	}
	if len(codes) > MaxBulkClose {
		return nil, errorf(http.StatusBadRequest, "too_many_rooms", "codes: %d rooms is over the limit of %d a request", len(codes), MaxBulkClose)
	}
	out := &ClosedRooms{Closed: []string{}, Failed: []RoomRefusal{}}
	seen := map[string]bool{}
	for _, code := range codes {
		code = strings.ToUpper(strings.TrimSpace(code))
		if seen[code] {
			continue
		}
		seen[code] = true
		if err := a.CloseRoom(ctx, by, code, reason); err != nil {
			out.Failed = append(out.Failed, RoomRefusal{Code: code, Reason: err.Error()})
			continue
		}
		out.Closed = append(out.Closed, code)
	}
	return out, nil
}

func (a *Admin) apiCloseRooms(c echo.Context) error {
	var b closeRoomsBody
	if err := bind(c, &b); err != nil {
		return err
	}
	out, err := a.CloseRooms(c.Request().Context(), actorOf(c), b.Codes, b.Reason)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}
