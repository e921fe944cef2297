package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"cardhouse/platform/i18n"
	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"
)

// SessionCookie is the name of the session cookie (HttpOnly, SameSite=Lax).
const SessionCookie = "cardhouse_session"

// GuestCookie holds the browser's guest key: a random token set when the browser first makes a
// guest and kept for a year, so that a new guest of the same browser (its session expired, its
// cookie lost) gets its dropped seat back by name silently, while a guest of the same name from
// another device does not (docs/protocol.md, "Rejoining"). Only its SHA-256 is stored.
const GuestCookie = "cardhouse_guest"

// guestKeyTTL is how long a browser keeps its guest key.
const guestKeyTTL = 365 * 24 * time.Hour

// CSRFHeader is the header a state-changing request of a logged-in browser must carry, holding the
// csrf_token the account endpoints return.
const CSRFHeader = "X-CSRF-Token"

const (
	ctxUser    = "user"
	ctxSession = "session"
)

func userOf(c echo.Context) *store.User {
	u, _ := c.Get(ctxUser).(*store.User)
	return u
}

func hashToken(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

func randomToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// authenticate reads the session cookie and puts the session's user in the context. A banned or
// expired session is ignored (the request is anonymous).
func (s *Server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ck, err := c.Cookie(SessionCookie)
		if err == nil && ck.Value != "" {
			now := time.Now()
			sess, u, err := s.cfg.Store.SessionUser(c.Request().Context(), hashToken(ck.Value), now)
			if err == nil && !u.Banned {
				c.Set(ctxUser, u)
				c.Set(ctxSession, sess)
				s.touch(c, sess, now)
			}
		}
		return next(c)
	}
}

// touch records that the session was used (the admin area's "last seen"), at most once every
// store.SeenEvery per session; a failure is logged and the request goes on.
func (s *Server) touch(c echo.Context, sess *store.Session, now time.Time) {
	if sess.LastSeenAt != nil && now.Sub(*sess.LastSeenAt) < store.SeenEvery {
		return
	}
	if err := s.cfg.Store.TouchSession(c.Request().Context(), sess.TokenHash, sess.UserID, now); err != nil {
		s.log.Warn("recording when a session was last used", "user", sess.UserID, "err", err)
		return
	}
	t := now.UTC()
	sess.LastSeenAt = &t
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// csrf guards state-changing requests. With a session, the X-CSRF-Token header must equal the
// session's token (the client gets it from register, login, guest and GET /api/me). Without one
// (logging in), a browser's Origin must be this host or an allowed origin.
func (s *Server) csrf(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if safeMethod(req.Method) {
			return next(c)
		}
		if sess, ok := c.Get(ctxSession).(*store.Session); ok {
			got := req.Header.Get(CSRFHeader)
			if subtle.ConstantTimeCompare([]byte(got), []byte(sess.CSRF)) != 1 {
				return apiError(http.StatusForbidden, "csrf", "missing or wrong "+CSRFHeader+" header: send the csrf_token of GET /api/me")
			}
			return next(c)
		}
		if origin := req.Header.Get("Origin"); origin != "" && !s.originAllowed(origin, req.Host) {
			return apiError(http.StatusForbidden, "csrf", "requests from origin "+origin+" are not allowed")
		}
		return next(c)
	}
}

func (s *Server) originAllowed(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	for _, p := range s.cfg.OriginPatterns {
		if strings.EqualFold(p, u.Host) {
			return true
		}
	}
	return false
}

func (s *Server) needUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if userOf(c) == nil {
			return apiError(http.StatusUnauthorized, "login_required", "log in or play as a guest first")
		}
		return next(c)
	}
}

// ---- validation ----

var usernameRE = regexp.MustCompile(`^[a-z0-9_-]{3,32}$`)
var colourRE = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
var avatarRE = regexp.MustCompile(`^[a-z0-9-]{0,32}$`)

func checkName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	n := utf8.RuneCountInString(name)
	if n == 0 || n > 32 {
		return "", fieldError(field, "a name has 1 to 32 characters")
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return "", fieldError(field, "control characters are not allowed")
		}
	}
	return name, nil
}

// ---- account handlers ----

type credentials struct {
	Username    string `json:"username"`
	Password    string `json:"password"`
	DisplayName string `json:"display_name"`
	Name        string `json:"name"`
}

// account is what the account endpoints return: the user and the CSRF token for this session.
type account struct {
	User      userJSON `json:"user"`
	CSRFToken string   `json:"csrf_token"`
}

