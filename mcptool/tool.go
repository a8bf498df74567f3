package mcptool

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/view"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// tool is one registered tool.
type tool struct {
	name string
	def  *mcp.Tool
	plan *mcpreflect.Plan
	out  *mcpreflect.Output
	pol  policy
	task taskSpec
	// descSuffix is added to the description once it is known.
	descSuffix string
	// undescribedOK silences the warning about a tool without a description.
	undescribedOK bool
	rateKey       string    // the key of its rate limits and concurrency cap
	view          *toolView // its view (MCP Apps); nil: none (views.go)
	group         string    // its group (Group, group=)
	eager         bool      // listed in discovery mode (eager, Discovery)
	// headers: its input schema mirrors arguments into Mcp-Param headers,
	// which go-sdk checks (mirrorsHeaders, once: its schema is fixed).
	headers bool
	// call runs the call path for this tool (see call.go); inner is the
	// same as the innermost [Handler] of its middleware chain, handler the
	// chain (nil when there is no middleware).
	call    func(ctx context.Context, cs *callState, args json.RawMessage) outcome
	inner   Handler
	handler Handler
}

// joinDescription appends suffix to desc with one space between them.
func joinDescription(desc, suffix string) string {
	switch {
	case suffix == "":
		return desc
	case desc == "":
		return strings.TrimSpace(suffix)
	case strings.HasPrefix(suffix, "\n"):
		return strings.TrimRight(desc, " ") + suffix // a paragraph of its own
	}
	return strings.TrimRight(desc, " ") + " " + strings.TrimLeft(suffix, " ")
}

// policy is a tool's resolved runtime policy.
type policy struct {
	timeout      time.Duration
	rate         rate.Limit // 0: none
	burst        int
	sessionRate  rate.Limit
	sessionBurst int
	concurrency  int
	callerConc   int // calls at once per caller (principal, else session)
	confirm      bool
	maxArgBytes  int
	maxDepth     int
	scopes       []string // OAuth scopes a caller's token must all carry (auth.go)
	middleware   []Middleware
}

// resolvePolicy turns a tool's merged `mcp` tag and options into its
// runtime policy.
func resolvePolicy(p annotations.Policy, middleware []Middleware) policy {
	p = p.Resolved()
	return policy{
		timeout:      p.Timeout,
		rate:         rate.Limit(p.Rate.PerSecond),
		burst:        p.Rate.Burst,
		sessionRate:  rate.Limit(p.SessionRate.PerSecond),
		sessionBurst: p.SessionRate.Burst,
		concurrency:  p.Concurrency,
		callerConc:   p.CallerConcurrency,
		confirm:      p.Confirm,
		maxArgBytes:  p.MaxArgBytes,
		maxDepth:     p.MaxDepth,
		scopes:       p.Scopes,
		middleware:   middleware,
	}
}

// mirrorsHeaders reports whether def's input schema has x-mcp-header
// properties; a tool's answer is its headers field, found once when the
// tool is built.
func mirrorsHeaders(def *mcp.Tool) bool {
	raw, ok := def.InputSchema.(json.RawMessage)
	return !ok || bytes.Contains(raw, []byte(`"x-mcp-header"`))
}

// toolView is the view of one tool.
type toolView struct {
	page    *view.View // nil: no page (an app-only tool)
	ann     annotations.View
	uri     string // the page's ui:// resource
	appOnly bool

	// The page as a resource, built once for the tool and added as is to
	// every server that serves it (syncView).
	res  *mcp.Resource
	read mcp.ResourceHandler

	once  sync.Once
	uiDef *mcp.Tool // the definition listed to clients that declare the extension
}
