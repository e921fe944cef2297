package houserules

import (
	"context"
	"fmt"
	"os"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// FromFile reads and compiles a house-rule script from a file and returns it as a game names it,
// under the name the script declares (version 0: a file is not a stored version), with what it
// declares. `cardhouse rules check` and tests use it; errors name the file.
func FromFile(ctx context.Context, path string) (sdk.HouseRule, engine.HouseRuleInfo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return sdk.HouseRule{}, engine.HouseRuleInfo{}, fmt.Errorf("reading house rule: %w", err)
	}
	info, err := Compile(ctx, string(b))
	if err != nil {
		return sdk.HouseRule{}, engine.HouseRuleInfo{}, fmt.Errorf("%s: %w", path, err)
	}
	return sdk.HouseRule{Name: info.Name, Source: string(b)}, info, nil
}
