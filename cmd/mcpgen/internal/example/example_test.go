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
// same doc comments), and decode exactly the same way.
func TestGeneratedMatchesReflection(t *testing.T) {
	inputs := []string{
		`{}`, `{"query":"go"}`, `{"query":"g","kinds":["meeting","party"],"page":0,"size":500,"extra":1}`,
		`{"query":"go","when":{"from":"2026-01-02T15:04:05Z"},"page":2,"note":"n"}`,
		`{"query":"go","when":{"from":"yesterday"}}`, `{"id":"e1"}`, `{"id":7}`,
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[FindArgs](), reflect.TypeFor[CancelArgs]()} {
		gen, err := mcpreflect.PlanFor(typ, mcpreflect.Options{})
		require.NoError(t, err)
		require.True(t, gen.Generated, "%s: the generated plan is used", typ)
		refl, err := mcpreflect.PlanFor(typ, mcpreflect.Options{Comments: mcpreflect.DocComments})
		require.NoError(t, err)
		require.False(t, refl.Generated)
		assert.JSONEq(t, string(refl.SchemaJSON), string(gen.SchemaJSON), typ.String())
		assert.Equal(t, string(refl.SchemaJSON), string(gen.SchemaJSON), typ.String())
		assert.Equal(t, refl.Tool, gen.Tool)
		for _, in := range inputs {
			gv, gerr := gen.DecodeValue([]byte(in))
			rv, rerr := refl.DecodeValue([]byte(in))
			assert.Equal(t, errText(rerr), errText(gerr), "%s %s", typ, in)
			assert.Equal(t, rv.Interface(), gv.Interface(), "%s %s", typ, in)
		}
	}
	out, err := mcpreflect.OutputFor(reflect.TypeFor[[]Event](), mcpreflect.Options{})
	require.NoError(t, err)
	outRefl, err := mcpreflect.OutputFor(reflect.TypeFor[[]Event](), mcpreflect.Options{Comments: mcpreflect.DocComments})
	require.NoError(t, err)
	assert.Equal(t, string(outRefl.SchemaJSON), string(out.SchemaJSON))
	assert.Equal(t, outRefl.Wrapped, out.Wrapped)
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
	assert.Equal(t, "FindArgs are the arguments of find_events.", schema.Description)
	assert.Equal(t, "Query is matched against event titles.", schema.Properties["query"].Description)
	assert.Equal(t, "from the tag", schema.Properties["note"].Description, "a tag wins over a comment")
	assert.Equal(t, "Page is the page number, from 1.", schema.Properties["page"].Description, "promoted from an embedded struct of another package")
	assert.Equal(t, "Size is the page size.", schema.Properties["size"].Description, "a line comment")
	assert.Equal(t, "When limits the search to a time range.", schema.Properties["when"].Description)

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
