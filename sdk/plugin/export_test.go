package plugin

import (
	"context"
	"os"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin/internal/adapter"
	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// legacyServer is the server of a plugin built before the calls channel: protocol 1 then had no
// OpenChannel, and the generated stubs answer it with Unimplemented.
type legacyServer struct{ *adapter.Server }

func (legacyServer) OpenChannel(context.Context, *pb.OpenChannelRequest) (*pb.OpenChannelResponse, error) {
	return nil, status.Error(codes.Unimplemented, "method OpenChannel not implemented")
}

type legacyPlugin struct{ rulesetPlugin }

func (p *legacyPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterRulesetServer(s, legacyServer{adapter.NewServer(p.engine)})
	return nil
}

// ServeLegacy serves e as a plugin built before the calls channel would: the handshake succeeds,
// OpenChannel is unknown. Tests use it to check that the host refuses it clearly.
func ServeLegacy(e engine.Engine) {
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: Handshake,
		VersionedPlugins: map[int]goplugin.PluginSet{
			ProtocolVersion: {pluginName: &legacyPlugin{rulesetPlugin{engine: e}}},
		},
		GRPCServer: goplugin.DefaultGRPCServer,
		Logger:     nil,
	})
	os.Exit(0)
}

// ServeNewer serves e as a plugin of a protocol after this one (ProtocolVersion+1 only), as a
// plugin built against a later SDK whose wire changed would. Tests use it to check that the host
// refuses it clearly.
func ServeNewer(e engine.Engine) {
	hs := Handshake
	hs.ProtocolVersion = ProtocolVersion + 1
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: hs,
		VersionedPlugins: map[int]goplugin.PluginSet{
			ProtocolVersion + 1: {pluginName: &rulesetPlugin{engine: e}},
		},
		GRPCServer: goplugin.DefaultGRPCServer,
	})
	os.Exit(0)
}
