package admin

// The plugin folder (issue 23): a rescan adds the plugins put in `serve --plugins` since the
// start, without a restart; the plugins the folder refused (an id a built-in or another plugin
// already serves, a launch that failed) are listed with the reason.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"cardhouse/platform/room"

	"github.com/labstack/echo/v4"
)

// RescanPlugins scans the plugin folder again: the new plugins' rulesets are offered for new
// rooms at once; the audit entry lists what was added and refused.
func (a *Admin) RescanPlugins(ctx context.Context, by Actor) (room.PluginScan, error) {
	scan, err := a.rooms.RescanPlugins(ctx)
	if errors.Is(err, room.ErrNoPluginFolder) {
		return scan, errorf(http.StatusConflict, "no_plugin_folder", "this server was started without a plugin folder (serve --plugins DIR): there is nothing to scan")
	}
	if err != nil {
		a.audit(ctx, by, "plugin.rescan", "plugin", "", "", "failed: "+err.Error())
		return scan, errorf(http.StatusServiceUnavailable, "rescan_failed", "scanning the plugin folder: %v", err)
	}
	detail := "added " + strings.Join(scan.Added, ", ")
	if len(scan.Added) == 0 {
		detail = "nothing new"
	}
	for _, r := range scan.Refused {
		detail += fmt.Sprintf("; refused %s: %s", r.Command, r.Reason)
	}
	a.audit(ctx, by, "plugin.rescan", "plugin", "", strings.Join(scan.Added, ", "), detail)
	return scan, nil
}

func (a *Admin) apiRescanPlugins(c echo.Context) error {
	scan, err := a.RescanPlugins(c.Request().Context(), actorOf(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"scan": scan, "plugins": a.Plugins(c.Request().Context(), nil), "refused": a.refusedPlugins()})
}

// refusedPlugins lists the plugins the folder refused since the start (never nil).
func (a *Admin) refusedPlugins() []room.RefusedPlugin {
	r := a.rooms.RefusedPlugins()
	if r == nil {
		r = []room.RefusedPlugin{}
	}
	return r
}
