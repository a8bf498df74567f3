package example

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// The generated plans give exactly the schemas reflection gives (with the
// same doc comments), and decode exactly the way plans derived by
// reflection do.
func TestGeneratedMatchesReflection(t *testing.T) {
	var dump bytes.Buffer
	require.NoError(t, mcpreflect.DumpGenerated(&dump,
		[]reflect.Type{reflect.TypeFor[FindArgs](), reflect.TypeFor[CancelArgs]()}, []reflect.Type{reflect.TypeFor[[]Event]()}))
	var entries []struct {
		Type       string `json:"type"`
		InputJSON  string `json:"inputJSON"`
		OutputJSON string `json:"outputJSON"`
	}
	require.NoError(t, json.Unmarshal(dump.Bytes(), &entries))
	reflected := map[string][2]string{}
	for _, e := range entries {
		reflected[e.Type] = [2]string{e.InputJSON, e.OutputJSON}
	}
	cache := mcpreflect.DefaultCache()
	inputs := []string{
		`{}`, `{"query":"go"}`, `{"query":"g","kinds":["meeting","party"],"page":0,"size":500,"extra":1}`,
		`{"query":"go","when":{"from":"2026-01-02T15:04:05Z"},"page":2,"note":"n"}`,
		`{"query":"go","when":{"from":"yesterday"}}`, `{"id":"e1"}`, `{"id":7}`,
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[FindArgs](), reflect.TypeFor[CancelArgs]()} {
		gen, err := cache.Plan(typ, mcpreflect.Options{})
		require.NoError(t, err)
		require.True(t, gen.Generated, "%s: the generated plan is used", typ)
		assert.Equal(t, reflected[typ.String()][0], string(gen.SchemaJSON), typ.String())
		// KeepDefs is never generated: this plan comes from reflection,
		// and decodes the same (only the schema's layout differs).
		refl, err := cache.Plan(typ, mcpreflect.Options{KeepDefs: true})
		require.NoError(t, err)
		require.False(t, refl.Generated)
		assert.Equal(t, refl.Tool, gen.Tool)
		for _, in := range inputs {
			gv, rv := reflect.New(typ), reflect.New(typ)
			gerr := gen.Decode([]byte(in), gv.Interface(), 0)
			rerr := refl.Decode([]byte(in), rv.Interface(), 0)
			assert.Equal(t, errText(rerr), errText(gerr), "%s %s", typ, in)
			assert.Equal(t, rv.Interface(), gv.Interface(), "%s %s", typ, in)
		}
	}
	out, err := cache.Output(reflect.TypeFor[[]Event](), mcpreflect.Options{})
	require.NoError(t, err)
	assert.Equal(t, reflected["[]example.Event"][1], string(out.SchemaJSON))
	assert.True(t, out.Wrapped)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Doc comments become descriptions; a tag or option wins.
func TestDescriptionsFromComments(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("find_events", FindEvents))
	require.NoError(t, reg.AddMethods(&Calendar{}, mcptool.Exclude("Helper"),
		mcptool.Method("Count", mcptool.Description("How many events there are."))))
	find, _ := reg.Tool("find_events")
	assert.Equal(t, "Searches the calendar for events.\n\nIt returns at most one page of events, newest first.", find.Description)
	var schema struct {
		Description string `json:"description"`
		Properties  map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(find.InputSchema.(json.RawMessage), &schema))
	assert.Empty(t, schema.Description, "\"FindArgs are the arguments of find_events.\" says nothing the tool does not")
	assert.Equal(t, "Matched against event titles.", schema.Properties["query"].Description)
	assert.Equal(t, "from the tag", schema.Properties["note"].Description, "a tag wins over a comment")
	assert.Equal(t, "The page number, from 1.", schema.Properties["page"].Description, "promoted from an embedded struct of another package")
	assert.Equal(t, "The page size.", schema.Properties["size"].Description, "a line comment")
	assert.Equal(t, "Limits the search to a time range.", schema.Properties["when"].Description)

	cancel, _ := reg.Tool("cancel_event")
	assert.Equal(t, "Cancels an event. Cancelling it twice does nothing more.", cancel.Description)
	count, _ := reg.Tool("count")
	assert.Equal(t, "How many events there are.", count.Description, "an option wins over a comment")

	res, err := reg.Call(context.Background(), "find_events", json.RawMessage(`{"query":"standup"}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"result":[{"id":"1","title":"standup"}]}`, string(res.StructuredContent.(json.RawMessage)))
}

func TestAppendDescription(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("find_events", FindEvents, mcptool.AppendDescription("Calendars: work, home.")))
	find, _ := reg.Tool("find_events")
	assert.Equal(t, "Searches the calendar for events.\n\nIt returns at most one page of events, newest first. Calendars: work, home.", find.Description)
	require.NoError(t, reg.Add("other", FindEvents, mcptool.Description("Find."), mcptool.AppendDescription(" More.")))
	other, _ := reg.Tool("other")
	assert.Equal(t, "Find. More.", other.Description)
}

// Tools described by their doc comments (generated data) are not warned
// about; the warning is for tools with no description at all.
func TestNoWarningWithDocComments(t *testing.T) {
	var buf bytes.Buffer
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.NewTextHandler(&buf, nil))))
	require.NoError(t, reg.Add("find_events", FindEvents))
	require.NoError(t, reg.AddMethods(&Calendar{}, mcptool.Exclude("Helper")))
	assert.Empty(t, buf.String())
	require.NoError(t, reg.Add("undocumented", func(context.Context, struct{}) (string, error) { return "", nil }))
	assert.Contains(t, buf.String(), "tool=undocumented")
}
