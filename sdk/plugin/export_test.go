package plugin

import (
	"context"
	"os"

	"cardhouse/sdk"
	"cardhouse/sdk/plugin/internal/adapter"
	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// legacyServer is the server of a plugin built before a transport existed: it answers the newer
// methods with Unimplemented, as the generated stubs of an older protocol 1 do.
type legacyServer struct {
	*adapter.Server
	stream bool // still offers Calls (a plugin between the two transports)
}

func (s legacyServer) Calls(stream grpc.BidiStreamingServer[pb.Call, pb.Reply]) error {
	if s.stream {
		return s.Server.Calls(stream)
	}
	return status.Error(codes.Unimplemented, "method Calls not implemented")
}

func (legacyServer) OpenChannel(context.Context, *pb.OpenChannelRequest) (*pb.OpenChannelResponse, error) {
	return nil, status.Error(codes.Unimplemented, "method OpenChannel not implemented")
}

type legacyPlugin struct {
	rulesetPlugin
	stream bool
}

func (p *legacyPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterRulesetServer(s, legacyServer{Server: adapter.NewServer(p.engine), stream: p.stream})
	return nil
}

// ServeLegacy serves e as an older plugin would: with only the unary methods, or (stream true)
// with the Calls stream but no direct channel. Tests use it to check the host's fallbacks.
func ServeLegacy(e sdk.Engine, stream bool) {
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: Handshake,
		VersionedPlugins: map[int]goplugin.PluginSet{
			ProtocolVersion: {pluginName: &legacyPlugin{rulesetPlugin: rulesetPlugin{engine: e}, stream: stream}},
		},
		GRPCServer: goplugin.DefaultGRPCServer,
		Logger:     nil,
	})
	os.Exit(0)
}
