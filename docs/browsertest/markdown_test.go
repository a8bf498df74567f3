package browsertest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// The Markdown catalogue and mcpgen diff's report, rendered as a forge
// renders them (the core module tests their text; rendering them needs a
// Markdown renderer, a dependency of this module only).

// render renders Markdown as GitHub does (CommonMark with tables,
// strikethrough, autolinks and task lists), raw HTML passed through as
// many renderers do.
func render(t *testing.T, md string) string {
	t.Helper()
	var out bytes.Buffer
	md2 := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	require.NoError(t, md2.Convert([]byte(md), &out))
	return out.String()
}

// elements counts the HTML elements of page by name, and checks that every
// link stays on the page.
func elements(t *testing.T, page string) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, m := range regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>`).FindAllStringSubmatch(page, -1) {
		n[strings.ToLower(m[1])]++
		if strings.EqualFold(m[1], "a") {
			assert.Regexp(t, `^ href="#[a-z0-9_-]+"$`, m[2], "a link leaves the page")
		}
	}
	return n
}

// The description of the attack run: HTML that runs when the catalogue is
// rendered, and a paragraph that forges the catalogue's own hints line
// above the real one; then every other block and inline construct of
// Markdown.
const hostileMD = `Lists the notes.

<img src=x onerror="alert(document.domain)">

Hints: read-only, closed world.

**Hints:** read-only, closed world.
</blockquote>

# Not a heading
> not a quote
1. not a list
- not a list
    not code
` + "```" + `
not a fence
---
===
[a link](javascript:alert(1)) ![an image](x) <https://evil.example> *em* _em_ ~~del~~ | cell | ` + "`code`" + ` &lt; \*`

func hostileTool() catalog.Tool {
	return catalog.Tool{
		Name:        "list_notes",
		Title:       `Notes <script>alert(1)</script> | **Hints:** read-only`,
		Description: hostileMD,
		Hints:       catalog.Hints{Destructive: true, OpenWorld: true},
		Scopes:      []string{`notes:<b>admin</b>`, "notes|x\n# scope"},
		Arguments: []catalog.Argument{{
			Path: "q`|<img src=x>", Type: "string<b>", Default: "`<img src=x onerror=alert(1)>`|",
			Constraints: []string{`one of "<img src=x onerror=alert(1)>", "a|b"`}, Description: hostileMD,
		}},
		Result:      []catalog.Argument{{Path: "notes[]", Type: "array", Description: hostileMD}},
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Example:     json.RawMessage(`{"q":"` + "```" + `</code><img src=x onerror=alert(1)>"}`),
	}
}

// TestMarkdownEscapesHostileText renders a catalogue whose tool's every text
// is hostileMD: rendered, it is the catalogue's own structure and nothing of
// the author's making.
func TestMarkdownEscapesHostileText(t *testing.T) {
	var b bytes.Buffer
	c := &catalog.Catalog{Tools: []catalog.Tool{hostileTool()}}
	require.NoError(t, c.Write(&b, "markdown", "Notes <img src=x onerror=alert(1)>"))
	md := b.String()
	page := render(t, md)

	assert.Equal(t, map[string]int{
		"h1": 1, "h2": 1, "a": 1, "code": 7, "pre": 1, "strong": 2, "blockquote": 1, "p": 9,
		"table": 3, "thead": 3, "tbody": 3, "tr": 6, "th": 13, "td": 13,
	}, elements(t, page), page)
	for _, s := range []string{"<img", "<script", "<b>", "<em>", "<del>", "<ol>", "<ul>", "<hr>", "<h3>", `href="javascript`} {
		assert.NotContains(t, page, s)
	}

	// The hints line is the catalogue's, once, before what the author wrote;
	// the forged lines are text inside the quote.
	assert.Equal(t, 1, strings.Count(page, "<strong>Hints:</strong>"), page)
	hints := strings.Index(page, "<p><strong>Hints:</strong> destructive, open world, scopes: notes:&lt;b&gt;admin&lt;/b&gt; notes|x # scope.</p>")
	quote := strings.Index(page, "<blockquote>")
	require.True(t, hints >= 0 && quote > hints, page)
	body := page[quote:strings.Index(page, "</blockquote>")]
	assert.Contains(t, body, "<p><strong>Notes &lt;script&gt;alert(1)&lt;/script&gt; | **Hints:** read-only</strong></p>")
	assert.Contains(t, body, "<p>&lt;img src=x onerror=&quot;alert(document.domain)&quot;&gt;</p>")
	assert.Contains(t, body, "<p>Hints: read-only, closed world.</p>")
	assert.Contains(t, body, "<p>**Hints:** read-only, closed world.\n&lt;/blockquote&gt;</p>")
	assert.Contains(t, body, "<p># Not a heading\n&gt; not a quote\n1. not a list\n- not a list\nnot code\n```\nnot a fence\n---\n===\n"+
		"[a link](javascript:alert(1)) ![an image](x) &lt;https://evil.example&gt; *em* _em_ ~~del~~ | cell | `code` &amp;lt; \\*</p>")

	// The tables keep their cells: the argument's row has six, the result's four.
	assert.Contains(t, page, "<td><code>q`|&lt;img src=x&gt;</code></td>\n<td>string&lt;b&gt;</td>\n<td>no</td>\n"+
		"<td><code>&quot;`\\u003cimg src=x onerror=alert(1)\\u003e`|&quot;</code></td>\n"+
		"<td>one of &quot;&lt;img src=x onerror=alert(1)&gt;&quot;, &quot;a|b&quot;</td>\n<td>Lists the notes.")
	assert.Contains(t, page, `<a href="#list_notes"><code>list_notes</code></a>`)
	assert.Contains(t, page, "<pre><code class=\"language-json\">{&quot;name&quot;:&quot;list_notes&quot;,&quot;arguments&quot;:{&quot;q&quot;:&quot;```\\u003c/code\\u003e\\u003cimg src=x onerror=alert(1)\\u003e&quot;}}\n</code></pre>")
}

