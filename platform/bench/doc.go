// Package bench is Cardhouse's load benchmark of the whole stack (`cardhouse bench`): it starts a
// server (or targets a running one), sets up rooms of four players over the HTTP API, connects
// every player (and optional spectators) to the room's WebSocket, and lets the players play as
// fast as they can (or with a think time) for a measured window. Each player chooses its actions
// the way a browser would, from the view the server sent it, with the variant's level-1 bot run in
// this process. It reports accepted actions per second, the action-to-view latency, the server's
// CPU and memory (its process and its plugin processes, from /proc) and its own CPU.
//
// Over a cluster (Config.Server with several URLs, or Config.Nodes started on PostgreSQL and the
// broker) each room's sockets are spread over the nodes, so that many are relayed to the room's
// node over the bus; the report adds the cross-node share and sums the nodes' figures. A player
// whose node goes away (1001) or whose socket drops reconnects to the next node and plays on from
// the full view (player.go, reconnect).
//
// Start reading at [Run] (run.go): setup, warm-up, the measured window and the shutdown. player.go
// is one WebSocket player (the hot path of the client: a cheap envelope parse, a full view decode
// only when an action is open); api.go the HTTP calls; server.go starting and stopping a server;
// proc.go the /proc readings; inprocess.go [RunInProcess], the same games played straight on the
// rulesets' engines, which gives the platform's overhead as a ratio; report.go the printed table.
//
// This package never imports a ruleset: the caller (the cardhouse command, the composition root)
// hands it the bots and engines of the variants it links.
package bench
