package dpop

import "testing"

// htu is compared after RFC 3986 §6.2.2 and §6.2.3 normalization (RFC 9449
// §4.3): the same URL however spelt, and a different one stays different.
func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://MCP.Example.COM:443/mcp":      "https://mcp.example.com/mcp",
		"https://mcp.example.com/a/./b/../mcp": "https://mcp.example.com/a/mcp",
		"https://mcp.example.com/mcp?q=1#f":    "https://mcp.example.com/mcp",
		"http://mcp.example.com:80":            "http://mcp.example.com/",
		"http://mcp.example.com:8080/%7euser":  "http://mcp.example.com:8080/~user",
		"http://mcp.example.com/a%2fb":         "http://mcp.example.com/a%2Fb",
		"http://mcp.example.com/a/%2e%2e/mcp":  "http://mcp.example.com/mcp",
		"http://mcp.example.com//x/mcp":        "http://mcp.example.com//x/mcp",
		"http://[::1]:80/mcp/":                 "http://[::1]/mcp/",
	} {
		got, err := Normalize(in)
		if err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"ftp://mcp.example.com/mcp", "/mcp", "https://user@mcp.example.com/mcp", "mailto:a@b", "https://%zz/"} {
		if got, err := Normalize(in); err == nil {
			t.Errorf("Normalize(%q) = %q, want an error", in, got)
		}
	}
}
