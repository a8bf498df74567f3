package server

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

const (
	toolsDoc  = "../../../../docs/tools.md"
	toolsHTML = "../../../../docs/tools.html"
)

// TestToolsDocUpToDate fails when docs/tools.md is not what the docs
// subcommand prints: regenerate it with go generate ./cmd/mcpgen-demo, or
// go test ./cmd/mcpgen-demo -run TestToolsDocUpToDate -update.
func TestToolsDocUpToDate(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, writeDocs(full(), &b, "markdown"))
	mcptest.Golden(t, toolsDoc, b.Bytes())
	if t.Failed() {
		t.Log("go generate ./cmd/mcpgen-demo rewrites it too")
	}
}

// TestToolsHTMLUpToDate fails when docs/tools.html is not what the docs
// subcommand prints with -format html: regenerate it with go generate
// ./cmd/mcpgen-demo, or go test ./cmd/mcpgen-demo -run TestToolsHTMLUpToDate
// -update. docs/browsertest loads it in Chromium.
func TestToolsHTMLUpToDate(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, writeDocs(full(), &b, "html"))
	mcptest.Golden(t, toolsHTML, b.Bytes())
	if t.Failed() {
		t.Log("go generate ./cmd/mcpgen-demo rewrites it too")
	}
}

func TestDocsCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), full(), []string{"docs", "-format", "json"}, nil, &stdout, &stderr))
	var cat struct {
		Tools []struct {
			Name    string          `json:"name"`
			Example json.RawMessage `json:"example"`
			Hints   map[string]any  `json:"hints"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &cat))
	require.Len(t, cat.Tools, 16)
	for _, tl := range cat.Tools {
		assert.NotEqual(t, "null", string(tl.Example), "%s: the catalogue has an example call", tl.Name)
	}

	stdout.Reset()
	require.NoError(t, run(context.Background(), full(), []string{"docs"}, nil, &stdout, &stderr))
	assert.True(t, strings.HasPrefix(stdout.String(), docsHeader+"# mcpgen-demo tools"), stdout.String()[:200])

	out := filepath.Join(t.TempDir(), "tools.md")
	require.NoError(t, run(context.Background(), full(), []string{"docs", "-o", out}, nil, &stdout, &stderr))
	written, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, stdout.String(), string(written))

	stdout.Reset()
	require.NoError(t, run(context.Background(), full(), []string{"docs", "-format", "html"}, nil, &stdout, &stderr))
	assert.True(t, strings.HasPrefix(stdout.String(), htmlHeader+"<!DOCTYPE html>"), stdout.String()[:200])
	assert.Contains(t, stdout.String(), "<title>mcpgen-demo tools</title>")

	assert.ErrorContains(t, run(context.Background(), full(), []string{"docs", "-format", "yaml"}, nil, &stdout, &stderr), `unknown format "yaml"`)
	assert.ErrorContains(t, run(context.Background(), full(), []string{"docs", "extra"}, nil, &stdout, &stderr), `unexpected argument "extra"`)
}

// firstDiff shows the first line where two texts differ.
func firstDiff(have, want string) string {
	hl, wl := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(hl), len(wl)); i++ {
		var h, w string
		if i < len(hl) {
			h = hl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if h != w {
			return "line " + strconv.Itoa(i+1) + ":\n  file:      " + h + "\n  generated: " + w
		}
	}
	return ""
}
