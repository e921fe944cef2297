package admin

import (
	"context"
	"net/http"
	"strings"

	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
)

// maxBulk bounds the accounts of one bulk action: a page of the users list.
const maxBulk = pageSize

// BulkBan bans (ban true) or lifts the ban of (ban false) every account of ids with one reason
// (required to ban), as Ban and Unban do one at a time. All or nothing: every account is looked at
// first, and if any cannot be (an admin, oneself, one already in that state, no such account),
// the answer names each refused account and why, and nothing changes.
func (a *Admin) BulkBan(ctx context.Context, by Actor, ids []int64, ban bool, reason string) error {
	reason, err := checkReason(reason, ban)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return errorf(http.StatusBadRequest, "no_users", "ids: select at least one account")
	}
	if len(ids) > maxBulk {
		return errorf(http.StatusBadRequest, "too_many_users", "ids: %d accounts selected, at most %d at once", len(ids), maxBulk)
	}
	seen := map[int64]bool{}
	var refused []string
	for _, id := range ids {
		if seen[id] {
			return errorf(http.StatusBadRequest, "duplicate_user", "ids: account %d is listed twice", id)
		}
		seen[id] = true
		u, err := a.account(ctx, id)
		if err != nil {
			refused = append(refused, "account "+idStr(id)+": no such account")
			continue
		}
		name := accountName(&u.User)
		switch {
		case ban && id == by.ID:
			refused = append(refused, name+": admins cannot ban themselves")
		case ban && u.Role == store.RoleAdmin:
			refused = append(refused, name+": an admin (demote them first)")
		case ban && u.Banned:
			refused = append(refused, name+": already banned")
		case !ban && !u.Banned:
			refused = append(refused, name+": not banned")
		}
	}
	if len(refused) > 0 {
		return errorf(http.StatusConflict, "bulk_refused", "nothing was changed: %s", strings.Join(refused, "; "))
	}
	for _, id := range ids {
		if ban {
			err = a.Ban(ctx, by, id, reason)
		} else {
			err = a.Unban(ctx, by, id, reason)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (a *Admin) apiBulkUsers(c echo.Context) error {
	var b struct {
		IDs    []int64 `json:"ids"`
		Action string  `json:"action"`
		Reason string  `json:"reason"`
	}
	if err := bind(c, &b); err != nil {
		return err
	}
	if b.Action != "ban" && b.Action != "unban" {
		return errorf(http.StatusBadRequest, "bad_action", "action: want \"ban\" or \"unban\", got %q", b.Action)
	}
	if err := a.BulkBan(c.Request().Context(), actorOf(c), b.IDs, b.Action == "ban", b.Reason); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"ids": b.IDs, "action": b.Action, "done": len(b.IDs)})
}
