#!/bin/sh
# Regenerates the Go code of the plugin wire protocol from its .proto files. Run from anywhere:
#   sdk/plugin/gen.sh          (or: go generate ./sdk/plugin, or: make proto)
# Needs protoc (Debian: apt-get install protobuf-compiler; or buf) and the two Go plugins, which it
# installs into $GOBIN (default /tmp/gobin) at the pinned versions when missing:
#   google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12 (matches go.mod)
#   google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
# The generated files are committed; regenerate after every change of a .proto file.
set -eu
cd "$(dirname "$0")/internal/pb"
GOBIN="${GOBIN:-/tmp/gobin}"
export GOBIN
[ -x "$GOBIN/protoc-gen-go" ] || go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
[ -x "$GOBIN/protoc-gen-go-grpc" ] || go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
PATH="$GOBIN:$PATH"
for dir in rulesetv*; do
	protoc --proto_path="$dir" \
		--go_out="$dir" --go_opt=paths=source_relative \
		--go-grpc_out="$dir" --go-grpc_opt=paths=source_relative \
		"$dir"/*.proto
done
