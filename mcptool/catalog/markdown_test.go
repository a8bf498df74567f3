package catalog_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// TestMarkdownEscapes holds the Markdown catalogue to the attack run's
// descriptions: HTML that ran when the catalogue was rendered, and a
// paragraph forging the hints line above the real one. Every text of the
// tool is escaped, the hints line is the catalogue's and comes first, and
// the description is a quote. docs/browsertest renders the same through a
// CommonMark renderer.
func TestMarkdownEscapes(t *testing.T) {
	tl := catalog.Tool{
		Name:  "list_notes",
		Title: "Notes <script>",
		Description: "Lists the notes.\n\n<img src=x onerror=\"alert(document.domain)\">\n\nHints: read-only, closed world.\n\n" +
			"# heading\n1. list\n- list\n    code\n```\n[link](javascript:x) *em* _em_ ~~s~~ `c` a|b &amp; \\",
		Hints:     catalog.Hints{Destructive: true, OpenWorld: true},
		Scopes:    []string{"notes:<b>"},
		Arguments: []catalog.Argument{{Path: "q|`x`", Type: "string", Description: "a\nb | <i>c</i>"}},
		Example:   json.RawMessage(`{"q":"` + "````" + `"}`),
	}
	var b bytes.Buffer
	require.NoError(t, (&catalog.Catalog{Tools: []catalog.Tool{tl}}).Write(&b, "markdown", "# <b>Notes</b>"))
	assert.Equal(t, "# \\# &lt;b&gt;Notes&lt;/b&gt;\n\n"+
		"| Tool | Title | Hints |\n| --- | --- | --- |\n"+
		"| [`list_notes`](#list_notes) | Notes &lt;script&gt; | destructive, open world, scopes: notes:&lt;b&gt; |\n\n"+
		"## `list_notes`\n\n"+
		"**Hints:** destructive, open world, scopes: notes:&lt;b&gt;.\n\n"+
		"> **Notes &lt;script&gt;**\n"+
		">\n"+
		"> Lists the notes.\n"+
		">\n"+
		"> &lt;img src=x onerror=\"alert(document.domain)\"&gt;\n"+
		">\n"+
		"> Hints: read-only, closed world.\n"+
		">\n"+
		"> \\# heading\n"+
		"> 1\\. list\n"+
		"> \\- list\n"+
		"> code\n"+
		"> \\`\\`\\`\n"+
		"> \\[link\\](javascript:x) \\*em\\* \\_em\\_ \\~\\~s\\~\\~ \\`c\\` a\\|b &amp;amp; \\\\\n\n"+
		"| Argument | Type | Required | Default | Constraints | Description |\n| --- | --- | --- | --- | --- | --- |\n"+
		"| `` q\\|`x` `` | string | no |  |  | a b \\| &lt;i&gt;c&lt;/i&gt; |\n\n"+
		"Result: content blocks (no output schema).\n\n"+
		"Example call:\n\n"+
		"`````json\n{\"name\":\"list_notes\",\"arguments\":{\"q\":\"````\"}}\n`````\n", b.String())
}

// TestDiffMarkdownEscapes: mcpgen diff's report quotes the descriptions it
// compares; they are escaped the same way, one table cell each.
func TestDiffMarkdownEscapes(t *testing.T) {
	old := catalog.Tool{Name: "list_notes", Description: "Lists the notes."}
	new := old
	new.Description = "Lists the notes.\n\n<img src=x onerror=\"alert(document.domain)\">\n\nHints: read-only, closed world. | x"
	var b bytes.Buffer
	require.NoError(t, catalog.Compare(&catalog.Catalog{Tools: []catalog.Tool{old}}, &catalog.Catalog{Tools: []catalog.Tool{new}}).Write(&b, "markdown"))
	assert.Contains(t, b.String(), "| `list_notes` | `description` | description changed from \"Lists the notes.\" to "+
		`"Lists the notes.\\n\\n&lt;img src=x onerror=\\"alert(document.domain)\\"&gt;\\n\\nHints: read-only, closed world. \| x" |`+"\n")
	assert.NotContains(t, b.String(), "<img")
}
