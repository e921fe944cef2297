package server

import (
	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
)

// Hooks for handlers mounted onto the server from outside this package (the admin area): every
// request has been through the session middleware and the CSRF guard before they run.

// UserOf returns the signed-in user of the request (nil when anonymous). A banned user's session
// is ignored, so a banned user is anonymous.
func UserOf(c echo.Context) *store.User { return userOf(c) }

// CSRFTokenOf returns the CSRF token of the request's session ("" when anonymous): pages put it
// where their scripts read it to send the X-CSRF-Token header.
func CSRFTokenOf(c echo.Context) string {
	if sess, ok := c.Get(ctxSession).(*store.Session); ok {
		return sess.CSRF
	}
	return ""
}

// ValidUsername reports whether name (already lower-cased and trimmed) is a username registration
// accepts: 3 to 32 of a-z, 0-9, _ and -.
func ValidUsername(name string) bool { return usernameRE.MatchString(name) }

// ValidPassword reports whether registration accepts the password: 8 to 72 bytes (bcrypt reads
// no further).
func ValidPassword(pw string) bool { return len(pw) >= 8 && len(pw) <= 72 }
