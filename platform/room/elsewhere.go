package room

import (
	"errors"

	"cardhouse/platform/store"
)

// ElsewhereError is the error of a room another node of the cluster runs (its lease is held
// there): the HTTP layer routes the request or the WebSocket to that node (platform/server,
// forward.go and relay.go), which it finds by the room's lease (store.LeaseOf).
type ElsewhereError struct {
	RoomID int64
	Code   string
	err    *Error
}

func (e *ElsewhereError) Error() string { return e.err.Error() }

// Unwrap gives the room error (code room_elsewhere, HTTP 503) that is answered when the request
// cannot be routed.
func (e *ElsewhereError) Unwrap() error { return e.err }

// RunElsewhere is the error of room sr that another node runs: a handler that finds so (the admin
// area reads who holds the room's lease) returns it, and the request is forwarded to that node.
func RunElsewhere(sr *store.Room) *ElsewhereError {
	return &ElsewhereError{RoomID: sr.ID, Code: sr.Code,
		err: errf(KindUnavailable, "room_elsewhere", "room %s is being run by another server right now; try again in a moment", sr.Code)}
}

// Elsewhere returns the ElsewhereError inside err, if any.
func Elsewhere(err error) (*ElsewhereError, bool) {
	var e *ElsewhereError
	ok := errors.As(err, &e)
	return e, ok
}

// Close drops the client with a WebSocket close code and reason, as the room does when it drops
// one: a relayed connection (platform/server, relay.go) ends so when the owner's room dropped its
// twin there.
func (c *Client) Close(code int, reason string) { c.drop(code, reason) }
