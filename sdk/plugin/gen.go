package plugin

// Regenerate the wire protocol's Go code (internal/pb/rulesetv*/*.pb.go) from its .proto files.
//go:generate ./gen.sh
