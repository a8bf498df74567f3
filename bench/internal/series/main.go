// Command series measures the three minimal stateless servers of
// internal/standalone — mcpgen (mcptool.NewHTTPHandler), go-sdk
// (mcp.NewStreamableHTTPHandler with Stateless) and mcp-go (its own
// StreamableHTTPServer, stateless) — serving the same calculate_sum tool,
// each its own process, under closed-loop load on loopback: C workers each
// send a 2026-07-28 tools/call and wait for its answer, again and again, for
// the round's duration. Every round runs each concurrency against every
// server, in an order rotated per round, and starts each server afresh,
// so drift on the machine spreads over all of them.
//
// It prints, per server and concurrency, the medians over the rounds of:
// requests per second, the 50th and 99th percentile latency, and the
// server's CPU time per request (user + system, from /proc/PID/stat, 10 ms
// ticks), then the ratios of mcpgen's to mcp-go's.
//
//	go run ./internal/series                       # 5 rounds of 3 s, c=8 and c=32
//	go run ./internal/series -rounds 1 -duration 300ms   # a smoke run (ci.sh)
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

var stacks = []string{"mcpgen", "gosdk", "mcpgo"}

const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculate_sum",` +
	`"arguments":{"a":1,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"series","version":"1.0.0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{}}}}`

// want is in every answer.
const want = `"structuredContent":{"sum":3}`

func main() {
	rounds := flag.Int("rounds", 5, "rounds")
	duration := flag.Duration("duration", 3*time.Second, "load per server, concurrency and round")
	concs := flag.String("c", "8,32", "concurrencies, comma-separated")
	bin := flag.String("bin", "", "directory of the servers' binaries (default: built into a temporary one)")
	flag.Parse()
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
		for _, s := range stacks {
			args = append(args, "./internal/standalone/"+s)
		}
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			log.Fatalf("go build: %v\n%s", err, out)
		}
	}
	fmt.Printf("# %d rounds of %v per server and concurrency; nproc %d; load average at start: %s\n",
		*rounds, *duration, runtime.NumCPU(), loadavg())
	results := map[key][]result{}
	for r := range *rounds {
		for _, c := range cs {
			for i := range stacks {
				s := stacks[(i+r)%len(stacks)]
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
		for _, s := range stacks {
			m := medians(results[key{s, c}])
			fmt.Printf("| %s | %d | %.0f | %v | %v | %.0f µs |\n", s, c, m.rate, m.p50, m.p99, m.cpu)
		}
	}
	fmt.Println()
	for _, c := range cs {
		g, m, o := medians(results[key{"mcpgen", c}]), medians(results[key{"mcpgo", c}]), medians(results[key{"gosdk", c}])
		fmt.Printf("c=%d: mcpgen's req/s %.2fx mcp-go's, %.2fx go-sdk's; CPU per request %.2fx mcp-go's, %.2fx go-sdk's\n",
			c, g.rate/m.rate, g.rate/o.rate, g.cpu/m.cpu, g.cpu/o.cpu)
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

// measure starts the server bin, loads it with c workers for d, and stops it.
func measure(bin string, c int, d time.Duration) (result, error) {
	cmd := exec.Command(bin)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return result{}, err
	}
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return result{}, fmt.Errorf("no ready line: %v", err)
	}
	url := "http://" + strings.Fields(line)[0] + "/"
	client := &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c},
	}
	defer client.CloseIdleConnections()
	// Warm the connections and the server.
	var wg sync.WaitGroup
	errs := make([]error, c)
	for w := range c {
		wg.Go(func() {
			for range 20 {
				if _, err := post(client, url); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return result{}, err
	}
	pid := cmd.Process.Pid
	cpu0, err := cpuTime(pid)
	if err != nil {
		return result{}, err
	}
	lat := make([][]time.Duration, c)
	start := time.Now()
	end := start.Add(d)
	for w := range c {
		wg.Go(func() {
			for time.Now().Before(end) {
				t := time.Now()
				if _, err := post(client, url); err != nil {
					errs[w] = err
					return
				}
				lat[w] = append(lat[w], time.Since(t))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu1, err := cpuTime(pid)
	if err != nil {
		return result{}, err
	}
	if err := errors.Join(errs...); err != nil {
		return result{}, err
	}
	all := slices.Concat(lat...)
	if len(all) == 0 {
		return result{}, errors.New("no request answered")
	}
	slices.Sort(all)
	return result{
		rate: float64(len(all)) / elapsed.Seconds(),
		p50:  all[len(all)/2],
		p99:  all[len(all)*99/100],
		cpu:  float64(cpu1-cpu0) / float64(time.Microsecond) / float64(len(all)),
	}, nil
}

// post sends the call and checks the answer.
func post(c *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(call))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "calculate_sum")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(data, []byte(want)) {
		return nil, fmt.Errorf("%s: %s", resp.Status, data)
	}
	return data, nil
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
