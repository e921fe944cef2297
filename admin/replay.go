package admin

// The replay viewer (issue 23): a finished or live game stepped through as a spectator saw it,
// rebuilt from its seed, options, house rules and action log (room.Manager.ReplayFrames). The
// page is a frame; assets/replay.js reads the frames from the API and draws each view.

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
)

// replayPath reads a replay's room code and game number from the path.
func replayPath(c echo.Context) (string, int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 1 {
		return "", 0, errorf(http.StatusBadRequest, "bad_path", "the game number must be 1 or more, got %q", c.Param("n"))
	}
	return strings.ToUpper(c.Param("code")), n, nil
}

func (a *Admin) apiReplay(c echo.Context) error {
	code, n, err := replayPath(c)
	if err != nil {
		return err
	}
	rep, err := a.rooms.ReplayFrames(c.Request().Context(), code, n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}

func (a *Admin) replayPage(c echo.Context) error {
	code, n, err := replayPath(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	sr, err := a.storedRoom(ctx, code)
	if err != nil {
		return err
	}
	g, err := a.st.GameByNumber(ctx, sr.ID, n)
	if errors.Is(err, store.ErrNotFound) {
		return errorf(http.StatusNotFound, "no_game", "room %s has no game %d", sr.Code, n)
	}
	if err != nil {
		return err
	}
	pins, err := a.st.GameHouseRules(ctx, g.ID)
	if err != nil {
		return err
	}
	var rules []string
	for _, p := range pins {
		rules = append(rules, p.Script.Name+" v"+strconv.Itoa(p.Version.Number))
	}
	data := map[string]any{"Code": sr.Code, "Game": gameSummary(sr.Code, g), "HouseRules": rules,
		"API": Prefix + "/api/rooms/" + sr.Code + "/games/" + strconv.Itoa(n) + "/replay"}
	return a.render(c, http.StatusOK, "replay", "Replay of "+sr.Code+" game "+strconv.Itoa(n), "rooms", data, nil)
}
