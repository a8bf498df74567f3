package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/adapter"
)

// examplePolicyText returns the text of a result's first content block.
func examplePolicyText(res *mcp.CallToolResult, err error) string {
	if err != nil {
		return "protocol error: " + err.Error()
	}
	if len(res.Content) == 0 {
		return ""
	}
	if t, ok := res.Content[0].(*mcp.TextContent); ok {
		return t.Text
	}
	return fmt.Sprintf("%T", res.Content[0])
}

// examplePolicyRetry prints a rate-limit refusal like examplePrintResult,
// with its retry delay, which depends on the clock, shown as <delay>.
func examplePolicyRetry(res *mcp.CallToolResult, err error) {
	msg, after, ok := strings.Cut(examplePolicyText(res, err), "retry in ")
	if d, perr := time.ParseDuration(after); !ok || perr != nil || d <= 0 {
		examplePrintResult(res, err)
		return
	}
	fmt.Println("isError:", res.IsError)
	fmt.Println("text:", msg+"retry in <delay>")
}

// examplePolicyQuiet is a registry logger that discards the internal errors
// the examples provoke.
var examplePolicyQuiet = mcptool.Logger(slog.New(slog.DiscardHandler))

// examplePolicyPeer stands in for a client session when a registry is
// called through [adapter.Invoke], as a transport adapter does: it
// has a session ID, and answers elicitation requests with answer (or cannot
// answer them when answer is nil).
type examplePolicyPeer struct {
	id     string
	answer *mcp.ElicitResult
	asked  []string // the messages of the elicitation requests received
}

func (p *examplePolicyPeer) SessionID() string  { return p.id }
func (p *examplePolicyPeer) ProgressToken() any { return nil }
func (p *examplePolicyPeer) NotifyProgress(context.Context, any, float64, float64, string) error {
	return nil
}
func (p *examplePolicyPeer) LogHandler(context.Context, string) slog.Handler { return nil }
func (p *examplePolicyPeer) Ask(_ context.Context, req mcp.InputRequest) (mcp.InputResponse, error) {
	ep, ok := req.(*mcp.ElicitParams)
	if !ok || p.answer == nil {
		return nil, fmt.Errorf("%w: no elicitation support", mcptool.ErrInputUnsupported)
	}
	p.asked = append(p.asked, ep.Message)
	return p.answer, nil
}

// An error made with Errorf is shown to the model as it is; %w keeps the
// wrapped error reachable with errors.Is.
func ExampleErrorf() {
	type Args struct {
		ID string `json:"id"`
	}
	errNotFound := errors.New("not found")
	var returned error
	reg := mcptool.NewRegistry()
	_ = reg.Add("get_page", func(ctx context.Context, in Args) (string, error) {
		returned = mcptool.Errorf("page %q: %w; list the pages with list_pages", in.ID, errNotFound)
		return "", returned
	})
	examplePrintResult(reg.Call(context.Background(), "get_page", json.RawMessage(`{"id":"42"}`)))
	fmt.Println(errors.Is(returned, errNotFound))
	// Output:
	// isError: true
	// text: page "42": not found; list the pages with list_pages
	// true
}

