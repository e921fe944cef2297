// Package server is Cardhouse's HTTP face: the Echo application with its middleware, the JSON API
// of docs/api.md (accounts, rooms, chat, replays), sessions and CSRF, and the room WebSocket of
// docs/protocol.md.
//
// Start reading at [New] and routes() in server.go. Handlers are thin: they decode the request,
// call the room layer (platform/room) or the store (platform/store), and map errors to HTTP codes
// in one place (httpError). ws.go bridges one WebSocket to a room.Client; wswrite.go writes its
// messages (from the room's actor when the socket takes them at once, else from the
// connection's writer goroutine). houserules.go serves the
// house-rule API: uploads, versions, listings, and enabling rules in a room. In a cluster,
// routing.go sends what concerns another node's room there: forward.go its HTTP requests,
// relay.go its WebSockets, and beat.go the one heartbeat per pair of nodes that ends the sockets
// relayed with a node gone silent or that forgot them.
package server
