package mcpgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"testing"
	"time"

	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

type searchArgs struct {
	_     struct{} `mcp:"title=Search pages,readOnly,openWorld"`
	Query string   `json:"query" jsonschema_description:"Search query" validate:"required,min=2"`
	Limit int      `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
}

type page struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

type weather struct {
	City string  `json:"city"`
	Temp float64 `json:"temp"`
}

type cityArgs struct {
	City string `json:"city" validate:"required"`
}

type item struct {
	SKU string `json:"sku" validate:"required,len=6"`
	Qty int    `json:"qty" validate:"min=1,max=9"`
}

type address struct {
	Zip     string `json:"zip" validate:"required,numeric,len=5"`
	Country string `json:"country" validate:"oneof=FR DE"`
}

type orderArgs struct {
	_     struct{} `mcp:"idempotent"`
	Items []item   `json:"items" validate:"required,min=1,dive"`
	Ship  address  `json:"ship"`
	Note  string   `json:"note,omitempty" validate:"omitempty,max=10"`
}

type countArgs struct {
	N int64 `json:"n"`
}

type stubbornArgs struct {
	_ struct{} `mcp:"timeout=50ms"`
}

type wipeArgs struct {
	_ struct{} `mcp:"destructive,confirm"`
}

type smallArgs struct {
	_    struct{} `mcp:"maxArgBytes=32"`
	Data string   `json:"data,omitempty"`
}

// sharedRegistry has a tool for every kind of result and refusal.
func sharedRegistry(t *testing.T) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
	add := func(name string, fn any, opts ...mcptool.Option) {
		t.Helper()
		require.NoError(t, reg.Add(name, fn, opts...))
	}
	add("search", func(_ context.Context, in searchArgs) ([]page, error) {
		return []page{{ID: "1", Title: fmt.Sprintf("%s x%d", in.Query, in.Limit)}}, nil
	}, mcptool.Description("Search pages."))
	add("text", func() (string, error) { return "hello", nil }, mcptool.Description("Text."))
	add("picture", func() (image.Image, error) {
		img := image.NewRGBA(image.Rect(0, 0, 2, 1))
		img.Set(1, 0, color.RGBA{R: 255, A: 255})
		return img, nil
	}, mcptool.Description("A picture."))
	add("sound", func() (mcp.Content, error) { return mcptool.Audio([]byte("RIFF"), "audio/wav"), nil }, mcptool.Description("A sound."))
	add("mixed", func() ([]mcp.Content, error) {
		return []mcp.Content{
			mcptool.Text("see"),
			mcptool.ResourceLink("file:///a.txt", "a.txt", "text/plain"),
			mcptool.EmbeddedText("test://doc", "text/plain", "embedded"),
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://bin", MIMEType: "application/octet-stream", Blob: []byte{1, 2, 3}}},
		}, nil
	}, mcptool.Description("Mixed content."))
	add("rich", func() (*mcp.CallToolResult, error) {
		size := int64(42)
		return &mcp.CallToolResult{
			Meta: mcp.Meta{"trace": "t-1"},
			Content: []mcp.Content{
				&mcp.TextContent{Text: "for you", Meta: mcp.Meta{"k": "v"}, Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 0.5, LastModified: "2025-01-12T15:00:58Z"}},
				&mcp.ResourceLink{URI: "file:///b.txt", Name: "b.txt", Title: "Bee", Description: "A file.", MIMEType: "text/plain", Size: &size, Meta: mcp.Meta{"m": 1.0}},
				&mcp.ImageContent{Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png", Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}}},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://meta", Text: "x", Meta: mcp.Meta{"r": true}}, Annotations: &mcp.Annotations{Priority: 1}},
			},
		}, nil
	}, mcptool.Description("Rich content."))
	add("weather", func(_ context.Context, in cityArgs) (weather, error) {
		return weather{City: in.City, Temp: 21.5}, nil
	}, mcptool.Description("Weather."), mcptool.Title("Weather now"))
	add("order", func(_ context.Context, in orderArgs) (string, error) {
		return fmt.Sprintf("%d items to %s", len(in.Items), in.Ship.Zip), nil
	}, mcptool.Description("Places an order."))
	add("count", func(_ context.Context, in countArgs) (int64, error) { return in.N + 1, nil }, mcptool.Description("Counts."))
	add("fail", func(context.Context) error { return mcptool.Errorf("the disk is full") }, mcptool.Description("Fails."))
	add("wrapped", func() error {
		return errors.Join(errors.New("ctx"), mcptool.UserError(errors.New("quota used up")))
	}, mcptool.Description("Fails twice."))
	add("leak", func(context.Context) error { return errors.New("dial tcp 10.0.0.7:5432: connection refused") }, mcptool.Description("Fails inside."))
	add("boom", func(context.Context) error { panic("kaboom") }, mcptool.Description("Panics."))
	add("stubborn", func(ctx context.Context, _ stubbornArgs) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}, mcptool.Description("Too slow."))
	add("wipe", func(context.Context, wipeArgs) (string, error) { return "wiped", nil }, mcptool.Description("Wipes."))
	add("small", func(context.Context, smallArgs) (string, error) { return "ok", nil }, mcptool.Description("Small."))
	return reg
}

// sharedCase is one call and what every client must see of it.
type sharedCase struct {
	name       string
	tool       string
	args       string // raw JSON arguments; "" sends none
	isError    bool
	text       string   // the first text block, exactly (internal error refs masked as "(ref X)"); "" to skip
	contains   []string // substrings of the first text block
	structured string   // structuredContent as JSON; "" for none
	protocol   string   // the JSON-RPC error ("invalid_params"); "" for a result
	blocks     int      // number of content blocks; 0 to skip
}

var sharedCases = []sharedCase{
	{name: "structured result with a default applied", tool: "search", args: `{"query":"go"}`,
		text: `{"result":[{"id":"1","title":"go x10"}]}`, structured: `{"result":[{"id":"1","title":"go x10"}]}`, blocks: 1},
	{name: "every violation at once", tool: "search", args: `{"extra":true,"limit":500,"query":"g"}`, isError: true,
		text: "invalid arguments:\n- query: must be at least 2 characters long, got 1 (minLength)\n" +
			"- limit: must be at most 100, got 500 (maximum)\n- extra: is not a known argument (known: query, limit) (additionalProperties)"},
	// Violations come in schema order whatever the order of the keys (mcp-go
	// hands the registry its arguments re-encoded, keys sorted): the same text.
	{name: "every violation, keys in schema order", tool: "search", args: `{"query":"g","limit":500,"extra":true}`, isError: true,
		text: "invalid arguments:\n- query: must be at least 2 characters long, got 1 (minLength)\n" +
			"- limit: must be at most 100, got 500 (maximum)\n- extra: is not a known argument (known: query, limit) (additionalProperties)"},
	{name: "missing required argument", tool: "search", args: `{}`, isError: true, contains: []string{"query"}},
	{name: "no arguments at all", tool: "search", isError: true, contains: []string{"query"}},
	{name: "wrong type", tool: "search", args: `{"query":5}`, isError: true, contains: []string{"query"}},
	{name: "arguments not an object", tool: "search", args: `["go"]`, isError: true},
	{name: "null arguments", tool: "text", args: `null`, text: "hello"},
	{name: "nested violations", tool: "order", args: `{"items":[{"qty":0,"sku":"abc"},{"qty":12,"sku":"abcdef"}],"note":"far too long a note","ship":{"country":"US","zip":"7500x"}}`, isError: true,
		text: "invalid arguments:\n- items[0].sku: must be at least 6 characters long, got 3 (minLength)\n- items[0].qty: must be at least 1, got 0 (minimum)\n" +
			"- items[1].qty: must be at most 9, got 12 (maximum)\n- ship.zip: must satisfy numeric (numeric)\n" +
			"- ship.country: must be one of \"FR\", \"DE\", got \"US\" (enum)\n- note: must be at most 10 characters long, got 19 (maxLength)"},
	{name: "nested arguments valid", tool: "order", args: `{"items":[{"sku":"abcdef","qty":2}],"ship":{"zip":"75001","country":"FR"}}`, text: "1 items to 75001"},
	{name: "text", tool: "text", text: "hello", blocks: 1},
	{name: "image", tool: "picture", blocks: 1},
	{name: "audio", tool: "sound", blocks: 1},
	{name: "link and embedded resources", tool: "mixed", text: "see", blocks: 4},
	{name: "annotations, _meta, rich link", tool: "rich", text: "for you", blocks: 4},
	{name: "structured object", tool: "weather", args: `{"city":"Paris"}`, structured: `{"city":"Paris","temp":21.5}`, text: `{"city":"Paris","temp":21.5}`},
	{name: "large integer within 2^53", tool: "count", args: `{"n":9007199254740990}`, structured: `{"result":9007199254740991}`},
	{name: "large integer beyond 2^53", tool: "count", args: `{"n":9007199254740993}`, structured: `{"result":9007199254740994}`, text: `{"result":9007199254740994}`},
	{name: "integer out of range", tool: "count", args: `{"n":1.5}`, isError: true, contains: []string{"n:"}},
	{name: "tool error for the model", tool: "fail", isError: true, text: "the disk is full"},
	{name: "joined errors", tool: "wrapped", isError: true, text: "ctx\nquota used up"},
	{name: "internal error masked", tool: "leak", isError: true, text: "internal error (ref X)"},
	{name: "panic masked", tool: "boom", isError: true, text: "internal error (ref X)"},
	{name: "timeout policy", tool: "stubborn", isError: true, text: "tool stubborn timed out after 50ms"},
	{name: "confirmation without elicitation", tool: "wipe", isError: true,
		text: "tool wipe needs the user's confirmation before it runs, and this client cannot ask the user (no elicitation support); nothing was done"},
	{name: "argument size limit", tool: "small", args: `{"data":"0123456789012345678901234567890123456789"}`, isError: true,
		text: "invalid arguments: they are 51 bytes, more than the 32 allowed"},
	{name: "unknown tool", tool: "nope", protocol: "invalid_params"},
}

// check asserts c's expectations on what a client observed.
func (c sharedCase) check(t *testing.T, o observed) {
	t.Helper()
	if c.protocol != "" {
		assert.Equal(t, c.protocol, o.ProtocolError)
		return
	}
	require.Empty(t, o.ProtocolError)
	assert.Equal(t, c.isError, o.IsError, "isError; content %v", o.Content)
	if c.text != "" {
		assert.Equal(t, c.text, o.text())
	}
	for _, s := range c.contains {
		assert.Contains(t, o.text(), s)
	}
	if c.structured != "" {
		got, err := json.Marshal(o.Structured)
		require.NoError(t, err)
		assert.JSONEq(t, c.structured, string(got))
	} else {
		assert.Nil(t, o.Structured)
	}
	if c.blocks != 0 {
		assert.Len(t, o.Content, c.blocks)
	}
}

func args(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return json.RawMessage(s)
}

// TestSharedCases runs the shared table on the go-sdk path (mcpgen's own
// server and go-sdk's client, both protocol eras) and on the mcp-go path
// (mcpgo.NewServer and mcp-go's client, every transport), checks each
// case's expectations, and requires every path to observe exactly what the
// go-sdk path observes.
func TestSharedCases(t *testing.T) {
	reg := sharedRegistry(t)
	type path struct {
		name string
		c    caller
	}
	baseline := connectSDK(t, reg, "2025-11-25", nil)
	paths := []path{{"go-sdk/2026-07-28", connectSDK(t, reg, "", nil)}}
	for _, k := range transports {
		paths = append(paths, path{"mcp-go/" + string(k), connectGo(t, k, reg, goHandlers{}, nil)})
	}
	for _, c := range sharedCases {
		t.Run(c.name, func(t *testing.T) {
			want := baseline.call(t, c.tool, args(c.args))
			t.Run("go-sdk/2025-11-25", func(t *testing.T) { c.check(t, want) })
			for _, p := range paths {
				t.Run(p.name, func(t *testing.T) {
					got := p.c.call(t, c.tool, args(c.args))
					c.check(t, got)
					w := want
					if _, ok := p.c.(*goCaller); ok {
						w, got = w.goClientView(), got.goClientView()
					}
					assert.Equal(t, w, got, "%s observes what the go-sdk path observes", p.name)
				})
			}
		})
	}
}

// TestSharedToolsList requires every client to see the same tools: names,
// descriptions, titles, annotations, and the input and output schemas as
// far as mcp-go's client keeps them (type, properties, required,
// additionalProperties, $defs). TestWireSchemas checks the schemas byte for
// byte.
func TestSharedToolsList(t *testing.T) {
	reg := sharedRegistry(t)
	want := connectSDK(t, reg, "2025-11-25", nil).tools(t)
	require.Len(t, want, len(reg.Tools()))
	for _, k := range transports {
		t.Run(string(k), func(t *testing.T) {
			got := connectGo(t, k, reg, goHandlers{}, nil).tools(t)
			require.Len(t, got, len(want))
			for i := range want {
				assert.Equal(t, want[i], got[i], "tool %s", want[i].Name)
			}
		})
	}
	// A spot check of the views themselves.
	search := want[indexOf(want, "search")]
	assert.Equal(t, "Search pages", search.Title)
	assert.Equal(t, false, search.Input["additionalProperties"])
	assert.Equal(t, []any{"query"}, search.Input["required"])
	assert.Equal(t, true, search.Annotations["readOnlyHint"])
	assert.NotNil(t, search.Output)
	assert.Equal(t, "Weather now", want[indexOf(want, "weather")].Title)
}

func indexOf(ts []toolView, name string) int {
	for i, x := range ts {
		if x.Name == name {
			return i
		}
	}
	return -1
}

// TestWireSchemas compares the tools/list JSON that mcp-go sends (every
// mcp-go transport marshals HandleMessage's answer) with the registry's
// definitions and with what go-sdk's client received: the schemas are the
// registry's bytes, unchanged.
func TestWireSchemas(t *testing.T) {
	reg := sharedRegistry(t)
	gc := connectGo(t, inProcess, reg, goHandlers{}, nil)
	msg := gc.srv.HandleMessage(context.Background(), json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	raw, err := json.Marshal(msg)
	require.NoError(t, err)
	var wire struct {
		Result struct {
			Tools []struct {
				Name         string          `json:"name"`
				Description  string          `json:"description"`
				InputSchema  json.RawMessage `json:"inputSchema"`
				OutputSchema json.RawMessage `json:"outputSchema"`
				Annotations  json.RawMessage `json:"annotations"`
			} `json:"tools"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(raw, &wire))
	require.Len(t, wire.Result.Tools, len(reg.Tools()))

	sdk := connectSDK(t, reg, "2025-11-25", nil)
	lt, err := sdk.cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	for i, w := range wire.Result.Tools {
		def, ok := reg.Tool(w.Name)
		require.True(t, ok, w.Name)
		assert.Equal(t, string(def.InputSchema.(json.RawMessage)), compact(t, w.InputSchema), "%s: inputSchema bytes", w.Name)
		if def.OutputSchema != nil {
			assert.Equal(t, string(def.OutputSchema.(json.RawMessage)), compact(t, w.OutputSchema), "%s: outputSchema bytes", w.Name)
		} else {
			assert.Nil(t, w.OutputSchema, "%s: no outputSchema", w.Name)
		}
		s := lt.Tools[i]
		require.Equal(t, s.Name, w.Name)
		in, _ := json.Marshal(s.InputSchema)
		assert.JSONEq(t, string(in), string(w.InputSchema), "%s: go-sdk's client saw the same inputSchema", w.Name)
		ann, _ := json.Marshal(s.Annotations)
		assert.JSONEq(t, string(ann), string(w.Annotations), "%s: annotations", w.Name)
		assert.Equal(t, s.Description, w.Description)
	}
}

