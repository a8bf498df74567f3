package mcpproto_test

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"buf.build/go/protovalidate"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/mcptool"
)

// celOnly names the rules JSON Schema cannot say, which only protovalidate
// (and so mcpgen) checks: a document that breaks only these is valid under
// the published schema and refused by the tool. The other documented
// disagreement (rules.go): a numeric bound broken by an integer given in
// its string form ("year": "1449"), which JSON Schema's bounds do not see.
var celOnly = map[string]bool{
	"loan.due_after_start": true, // a comparison with the time of the call
}

// TestAgreement generates argument documents for messages with
// protovalidate rules and holds three verdicts to each other: protovalidate's
// (after protojson), the published input schema's under an independent
// JSON Schema 2020-12 validator (santhosh-tekuri/jsonschema), and the tool's
// (mcpgen's). They agree, or the disagreement is a rule of celOnly.
func TestAgreement(t *testing.T) {
	reg := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), quiet())
	require.NoError(t, reg.AddMethods(newLibrary(), mcptool.Prefix("lib_")))
	require.NoError(t, reg.Add("list_books", echo[testpb.ListBooksRequest]))
	require.NoError(t, reg.Add("book", echo[testpb.Book]))
	validator, err := protovalidate.New()
	require.NoError(t, err)

	ids := []any{"b-1", "b-22", "x", "", "b-", 7, nil}
	pools := map[string]map[string][]any{
		"lib_lend_book": {
			"bookId": ids, "book_id": ids,
			"member": {"a@example.com", "nobody", "", nil, 3},
			"due":    {"2999-01-01T00:00:00Z", "2001-01-01T00:00:00Z", "soon", nil},
			"days":   {7, 14, 28, 5, 0, "14", "5", -1, nil},
		},
		"list_books": {
			"shelf":    {"SHELF_FICTION", "SHELF_UNSPECIFIED", "SHELF_MOON", 0, 1, 3, 9, nil},
			"pageSize": {1, 50, 100, 101, 0, -5, "20", nil},
		},
		"book": {
			"bookId":  ids,
			"title":   {"Dune", "", strings.Repeat("x", 201), strings.Repeat("é", 200), nil},
			"authors": {[]any{"a"}, []any{}, []any{"a", "a"}, []any{"a", "b"}, make([]any, 11), nil},
			"year":    {1450, 1449, 2100, 2101, "1965", "1449", nil},
			"shelf":   {"SHELF_SCIENCE", 2, 9, "NOPE", nil},
			"added":   {"2026-01-01T00:00:00Z", "2026-13-01T00:00:00Z", nil},
		},
	}
	msgs := map[string]func() proto.Message{
		"lib_lend_book": func() proto.Message { return &testpb.LendBookRequest{} },
		"list_books":    func() proto.Message { return &testpb.ListBooksRequest{} },
		"book":          func() proto.Message { return &testpb.Book{} },
	}
	rng := rand.New(rand.NewPCG(27, 1))
	const perTool = 400
	agreed := 0
	for _, tool := range slices.Sorted(maps.Keys(pools)) {
		pool := pools[tool]
		tl, _ := reg.Tool(tool)
		schema := compileSchema(t, tl.InputSchema.(json.RawMessage))
		for range perTool {
			doc := map[string]any{}
			for _, field := range slices.Sorted(maps.Keys(pool)) {
				vals := pool[field]
				if rng.IntN(3) == 0 {
					continue // absent
				}
				v := vals[rng.IntN(len(vals))]
				if v == nil && rng.IntN(2) == 0 {
					continue
				}
				doc[field] = v
			}
			raw, err := json.Marshal(doc)
			require.NoError(t, err)

			schemaOK := validJSON(schema, string(raw)) == nil
			m := msgs[tool]()
			pvOK, explained := true, false
			if _, protoName := doc["book_id"]; protoName {
				pvOK = false // protojson reads the .proto name; mcpgen publishes and takes the JSON name only
			} else if err := protojson.Unmarshal(raw, m); err != nil {
				pvOK = false
			} else if err := validator.Validate(m); err != nil {
				pvOK = false
				var ve *protovalidate.ValidationError
				explained = true
				if errAs(err, &ve) {
					for _, v := range ve.Violations {
						// A CEL rule, or a numeric rule broken by a number
						// in its string form.
						isString := false
						if fd := v.FieldDescriptor; fd != nil {
							_, isString = doc[fd.JSONName()].(string)
						}
						r := v.Proto.GetRuleId()
						numeric := strings.HasPrefix(r, "int") || strings.HasPrefix(r, "uint")
						if !celOnly[r] && !(isString && numeric) {
							explained = false
						}
					}
				}
			}
			res := call(t, reg, tool, string(raw))
			toolOK := !res.IsError

			if toolOK != pvOK {
				t.Errorf("%s %s: the tool says ok=%v, protovalidate ok=%v: %s", tool, raw, toolOK, pvOK, text(res))
			}
			if schemaOK != pvOK && !(schemaOK && explained) {
				t.Errorf("%s %s: the published schema says ok=%v, protovalidate ok=%v (tool: %s)", tool, raw, schemaOK, pvOK, text(res))
			}
			if schemaOK == pvOK {
				agreed++
			}
		}
	}
	t.Logf("%d of %d documents: all three verdicts agree", agreed, perTool*len(pools))
}
