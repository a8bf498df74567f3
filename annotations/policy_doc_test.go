package annotations_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
)

// docs/tags.md gives every policy key's default; the ones with a number
// must be the numbers the code uses, and its example tag must parse.
func TestPolicyDefaultsDocumented(t *testing.T) {
	raw, err := os.ReadFile("../docs/tags.md")
	require.NoError(t, err)
	doc := string(raw)
	start := strings.Index(doc, "### Policy keys")
	require.GreaterOrEqual(t, start, 0, "docs/tags.md has a Policy keys section")
	section := doc[start:]
	section = section[:strings.Index(section, "\n## ")]

	row := func(key string) string {
		for _, line := range strings.Split(section, "\n") {
			if strings.HasPrefix(line, "| `"+key) {
				return line
			}
		}
		t.Fatalf("no row for %s", key)
		return ""
	}
	resolved := annotations.Policy{}.Resolved()
	assert.Contains(t, row("maxArgBytes"), "("+strconv.Itoa(resolved.MaxArgBytes)+" bytes)")
	assert.Equal(t, 1<<20, resolved.MaxArgBytes, "the row says 1 MiB")
	assert.Contains(t, row("maxDepth"), "| "+strconv.Itoa(resolved.MaxDepth)+" |")
	assert.Equal(t, annotations.TaskForbidden, resolved.Task)
	assert.Contains(t, row("task"), "| forbidden")
	assert.Zero(t, resolved.Timeout)
	assert.Contains(t, row("timeout"), "| none |")
	for _, k := range []string{"rate", "sessionRate"} {
		assert.Contains(t, row(k+"="), "| unlimited |")
	}
	assert.Equal(t, 1, annotations.Policy{Rate: annotations.Rate{PerSecond: 0.5}}.Resolved().Rate.Burst, "burst max(1, ...)")
	assert.Equal(t, 7, annotations.Policy{Rate: annotations.Rate{PerSecond: 7.9}}.Resolved().Rate.Burst, "burst rounded down")

	// Every policy key of the grammar has a row.
	for _, k := range []string{"timeout", "rate=", "burst", "sessionRate", "sessionBurst", "concurrency", "confirm", "maxArgBytes", "maxDepth", "task"} {
		row(k)
	}

	m := regexp.MustCompile("_ struct\\{\\} `mcp:\"([^\"]*)\"`").FindStringSubmatch(section)
	require.NotNil(t, m, "an example tag")
	tool, err := annotations.Parse(m[1])
	require.NoError(t, err)
	assert.True(t, tool.Policy.Confirm)
	assert.Equal(t, 1, tool.Policy.Concurrency)
}
