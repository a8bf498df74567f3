package mcptest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// LoadReport is what [Conn.Load] measured.
type LoadReport struct {
	Calls int // calls made
	// Failed counts the calls that failed: a protocol error, an internal
	// error (a panic or an error not meant for the model), or no answer by
	// the deadline. Failures holds the first ten, one line each.
	Failed   int
	Failures []string
	// ToolErrors counts the other isError results: errors the tool meant for
	// the model and policy refusals (rate limit, concurrency cap, ...).
	ToolErrors int
	// Latency percentiles of all calls, and the time from the first call's
	// start to the last one's end.
	P50, P90, P99, Max time.Duration
	Elapsed            time.Duration
}

// String summarizes the report on one line.
func (r LoadReport) String() string {
	return fmt.Sprintf("%d calls in %v: %d failed, %d tool errors; latency p50 %v, p90 %v, p99 %v, max %v",
		r.Calls, r.Elapsed.Round(time.Microsecond), r.Failed, r.ToolErrors,
		r.P50.Round(time.Microsecond), r.P90.Round(time.Microsecond), r.P99.Round(time.Microsecond), r.Max.Round(time.Microsecond))
}

// Load makes n calls at once, the i-th of the tool and arguments call(i)
// returns, and waits for them at most within. It fails the test when a call
// fails (see [LoadReport.Failed]) and returns the report for further checks,
// such as a bound on a percentile or on the tool errors a policy should
// cause.
func (c *Conn) Load(n int, within time.Duration, call func(i int) (name string, args any)) LoadReport {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var (
		mu        sync.Mutex
		rep       = LoadReport{Calls: n}
		latencies = make([]time.Duration, n)
		wg        sync.WaitGroup
	)
	fail := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		rep.Failed++
		if len(rep.Failures) < 10 {
			rep.Failures = append(rep.Failures, s)
		}
	}
	start := time.Now()
	for i := range n {
		name, args := call(i)
		wg.Go(func() {
			t0 := time.Now()
			res, err := c.call(ctx, name, args)
			latencies[i] = time.Since(t0)
			switch {
			case err != nil && ctx.Err() != nil:
				fail(fmt.Sprintf("call %d (%s): no answer within %v", i, name, within))
			case err != nil:
				fail(fmt.Sprintf("call %d (%s): protocol error: %v", i, name, err))
			case res.IsError && isInternal(textOf(res.Content)):
				fail(fmt.Sprintf("call %d (%s): %s", i, name, textOf(res.Content)))
			case res.IsError:
				mu.Lock()
				rep.ToolErrors++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	rep.Elapsed = time.Since(start)
	slices.Sort(latencies)
	if n > 0 {
		pct := func(p int) time.Duration { return latencies[(n-1)*p/100] }
		rep.P50, rep.P90, rep.P99, rep.Max = pct(50), pct(90), pct(99), latencies[n-1]
	}
	if rep.Failed > 0 {
		c.t.Errorf("mcptest: load: %s\n%s", rep, strings.Join(rep.Failures, "\n"))
	}
	return rep
}
