package server

import (
	"testing"

	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// fuzzKnown are the demo tools not fuzzed here, each with the reason: a
// breach of the contract being fixed elsewhere (remove the tool once its fix
// lands), or a cost too high for every test run.
var fuzzKnown = map[string]string{
	// Keeps the contract (with mcptest.Tasks, as below), but its valid
	// documents ask for up to 5,000,000 rows each: 40 s of fuzzing.
	"generate_csv": "slow: every valid document writes a CSV of up to 5,000,000 rows",
	// App-only (views.go): a client that does not declare the MCP Apps
	// extension, as mcptest's, cannot call it; it is get_page's function,
	// fuzzed as get_page.
	"open_page": "app-only: get_page's function, called by search_pages' view",
}

// TestFuzzDemoTools fuzzes every demo tool from its published schema (see
// mcptest.Fuzz): valid documents never panic or fail internally, invalid
// ones are refused with their violations. Upstream services are dead URLs:
// no call leaves the machine.
func TestFuzzDemoTools(t *testing.T) {
	a, _ := newDemoApp(t, func(c *config) {
		dead := deadURL(t)
		c.searchURL, c.weatherURL, c.geocodingURL, c.githubURL = dead, dead, dead, dead
		c.allow = []string{"echo"}
	})
	for _, tl := range a.reg.Tools() {
		t.Run(tl.Name, func(t *testing.T) {
			if why, ok := fuzzKnown[tl.Name]; ok {
				t.Skip(why)
			}
			// Tasks: generate_csv runs only as a task, analyze_csv as one
			// when the client can.
			mcptest.Fuzz(t, a.reg, tl.Name, mcptest.Server(a.srv), mcptest.Tasks())
		})
	}
}
