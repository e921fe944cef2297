package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"cardhouse/platform/room"
	"cardhouse/platform/store"
	"cardhouse/sdk"

	"github.com/labstack/echo/v4"
)

// errorBody is every error response: {"error": {"code", "reason", "fields"}}.
type errorBody struct {
	Error errorJSON `json:"error"`
}

type errorJSON struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
	// Ruling is the id of the ruling a refused action broke ("L-5"), apart from Reason.
	Ruling string     `json:"ruling,omitempty"`
	Fields []fieldErr `json:"fields,omitempty"`
	// Problem splits a bad_house_rule reason for the upload page (ruleproblem.go).
	Problem *RuleProblem `json:"problem,omitempty"`
}

type httpErr struct {
	status int
	body   errorJSON
}

func (e *httpErr) Error() string { return e.body.Reason }

func apiError(status int, code, reason string) error {
	return &httpErr{status: status, body: errorJSON{Code: code, Reason: reason}}
}

type fieldErr struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

// fieldErrors is a 400 naming each bad field.
type fieldErrors []fieldErr

func (es fieldErrors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Field + ": " + e.Reason
	}
	return "invalid: " + strings.Join(parts, "; ")
}

func fieldError(field, reason string) error { return fieldErrors{{field, reason}} }

// bind decodes a JSON body strictly (DecodeJSON): malformed JSON, text after the value, unknown
// fields and wrong types are a 400 bad_json naming where. An empty body leaves v as it is.
func bind(c echo.Context, v any) error {
	if err := BindBody(c.Request(), v); err != nil {
		return apiError(http.StatusBadRequest, "bad_json", err.Error())
	}
	return nil
}

func pathID(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil {
		return 0, apiError(http.StatusBadRequest, "bad_path", fmt.Sprintf("%s must be a number, got %q", name, c.Param(name)))
	}
	return id, nil
}

// errorHandler maps every error to a status and the JSON error body, in one place.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, body := s.classify(err)
	if status >= 500 {
		s.log.Error("request failed", "method", c.Request().Method, "path", c.Path(), "err", err)
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	_ = c.JSON(status, errorBody{Error: body})
}

func (s *Server) classify(err error) (int, errorJSON) {
	var he *httpErr
	var fe fieldErrors
	var oe sdk.OptionErrors
	var ee *echo.HTTPError
	if errors.As(err, &he) {
		return he.status, he.body
	}
	if errors.As(err, &fe) {
		return http.StatusBadRequest, errorJSON{Code: "invalid", Reason: fe.Error(), Fields: fe}
	}
	if errors.As(err, &oe) {
		body := errorJSON{Code: "bad_options", Reason: oe.Error()}
		for _, e := range oe {
			body.Fields = append(body.Fields, fieldErr{e.Field, e.Reason})
		}
		return http.StatusBadRequest, body
	}
	if re, ok := room.AsError(err); ok {
		status := map[string]int{
			room.KindInvalid: http.StatusBadRequest, room.KindForbidden: http.StatusForbidden,
			room.KindNotFound: http.StatusNotFound, room.KindConflict: http.StatusConflict,
			room.KindUnavailable: http.StatusServiceUnavailable,
		}[re.Kind]
		if status == 0 {
			status = http.StatusConflict
		}
		body := errorJSON{Code: re.Code, Reason: re.Reason, Ruling: re.Ruling}
		if re.Code == "bad_house_rule" {
			body.Problem = ruleProblemOf(re)
		}
		return status, body
	}
	if errors.Is(err, room.ErrClosed) {
		return http.StatusGone, errorJSON{Code: "room_closed", Reason: err.Error()}
	}
	if errors.Is(err, store.ErrNotFound) {
		return http.StatusNotFound, errorJSON{Code: "not_found", Reason: err.Error()}
	}
	if errors.As(err, &ee) {
		return ee.Code, errorJSON{Code: strings.ToLower(strings.ReplaceAll(http.StatusText(ee.Code), " ", "_")), Reason: fmt.Sprint(ee.Message)}
	}
	return http.StatusInternalServerError, errorJSON{Code: "internal", Reason: "internal error"}
}
