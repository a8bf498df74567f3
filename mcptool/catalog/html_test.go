package catalog_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// hostile is text an attacker who controls a tool's description (or a
// schema's) would write to run script in a reviewer's browser.
const hostile = `</script><script>alert(1)</script><img src=x onerror=alert(2)>"'><svg onload=alert(3)>` + "`${alert(4)}`"

func hostileCatalog() *catalog.Catalog {
	tl := sampleTool()
	tl.Title = hostile
	tl.Description = hostile + "\nsecond line"
	tl.Scopes = []string{hostile}
	tl.Arguments = append(tl.Arguments, catalog.Argument{Path: "x" + hostile, Type: hostile, Default: hostile, Constraints: []string{hostile}, Description: hostile})
	tl.Result = []catalog.Argument{{Path: hostile, Type: "string", Description: hostile}}
	schema, _ := json.Marshal(map[string]any{"type": "object", "description": hostile})
	tl.InputSchema, tl.OutputSchema = schema, schema
	tl.Example, _ = json.Marshal(map[string]any{"id": hostile})
	tl.Fingerprint = hostile
	return &catalog.Catalog{Tools: []catalog.Tool{tl}}
}

func TestHTMLEscapesHostileText(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, hostileCatalog().Write(&b, "html", hostile))
	page := b.String()
	assert.Equal(t, 1, strings.Count(page, "<script"), "the page's own script only")
	assert.Equal(t, 1, strings.Count(page, "</script>"))
	for _, s := range []string{"<img", "<svg", "\" onerror", "'>"} {
		assert.False(t, strings.Contains(page, s), "the page holds %q", s)
	}
	contains(t, page, "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;")
	// Every text reaches the page, escaped: title, description, scopes,
	// argument fields, result fields, schemas, example and fingerprint.
	assert.GreaterOrEqual(t, strings.Count(page, "&lt;img src=x onerror=alert(2)&gt;"), 12)
}

func TestHTMLSelfContained(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, hostileCatalog().Write(&b, "html", ""))
	page := b.String()
	assert.Contains(t, page, "<title>Tools</title>")
	assert.Contains(t, page, `data-total="1">1 tool</p>`)
	// Nothing is loaded: no src attribute, no stylesheet link, and the
	// Content-Security-Policy allows no fetch and only the page's own
	// style and script, by their hashes.
	assert.NotRegexp(t, `(?i)<(script|img|iframe|link|object|embed)[^>]*\s(src|href)=`, page)
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]+)">`).FindStringSubmatch(page)
	require.NotNil(t, csp, "the page has a Content-Security-Policy")
	assert.Contains(t, csp[1], "default-src 'none'")
	for _, tag := range []string{"style", "script"} {
		m := regexp.MustCompile(`(?s)<` + tag + `>(.*?)</` + tag + `>`).FindStringSubmatch(page)
		require.NotNil(t, m, tag)
		sum := sha256.Sum256([]byte(m[1]))
		assert.Contains(t, csp[1], tag+"-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", "the policy allows the inline %s by its hash", tag)
	}
}

func TestHTMLContent(t *testing.T) {
	ro := catalog.Tool{Name: "get_note", Hints: catalog.Hints{ReadOnly: true, OpenWorld: true, Task: "optional"}, Scopes: []string{"notes:read"},
		InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object"}`), Arguments: []catalog.Argument{}, Example: json.RawMessage(`null`)}
	del := sampleTool()
	c := &catalog.Catalog{Tools: []catalog.Tool{del, ro}}
	for i := range c.Tools {
		c.Tools[i].Fingerprint = fingerprint(t, c.Tools[i])
	}
	var b bytes.Buffer
	require.NoError(t, c.Write(&b, "html", "Notes"))
	page := b.String()
	contains(t, page, `<li class="badge destructive" title="May delete or overwrite data">destructive</li>`)
	contains(t, page, `<li class="badge confirm" title="Asks the user before it runs">confirm</li>`)
	contains(t, page, `<li class="badge readonly" title="Does not change its environment">read-only</li>`)
	contains(t, page, `<li class="badge open"`)
	contains(t, page, `<li class="badge task" title="Runs as a task (MCP Tasks extension)">task: optional</li>`)
	contains(t, page, `<li class="badge scopes" title="OAuth scopes the caller&#39;s token needs">scopes: notes:read</li>`)
	contains(t, page, "<code>"+c.Tools[0].Fingerprint+"</code>")
	contains(t, page, `<tr><th scope="row"><code>id</code></th><td>integer</td><td>yes</td><td></td><td>≥ 1</td><td></td></tr>`)
	contains(t, page, "{\n  &#34;name&#34;: &#34;delete_note&#34;,\n  &#34;arguments&#34;: {\n    &#34;id&#34;: 1\n  }\n}")
	contains(t, page, "None: no valid arguments could be derived from the schema.")
	contains(t, page, `<details><summary>Input schema</summary>`)
	assert.Equal(t, 1, strings.Count(page, "<summary>Output schema</summary>"), "only a tool with an output schema has one")
	contains(t, page, `<li data-search="delete_note delete note deletes a note. destructive idempotent closed world confirm id">`)
}

// contains is assert.Contains without the whole page in the message.
func contains(t *testing.T, page, s string) {
	t.Helper()
	assert.True(t, strings.Contains(page, s), "the page lacks %q", s)
}
