package catalog_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// A tool's group and eagerness show in every format, stay out of the
// fingerprint, and their changes are reported by Compare.
func TestListing(t *testing.T) {
	plain := sampleTool()
	grouped := sampleTool()
	grouped.Group, grouped.Eager = "notes", true
	assert.Equal(t, fingerprint(t, plain), fingerprint(t, grouped), "where a tool is found is not what it does")

	c := &catalog.Catalog{Tools: []catalog.Tool{grouped}}
	for format, want := range map[string]string{
		"markdown": "destructive, idempotent, closed world, confirm, group: notes, eager",
		"json":     `"group": "notes",` + "\n      " + `"eager": true,`,
		"html":     "group: notes",
	} {
		var b bytes.Buffer
		require.NoError(t, c.Write(&b, format, "Tools"))
		assert.Contains(t, b.String(), want, format)
	}

	moved := grouped
	moved.Group, moved.Eager = "archive", false
	r := catalog.Compare(c, &catalog.Catalog{Tools: []catalog.Tool{moved}})
	assert.Equal(t, []catalog.Change{
		{Tool: "delete_note", Class: catalog.Compatible, Where: "group", What: `moved from group "notes" to group "archive"`},
		{Tool: "delete_note", Class: catalog.Breaking, Where: "eager", What: "no longer eager: discovery-mode clients no longer see it in tools/list, only through search_tools"},
	}, r.Changes)
	r = catalog.Compare(&catalog.Catalog{Tools: []catalog.Tool{plain}}, c)
	assert.Equal(t, []catalog.Change{
		{Tool: "delete_note", Class: catalog.Compatible, Where: "group", What: `moved from group (none) to group "notes"`},
		{Tool: "delete_note", Class: catalog.Compatible, Where: "eager", What: "now eager: listed in tools/list in discovery mode"},
	}, r.Changes)
}
