package mcptool_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	jsonwire "github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// bulkShape is a JSON value of about size bytes made of many small
// things of one kind: what a crafted body uses to make decoding cost more
// than its size.
type bulkShape struct {
	name string
	make func(size int) string
}

// repeated is an array of item, repeated to about size bytes.
func repeated(item string, size int) string {
	n := max(size/(len(item)+1), 1)
	return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
}

var bulkShapes = []bulkShape{
	{"one string", func(size int) string { return `"` + strings.Repeat("x", size) + `"` }},
	{"tiny strings", func(size int) string { return repeated(`""`, size) }},
	{"empty arrays", func(size int) string { return repeated(`[]`, size) }},
	{"empty objects", func(size int) string { return repeated(`{}`, size) }},
	{"deep nesting", func(size int) string {
		// As deep as the default MaxBodyDepth allows below where the bulk
		// sits, repeated.
		const d = defaultMaxBodyDepth - 8
		return repeated(strings.Repeat("[", d)+strings.Repeat("]", d), size)
	}},
	{"short keys", func(size int) string {
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; b.Len() < size; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + strconv.FormatInt(int64(i), 36) + `":0`)
		}
		return b.String() + "}"
	}},
	{"long numbers", func(size int) string { return repeated(strings.Repeat("9", 300), size) }},
}

// bulkPlacements put a bulk value in a stateless tools/call.
var bulkPlacements = []struct {
	name string
	call func(bulk string) string
}{
	{"arguments", func(bulk string) string {
		return statelessCall(`"name":"size","arguments":{"s":"a","bulk":`+bulk+`}`, "")
	}},
	{"_meta", func(bulk string) string { return statelessCall(`"name":"size","arguments":{"s":"a"}`, `,"bulk":`+bulk) }},
	{"unknown param", func(bulk string) string { return statelessCall(`"name":"size","arguments":{"s":"a"},"bulk":`+bulk, "") }},
}

// statelessCall is a tools/call with params and the 2026-07-28 _meta, with
// meta's members added.
func statelessCall(params, meta string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + params + `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}` + meta + `}}}`
}

// sessionCall is call as a 2025-11-25 request: without the 2026-07-28
// _meta members.
func sessionCall(call string) string {
	return strings.Replace(call, `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}`, `"x":0`, 1)
}

// TestChargeCoversDecoding: what the in-flight budget charges a body for
// (jsonwire.Cost.Charge) is no less than the heap serving it allocates, for
// bodies of every shape, wherever the bulk sits, statelessly and in a
// 2025-11-25 session.
func TestChargeCoversDecoding(t *testing.T) {
	srv := sizeServer(t)
	const size, rounds = 256 << 10, 3
	for _, era := range []string{"2026-07-28", "2025-11-25"} {
		h := srv.Handler(&mcptool.HTTPOptions{MaxBodyValues: -1, MaxBodyDepth: -1})
		session := ""
		if era == "2025-11-25" {
			session = initSession(t, h)
		}
		for _, p := range bulkPlacements {
			for _, shape := range bulkShapes {
				body := p.call(shape.make(size))
				if era == "2025-11-25" {
					body = sessionCall(body)
				}
				scanned, err := jsonwire.Scan([]byte(body), jsonwire.Limits{})
				require.NoError(t, err)
				serve := func() {
					req := jsonRequest(body, session)
					if era == "2026-07-28" {
						req.Header.Set("Mcp-Protocol-Version", era)
						req.Header.Set("Mcp-Method", "tools/call")
						req.Header.Set("Mcp-Name", "size")
					}
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
				}
				serve()
				runtime.GC()
				before := heapAllocs()
				for range rounds {
					serve()
				}
				allocated := (heapAllocs() - before) / rounds
				charge := scanned.Cost.Charge()
				t.Logf("%s, %s in %s: %d KiB allocated, charged %d KiB (%.2f); %.1f B/byte %.1f B/value; %+v", era, shape.name, p.name,
					allocated>>10, charge>>10, float64(charge)/float64(allocated), float64(allocated)/float64(len(body)), float64(allocated)/float64(scanned.Cost.Values), scanned.Cost)
				assert.GreaterOrEqual(t, charge, int64(allocated), "%s, %s in %s: charge below what serving allocates", era, shape.name, p.name)
			}
		}
	}
}