// UserError marks an existing error, such as a sentinel of your domain, as
// meant for the model. The mark is kept through wrapping, and the original
// error stays reachable.
func ExampleUserError() {
	type Args struct {
		Amount int `json:"amount"`
	}
	errInsufficientFunds := errors.New("insufficient funds")
	withdraw := func(ctx context.Context, in Args) (string, error) {
		if in.Amount > 100 {
			// Wrapping a marked error keeps the mark: the whole text is shown.
			return "", fmt.Errorf("withdraw %d: %w", in.Amount, mcptool.UserError(errInsufficientFunds))
		}
		return fmt.Sprintf("withdrew %d", in.Amount), nil
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("withdraw", withdraw)
	examplePrintResult(reg.Call(context.Background(), "withdraw", json.RawMessage(`{"amount":500}`)))

	err := mcptool.UserError(errInsufficientFunds)
	fmt.Println(errors.Is(err, errInsufficientFunds), mcptool.UserError(nil) == nil)
	// Output:
	// isError: true
	// text: withdraw 500: insufficient funds
	// true true
}

// IsUserError tells errors meant for the model from the others, through any
// wrapping; ErrInputUnsupported counts as one.
func ExampleIsUserError() {
	errs := []error{
		mcptool.Errorf("no such city"),
		mcptool.UserError(os.ErrNotExist),
		fmt.Errorf("lookup: %w", mcptool.Errorf("no such city")),
		fmt.Errorf("ask: %w", mcptool.ErrInputUnsupported),
		os.ErrNotExist,
		errors.New("connection refused"),
		nil,
	}
	for _, err := range errs {
		fmt.Printf("%v: %v\n", err, mcptool.IsUserError(err))
	}
	// Output:
	// no such city: true
	// file does not exist: true
	// lookup: no such city: true
	// ask: mcptool: the client cannot answer this input request: true
	// file does not exist: false
	// connection refused: false
	// <nil>: false
}

// By default an error that is not marked for the model is masked as
// "internal error (ref …)" and logged under that reference; ExposeErrors
// sends its text instead, for development or trusted clients.
func ExampleExposeErrors() {
	failing := func() (string, error) { return "", errors.New("dial tcp 10.0.0.5:5432: connection refused") }

	masked := mcptool.NewRegistry(examplePolicyQuiet)
	_ = masked.Add("report", failing)
	res, _ := masked.Call(context.Background(), "report", nil)
	text := examplePolicyText(res, nil)
	fmt.Println(res.IsError, strings.HasPrefix(text, "internal error (ref "), strings.Contains(text, "5432"))

	exposed := mcptool.NewRegistry(mcptool.ExposeErrors())
	_ = exposed.Add("report", failing)
	examplePrintResult(exposed.Call(context.Background(), "report", nil))
	// Output:
	// true true false
	// isError: true
	// text: dial tcp 10.0.0.5:5432: connection refused
}

// Audit logs one record per call: the tool, session, duration, outcome and
// size of the arguments, and with withArguments the arguments themselves,
// with writeOnly properties (secrets) redacted. Here the time and duration
// are dropped to keep the output stable.
func ExampleAudit() {
	type LoginArgs struct {
		User     string `json:"user" validate:"required"`
		Password string `json:"password" jsonschema:"writeOnly" validate:"required"`
	}
	var logs bytes.Buffer
	handler := slog.NewJSONHandler(&logs, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == "duration") {
				return slog.Attr{} // drop it
			}
			return a
		},
	})
	reg := mcptool.NewRegistry(mcptool.Audit(slog.New(handler), true))
	_ = reg.Add("login", func(in LoginArgs) (string, error) {
		if in.Password != "hunter2" {
			return "", mcptool.Errorf("wrong password")
		}
		return "welcome " + in.User, nil
	})
	ctx := context.Background()
	_, _ = reg.Call(ctx, "login", json.RawMessage(`{"user":"ada","password":"hunter2"}`))
	_, _ = reg.Call(ctx, "login", json.RawMessage(`{"user":"ada","password":"guess"}`))
	_, _ = reg.Call(ctx, "login", json.RawMessage(`{"user":"ada"}`))
	fmt.Print(logs.String())
	// Output:
	// {"level":"INFO","msg":"mcp tool call","tool":"login","session":"","outcome":"ok","arg_bytes":35,"arguments":{"password":"[REDACTED]","user":"ada"}}
	// {"level":"INFO","msg":"mcp tool call","tool":"login","session":"","outcome":"tool_error","arg_bytes":33,"arguments":{"password":"[REDACTED]","user":"ada"}}
	// {"level":"INFO","msg":"mcp tool call","tool":"login","session":"","outcome":"invalid_arguments","arg_bytes":14,"arguments":{"user":"ada"}}
}