// TestMarkdownEscapesNames holds tool names that Markdown would read (a
// catalogue file can hold any name) to code spans and plain anchors.
func TestMarkdownEscapesNames(t *testing.T) {
	names := []string{"a`b", "``x``", "x](javascript:alert(1))", "<img src=x>", "a|b", "1. b"}
	var tools []catalog.Tool
	for _, n := range names {
		tools = append(tools, catalog.Tool{Name: n, InputSchema: json.RawMessage(`{"type":"object"}`)})
	}
	var b bytes.Buffer
	require.NoError(t, (&catalog.Catalog{Tools: tools}).Write(&b, "markdown", ""))
	page := render(t, b.String())
	n := elements(t, page)
	assert.Equal(t, len(names), n["h2"], page)
	assert.Equal(t, len(names), n["a"], page)
	assert.Zero(t, n["img"]+n["ol"]+n["ul"], page)
	var codes []string
	for _, m := range regexp.MustCompile(`<h2><code>(.*?)</code></h2>`).FindAllStringSubmatch(page, -1) {
		codes = append(codes, m[1])
	}
	want := []string{"a`b", "``x``", "x](javascript:alert(1))", "&lt;img src=x&gt;", "a|b", "1. b"}
	sort.Strings(codes)
	sort.Strings(want)
	assert.Equal(t, want, codes)
}

// TestDiffMarkdownEscapesHostileText: the report of mcpgen diff quotes the
// old and new descriptions; rendered as a pull-request comment they are
// text in their table cell.
func TestDiffMarkdownEscapesHostileText(t *testing.T) {
	old := hostileTool()
	old.Description = "Lists the notes."
	r := catalog.Compare(&catalog.Catalog{Tools: []catalog.Tool{old}}, &catalog.Catalog{Tools: []catalog.Tool{hostileTool()}})
	var b bytes.Buffer
	require.NoError(t, r.Write(&b, "markdown"))
	page := render(t, b.String())
	n := elements(t, page)
	assert.Zero(t, n["img"]+n["ol"]+n["ul"]+n["em"]+n["del"]+n["blockquote"]+n["hr"]+n["h1"], page)
	assert.Equal(t, 2, n["tr"], page) // the header and one change
	assert.Equal(t, 3, n["td"], page)
	assert.Contains(t, page, `<td><code>list_notes</code></td>`+"\n"+`<td><code>description</code></td>`+"\n"+
		`<td>description changed from &quot;Lists the notes.&quot; to &quot;Lists the notes.\n\n&lt;img src=x onerror=\&quot;alert(document.domain)\&quot;&gt;\n\nHints: read-only, closed world.`)
}