// TestHTTPBodyCaps: a body with more JSON values than MaxBodyValues, or
// nested deeper than MaxBodyDepth, gets 413 naming the cap, before
// anything decodes it, statelessly and in a 2025-11-25 session; negative
// turns a cap off.
func TestHTTPBodyCaps(t *testing.T) {
	srv := sizeServer(t)
	over := repeated(`[]`, 9*defaultMaxBodyValues) // 3 bytes a value: 3x as many values as the default allows
	deep := strings.Repeat("[", defaultMaxBodyDepth) + strings.Repeat("]", defaultMaxBodyDepth)
	fits := strings.Repeat("[", defaultMaxBodyDepth-4) + strings.Repeat("]", defaultMaxBodyDepth-4) // 4 levels above it
	for _, era := range []string{"2026-07-28", "2025-11-25"} {
		for _, c := range []struct {
			name string
			opts *mcptool.HTTPOptions
			bulk string
			code int
			text string
		}{
			{"values", nil, over, http.StatusRequestEntityTooLarge, "request body has more than 50000 JSON values (MaxBodyValues)\n"},
			{"depth", nil, deep, http.StatusRequestEntityTooLarge, "request body nests JSON deeper than 1000 levels (MaxBodyDepth)\n"},
			{"depth within", nil, fits, http.StatusOK, ""},
			{"values set", &mcptool.HTTPOptions{MaxBodyValues: 50}, repeated("1", 200), http.StatusRequestEntityTooLarge, "request body has more than 50 JSON values (MaxBodyValues)\n"},
			{"values off", &mcptool.HTTPOptions{MaxBodyValues: -1}, over, http.StatusOK, ""},
			{"depth set", &mcptool.HTTPOptions{MaxBodyDepth: 10}, "[[[[[[[[[[]]]]]]]]]]", http.StatusRequestEntityTooLarge, "request body nests JSON deeper than 10 levels (MaxBodyDepth)\n"},
			// Off, the body reaches go-sdk, whose own limit is 1000 levels.
			{"depth off", &mcptool.HTTPOptions{MaxBodyDepth: -1}, deep, http.StatusBadRequest, "malformed payload: unmarshaling jsonrpc message: json: exceeded maximum nesting depth of 1000\n"},
		} {
			t.Run(era+"/"+c.name, func(t *testing.T) {
				var log syncBuffer
				opts := mcptool.HTTPOptions{}
				if c.opts != nil {
					opts = *c.opts
				}
				opts.Logger = slog.New(slog.NewTextHandler(&log, nil))
				h := srv.Handler(&opts)
				session := ""
				body := statelessCall(`"name":"size","arguments":{"s":"a"},"bulk":`+c.bulk, "")
				if era == "2025-11-25" {
					session = initSession(t, h)
					body = sessionCall(body)
				}
				req := jsonRequest(body, session)
				if era == "2026-07-28" {
					req.Header.Set("Mcp-Protocol-Version", era)
					req.Header.Set("Mcp-Method", "tools/call")
					req.Header.Set("Mcp-Name", "size")
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				assert.Equal(t, c.code, rec.Code, rec.Body.String())
				if c.code == http.StatusOK {
					assert.Contains(t, rec.Body.String(), `"structuredContent":{"result":1}`)
					return
				}
				assert.Equal(t, c.text, rec.Body.String())
				if c.code == http.StatusRequestEntityTooLarge {
					assert.Contains(t, log.String(), fmt.Sprintf("status=413 reason=%q", strings.TrimSuffix(c.text, "\n")))
				}
			})
		}
	}
}

// initSession initializes a 2025-11-25 session on h and returns its id.
func initSession(t *testing.T, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, jsonRequest(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, ""))
	session := rec.Header().Get("Mcp-Session-Id")
	require.NotEmpty(t, session)
	h.ServeHTTP(httptest.NewRecorder(), jsonRequest(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session))
	return session
}