// Timeout cancels a call's context at the deadline and answers with an
// isError result. On the registry it is the default for every tool; a
// tool's own Timeout (or `mcp:"timeout=..."` tag) wins.
func ExampleTimeout() {
	seen := make(chan error, 1)
	reg := mcptool.NewRegistry(mcptool.Timeout(30 * time.Second))
	_ = reg.Add("slow_report", func(ctx context.Context) (string, error) {
		<-ctx.Done() // stands for a slow query that honours its context
		seen <- ctx.Err()
		return "", ctx.Err()
	}, mcptool.Timeout(50*time.Millisecond))

	examplePrintResult(reg.Call(context.Background(), "slow_report", nil))
	fmt.Println("the tool saw:", <-seen)
	// Output:
	// isError: true
	// text: tool slow_report timed out after 50ms
	// the tool saw: context deadline exceeded
}

// RateLimit caps the calls of a tool across all clients: here one call, then
// one more per minute. A call over the limit is refused with the time to
// wait, and the tool does not run.
func ExampleRateLimit() {
	runs := 0
	reg := mcptool.NewRegistry()
	_ = reg.Add("send_digest", func() (string, error) { runs++; return "sent", nil },
		mcptool.RateLimit(1.0/60, 1))

	ctx := context.Background()
	examplePrintResult(reg.Call(ctx, "send_digest", nil))
	examplePolicyRetry(reg.Call(ctx, "send_digest", nil))
	fmt.Println("runs:", runs)
	// Output:
	// isError: false
	// text: sent
	// isError: true
	// text: rate limit exceeded for tool send_digest: retry in <delay>
	// runs: 1
}

// SessionRateLimit keeps a separate budget for every client session. The
// session comes from the transport: here a stand-in Peer passed to
// adapter.Invoke, as an adapter would. Direct calls of Registry.Call have
// no session, so only RateLimit applies to them.
func ExampleSessionRateLimit() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("translate", func() (string, error) { return "bonjour", nil },
		mcptool.SessionRateLimit(1, 1)) // one per second, per session

	ctx := context.Background()
	alice, bob := &examplePolicyPeer{id: "alice"}, &examplePolicyPeer{id: "bob"}
	examplePrintResult(adapter.Invoke(ctx, reg, "translate", nil, alice))
	examplePolicyRetry(adapter.Invoke(ctx, reg, "translate", nil, alice))
	examplePrintResult(adapter.Invoke(ctx, reg, "translate", nil, bob)) // bob has his own budget
	examplePrintResult(reg.Call(ctx, "translate", nil))                 // no session: not limited
	// Output:
	// isError: false
	// text: bonjour
	// isError: true
	// text: rate limit exceeded for tool translate in this session: retry in <delay>
	// isError: false
	// text: bonjour
	// isError: false
	// text: bonjour
}

// MaxConcurrency caps the calls of a tool running at once: a call over the
// cap is refused at once, asking the model to retry, instead of queueing.
func ExampleMaxConcurrency() {
	started, release := make(chan struct{}), make(chan struct{})
	reg := mcptool.NewRegistry()
	_ = reg.Add("render_video", func() (string, error) {
		started <- struct{}{}
		<-release
		return "rendered", nil
	}, mcptool.MaxConcurrency(1))

	ctx := context.Background()
	first := make(chan string)
	go func() { first <- examplePolicyText(reg.Call(ctx, "render_video", nil)) }()
	<-started // the first call is running

	examplePrintResult(reg.Call(ctx, "render_video", nil))
	close(release)
	fmt.Println("first call:", <-first)
	// Output:
	// isError: true
	// text: tool render_video is already running 1 calls: retry in a moment
	// first call: rendered
}