type userJSON struct {
	ID          int64  `json:"id"`
	Username    string `json:"username,omitempty"`
	DisplayName string `json:"display_name"`
	Role        string `json:"role"`
	Guest       bool   `json:"guest"`
	Avatar      string `json:"avatar"`
	Colour      string `json:"colour"`
	// Locale is the language the account chose ("" for none): the client applies it on sign-in.
	Locale string `json:"locale"`
}

func toUserJSON(u *store.User) userJSON {
	j := userJSON{ID: u.ID, DisplayName: u.DisplayName, Role: u.Role, Guest: u.Guest, Avatar: u.Avatar, Colour: u.Colour, Locale: u.Locale}
	if u.Username != nil {
		j.Username = *u.Username
	}
	return j
}

func (s *Server) limited(c echo.Context) error {
	if !s.login.allow(c.RealIP(), time.Now()) {
		return apiError(http.StatusTooManyRequests, "rate_limited", "too many sign-in attempts; wait a minute")
	}
	return nil
}

func (s *Server) startSession(c echo.Context, u *store.User) error {
	tok := randomToken()
	now := time.Now().UTC()
	sess := &store.Session{TokenHash: hashToken(tok), UserID: u.ID, CSRF: randomToken(), CreatedAt: now, ExpiresAt: now.Add(s.cfg.SessionTTL)}
	if err := s.cfg.Store.CreateSession(c.Request().Context(), sess); err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: SessionCookie, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.cfg.SecureCookies, Expires: sess.ExpiresAt})
	return c.JSON(http.StatusOK, account{User: toUserJSON(u), CSRFToken: sess.CSRF})
}

func (s *Server) register(c echo.Context) error {
	if err := s.limited(c); err != nil {
		return err
	}
	var req credentials
	if err := bind(c, &req); err != nil {
		return err
	}
	username := strings.ToLower(strings.TrimSpace(req.Username))
	var errs fieldErrors
	if !usernameRE.MatchString(username) {
		errs = append(errs, fieldErr{"username", "use 3 to 32 small letters (a-z), digits, _ or -"})
	}
	switch n := len(req.Password); {
	case n < 8:
		errs = append(errs, fieldErr{"password", "a password needs at least 8 characters"})
	case n > 72:
		// bcrypt reads 72 bytes; a letter with an accent or an emoji takes two to four of them.
		errs = append(errs, fieldErr{"password", "a password can be at most 72 characters (letters with accents and emoji count as two to four)"})
	}
	if req.DisplayName == "" {
		req.DisplayName = req.Username
	}
	display, err := checkName("display_name", req.DisplayName)
	if err != nil {
		errs = append(errs, err.(fieldErrors)...)
	}
	if len(errs) > 0 {
		return errs
	}
	cost := s.cfg.BcryptCost
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(req.Password), cost)
	if err != nil {
		return err
	}
	if g := userOf(c); g != nil && g.Guest {
		// A guest who registers keeps their account: its seats, games and history (issue 32).
		u, err := s.cfg.Store.RegisterGuest(c.Request().Context(), g.ID, username, display, string(hash))
		if errors.Is(err, store.ErrConflict) {
			return apiError(http.StatusConflict, "username_taken", "the username "+username+" is taken")
		}
		if err != nil {
			return err
		}
		return s.startSession(c, u)
	}
	u := &store.User{Username: &username, DisplayName: display, PasswordHash: string(hash), Role: store.RolePlayer}
	if err := s.cfg.Store.CreateUser(c.Request().Context(), u); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return apiError(http.StatusConflict, "username_taken", "the username "+username+" is taken")
		}
		return err
	}
	return s.startSession(c, u)
}

// dummyHash is compared against when the username is unknown, so a login takes as long either way.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("not a password"), bcrypt.MinCost)

func (s *Server) loginHandler(c echo.Context) error {
	if err := s.limited(c); err != nil {
		return err
	}
	var req credentials
	if err := bind(c, &req); err != nil {
		return err
	}
	u, err := s.cfg.Store.UserByUsername(c.Request().Context(), strings.TrimSpace(req.Username))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if err != nil || u.PasswordHash == "" {
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(req.Password))
		return apiError(http.StatusUnauthorized, "bad_login", "wrong username or password")
	}
	if bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(req.Password)) != nil {
		return apiError(http.StatusUnauthorized, "bad_login", "wrong username or password")
	}
	if u.Banned {
		return apiError(http.StatusForbidden, "banned", "this account is banned")
	}
	return s.startSession(c, u)
}

