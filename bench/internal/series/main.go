// Command series measures the three minimal servers of
// internal/standalone — mcpgen, go-sdk and mcp-go, each written as its
// stack's documentation shows — serving the same calculate_sum tool, each
// its own process, under closed-loop load, on one wire (-wire):
//
//   - stateless (the default): 2026-07-28 streamable HTTP on loopback
//     (mcptool.Server.Handler; mcp.NewStreamableHTTPHandler with Stateless;
//     mcp-go's StreamableHTTPServer, stateless), and a fourth server, the
//     ceiling: a bare net/http handler that decodes the call with
//     encoding/json and writes a fixed answer (internal/standalone/bare).
//     C workers each send a tools/call and wait for its answer, again and
//     again.
//   - session: 2025-11-25 streamable HTTP sessions on loopback (the same
//     mcptool handler, which gives 2025-era clients sessions; go-sdk's
//     handler with default options; mcp-go's, WithStateful). Each of C
//     workers opens its own session (initialize, notifications/initialized)
//     and then sends tools/call after tools/call in it, with Mcp-Session-Id
//     and Mcp-Protocol-Version, accepting JSON or SSE answers.
//   - stdio: the series execs the server (Registry.Server.Run with
//     mcptool.StdioTransport; Server.Run with mcp.StdioTransport;
//     server.ServeStdio), initializes (2025-11-25) and keeps C calls in flight
//     over the pipe, each new call written as soon as an answer is read.
//     Then, with -cold N (default 11), it measures cold starts: exec to the
//     first tools/list answered, and the live heap at that moment.
//
// Every round runs each concurrency against every server, in an order
// rotated per round, and starts each server afresh, so drift on the
// machine spreads over all of them. Each load is bounded by -duration
// (after a warm-up of 20 calls per worker or slot).
//
// It prints, per server and concurrency, the medians over the rounds of:
// requests (calls answered) per second, the 50th and 99th percentile
// latency, and the server's CPU time per request (user + system, from
// /proc/PID/stat over the load, 10 ms ticks, on every wire alike), then
// the ratios of mcpgen's to mcp-go's (and, stateless, to the bare
// handler's). With MCPGEN_BENCH_PROFILE=DIR the servers write CPU and
// allocation profiles into DIR (standalone.Profile).
//
//	go run ./internal/series                       # stateless, 5 rounds of 3 s, c=8 and c=32
//	go run ./internal/series -wire stdio -rounds 3  # stdio, and 11 cold starts
//	go run ./internal/series -wire session -rounds 3
//	go run ./internal/series -rounds 1 -duration 300ms   # a smoke run (ci.sh)
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

var stacks = []string{"mcpgen", "gosdk", "mcpgo"}

// bare is the stateless wire's fourth server, its ceiling: a net/http
// handler that decodes the call with encoding/json and writes a fixed
// answer (internal/standalone/bare).
const bare = "bare"

// wires are the series' wires and how each is measured.
var wires = map[string]func(bin string, c int, d time.Duration) (result, error){
	"stateless": measureStateless,
	"session":   measureSession,
	"stdio":     measureStdio,
}

