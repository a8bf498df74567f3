package mcptest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// TestLoad checks the counts and percentiles of a load run, and that
// failures fail the test while tool errors do not.
func TestLoad(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Logger(discard))
	_ = reg.Add("echo", func(_ context.Context, in struct {
		N int `json:"n"`
	}) (int, error) {
		switch {
		case in.N%10 == 3:
			return 0, mcptool.Errorf("no threes")
		case in.N%50 == 7:
			panic("seven")
		}
		return in.N, nil
	}, mcptool.Description("Echoes n."))
	r := &recorder{}
	c := mcptest.Client(r, reg)
	rep := c.Load(200, 20*time.Second, func(i int) (string, any) { return "echo", map[string]any{"n": i} })
	r.finish()
	if rep.Calls != 200 || rep.ToolErrors != 20 || rep.Failed != 4 || len(rep.Failures) != 4 {
		t.Errorf("report: %+v", rep)
	}
	if !(0 < rep.P50 && rep.P50 <= rep.P90 && rep.P90 <= rep.P99 && rep.P99 <= rep.Max && rep.Max <= rep.Elapsed) {
		t.Errorf("percentiles out of order: %s", rep)
	}
	if got := r.failures(); !strings.Contains(got, "4 failed, 20 tool errors") || !strings.Contains(got, "(echo): internal error (ref") {
		t.Errorf("failures: %s", got)
	}
}

// TestLoadDeadline checks that calls without an answer by the deadline are
// failures.
func TestLoadDeadline(t *testing.T) {
	reg := mcptool.NewRegistry()
	release := make(chan struct{})
	_ = reg.Add("stuck", func(ctx context.Context) (string, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return "late", nil
	}, mcptool.Description("Waits to be released."))
	defer close(release)
	r := &recorder{}
	c := mcptest.Client(r, reg)
	rep := c.Load(5, 100*time.Millisecond, func(int) (string, any) { return "stuck", nil })
	r.finish()
	if rep.Failed != 5 || !strings.Contains(r.failures(), "no answer within 100ms") {
		t.Errorf("report %s, failures %s", rep, r.failures())
	}
}