func (s *Server) guest(c echo.Context) error {
	if err := s.limited(c); err != nil {
		return err
	}
	var req credentials
	if err := bind(c, &req); err != nil {
		return err
	}
	name, err := checkName("name", req.Name)
	if err != nil {
		return err
	}
	key := ""
	if ck, err := c.Cookie(GuestCookie); err == nil && len(ck.Value) >= 32 && len(ck.Value) <= 64 {
		key = ck.Value
	} else {
		key = randomToken()
	}
	c.SetCookie(&http.Cookie{Name: GuestCookie, Value: key, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.cfg.SecureCookies, Expires: time.Now().Add(guestKeyTTL)})
	u := &store.User{DisplayName: name, Guest: true, Role: store.RolePlayer, GuestKeyHash: hashToken(key)}
	if err := s.cfg.Store.CreateUser(c.Request().Context(), u); err != nil {
		return err
	}
	return s.startSession(c, u)
}

func (s *Server) logout(c echo.Context) error {
	if sess, ok := c.Get(ctxSession).(*store.Session); ok {
		if err := s.cfg.Store.DeleteSession(c.Request().Context(), sess.TokenHash); err != nil {
			return err
		}
	}
	c.SetCookie(&http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.cfg.SecureCookies, MaxAge: -1})
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) me(c echo.Context) error {
	sess := c.Get(ctxSession).(*store.Session)
	return c.JSON(http.StatusOK, account{User: toUserJSON(userOf(c)), CSRFToken: sess.CSRF})
}

type profile struct {
	DisplayName *string `json:"display_name"`
	Avatar      *string `json:"avatar"`
	Colour      *string `json:"colour"`
	Locale      *string `json:"locale"`
}

// bindProfile decodes a name and look from the request body and checks them (checkProfile).
func bindProfile(c echo.Context) (profile, error) {
	var req profile
	if err := bind(c, &req); err != nil {
		return req, err
	}
	return checkProfile(req)
}

// checkProfile checks the fields given of a name and look and returns them normalised (the name
// trimmed, the colour in lower case); every bad field is reported.
func checkProfile(req profile) (profile, error) {
	var errs fieldErrors
	if req.DisplayName != nil {
		name, err := checkName("display_name", *req.DisplayName)
		if err != nil {
			errs = append(errs, err.(fieldErrors)...)
		}
		req.DisplayName = &name
	}
	if req.Avatar != nil && !avatarRE.MatchString(*req.Avatar) {
		errs = append(errs, fieldErr{"avatar", "want up to 32 of a-z, 0-9 and -"})
	}
	if req.Colour != nil {
		if *req.Colour != "" && !colourRE.MatchString(*req.Colour) {
			errs = append(errs, fieldErr{"colour", "want a colour like #1a2b3c"})
		}
		c := strings.ToLower(*req.Colour)
		req.Colour = &c
	}
	if req.Locale != nil && *req.Locale != "" && !i18n.Supported(*req.Locale) {
		errs = append(errs, fieldErr{"locale", "want one of " + strings.Join(i18n.Locales, ", ")})
	}
	if len(errs) > 0 {
		return req, errs
	}
	return req, nil
}

func (s *Server) updateMe(c echo.Context) error {
	p, err := bindProfile(c)
	if err != nil {
		return err
	}
	u := *userOf(c)
	if p.DisplayName != nil {
		u.DisplayName = *p.DisplayName
	}
	if p.Avatar != nil {
		u.Avatar = *p.Avatar
	}
	if p.Colour != nil {
		u.Colour = *p.Colour
	}
	if err := s.cfg.Store.UpdateProfile(c.Request().Context(), u.ID, u.DisplayName, u.Avatar, u.Colour); err != nil {
		return err
	}
	if p.Locale != nil {
		u.Locale = *p.Locale
		if err := s.cfg.Store.SetLocale(c.Request().Context(), u.ID, u.Locale); err != nil {
			return err
		}
	}
	s.cfg.Rooms.NoteLook(c.Request().Context(), &u)
	return c.JSON(http.StatusOK, map[string]any{"user": toUserJSON(&u)})
}

// ---- rate limit ----

// limiter allows n attempts per window per key (a fixed window, enough against password guessing);
// a negative n allows every attempt.
type limiter struct {
	mu     sync.Mutex
	n      int
	window time.Duration
	seen   map[string]*bucket
}

type bucket struct {
	start time.Time
	count int
}

func newLimiter(n int, window time.Duration) *limiter {
	return &limiter{n: n, window: window, seen: map[string]*bucket{}}
}

func (l *limiter) allow(key string, now time.Time) bool {
	if l.n < 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.seen) > 10000 {
		for k, b := range l.seen {
			if now.Sub(b.start) >= l.window {
				delete(l.seen, k)
			}
		}
	}
	b, ok := l.seen[key]
	if !ok || now.Sub(b.start) >= l.window {
		l.seen[key] = &bucket{start: now, count: 1}
		return true
	}
	b.count++
	return b.count <= l.n
}