// compact returns raw as json.Compact makes it (the wire may be indented by
// a transport; the registry's bytes are compact).
func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, json.Compact(&buf, raw))
	return buf.String()
}

// TestSharedCasesConcurrently calls every case at once on one mcp-go
// session, under the race detector.
func TestSharedCasesConcurrently(t *testing.T) {
	reg := sharedRegistry(t)
	for _, k := range bothEras(inProcess, streamable) {
		t.Run(string(k), func(t *testing.T) {
			gc := connectGo(t, k, reg, goHandlers{}, nil)
			type out struct {
				c sharedCase
				o observed
			}
			results := make(chan out, len(sharedCases))
			for _, c := range sharedCases {
				go func() {
					req := gomcp.CallToolRequest{}
					req.Params.Name = c.tool
					if c.args != "" {
						req.Params.Arguments = json.RawMessage(c.args)
					}
					res, err := gc.c.CallTool(context.Background(), req)
					if err != nil {
						results <- out{c, observed{ProtocolError: "error"}}
						return
					}
					raw, _ := json.Marshal(res)
					var o struct {
						IsError bool `json:"isError"`
					}
					_ = json.Unmarshal(raw, &o)
					results <- out{c, observed{IsError: o.IsError}}
				}()
			}
			deadline := time.After(10 * time.Second)
			for range sharedCases {
				select {
				case r := <-results:
					if r.c.protocol != "" {
						assert.Equal(t, "error", r.o.ProtocolError, r.c.name)
					} else {
						assert.Equal(t, r.c.isError, r.o.IsError, r.c.name)
					}
				case <-deadline:
					t.Fatal("calls did not finish")
				}
			}
		})
	}
}

// TestWireResults sends every shared case to the mcp-go server as raw
// JSON-RPC (what every mcp-go transport carries) and requires the result's
// JSON to be what go-sdk's client received, with nothing dropped: this
// covers what mcp-go's client cannot represent (a resource link's title,
// size and _meta).
func TestWireResults(t *testing.T) {
	reg := sharedRegistry(t)
	srv := connectGo(t, inProcess, reg, goHandlers{}, nil).srv
	sdk := connectSDK(t, reg, "2025-11-25", nil)
	for i, c := range sharedCases {
		t.Run(c.name, func(t *testing.T) {
			want := sdk.call(t, c.tool, args(c.args))
			params := map[string]any{"name": c.tool}
			if c.args != "" {
				params["arguments"] = json.RawMessage(c.args)
			}
			req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": params})
			require.NoError(t, err)
			raw, err := json.Marshal(srv.HandleMessage(context.Background(), req))
			require.NoError(t, err)
			var resp struct {
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(raw, &resp))
			var got observed
			if resp.Error != nil {
				got = observed{ProtocolError: codeName(resp.Error.Code)}
			} else {
				got = observe(t, resp.Result)
			}
			assert.Equal(t, want, got)
		})
	}
}