// Confirm asks the user before the tool runs, through the client's
// elicitation support. A client that cannot ask (here a direct
// Registry.Call, which has no client) gets a refusal, and so does a user who
// declines; the tool runs only once the user confirms.
func ExampleConfirm() {
	runs := 0
	reg := mcptool.NewRegistry()
	_ = reg.Add("delete_all", func() (string, error) { runs++; return "deleted 12 pages", nil },
		mcptool.Title("Delete all pages"), mcptool.Confirm())
	ctx := context.Background()

	// No client to ask.
	examplePrintResult(reg.Call(ctx, "delete_all", nil))

	// A client whose user declines.
	declines := &examplePolicyPeer{id: "s1", answer: &mcp.ElicitResult{Action: "decline"}}
	examplePrintResult(adapter.Invoke(ctx, reg, "delete_all", nil, declines))

	// A client whose user confirms.
	confirms := &examplePolicyPeer{id: "s2", answer: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}}
	examplePrintResult(adapter.Invoke(ctx, reg, "delete_all", nil, confirms))
	fmt.Println("asked:", confirms.asked[0])
	fmt.Println("runs:", runs)
	// Output:
	// isError: true
	// text: tool delete_all needs the user's confirmation before it runs, and this client cannot ask the user (no elicitation support); nothing was done
	// isError: true
	// text: the user did not confirm (decline); delete_all was not run
	// isError: false
	// text: deleted 12 pages
	// asked: Allow "Delete all pages" to run? It may change or delete data. Arguments: {}
	// runs: 1
}

// MaxArgBytes bounds the size of a call's JSON arguments, checked before
// they are decoded. On the registry it sets the default for every tool
// (1 MiB unless set).
func ExampleMaxArgBytes() {
	type Args struct {
		Note string `json:"note"`
	}
	reg := mcptool.NewRegistry(mcptool.MaxArgBytes(64 << 10))
	_ = reg.Add("save_note", func(in Args) (string, error) {
		return fmt.Sprintf("saved %d characters", len(in.Note)), nil
	}, mcptool.MaxArgBytes(32))

	ctx := context.Background()
	examplePrintResult(reg.Call(ctx, "save_note", json.RawMessage(`{"note":"buy milk"}`)))
	examplePrintResult(reg.Call(ctx, "save_note", json.RawMessage(`{"note":"a note far too long for this tool"}`)))
	// Output:
	// isError: false
	// text: saved 8 characters
	// isError: true
	// text: invalid arguments: they are 44 bytes, more than the 32 allowed
}

