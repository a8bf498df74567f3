package bench

// The same search tool on four stacks. Each stack declares the tool the way
// its users are told to, with the same contract:
//
//	query   string, required, 2..200 characters
//	limit   integer, 1..100, default 10
//	sort    "relevance" | "date" | "title"
//	tags    array of strings, at most 10
//	filter  optional object {author: string 1..64 required, year: integer 1900..2100}
//	unknown properties rejected (at every level)
//
// and the same result: a SearchResult as structuredContent plus its JSON as
// one text block. equivalence_test.go checks that the four agree on valid and
// invalid arguments.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"
	"unsafe"

	"github.com/google/jsonschema-go/jsonschema"
	mgomcp "github.com/mark3labs/mcp-go/mcp"
	mgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/adapters/mcpgo"
	"github.com/mcpgen/mcpgen/mcptool"
)

const toolName = "search"

// validArgs are the arguments every benchmark sends: all five present.
var validArgs = json.RawMessage(`{"query":"release plan","limit":20,"sort":"date","tags":["go","mcp"],"filter":{"author":"ada","year":2024}}`)

// ---- the result and the tool's work, shared by every stack ----

type Hit struct {
	ID    string  `json:"id"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
}

type SearchResult struct {
	Query  string   `json:"query"`
	Limit  int      `json:"limit"`
	Sort   string   `json:"sort"`
	Tags   []string `json:"tags"`
	Author string   `json:"author"`
	Year   int      `json:"year"`
	Hits   []Hit    `json:"hits"`
	Total  int      `json:"total"`
}

var hits = []Hit{
	{ID: "n1", Title: "Release plan Q3", Score: 0.93},
	{ID: "n2", Title: "Release checklist", Score: 0.71},
	{ID: "n3", Title: "Planning notes", Score: 0.42},
}

var noTags = []string{}

// search is the tool's body: it echoes its arguments and returns fixed hits,
// so that what is measured is the stack, not the tool.
func search(query string, limit int, sort string, tags []string, author string, year int) SearchResult {
	if tags == nil {
		tags = noTags
	}
	if sort == "" {
		sort = "relevance"
	}
	return SearchResult{Query: query, Limit: limit, Sort: sort, Tags: tags, Author: author, Year: year, Hits: hits, Total: len(hits)}
}

// ---- (1) mcpgen ----

type SearchArgs struct {
	Query  string        `json:"query" jsonschema_description:"Words to look for" validate:"required,min=2,max=200"`
	Limit  int           `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
	Sort   string        `json:"sort,omitempty" validate:"omitempty,oneof=relevance date title"`
	Tags   []string      `json:"tags,omitempty" validate:"omitempty,max=10"`
	Filter *SearchFilter `json:"filter,omitempty"`
}

type SearchFilter struct {
	Author string `json:"author" validate:"required,min=1,max=64"`
	Year   int    `json:"year,omitempty" validate:"omitempty,min=1900,max=2100"`
}

func mcpgenSearch(_ context.Context, in SearchArgs) (SearchResult, error) {
	var author string
	var year int
	if in.Filter != nil {
		author, year = in.Filter.Author, in.Filter.Year
	}
	return search(in.Query, in.Limit, in.Sort, in.Tags, author, year), nil
}

// mcpgenRegistry registers the tool with the generic mcptool.Add (shape
// checked at compile time, no reflect.Call per call).
func mcpgenRegistry() *mcptool.Registry {
	r := mcptool.NewRegistry()
	if err := mcptool.Add(r, toolName, mcpgenSearch, mcptool.Description("Search notes")); err != nil {
		panic(err)
	}
	return r
}

// mcpgenReflectRegistry registers the same function with the reflective
// Registry.Add (reflect.Value.Call per call).
func mcpgenReflectRegistry() *mcptool.Registry {
	r := mcptool.NewRegistry()
	if err := r.Add(toolName, mcpgenSearch, mcptool.Description("Search notes")); err != nil {
		panic(err)
	}
	return r
}

func mcpgenServer() *mcp.Server {
	_, srv := mcpgenServed()
	return srv.Server
}

// mcpgenServed is mcpgenServer with its registry, served by Server.Handler.
func mcpgenServed() (*mcptool.Registry, *mcptool.Server) {
	reg := mcpgenRegistry()
	return reg, reg.Server(impl, nil)
}

