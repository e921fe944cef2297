// Package server is Cardhouse's HTTP face: the Echo application with its middleware, the JSON API
// of docs/api.md (accounts, rooms, chat, replays), sessions and CSRF, and the room WebSocket of
// docs/protocol.md.
//
// Start reading at [New] and routes() in server.go. Handlers are thin: they decode the request,
// call the room layer (platform/room) or the store (platform/store), and map errors to HTTP codes
// in one place (httpError). ws.go bridges one WebSocket to a room.Client. houserules.go serves the
// house-rule API: uploads, versions, listings, and enabling rules in a room.
package server