func main() {
	wire := flag.String("wire", "stateless", "the wire: stateless (2026-07-28 HTTP), session (2025-11-25 HTTP sessions) or stdio")
	rounds := flag.Int("rounds", 5, "rounds")
	duration := flag.Duration("duration", 3*time.Second, "load per server, concurrency and round")
	concs := flag.String("c", "8,32", "concurrencies, comma-separated")
	cold := flag.Int("cold", 11, "cold starts per server after a stdio series (0: none)")
	bin := flag.String("bin", "", "directory of the servers' binaries (default: built into a temporary one)")
	flag.Parse()
	measure, ok := wires[*wire]
	if !ok {
		log.Fatalf("-wire: no wire %q (stateless, session, stdio)", *wire)
	}
	var cs []int
	for f := range strings.SplitSeq(*concs, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 1 {
			log.Fatalf("-c: bad concurrency %q", f)
		}
		cs = append(cs, c)
	}
	dir := *bin
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "series"); err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(dir)
		args := []string{"build", "-o", dir + string(os.PathSeparator)}
		for _, s := range append(stacks[:len(stacks):len(stacks)], bare) {
			args = append(args, "./internal/standalone/"+s)
		}
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			log.Fatalf("go build: %v\n%s", err, out)
		}
	}
	run := stacks
	if *wire == "stateless" {
		run = append(stacks[:len(stacks):len(stacks)], bare)
	}
	fmt.Printf("# wire %s; %d rounds of %v per server and concurrency; nproc %d; load average at start: %s\n",
		*wire, *rounds, *duration, runtime.NumCPU(), loadavg())
	results := map[key][]result{}
	for r := range *rounds {
		for _, c := range cs {
			for i := range run {
				s := run[(i+r)%len(run)]
				res, err := measure(filepath.Join(dir, s), c, *duration)
				if err != nil {
					log.Fatalf("%s, c=%d, round %d: %v", s, c, r+1, err)
				}
				fmt.Printf("round %d  c=%-3d %-7s %8.0f req/s  p50 %7v  p99 %7v  server CPU %6.1f µs/req\n",
					r+1, c, s, res.rate, res.p50.Round(time.Microsecond), res.p99.Round(time.Microsecond), res.cpu)
				results[key{s, c}] = append(results[key{s, c}], res)
			}
		}
	}
	fmt.Printf("# load average at end: %s\n\n", loadavg())
	fmt.Println("| server | c | median req/s | p50 | p99 | server CPU per request |")
	fmt.Println("| --- | --- | --- | --- | --- | --- |")
	for _, c := range cs {
		for _, s := range run {
			m := medians(results[key{s, c}])
			fmt.Printf("| %s | %d | %.0f | %v | %v | %.0f µs |\n", s, c, m.rate, m.p50, m.p99, m.cpu)
		}
	}
	fmt.Println()
	for _, c := range cs {
		g, m, o := medians(results[key{"mcpgen", c}]), medians(results[key{"mcpgo", c}]), medians(results[key{"gosdk", c}])
		fmt.Printf("c=%d: mcpgen's req/s %.2fx mcp-go's, %.2fx go-sdk's; CPU per request %.2fx mcp-go's, %.2fx go-sdk's\n",
			c, g.rate/m.rate, g.rate/o.rate, g.cpu/m.cpu, g.cpu/o.cpu)
		if b := results[key{bare, c}]; len(b) > 0 {
			m := medians(b)
			fmt.Printf("c=%d: mcpgen's req/s %.2fx the bare net/http handler's; CPU per request %.2fx its\n", c, g.rate/m.rate, g.cpu/m.cpu)
		}
	}
	if *wire == "stdio" && *cold > 0 {
		if err := coldStarts(func(s string) string { return filepath.Join(dir, s) }, *cold); err != nil {
			log.Fatalf("cold start: %v", err)
		}
	}
}

type key struct {
	stack string
	c     int
}

// result is one server's measure at one concurrency in one round.
type result struct {
	rate     float64       // requests per second
	p50, p99 time.Duration // latency
	cpu      float64       // server CPU µs per request
}

// medians is the median of each figure over rs.
func medians(rs []result) result {
	med := func(f func(result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		if len(v) == 0 {
			return 0
		}
		if len(v)%2 == 1 {
			return v[len(v)/2]
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return result{
		rate: med(func(r result) float64 { return r.rate }),
		p50:  time.Duration(med(func(r result) float64 { return float64(r.p50) })).Round(time.Microsecond),
		p99:  time.Duration(med(func(r result) float64 { return float64(r.p99) })).Round(time.Microsecond),
		cpu:  med(func(r result) float64 { return r.cpu }),
	}
}

// cpuTime is the CPU time (user + system) process pid has used, from
// /proc/PID/stat, in 10 ms ticks.
func cpuTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, data)
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, data)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
