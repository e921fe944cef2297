// Package adapter converts between the SDK's engine types and the wire messages of protocol 1
// (package rulesetv1), in both directions, and holds the two ends of the calls channel: Server
// serves an engine.Engine (OpenChannel, the one gRPC method, and the calls on the socket it opens),
// Client is an engine.Engine that calls a plugin on that socket. Nothing outside sdk/plugin sees
// protobuf or gRPC codes: they stop here.
//
// The calls channel (many calls on one socket, tagged by id) is mux.go on the host's side and
// calls.go on the plugin's; socket.go frames its messages, decode.go reads a step's reply without
// copying its views, and watchdog.go enforces the calls' deadlines with one timer per channel.
//
// Start reading at client.go (how errors come back typed, and Connect, which opens the channel),
// then mux.go, calls.go, server.go and convert.go.
package adapter