// mounted is a go-sdk server holding r's tools through Mount, so that
// sdkHandler finds the handler a Registry.Server server reaches from its
// middleware.
func mounted(r *mcptool.Registry) *mcp.Server {
	s := mcp.NewServer(impl, nil)
	r.Mount(s)
	return s
}

var impl = &mcp.Implementation{Name: "bench", Version: "1.0.0"}

// ---- (2) go-sdk generic mcp.AddTool ----

// go-sdk infers a schema from the type (jsonschema-go reads only
// descriptions from tags), so bounds, enum and default are added to the
// inferred schema, as go-sdk's documentation says to.
type GSearchArgs struct {
	Query  string    `json:"query" jsonschema:"Words to look for"`
	Limit  int       `json:"limit,omitempty"`
	Sort   string    `json:"sort,omitempty"`
	Tags   []string  `json:"tags,omitempty"`
	Filter *GSFilter `json:"filter,omitempty"`
}

type GSFilter struct {
	Author string `json:"author"`
	Year   int    `json:"year,omitempty"`
}

func gosdkSearch(_ context.Context, _ *mcp.CallToolRequest, in GSearchArgs) (*mcp.CallToolResult, SearchResult, error) {
	var author string
	var year int
	if in.Filter != nil {
		author, year = in.Filter.Author, in.Filter.Year
	}
	return nil, search(in.Query, in.Limit, in.Sort, in.Tags, author, year), nil
}

// constrain adds the contract's bounds to a schema inferred by jsonschema-go
// (go-sdk's and mcp-go's schema library) for GSearchArgs or MSearchArgs.
func constrain(s *jsonschema.Schema) {
	p := s.Properties
	p["query"].MinLength, p["query"].MaxLength = jsonschema.Ptr(2), jsonschema.Ptr(200)
	p["limit"].Minimum, p["limit"].Maximum = jsonschema.Ptr(1.0), jsonschema.Ptr(100.0)
	p["limit"].Default = json.RawMessage(`10`)
	p["sort"].Enum = []any{"relevance", "date", "title"}
	p["tags"].Type, p["tags"].Types = "array", nil
	p["tags"].MaxItems = jsonschema.Ptr(10)
	f := p["filter"]
	f.Type, f.Types = "object", nil
	f.Properties["author"].MinLength, f.Properties["author"].MaxLength = jsonschema.Ptr(1), jsonschema.Ptr(64)
	f.Properties["year"].Minimum, f.Properties["year"].Maximum = jsonschema.Ptr(1900.0), jsonschema.Ptr(2100.0)
}

func gosdkInputSchema() *jsonschema.Schema {
	s, err := jsonschema.For[GSearchArgs](nil)
	if err != nil {
		panic(err)
	}
	constrain(s)
	return s
}

func gosdkServer() *mcp.Server {
	s := mcp.NewServer(impl, nil)
	mcp.AddTool(s, &mcp.Tool{Name: toolName, Description: "Search notes", InputSchema: gosdkInputSchema()}, gosdkSearch)
	return s
}

// ---- (3) mark3labs/mcp-go: WithInputSchema[T], input validation, structured handler ----

type MSearchArgs struct {
	Query  string    `json:"query" jsonschema_description:"Words to look for"`
	Limit  int       `json:"limit,omitempty"`
	Sort   string    `json:"sort,omitempty"`
	Tags   []string  `json:"tags,omitempty"`
	Filter *MSFilter `json:"filter,omitempty"`
}

type MSFilter struct {
	Author string `json:"author"`
	Year   int    `json:"year,omitempty"`
}

// mcpgoConstrain is a ToolOption, applied after WithInputSchema[T], that adds
// the contract's bounds (mcp-go's tags carry only descriptions and enums).
func mcpgoConstrain(t *mgomcp.Tool) {
	var s jsonschema.Schema
	if err := json.Unmarshal(t.RawInputSchema, &s); err != nil {
		panic(err)
	}
	constrain(&s)
	raw, err := json.Marshal(&s)
	if err != nil {
		panic(err)
	}
	t.RawInputSchema = raw
}

