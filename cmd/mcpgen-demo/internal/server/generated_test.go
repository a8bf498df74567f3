package server

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/cmd/mcpgen-demo/library"
	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// The demo tools' argument and result types.
var (
	demoArgTypes = []reflect.Type{
		reflect.TypeFor[SumArgs](), reflect.TypeFor[CSVArgs](), reflect.TypeFor[DeleteFileArgs](),
		reflect.TypeFor[CommandArgs](), reflect.TypeFor[IssueArgs](), reflect.TypeFor[WeatherArgs](),
		reflect.TypeFor[SearchArgs](), reflect.TypeFor[RecordArgs](), reflect.TypeFor[SearchPagesArgs](),
		reflect.TypeFor[PageArgs](), reflect.TypeFor[DeletePageArgs](),
	}
	demoResultTypes = []reflect.Type{
		reflect.TypeFor[Sum](), reflect.TypeFor[CSVReport](), reflect.TypeFor[DeletedFile](),
		reflect.TypeFor[CommandResult](), reflect.TypeFor[Issue](), reflect.TypeFor[CurrentWeather](),
		reflect.TypeFor[SearchResults](), reflect.TypeFor[Record](), reflect.TypeFor[PageHits](),
		reflect.TypeFor[Page](), reflect.TypeFor[DeletedPage](),
	}
)

// TestGeneratedPlans checks that registration uses the plans of
// mcpgen_gen.go (so it is not stale: a type changed since generation falls
// back to reflection), and that they publish exactly what reflection over
// the same doc comments does.
func TestGeneratedPlans(t *testing.T) {
	// What reflection derives now, with the same doc comments.
	var dump bytes.Buffer
	require.NoError(t, mcpreflect.DumpGenerated(&dump, demoArgTypes, demoResultTypes))
	var entries []struct {
		Type       string `json:"type"`
		InputJSON  string `json:"inputJSON"`
		OutputJSON string `json:"outputJSON"`
	}
	require.NoError(t, json.Unmarshal(dump.Bytes(), &entries))
	refl := map[string][2]string{}
	for _, e := range entries {
		refl[e.Type] = [2]string{e.InputJSON, e.OutputJSON}
	}
	cache := mcpreflect.DefaultCache()
	for _, typ := range demoArgTypes {
		gen, err := cache.Plan(typ, mcpreflect.Options{})
		require.NoError(t, err)
		assert.True(t, gen.Generated, "%s: the generated plan is used; run go generate ./cmd/mcpgen-demo", typ)
		assert.Equal(t, refl[typ.String()][0], string(gen.SchemaJSON), typ.String())
		described(t, typ.String(), gen.Schema)
	}
	for _, typ := range demoResultTypes {
		gen, err := cache.Output(typ, mcpreflect.Options{})
		require.NoError(t, err)
		assert.NotEmpty(t, gen.SchemaJSON, typ.String())
		assert.Equal(t, refl[typ.String()][1], string(gen.SchemaJSON), typ.String())
		described(t, typ.String(), gen.Schema)
	}
}

// described checks that every object of a schema, and every property, has
// a description: the doc comments of the types and fields.
func described(t *testing.T, path string, s *jsonschema.Schema) {
	t.Helper()
	if s == nil {
		return
	}
	if s.Items != nil {
		described(t, path+"[]", s.Items)
	}
	if s.Properties == nil {
		return
	}
	if strings.Count(path, ".") > 1 || strings.Contains(path, "[") { // below the type (main.T)
		// A nested object; a tool's argument or result type may have none,
		// its comment only saying what it is for ("SumArgs are the
		// arguments of calculate_sum.", dropped from the schema).
		assert.NotEmpty(t, s.Description, "%s has no doc comment", path)
	}
	for p := s.Properties.Oldest(); p != nil; p = p.Next() {
		assert.NotEmpty(t, p.Value.Description, "%s.%s has no doc comment", path, p.Key)
		described(t, path+"."+p.Key, p.Value)
	}
}

