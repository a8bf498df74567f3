package mcptool_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

type describeArgs struct {
	Q string `json:"q"`
}

func undescribed(context.Context, describeArgs) (string, error) { return "", nil }

// A tool that ends up with no description at all is logged as a warning
// through the registry's logger, once, naming the tool; any description, or
// NoDescription on the tool or the registry, silences it. Both registration
// paths (Registry.Add, the generic Add) resolve descriptions the same way.
func TestWarnsWithoutDescription(t *testing.T) {
	cases := []struct {
		name  string
		reg   []mcptool.RegistryOption
		opts  []mcptool.Option
		warns bool
	}{
		{name: "nothing", warns: true},
		{name: "description", opts: []mcptool.Option{mcptool.Description("Looks things up.")}},
		{name: "appended text only", opts: []mcptool.Option{mcptool.AppendDescription("Looks things up.")}},
		{name: "NoDescription on the tool", opts: []mcptool.Option{mcptool.NoDescription()}},
		{name: "NoDescription on the registry", reg: []mcptool.RegistryOption{mcptool.NoDescription()}},
		{name: "empty description", opts: []mcptool.Option{mcptool.Description("")}, warns: true},
	}
	for _, c := range cases {
		for _, generic := range []bool{false, true} {
			t.Run(c.name, func(t *testing.T) {
				var buf bytes.Buffer
				log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
				reg := mcptool.NewRegistry(append([]mcptool.RegistryOption{mcptool.Logger(log)}, c.reg...)...)
				if generic {
					require.NoError(t, mcptool.Add(reg, "lookup", undescribed, c.opts...))
				} else {
					require.NoError(t, reg.Add("lookup", undescribed, c.opts...))
				}
				if !c.warns {
					assert.Empty(t, buf.String())
					return
				}
				assert.Equal(t, 1, bytes.Count(buf.Bytes(), []byte("\n")), buf.String())
				assert.Contains(t, buf.String(), "level=WARN")
				assert.Contains(t, buf.String(), "tool has no description")
				assert.Contains(t, buf.String(), "tool=lookup")
			})
		}
	}
}
