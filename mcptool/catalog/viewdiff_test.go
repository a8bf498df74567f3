package catalog_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

func viewTool(v *catalog.View) catalog.Tool {
	return catalog.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), Arguments: []catalog.Argument{}, View: v}
}

func changesOf(o, a *catalog.View) []string {
	r := catalog.Compare(&catalog.Catalog{Tools: []catalog.Tool{viewTool(o)}}, &catalog.Catalog{Tools: []catalog.Tool{viewTool(a)}})
	var out []string
	for _, c := range r.Changes {
		out = append(out, string(c.Class)+" "+c.Where+": "+c.What)
	}
	return out
}

func TestCompareViews(t *testing.T) {
	def := &catalog.View{URI: "ui://mcpgen/t.html", Kind: "default"}
	assert.Equal(t, []string{"security-relevant view: view added (default): the host now runs the server's page for this tool"}, changesOf(nil, def))
	assert.Equal(t, []string{"compatible view: view removed"}, changesOf(def, nil))
	wider := &catalog.View{URI: "ui://mcpgen/t.html", Kind: "default", ConnectDomains: []string{"https://api.example.com"}}
	assert.Equal(t, []string{"security-relevant view.connectDomains: view may now connect to https://api.example.com"}, changesOf(def, wider))
	assert.Equal(t, []string{"compatible view.connectDomains: view may no longer connect to https://api.example.com"}, changesOf(wider, def))
	app := &catalog.View{Visibility: []string{"app"}}
	assert.Equal(t, []string{"breaking view.visibility: now app only: the model no longer sees or calls the tool"}, changesOf(nil, app))
	assert.Empty(t, changesOf(def, &catalog.View{URI: "ui://mcpgen/t.html", Kind: "default"}))
	model := &catalog.View{Visibility: []string{"model"}}
	assert.Equal(t, []string{"breaking view.visibility: now model only: views may no longer call the tool"}, changesOf(nil, model))
	assert.Equal(t, []string{"security-relevant view.visibility: no longer model only: views may now call the tool"}, changesOf(model, nil))
	assert.Empty(t, changesOf(nil, &catalog.View{Visibility: []string{"model", "app"}}))
}

// A tool without a view keeps its fingerprint; a view changes it.
func TestFingerprintView(t *testing.T) {
	a, err := catalog.Fingerprint(viewTool(nil))
	assert.NoError(t, err)
	assert.Equal(t, "sha256:", a[:7])
	b, err := catalog.Fingerprint(viewTool(&catalog.View{Kind: "default"}))
	assert.NoError(t, err)
	assert.NotEqual(t, a, b)
}

// The Markdown catalogue says who may call a tool with a visibility.
func TestViewText(t *testing.T) {
	for _, c := range []struct {
		view *catalog.View
		want string
	}{
		{&catalog.View{URI: "ui://mcpgen/t.html", Kind: "default", Visibility: []string{"app"}}, "view: default, app only"},
		{&catalog.View{Visibility: []string{"model"}}, "model only"},
	} {
		var b strings.Builder
		assert.NoError(t, (&catalog.Catalog{Tools: []catalog.Tool{viewTool(c.view)}}).Write(&b, "markdown", "T"))
		assert.Contains(t, b.String(), c.want)
	}
	var b strings.Builder
	assert.NoError(t, (&catalog.Catalog{Tools: []catalog.Tool{viewTool(&catalog.View{Visibility: []string{"model", "app"}})}}).Write(&b, "markdown", "T"))
	assert.NotContains(t, b.String(), " only")
}
