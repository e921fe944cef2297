// Package adapter converts between the SDK's engine types and the wire messages of protocol 1
// (package rulesetv1), in both directions, and holds the two ends of the gRPC service: Server
// serves an sdk.Engine, Client is an sdk.Engine that calls a plugin. Nothing outside sdk/plugin sees
// protobuf or gRPC codes: they stop here.
//
// Start reading at client.go (how errors come back typed), then server.go and convert.go.
package adapter
