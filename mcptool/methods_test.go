package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

type notesSvc struct {
	pages map[string]string
	calls int
}

type getPageArgs struct {
	ID string `json:"id" validate:"required,min=1"`
}

func (s *notesSvc) GetPage(_ context.Context, in getPageArgs) (string, error) {
	s.calls++
	p, ok := s.pages[in.ID]
	if !ok {
		return "", errors.New("no page " + in.ID)
	}
	return p, nil
}

func (s notesSvc) CountPages(context.Context) (int, error) { return len(s.pages), nil }

func (s *notesSvc) String() string { return "notes" } // not a tool shape

func (s *notesSvc) SetHTTPTimeout(n int) {} // not a tool shape

func TestAddMethods(t *testing.T) {
	svc := &notesSvc{pages: map[string]string{"a": "Alpha"}}
	reg := mcptool.NewRegistry()
	err := reg.AddMethods(svc)
	assert.Equal(t, mcptool.CodeInvalidDefinition, mcptool.CodeOf(err))
	assert.Contains(t, err.Error(), "2 method(s) of *mcptool_test.notesSvc cannot become tools")
	assert.Contains(t, err.Error(), "- String: the last result must be error")
	assert.Contains(t, err.Error(), "- SetHTTPTimeout: the argument type int is not a struct")
	assert.Equal(t, 0, len(reg.Tools()), "nothing registered when a method fails")

	require.NoError(t, reg.AddMethods(svc, mcptool.Exclude("String", "SetHTTPTimeout"), mcptool.Prefix("notes_"),
		mcptool.Method("GetPage", mcptool.Description("Get a page by id."), mcptool.ReadOnly(true))))
	var names []string
	for _, tl := range reg.Tools() {
		names = append(names, tl.Name)
	}
	assert.Equal(t, []string{"notes_count_pages", "notes_get_page"}, names)
	gp, _ := reg.Tool("notes_get_page")
	assert.Equal(t, "Get a page by id.", gp.Description)
	assert.True(t, gp.Annotations.ReadOnlyHint)

	// The receiver's state is used as is: a page added after registration is seen.
	svc.pages["b"] = "Beta"
	res, err := reg.Call(context.Background(), "notes_get_page", json.RawMessage(`{"id":"b"}`))
	require.NoError(t, err)
	assert.Equal(t, "Beta", res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, 1, svc.calls)
	res, err = reg.Call(context.Background(), "notes_count_pages", nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"result":2}`, string(res.StructuredContent.(json.RawMessage)))
}

func TestAddMethodsErrors(t *testing.T) {
	reg := mcptool.NewRegistry()
	err := reg.AddMethods(notesSvc{})
	require.ErrorContains(t, err, "pass a *mcptool_test.notesSvc: methods GetPage, SetHTTPTimeout, String have pointer receivers")
	err = reg.AddMethods(&notesSvc{}, mcptool.Include("GetPage", "Nope"), mcptool.Exclude("Missing"))
	require.ErrorContains(t, err, "has no exported method Missing, Nope")
	require.ErrorContains(t, reg.AddMethods(nil), "AddMethods(nil)")
	var nilSvc *notesSvc
	require.ErrorContains(t, reg.AddMethods(nilSvc), "nil *mcptool_test.notesSvc")

	// A name clash rolls back the tools already added.
	require.NoError(t, reg.Add("count_pages", func() (int, error) { return 0, nil }))
	err = reg.AddMethods(&notesSvc{}, mcptool.Include("GetPage", "CountPages"))
	require.Equal(t, mcptool.CodeDuplicate, mcptool.CodeOf(err))
	_, ok := reg.Tool("get_page")
	assert.False(t, ok)
}
