package mcpopenapi

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/mcptool"
)

// ext is what an operation's x-mcp-* extensions say.
type ext struct {
	name    string
	exclude bool
	opts    []mcptool.Option
}

// The x-mcp-* extensions an operation may carry, each of one JSON type.
var extKeys = map[string]string{
	"x-mcp-name":        "string",
	"x-mcp-exclude":     "boolean",
	"x-mcp-title":       "string",
	"x-mcp-description": "string",
	"x-mcp-group":       "string",
	"x-mcp-readOnly":    "boolean",
	"x-mcp-destructive": "boolean",
	"x-mcp-idempotent":  "boolean",
	"x-mcp-openWorld":   "boolean",
	"x-mcp-confirm":     "boolean",
	"x-mcp-rate":        "number",
	"x-mcp-burst":       "number",
	"x-mcp-concurrency": "number",
	"x-mcp-timeout":     "string",
	"x-mcp-scopes":      "array",
}

// readExtensions reads an operation's x-mcp-* extensions into tool
// options; an unknown x-mcp-* key or a value of the wrong type is an
// error, all of them at once.
func readExtensions(exts map[string]any) (ext, error) {
	var x ext
	var problems []string
	keys := make([]string, 0, len(exts))
	for k := range exts {
		if strings.HasPrefix(k, "x-mcp-") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var rate, burst float64
	for _, k := range keys {
		v := exts[k]
		want, known := extKeys[k]
		if !known {
			problems = append(problems, k+": not an mcpgen extension (known: x-mcp-name, -exclude, -title, -description, -group, -readOnly, -destructive, -idempotent, -openWorld, -confirm, -rate, -burst, -concurrency, -timeout, -scopes)")
			continue
		}
		var ok bool
		var s string
		var b bool
		var f float64
		var arr []any
		switch want {
		case "string":
			s, ok = v.(string)
		case "boolean":
			b, ok = v.(bool)
		case "number":
			f, ok = number64(v)
		case "array":
			arr, ok = v.([]any)
		}
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: want a %s, got %v", k, want, v))
			continue
		}
		switch k {
		case "x-mcp-name":
			x.name = s
		case "x-mcp-exclude":
			x.exclude = b
		case "x-mcp-title":
			x.opts = append(x.opts, mcptool.Title(s))
		case "x-mcp-description":
			x.opts = append(x.opts, mcptool.Description(s))
		case "x-mcp-group":
			x.opts = append(x.opts, mcptool.Group(s))
		case "x-mcp-readOnly":
			x.opts = append(x.opts, mcptool.ReadOnly(b))
		case "x-mcp-destructive":
			x.opts = append(x.opts, mcptool.Destructive(b))
		case "x-mcp-idempotent":
			x.opts = append(x.opts, mcptool.Idempotent(b))
		case "x-mcp-openWorld":
			x.opts = append(x.opts, mcptool.OpenWorld(b))
		case "x-mcp-confirm":
			if b {
				x.opts = append(x.opts, mcptool.Confirm())
			}
		case "x-mcp-rate":
			rate = f
		case "x-mcp-burst":
			burst = f
		case "x-mcp-concurrency":
			if f < 1 || f != float64(int(f)) {
				problems = append(problems, fmt.Sprintf("%s: want a whole number of at least 1, got %v", k, v))
				continue
			}
			x.opts = append(x.opts, mcptool.MaxConcurrency(int(f)))
		case "x-mcp-timeout":
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				problems = append(problems, fmt.Sprintf("%s: want a positive duration such as \"10s\", got %q", k, s))
				continue
			}
			x.opts = append(x.opts, mcptool.Timeout(d))
		case "x-mcp-scopes":
			var scopes []string
			for _, e := range arr {
				if str, ok := e.(string); ok && str != "" {
					scopes = append(scopes, str)
				} else {
					problems = append(problems, fmt.Sprintf("%s: want an array of scope names, got %v", k, v))
					break
				}
			}
			x.opts = append(x.opts, mcptool.Scopes(scopes...))
		}
	}
	switch {
	case rate > 0:
		x.opts = append(x.opts, mcptool.RateLimit(rate, int(burst)))
	case rate < 0 || (rate == 0 && exts["x-mcp-rate"] != nil):
		problems = append(problems, fmt.Sprintf("x-mcp-rate: want calls per second above 0, got %v", rate))
	case burst != 0:
		problems = append(problems, "x-mcp-burst: needs x-mcp-rate")
	}
	if len(problems) > 0 {
		return x, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return x, nil
}

func number64(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}
