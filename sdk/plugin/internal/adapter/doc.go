// Package adapter converts between the SDK's engine types and the wire messages of protocol 1
// (package rulesetv1), in both directions, and holds the two ends of the gRPC service: Server
// serves an sdk.Engine, Client is an sdk.Engine that calls a plugin. Nothing outside sdk/plugin sees
// protobuf or gRPC codes: they stop here.
//
// The multiplexed calls protocol (many calls on one channel, tagged by id) is mux.go on the host's
// side and calls.go on the plugin's; socket.go frames it on the direct socket and watchdog.go
// enforces the calls' deadlines with one timer per channel.
//
// Start reading at client.go (how errors come back typed, and Connect, which picks the
// transport), then server.go, mux.go, calls.go and convert.go.
package adapter