func mcpgoSearch(_ context.Context, _ mgomcp.CallToolRequest, in MSearchArgs) (SearchResult, error) {
	if in.Limit == 0 {
		in.Limit = 10 // mcp-go validates but does not apply schema defaults
	}
	var author string
	var year int
	if in.Filter != nil {
		author, year = in.Filter.Author, in.Filter.Year
	}
	return search(in.Query, in.Limit, in.Sort, in.Tags, author, year), nil
}

func mcpgoTool() mgomcp.Tool {
	return mgomcp.NewTool(toolName,
		mgomcp.WithDescription("Search notes"),
		mgomcp.WithInputSchema[MSearchArgs](),
		mcpgoConstrain,
		mgomcp.WithOutputSchema[SearchResult](),
	)
}

func mcpgoServer() *mgoserver.MCPServer {
	s := mgoserver.NewMCPServer("bench", "1.0.0",
		mgoserver.WithToolCapabilities(true),
		mgoserver.WithInputSchemaValidation())
	s.AddTool(mcpgoTool(), mgomcp.NewStructuredToolHandler(mcpgoSearch))
	return s
}

// mcpgoAdapterServer serves mcpgen's registry (the mcpgen stack's tool) on an
// mcp-go server through adapters/mcpgo, with the native mcpgo server's
// options: the same tool through the adapter, for the adapter-vs-native rows.
func mcpgoAdapterServer() *mgoserver.MCPServer {
	s := mgoserver.NewMCPServer("bench", "1.0.0", mgoserver.WithToolCapabilities(true))
	mcpgo.Mount(mcpgenRegistry(), s)
	return s
}

// ---- (4) the floor: a hand-written handler on go-sdk's low-level Server.AddTool ----

var floorInputSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["query"],"properties":{` +
	`"query":{"type":"string","minLength":2,"maxLength":200,"description":"Words to look for"},` +
	`"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},` +
	`"sort":{"type":"string","enum":["relevance","date","title"]},` +
	`"tags":{"type":"array","items":{"type":"string"},"maxItems":10},` +
	`"filter":{"type":"object","additionalProperties":false,"required":["author"],"properties":{` +
	`"author":{"type":"string","minLength":1,"maxLength":64},"year":{"type":"integer","minimum":1900,"maximum":2100}}}}}`)

var floorOutputSchema = json.RawMessage(`{"type":"object","required":["query","limit","sort","tags","author","year","hits","total"],"properties":{` +
	`"query":{"type":"string"},"limit":{"type":"integer"},"sort":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},` +
	`"author":{"type":"string"},"year":{"type":"integer"},"hits":{"type":"array","items":{"type":"object","required":["id","title","score"],` +
	`"properties":{"id":{"type":"string"},"title":{"type":"string"},"score":{"type":"number"}}}},"total":{"type":"integer"}}}`)

type floorArgs struct {
	Query  *string      `json:"query"`
	Limit  int          `json:"limit"`
	Sort   string       `json:"sort"`
	Tags   []string     `json:"tags"`
	Filter *floorFilter `json:"filter"`
}

type floorFilter struct {
	Author *string `json:"author"`
	Year   *int    `json:"year"`
}

// floorHandler is what a careful author writes by hand: encoding/json with
// unknown properties rejected (json.Unmarshal alone accepts them, which the
// other three stacks do not), the default pre-set, and every check spelled out.
func floorHandler(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	in := floorArgs{Limit: 10}
	if err := floorDecode(req.Params.Arguments, &in); err != nil {
		return floorError(err), nil
	}
	return floorRun(&in)
}

// floorRun checks decoded arguments, runs the search and builds the result.
func floorRun(in *floorArgs) (*mcp.CallToolResult, error) {
	if err := floorCheck(in); err != nil {
		return floorError(err), nil
	}
	var author string
	var year int
	if in.Filter != nil {
		author = *in.Filter.Author
		if in.Filter.Year != nil {
			year = *in.Filter.Year
		}
	}
	out := search(*in.Query, in.Limit, in.Sort, in.Tags, author, year)
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}, nil
}

func floorDecode(raw json.RawMessage, in *floorArgs) error {
	if len(raw) == 0 {
		raw = json.RawMessage(`{}`)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(in); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the arguments")
	}
	return nil
}

