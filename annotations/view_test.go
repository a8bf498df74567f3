package annotations_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
)

func TestViewTag(t *testing.T) {
	tl, err := annotations.Parse("view,connectDomains=https://api.example.com wss://live.example.com,resourceDomains=https://*.cdn.example")
	require.NoError(t, err)
	assert.Equal(t, annotations.View{
		Page:            true,
		ConnectDomains:  []string{"https://api.example.com", "wss://live.example.com"},
		ResourceDomains: []string{"https://*.cdn.example"},
	}, tl.View)
	assert.False(t, tl.View.AppOnly())

	tl, err = annotations.Parse("visibility=app")
	require.NoError(t, err)
	assert.True(t, tl.View.AppOnly())
	tl, err = annotations.Parse("visibility='model app'")
	require.NoError(t, err)
	assert.False(t, tl.View.AppOnly())
	assert.Equal(t, []string{"model", "app"}, tl.View.Visibility)
}

func TestViewTagErrors(t *testing.T) {
	for tag, want := range map[string]string{
		"view=maybe":                             "view takes no value, or true/false",
		"visibility=user":                        `visibility takes model and app, not "user"`,
		"visibility":                             "visibility needs a value: model, app, or 'model app'",
		"connectDomains":                         "connectDomains needs a value: origins such as https://api.example.com, separated by spaces",
		"connectDomains=http://api.example.com":  `connectDomains: "http://api.example.com" must use https or wss (http and ws only for localhost)`,
		"resourceDomains=https://a.example/x.js": `resourceDomains: "https://a.example/x.js" is not an origin: no credentials, path, query or fragment`,
		"resourceDomains=data:":                  `resourceDomains: "data:" is not an origin (scheme://host[:port])`,
		"resourceDomains='https://a.example;x'":  `resourceDomains: "https://a.example;x" is not an origin`,
		"vew":                                    `unknown key "vew" (did you mean "view"?)`,
	} {
		_, err := annotations.Parse(tag)
		assert.EqualError(t, err, want, tag)
	}
	assert.NoError(t, annotations.CheckOrigins([]string{"http://localhost:8080", "https://a.example:8443"}))
}

func TestViewMerge(t *testing.T) {
	tag := annotations.View{Page: true, ConnectDomains: []string{"https://a.example"}}
	opt := annotations.View{Visibility: []string{"app"}, ConnectDomains: []string{"https://b.example"}}
	assert.Equal(t, annotations.View{Page: true, Visibility: []string{"app"}, ConnectDomains: []string{"https://b.example"}}, tag.Merge(opt))
}