// TestDescriptionsFromDocComments checks that the descriptions are the doc
// comments: a tool's is its function's or method's (the Go name dropped),
// with only what is known at run time appended; a schema's is its type's; a
// property's is its field's, with no description tag repeating it.
func TestDescriptionsFromDocComments(t *testing.T) {
	reg := mcptool.NewRegistry(library.Types())
	d := docsDemo(full())
	require.NoError(t, registerDemo(reg, d))

	sum, ok := reg.Tool("calculate_sum")
	require.True(t, ok)
	assert.Equal(t, "Adds two numbers and returns their sum. A sum beyond the largest representable number (about 1.8e308) is an error.\n\n"+
		`Example: {"a": 2.5, "b": 4} returns {"sum": 6.5}.`, sum.Description)
	assert.Equal(t, mcpreflect.FuncDoc(calculateSum), sum.Description)
	var schema struct {
		Description string `json:"description"`
		Properties  map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(sum.InputSchema.(json.RawMessage), &schema))
	assert.Empty(t, schema.Description, "SumArgs are the arguments of calculate_sum: nothing the tool's name does not say")
	assert.Equal(t, "The first addend, e.g. 2.5.", schema.Properties["a"].Description)
	assert.Equal(t, "The second addend, e.g. 4.", schema.Properties["b"].Description)

	notes := reflect.TypeFor[*Notes]()
	docs := map[string]string{
		"calculate_sum":       mcpreflect.FuncDoc(calculateSum),
		"analyze_csv":         mcpreflect.FuncDoc(d.files.AnalyzeCSV),
		"generate_csv":        mcpreflect.FuncDoc(d.files.GenerateCSV),
		"delete_file":         mcpreflect.FuncDoc(d.files.DeleteFile),
		"execute_command":     mcpreflect.FuncDoc(d.commands.Execute),
		"github_create_issue": mcpreflect.FuncDoc(d.github.CreateIssue),
		"get_weather":         mcpreflect.FuncDoc(d.weather.Current),
		"web_search":          mcpreflect.FuncDoc(d.search.Web),
		"create_record":       mcpreflect.FuncDoc(d.records.Create),
		"search_pages":        mcpreflect.MethodDoc(notes, "SearchPages"),
		"get_page":            mcpreflect.MethodDoc(notes, "GetPage"),
		"open_page":           mcpreflect.MethodDoc(notes, "GetPage"), // get_page for search_pages' view (views.go)
		"delete_page":         mcpreflect.MethodDoc(notes, "DeletePage"),
	}
	appended := map[string]string{
		"execute_command": " " + d.commands.description(),
		"delete_file":     " Nothing is deleted until the user confirms: the server asks through the client (elicitation).",
		"delete_page":     " Nothing is deleted until the user confirms: the server asks through the client (elicitation).",
	}
	// The library's three tools are described by library.proto's comments
	// (library/), not by Go doc comments.
	require.Len(t, docs, len(reg.Tools())-3)
	for name, doc := range docs {
		tl, ok := reg.Tool(name)
		require.True(t, ok, name)
		require.NotEmpty(t, doc, "%s: no doc comment in mcpgen_gen.go", name)
		assert.Equal(t, doc+appended[name], tl.Description, name)
		assert.Regexp(t, `^[A-Z][a-z]+s `, doc, "%s: the Go name is dropped, the verb capitalized", name)
	}

	// -confirm=false says so instead.
	reg = mcptool.NewRegistry(library.Types())
	d.noConfirm = true
	require.NoError(t, registerDemo(reg, d))
	for _, name := range []string{"delete_file", "delete_page"} {
		tl, _ := reg.Tool(name)
		assert.Equal(t, docs[name]+" It runs without asking: make sure the user wants it.", tl.Description, name)
	}

	// Every field's description is its doc comment (TestGeneratedPlans): no
	// tag repeats it.
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || typ.PkgPath() != notes.Elem().PkgPath() || seen[typ] {
			return
		}
		seen[typ] = true
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if f.Name == "_" {
				continue
			}
			_, hasDesc := f.Tag.Lookup("jsonschema_description")
			assert.False(t, hasDesc, "%s.%s: a jsonschema_description tag; write a doc comment", typ, f.Name)
			assert.NotContains(t, f.Tag.Get("jsonschema"), "description=", "%s.%s", typ, f.Name)
			walk(f.Type)
		}
	}
	for _, typ := range append(append([]reflect.Type{}, demoArgTypes...), demoResultTypes...) {
		walk(typ)
	}
}

// TestGeneratedCurrent: mcpgen_gen.go is of this mcpgen's schema
// generation and for the types as they are (its plans are used).
func TestGeneratedCurrent(t *testing.T) { mcptest.GeneratedCurrent(t) }

// TestGeneratedUpToDate regenerates mcpgen_gen.go (to a scratch file) and
// compares: go generate ./cmd/mcpgen-demo has run since the last change of
// a tool's doc comment or types, and generation is deterministic.
func TestGeneratedUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go run")
	}
	const out = "mcpgen_gen.out"
	t.Cleanup(func() { os.Remove(out) })
	cmd := exec.Command("go", "run", "github.com/mcpgen/mcpgen/cmd/mcpgen", "-o", out)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	want, err := os.ReadFile("mcpgen_gen.go")
	require.NoError(t, err)
	if string(got) != string(want) {
		t.Errorf("mcpgen_gen.go is stale: run go generate ./cmd/mcpgen-demo\n%s", firstDiff(string(want), string(got)))
	}
	_, err = os.Stat("mcpgen_dump_main")
	assert.True(t, os.IsNotExist(err), "no temporary files are left in the package")
}
