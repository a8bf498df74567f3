package mcpreflect

import (
	"bytes"
	"log/slog"
	"reflect"
	"strconv"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type genOldArgs struct {
	Title string `json:"title" validate:"required,min=3"`
}

type genOldResult struct {
	Count int `json:"count"`
}

// TestGeneratedGeneration: generated data of another schema generation —
// an mcpgen_gen.go written before an upgrade that changed the published
// schemas — is reported and not used: the schemas published are the ones
// this mcpgen derives, not the older mcpgen's.
func TestGeneratedGeneration(t *testing.T) {
	in, out := reflect.TypeFor[genOldArgs](), reflect.TypeFor[genOldResult]()
	now := strconv.Itoa(SchemaGeneration)
	reflected, err := buildPlan(in, Options{})
	require.NoError(t, err)
	reflectedOut, err := buildOutput(out, Options{})
	require.NoError(t, err)

	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	})))
	t.Cleanup(func() {
		slog.SetDefault(prev)
		genTypes.Delete(in)
		genTypes.Delete(out)
		warned.Delete(in.PkgPath())
	})

	// What an older mcpgen wrote: the same fingerprint (the types have not
	// changed), other schemas, and no generation recorded.
	old := generatedFor(t, in)
	old.Generation = 0
	old.InputJSON = `{"type":"object","properties":{"title":{"type":"string"}}}`
	oldOut := GeneratedType{Type: out, Fingerprint: fingerprint(out),
		OutputJSON: `{"type":["object","null"]}`, Output: &jsonschema.Schema{Type: "object"}}
	RegisterGenerated(nil, old, oldOut)

	p, err := generatedPlan(in, Options{})
	require.NoError(t, err)
	assert.Nil(t, p, "the older generation's plan is not used")
	p, err = buildPlan(in, Options{})
	require.NoError(t, err)
	assert.False(t, p.Generated)
	assert.Equal(t, string(reflected.SchemaJSON), string(p.SchemaJSON))
	o, err := buildOutput(out, Options{})
	require.NoError(t, err)
	assert.Equal(t, string(reflectedOut.SchemaJSON), string(o.SchemaJSON), "the older generation's output schema is not published")

	want := "level=WARN msg=\"mcpgen: generated code is from another mcpgen: its plans are not used, the schemas are derived by reflection; run go generate\"" +
		" package=github.com/mcpgen/mcpgen/reflect generation=0 want=" + now + "\n"
	assert.Equal(t, want, logs.String(), "one warning for the package, not one per type")

	err = CheckGenerated()
	require.Error(t, err)
	assert.Equal(t, "mcpgen: generated code is not current (run go generate):\n"+
		"mcpreflect.genOldArgs: generated for schema generation 0, this mcpgen publishes "+now+"\n"+
		"mcpreflect.genOldResult: generated for schema generation 0, this mcpgen publishes "+now, err.Error())

	// The type changed since: reported too.
	changed := generatedFor(t, in)
	changed.Fingerprint = "000000000000000000000000"
	current := oldOut
	current.Generation = SchemaGeneration
	RegisterGenerated(nil, changed, current)
	err = CheckGenerated()
	require.Error(t, err)
	assert.Equal(t, "mcpgen: generated code is not current (run go generate):\n"+
		"mcpreflect.genOldArgs: the type has changed since its code was generated", err.Error())

	// Regenerated: current, and used.
	RegisterGenerated(nil, generatedFor(t, in))
	assert.NoError(t, CheckGenerated())
	p, err = generatedPlan(in, Options{})
	require.NoError(t, err)
	require.NotNil(t, p)
	assert.True(t, p.Generated)
}
