package view_test

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	texttemplate "text/template"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

var (
	scriptRE = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	styleRE  = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
	cspRE    = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
)

func hashOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}

// The page's policy allows exactly its own scripts and styles, by hash, and
// the declared origins; nothing else.
func TestDefaultPagePolicy(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"note":{"type":"string","description":"</script><script>alert(1)</script>"}}}`)
	html, err := view.Default().HTML("Notes & more", schema, annotations.View{ResourceDomains: []string{"https://cdn.example"}})
	require.NoError(t, err)
	page := string(html)
	m := cspRE.FindStringSubmatch(page)
	require.NotNil(t, m)
	policy := strings.ReplaceAll(m[1], "&#39;", "'")
	var scripts, styles []string
	for _, s := range scriptRE.FindAllStringSubmatch(page, -1) {
		scripts = append(scripts, hashOf(s[1]))
	}
	for _, s := range styleRE.FindAllStringSubmatch(page, -1) {
		styles = append(styles, hashOf(s[1]))
	}
	require.Len(t, scripts, 2, "the helper and the renderer; the schema is a data block")
	assert.Equal(t, strings.Join([]string{
		"default-src 'none'",
		"script-src " + strings.Join(scripts, " ") + " https://cdn.example",
		"style-src " + strings.Join(styles, " ") + " https://cdn.example",
		"img-src data: https://cdn.example",
		"media-src data: https://cdn.example",
		"font-src https://cdn.example",
		"connect-src 'none'",
		"frame-src 'none'",
		"base-uri 'none'",
		"form-action 'none'",
	}, "; "), policy)
	assert.Contains(t, page, "<title>Notes &amp; more</title>")
	assert.NotContains(t, page, "</script><script>alert(1)", "the schema cannot close its block")
	assert.Contains(t, page, `\u003c/script\u003e\u003cscript\u003ealert(1)`)
}

func TestTemplateRender(t *testing.T) {
	v := view.Template(template.Must(template.New("t").Parse(`<b>{{.Name}}</b><a href="{{.URL}}">x</a>`))).Style(".x{color:red}")
	got, err := v.Render(struct{ Name, URL string }{"<img src=x onerror=alert(1)>", "javascript:alert(1)"})
	require.NoError(t, err)
	assert.Equal(t, `<b>&lt;img src=x onerror=alert(1)&gt;</b><a href="#ZgotmplZ">x</a>`, got)
	page, err := v.HTML("T", nil, annotations.View{})
	require.NoError(t, err)
	assert.Contains(t, string(page), "<style>.x{color:red}</style>")
	assert.False(t, strings.Contains(string(page), `<script type="application/json"`), "a template view needs no schema")
	got, err = view.Default().Render(1)
	require.NoError(t, err)
	assert.Empty(t, got)
}

// Template takes an interface, so that a server without templates does not
// compile html/template; only html/template's, which escapes, is accepted.
func TestTemplateRefusesOtherTemplates(t *testing.T) {
	unsafe := texttemplate.Must(texttemplate.New("t").Parse(`<b>{{.}}</b>`))
	assert.EqualError(t, view.Template(unsafe).Check(),
		"view.Template: want an *html/template.Template, which escapes every value, not a *text/template.Template")
	_, err := view.Template(unsafe).HTML("T", nil, annotations.View{})
	assert.Error(t, err)
	assert.EqualError(t, view.Template(nil).Check(), "view.Template: nil template")
	assert.EqualError(t, view.Template((*template.Template)(nil)).Check(), "view.Template: nil template")
	assert.NoError(t, view.Template(template.Must(template.New("t").Parse(`<b>{{.}}</b>`))).Check())
}

func TestPage(t *testing.T) {
	fsys := fstest.MapFS{"v.html": {Data: []byte("<!doctype html><html><HEAD><title>x</title></HEAD><body>hi</body></html>")}}
	page, err := view.Page(fsys, "v.html").HTML("T", nil, annotations.View{})
	require.NoError(t, err)
	s := string(page)
	assert.True(t, strings.HasPrefix(s, "<!doctype html><html><HEAD>\n<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;; script-src &#39;sha256-"), s[:80])
	assert.Contains(t, s, "<title>x</title><script>")
	assert.Contains(t, s, "window.mcpgenView = view;")
	assert.True(t, strings.HasSuffix(s, "</script>\n</HEAD><body>hi</body></html>"))

	_, err = view.Page(fsys, "missing.html").HTML("T", nil, annotations.View{})
	assert.EqualError(t, err, "view.Page: open missing.html: file does not exist")
	_, err = view.AppOnly().HTML("T", nil, annotations.View{})
	assert.EqualError(t, err, "view: AppOnly and ModelOnly have no page")
}

// A page of the user's gets the policy of every page mcpgen builds: its own
// inline scripts and styles by hash (as the browser hashes them: line
// endings made \n), the helper's, and the declared origins; not a script
// it loads from elsewhere, nor one in a comment.
func TestPagePolicy(t *testing.T) {
	own := "\n  mcpgenView.onResult(r => { document.body.textContent = r.structuredContent.city })\r\n"
	attr := "let a = 1 > 0"
	doc := "<!doctype html>\n<html><head data-x=\"a>b\"><title>Mine</title>\n" +
		"<style>body { color: teal }</style>\n" +
		"<script src=\"https://cdn.example/lib.js\"></script>\n" +
		"<!-- <script>alert(1)</script> -->\n" +
		"<script type=\"module\" data-note='x>y'>" + attr + "</script>\n" +
		"</head><body><SCRIPT>" + own + "</SCRIPT></body></html>"
	page, err := view.Page(fstest.MapFS{"v.html": {Data: []byte(doc)}}, "v.html").Resources("https://cdn.example").
		HTML("T", nil, annotations.View{ResourceDomains: []string{"https://cdn.example"}, ConnectDomains: []string{"https://api.example"}})
	require.NoError(t, err)
	s := string(page)
	m := cspRE.FindStringSubmatch(s)
	require.NotNil(t, m)
	assert.True(t, strings.HasPrefix(s, "<!doctype html>\n<html><head data-x=\"a>b\">\n"+m[0]+"\n<title>Mine</title>"), "the policy comes first in the head")
	var helper []string
	for _, sc := range scriptRE.FindAllStringSubmatch(s, -1) {
		if strings.Contains(sc[1], "mcpgenView") && !strings.Contains(sc[1], "onResult(r =>") {
			helper = append(helper, hashOf(sc[1]))
		}
	}
	require.Len(t, helper, 2, "the helper and the renderer")
	assert.Equal(t, strings.Join([]string{
		"default-src 'none'",
		"script-src " + strings.Join(append([]string{hashOf(attr), hashOf(strings.ReplaceAll(own, "\r\n", "\n"))}, helper...), " ") + " https://cdn.example",
		"style-src " + hashOf("body { color: teal }") + " https://cdn.example",
		"img-src data: https://cdn.example",
		"media-src data: https://cdn.example",
		"font-src https://cdn.example",
		"connect-src https://api.example",
		"frame-src 'none'",
		"base-uri 'none'",
		"form-action 'none'",
	}, "; "), strings.ReplaceAll(m[1], "&#39;", "'"))

	// A page without a head gets the policy and the helper first.
	page, err = view.Page(fstest.MapFS{"v.html": {Data: []byte("<p>bare</p>")}}, "v.html").HTML("T", nil, annotations.View{})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(page), `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-`))
	assert.True(t, strings.HasSuffix(string(page), "</script>\n<p>bare</p>"))
}

func TestCheck(t *testing.T) {
	err := view.Default().Connect("https://a.example/path").Resources("ftp://b.example").Check()
	assert.EqualError(t, err, `connectDomains: "https://a.example/path" is not an origin: no credentials, path, query or fragment`+"\n"+`resourceDomains: "ftp://b.example" must use https or wss`)
	assert.NoError(t, view.Default().Connect("wss://live.example").Check())
	assert.True(t, view.AppOnly().Annotations().AppOnly())
	assert.False(t, view.AppOnly().HasPage())
	assert.Equal(t, annotations.View{Visibility: []string{"model"}}, view.ModelOnly().Annotations())
	assert.False(t, view.ModelOnly().HasPage())

	// Visibility says what the tag's visibility= says, of any view.
	fsys := fstest.MapFS{"v.html": {Data: []byte("<p>hi</p>")}}
	v := view.Page(fsys, "v.html").Visibility("app")
	assert.Equal(t, annotations.View{Page: true, Visibility: []string{"app"}}, v.Annotations())
	assert.True(t, v.Annotations().AppOnly())
	assert.True(t, v.HasPage())
	assert.NoError(t, v.Check())
	assert.Equal(t, []string{"model", "app"}, view.Default().Visibility("model", "app").Annotations().Visibility)
	assert.EqualError(t, view.Default().Visibility("model", "host").Check(), `visibility takes model and app, not "host"`)
	assert.EqualError(t, view.Default().Visibility().Check(), `visibility needs a value: model, app, or 'model app'`)
}