// MaxDepth bounds how deeply a call's JSON arguments may nest, which guards
// tools that take free-form JSON. On the registry it sets the default for
// every tool (64 unless set).
func ExampleMaxDepth() {
	type Args struct {
		Data map[string]any `json:"data"`
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("store", func(in Args) (string, error) { return "stored", nil }, mcptool.MaxDepth(3))

	ctx := context.Background()
	examplePrintResult(reg.Call(ctx, "store", json.RawMessage(`{"data":{"a":1}}`)))
	examplePrintResult(reg.Call(ctx, "store", json.RawMessage(`{"data":{"a":{"b":{"c":1}}}}`)))
	// Output:
	// isError: false
	// text: stored
	// isError: true
	// text: invalid arguments:
	// - data.a: is nested more than 3 levels deep (maxDepth)
}

// examplePolicyRoleKey is the context key of the caller's role in ExampleUse.
type examplePolicyRoleKey struct{}

// Use adds middleware of your own. On the registry it wraps every tool,
// outermost; on a tool, only that tool, inside the registry's. A middleware
// can refuse a call with an isError result instead of calling next.
func ExampleUse() {
	trace := func(next mcptool.Handler) mcptool.Handler {
		return func(ctx context.Context, call *mcptool.Call) (*mcp.CallToolResult, error) {
			fmt.Println("->", call.Name)
			res, err := next(ctx, call)
			fmt.Printf("<- %s isError=%v\n", call.Name, res != nil && res.IsError)
			return res, err
		}
	}
	requireAdmin := func(next mcptool.Handler) mcptool.Handler {
		return func(ctx context.Context, call *mcptool.Call) (*mcp.CallToolResult, error) {
			if role, _ := ctx.Value(examplePolicyRoleKey{}).(string); role != "admin" {
				return mcptool.ErrorResult(call.Name + " is for administrators only"), nil
			}
			return next(ctx, call)
		}
	}
	reg := mcptool.NewRegistry(mcptool.Use(trace))
	_ = reg.Add("list_users", func() ([]string, error) { return []string{"ada", "bob"}, nil })
	_ = reg.Add("ban_user", func() (string, error) { return "banned", nil }, mcptool.Use(requireAdmin))

	ctx := context.Background()
	_, _ = reg.Call(ctx, "list_users", nil)
	examplePrintResult(reg.Call(ctx, "ban_user", nil))
	admin := context.WithValue(ctx, examplePolicyRoleKey{}, "admin")
	examplePrintResult(reg.Call(admin, "ban_user", nil))
	// Output:
	// -> list_users
	// <- list_users isError=false
	// -> ban_user
	// <- ban_user isError=true
	// isError: true
	// text: ban_user is for administrators only
	// -> ban_user
	// <- ban_user isError=false
	// isError: false
	// text: banned
}

// A Middleware wraps a Handler: it sees each Call (the tool's name and raw
// arguments) and decides what to pass on. This one fills in a default
// argument the client left out.
func ExampleMiddleware() {
	type Args struct {
		Lang string `json:"lang" validate:"required"`
	}
	var defaultLang mcptool.Middleware = func(next mcptool.Handler) mcptool.Handler {
		return func(ctx context.Context, call *mcptool.Call) (*mcp.CallToolResult, error) {
			if len(call.Arguments) == 0 {
				c := *call
				c.Arguments = json.RawMessage(`{"lang":"en"}`)
				call = &c
			}
			return next(ctx, call)
		}
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("greet", func(in Args) (string, error) { return "greeting in " + in.Lang, nil }, mcptool.Use(defaultLang))
	examplePrintResult(reg.Call(context.Background(), "greet", nil))
	examplePrintResult(reg.Call(context.Background(), "greet", json.RawMessage(`{"lang":"fr"}`)))
	// Output:
	// isError: false
	// text: greeting in en
	// isError: false
	// text: greeting in fr
}

// AppendDescription adds what is only known at run time to a tool's
// description: joined with a space, or as a paragraph of its own when the
// text starts with "\n\n".
func ExampleAppendDescription() {
	sites := []string{"docs", "blog", "wiki"}
	reg := mcptool.NewRegistry()
	_ = reg.Add("search", func() error { return nil },
		mcptool.Description("Search the knowledge base."),
		mcptool.AppendDescription(fmt.Sprintf("Indexed sites: %s.", strings.Join(sites, ", "))),
		mcptool.AppendDescription("\n\nResults are ranked by relevance."))
	def, _ := reg.Tool("search")
	fmt.Println(def.Description)
	// Output:
	// Search the knowledge base. Indexed sites: docs, blog, wiki.
	//
	// Results are ranked by relevance.
}

// examplePolicyNotes is a notes service: the examples of AddMethods and its
// options turn its exported methods into tools.
type examplePolicyNotes struct{ pages map[string]string }

// examplePolicyPageArgs names one page.
type examplePolicyPageArgs struct {
	ID string `json:"id" validate:"required"`
}

// examplePolicyQueryArgs is a search query.
type examplePolicyQueryArgs struct {
	Query string `json:"query" validate:"required"`
}

func (n *examplePolicyNotes) GetPage(ctx context.Context, in examplePolicyPageArgs) (string, error) {
	p, ok := n.pages[in.ID]
	if !ok {
		return "", mcptool.Errorf("no page %q", in.ID)
	}
	return p, nil
}

func (n *examplePolicyNotes) SearchPages(ctx context.Context, in examplePolicyQueryArgs) ([]string, error) {
	ids := []string{}
	for id, text := range n.pages {
		if strings.Contains(text, in.Query) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

func (n *examplePolicyNotes) DeletePage(ctx context.Context, in examplePolicyPageArgs) error {
	delete(n.pages, in.ID)
	return nil
}

func (n *examplePolicyNotes) CountPages() (int, error) { return len(n.pages), nil }

// examplePolicyNewNotes returns a notes service with two pages.
func examplePolicyNewNotes() *examplePolicyNotes {
	return &examplePolicyNotes{pages: map[string]string{"a": "Go is fun", "b": "Go routines"}}
}

// examplePolicyNames prints the names of a registry's tools.
func examplePolicyNames(reg *mcptool.Registry) {
	var names []string
	for _, t := range reg.Tools() {
		names = append(names, t.Name)
	}
	fmt.Println(strings.Join(names, " "))
}

// AddMethods registers every exported method of a service as a tool named
// in snake_case; the calls go to the value the pointer points to.
func ExampleRegistry_AddMethods() {
	notes := examplePolicyNewNotes()
	reg := mcptool.NewRegistry()
	if err := reg.AddMethods(notes); err != nil {
		fmt.Println(err)
		return
	}
	examplePolicyNames(reg)

	ctx := context.Background()
	examplePrintResult(reg.Call(ctx, "search_pages", json.RawMessage(`{"query":"Go"}`)))
	examplePrintResult(reg.Call(ctx, "delete_page", json.RawMessage(`{"id":"a"}`)))
	examplePrintResult(reg.Call(ctx, "get_page", json.RawMessage(`{"id":"a"}`)))
	fmt.Println(len(notes.pages))
	// Output:
	// count_pages delete_page get_page search_pages
	// isError: false
	// text: {"result":["a","b"]}
	// structuredContent: {"result":["a","b"]}
	// isError: false
	// isError: true
	// text: no page "a"
	// 1
}

// Prefix puts a namespace before every tool name, for servers that combine
// several services.
func ExamplePrefix() {
	reg := mcptool.NewRegistry()
	_ = reg.AddMethods(examplePolicyNewNotes(), mcptool.Prefix("notes_"))
	examplePolicyNames(reg)
	// Output:
	// notes_count_pages notes_delete_page notes_get_page notes_search_pages
}

// Include registers only the methods named (by their Go names); a name the
// type does not have is an error, so typos do not go unnoticed.
func ExampleInclude() {
	reg := mcptool.NewRegistry()
	_ = reg.AddMethods(examplePolicyNewNotes(), mcptool.Include("GetPage", "SearchPages"))
	examplePolicyNames(reg)

	err := mcptool.NewRegistry().AddMethods(examplePolicyNewNotes(), mcptool.Include("GetPages"))
	fmt.Println(err)
	// Output:
	// get_page search_pages
	// mcptool: invalid_definition: AddMethods: *mcptool_test.examplePolicyNotes has no exported method GetPages
}

// Exclude skips methods by their Go names, such as the ones that must not
// be offered to a model.
func ExampleExclude() {
	reg := mcptool.NewRegistry()
	_ = reg.AddMethods(examplePolicyNewNotes(), mcptool.Exclude("DeletePage"))
	examplePolicyNames(reg)
	// Output:
	// count_pages get_page search_pages
}

// Method gives one method's tool its own options: description, hints and
// policies.
func ExampleMethod() {
	reg := mcptool.NewRegistry()
	err := reg.AddMethods(examplePolicyNewNotes(),
		mcptool.Method("GetPage", mcptool.Description("Returns the text of a page."), mcptool.ReadOnly(true)),
		mcptool.Method("DeletePage", mcptool.Description("Deletes a page."), mcptool.Idempotent(true), mcptool.Confirm()),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"get_page", "delete_page"} {
		def, _ := reg.Tool(name)
		fmt.Println(name+":", def.Description)
		exampleAnnotations(reg, name)
	}
	examplePrintResult(reg.Call(context.Background(), "delete_page", json.RawMessage(`{"id":"a"}`)))
	// Output:
	// get_page: Returns the text of a page.
	// {"idempotentHint":false,"openWorldHint":true,"readOnlyHint":true}
	// delete_page: Deletes a page.
	// {"destructiveHint":true,"idempotentHint":true,"openWorldHint":true,"readOnlyHint":false}
	// isError: true
	// text: tool delete_page needs the user's confirmation before it runs, and this client cannot ask the user (no elicitation support); nothing was done
}

// examplePolicyLegacy has methods that cannot become tools.
type examplePolicyLegacy struct{}

func (examplePolicyLegacy) Ping(ctx context.Context) (string, error) { return "pong", nil }
func (examplePolicyLegacy) String() string                           { return "legacy" }
func (examplePolicyLegacy) SetLimit(n int)                           {}

// When methods cannot become tools, AddMethods registers nothing and returns
// an error (CodeInvalidDefinition) listing each one with its reason; Exclude
// those methods (or fix them) to register the rest.
func ExampleRegistry_AddMethods_errors() {
	reg := mcptool.NewRegistry()
	err := reg.AddMethods(examplePolicyLegacy{})
	fmt.Println(err)
	fmt.Println(mcptool.CodeOf(err), len(reg.Tools()))

	err = reg.AddMethods(examplePolicyLegacy{}, mcptool.Exclude("SetLimit", "String"))
	fmt.Println(err)
	examplePolicyNames(reg)
	// Output:
	// mcptool: invalid_definition: 2 method(s) of mcptool_test.examplePolicyLegacy cannot become tools (fix them or Exclude them):
	// - SetLimit: the argument type int is not a struct: want func(ctx, In) (Out, error), func(ctx, In) error, func(ctx) (Out, error), func(ctx) error, or any of these without ctx
	// - String: the last result must be error: want func(ctx, In) (Out, error), func(ctx, In) error, func(ctx) (Out, error), func(ctx) error, or any of these without ctx
	// invalid_definition 0
	// <nil>
	// ping
}

// Catalog describes the registry's tools; written as Markdown it is a
// reference: an index, then each tool's hints, argument table, result and an
// example call. The formats "json" and "html" write the same catalogue as a
// file for tools and as one self-contained page.
func ExampleRegistry_Catalog() {
	type Args struct {
		_    struct{} `mcp:"title=Get weather,readOnly"`
		City string   `json:"city" jsonschema_description:"City name" validate:"required"`
		Days int      `json:"days,omitempty" jsonschema:"default=1" validate:"omitempty,min=1,max=7"`
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("get_weather", func(Args) (string, error) { return "sunny", nil },
		mcptool.Description("Forecast for a city."))
	c, err := reg.Catalog()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := c.Write(os.Stdout, "markdown", "Weather tools"); err != nil {
		fmt.Println(err)
	}
	// Output:
	// # Weather tools
	//
	// | Tool | Title | Hints |
	// | --- | --- | --- |
	// | [`get_weather`](#get_weather) | Get weather | read-only, open world |
	//
	// ## `get_weather`
	//
	// **Hints:** read-only, open world.
	//
	// > **Get weather**
	// >
	// > Forecast for a city.
	//
	// | Argument | Type | Required | Default | Constraints | Description |
	// | --- | --- | --- | --- | --- | --- |
	// | `city` | string | yes |  | min length 1 | City name |
	// | `days` | integer | no | `1` | ≥ 1; ≤ 7 |  |
	//
	// Result: content blocks (no output schema).
	//
	// Example call:
	//
	// ```json
	// {"name":"get_weather","arguments":{"city":"example city"}}
	// ```
}

// Written as JSON, the catalogue is a file for tooling that builds
// documentation, pins tools by fingerprint or compares two versions
// (catalog.Compare, mcpgen diff).
func ExampleRegistry_Catalog_json() {
	type Args struct {
		Name string `json:"name" validate:"required"`
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("greet", func(Args) (string, error) { return "hi", nil }, mcptool.Description("Greets someone."))
	c, err := reg.Catalog()
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := c.Write(os.Stdout, "json", ""); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "tools": [
	//     {
	//       "name": "greet",
	//       "description": "Greets someone.",
	//       "hints": {
	//         "readOnly": false,
	//         "destructive": true,
	//         "idempotent": false,
	//         "openWorld": true
	//       },
	//       "arguments": [
	//         {
	//           "path": "name",
	//           "type": "string",
	//           "required": true,
	//           "constraints": [
	//             "min length 1"
	//           ]
	//         }
	//       ],
	//       "inputSchema": {
	//         "properties": {
	//           "name": {
	//             "type": "string",
	//             "minLength": 1
	//           }
	//         },
	//         "additionalProperties": false,
	//         "type": "object",
	//         "required": [
	//           "name"
	//         ]
	//       },
	//       "example": {
	//         "name": "example name"
	//       },
	//       "fingerprint": "sha256:93905f5d2a8ae4acb3350b8dff53a8d85df384aa866488e9f6899726774b00ce"
	//     }
	//   ]
	// }
}