// floorLaxHandler is floorHandler with json.Unmarshal, which lets unknown
// properties through: informative only (it is not equivalent).
func floorLaxHandler(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	in := floorArgs{Limit: 10}
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return floorError(err), nil
	}
	return floorRun(&in)
}

func floorCheck(in *floorArgs) error {
	switch {
	case in.Query == nil:
		return errors.New("query: is required")
	case utf8.RuneCountInString(*in.Query) < 2 || utf8.RuneCountInString(*in.Query) > 200:
		return errors.New("query: must be 2 to 200 characters long")
	case in.Limit < 1 || in.Limit > 100:
		return fmt.Errorf("limit: must be 1 to 100, got %d", in.Limit)
	}
	switch in.Sort {
	case "", "relevance", "date", "title":
	default:
		return fmt.Errorf("sort: must be one of relevance, date, title, got %q", in.Sort)
	}
	if len(in.Tags) > 10 {
		return errors.New("tags: at most 10 items")
	}
	if f := in.Filter; f != nil {
		if f.Author == nil {
			return errors.New("filter.author: is required")
		}
		if n := utf8.RuneCountInString(*f.Author); n < 1 || n > 64 {
			return errors.New("filter.author: must be 1 to 64 characters long")
		}
		if f.Year != nil && (*f.Year < 1900 || *f.Year > 2100) {
			return fmt.Errorf("filter.year: must be 1900 to 2100, got %d", *f.Year)
		}
	}
	return nil
}

func floorError(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "invalid arguments: " + err.Error()}}}
}

func floorTool() *mcp.Tool {
	return &mcp.Tool{Name: toolName, Description: "Search notes", InputSchema: floorInputSchema, OutputSchema: floorOutputSchema}
}

func floorServer() *mcp.Server {
	s := mcp.NewServer(impl, nil)
	s.AddTool(floorTool(), floorHandler)
	return s
}

// ---- reaching a go-sdk server's tool handler without a transport ----

// sdkHandler returns the ToolHandler that s runs for the named tool: for
// mcp.AddTool, the wrapper go-sdk builds around the typed handler (schema
// defaults, validation, unmarshalling, output marshalling and validation);
// for mcpgen, the handler Mount installs (the one a server built by
// Registry.Server calls from its middleware). go-sdk keeps it unexported, so
// it is read with reflect from go-sdk v1.8.0's Server.tools featureSet.
func sdkHandler(s *mcp.Server, name string) mcp.ToolHandler {
	tools := reflect.ValueOf(s).Elem().FieldByName("tools")
	if !tools.IsValid() {
		panic("go-sdk: Server has no tools field (not v1.8.0?)")
	}
	features := tools.Elem().FieldByName("features")
	st := features.MapIndex(reflect.ValueOf(name))
	if !st.IsValid() {
		panic("go-sdk: no tool " + name)
	}
	h := st.Elem().FieldByName("handler")
	return *(*mcp.ToolHandler)(unsafe.Pointer(h.UnsafeAddr()))
}

// callRequest is a tools/call request as go-sdk hands it to a tool handler.
func callRequest(args json.RawMessage) *mcp.CallToolRequest {
	return &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: toolName, Arguments: args}}
}

// mcpgoCallMessage is a tools/call JSON-RPC request for mcp-go, whose
// argument validation runs inside MCPServer's unexported handleToolCall and
// is reachable only through HandleMessage.
func mcpgoCallMessage(args json.RawMessage) json.RawMessage {
	return json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + toolName + `","arguments":` + string(args) + `}}`)
}

// mcpgoResult unpacks HandleMessage's answer.
func mcpgoResult(msg mgomcp.JSONRPCMessage) (*mgomcp.CallToolResult, error) {
	switch m := msg.(type) {
	case mgomcp.JSONRPCResponse:
		switch r := m.Result.(type) {
		case *mgomcp.CallToolResult:
			return r, nil
		case mgomcp.CallToolResult:
			return &r, nil
		}
		return nil, fmt.Errorf("mcp-go: unexpected result %T", m.Result)
	case mgomcp.JSONRPCError:
		return nil, fmt.Errorf("mcp-go: error %d: %s", m.Error.Code, m.Error.Message)
	}
	return nil, fmt.Errorf("mcp-go: unexpected message %T", msg)
}
