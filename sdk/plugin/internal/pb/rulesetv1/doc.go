// Package rulesetv1 is the generated Go code of wire protocol 1 (ruleset.proto): the messages and
// the gRPC service a ruleset plugin serves. Do not edit the .pb.go files; change ruleset.proto and
// run sdk/plugin/gen.sh. Only sdk/plugin/internal/adapter uses this package.
package rulesetv1
