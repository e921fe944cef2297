package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"
)

// A JSONError is why a request body or a WebSocket message is not exactly one JSON value of the
// expected shape. Reason is written for the client ("malformed JSON at byte 12: ...").
type JSONError struct{ Reason string }

func (e *JSONError) Error() string { return e.Reason }

// DecodeJSON decodes data strictly into v: it must be valid UTF-8 and exactly one JSON value
// (whitespace may follow, nothing else), with no field v does not have and no value of the
// wrong type. Anything else is a *JSONError. Every HTTP body and WebSocket message goes through
// it, so a client cannot smuggle text past the first value (it would be stored with the action
// or read differently by another decoder).
func DecodeJSON(data []byte, v any) error {
	if !utf8.Valid(data) {
		return &JSONError{Reason: fmt.Sprintf("not valid UTF-8 (at byte %d)", invalidUTF8At(data))}
	}
	return decodeUTF8(data, v)
}

// decodeUTF8 is DecodeJSON for data already known to be valid UTF-8 (a WebSocket text message,
// which the reader checks first to close the connection as RFC 6455 says).
func decodeUTF8(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return &JSONError{Reason: fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, err)}
		case errors.As(err, &te):
			return &JSONError{Reason: fmt.Sprintf("field %s: want %s, got %s", te.Field, te.Type, te.Value)}
		case errors.Is(err, io.EOF):
			return &JSONError{Reason: "empty: want one JSON value"}
		case errors.Is(err, io.ErrUnexpectedEOF):
			return &JSONError{Reason: "malformed JSON: it ends too early"}
		}
		return &JSONError{Reason: "bad JSON: " + err.Error()}
	}
	// One value only: after it, nothing but white space.
	if off := dec.InputOffset(); len(bytes.TrimLeft(data[off:], " \t\r\n")) != 0 {
		return &JSONError{Reason: fmt.Sprintf("text after the JSON value at byte %d: send exactly one JSON value", off)}
	}
	return nil
}

// invalidUTF8At is the offset of the first byte of data that is not part of valid UTF-8.
func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(data)
}

// BindBody reads a request's body (bounded by the server's body limit) and decodes it with
// DecodeJSON; an empty body (or one of white space only) leaves v as it is. Its errors are
// *JSONError.
func BindBody(req *http.Request, v any) error {
	if req.ContentLength == 0 || req.Body == nil {
		return nil
	}
	data, err := io.ReadAll(req.Body)
	if err != nil {
		return &JSONError{Reason: "reading the request body: " + err.Error()}
	}
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		return nil
	}
	return DecodeJSON(data, v)
}
