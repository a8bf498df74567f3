package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
)

// settle is how long after the first answer a cold start's CPU is read
// again.
const settle = 50 * time.Millisecond

// toolsList is the request whose answer ends a cold start.
const toolsList = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`

// cold is what one cold start measured.
type cold struct {
	wall time.Duration // exec to the first tools/list answer read
	cpu  time.Duration // the server's CPU time, exec to that answer
	// settled is its CPU time 50 ms after the answer: with what the start
	// set going and finished just after it (a garbage collection).
	settled time.Duration
	heap    uint64 // live heap at the answer (heap runs only)
}

// coldStart execs the server bin serving stdio and measures the time from
// exec to its first tools/list answered (initialize, its answer,
// notifications/initialized and tools/list written as soon as each may
// be), and the server's CPU time by then: the time every thread of it
// has run, from the kernel's accounting (/proc/PID/task/*/schedstat, in
// nanoseconds), which moves far less with the machine's load than the
// wall clock; and again 50 ms later, when what the start set going (a
// garbage collection its allocations triggered) has run. With heap, the server is started with standalone.HeapEnv, sent SIGUSR1
// once that answer is read, and its live heap after a full GC is returned
// instead; the time of such a run includes the signal handler's set-up,
// so the series times runs without it and reads the heap in runs of their
// own.
func coldStart(bin string, heap bool) (cold, error) {
	p, err := startStdio(bin, heap)
	if err != nil {
		return cold{}, err
	}
	defer p.stop()
	watchdog := time.AfterFunc(30*time.Second, func() {
		if p.cmd.Process != nil {
			_ = p.cmd.Process.Kill()
		}
	})
	defer watchdog.Stop()
	start := time.Now()
	if err := p.initialize(); err != nil {
		return cold{}, err
	}
	if _, err := p.roundTrip(toolsList, `"calculate_sum"`); err != nil {
		return cold{}, fmt.Errorf("tools/list: %w", err)
	}
	c := cold{wall: time.Since(start)}
	if !heap {
		if c.cpu, err = onCPU(p.cmd.Process.Pid); err != nil {
			return cold{}, err
		}
		time.Sleep(settle)
		c.settled, err = onCPU(p.cmd.Process.Pid)
		return c, err
	}
	if err := p.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		return cold{}, err
	}
	for {
		line, err := p.stderr.ReadString('\n')
		if err != nil {
			return cold{}, fmt.Errorf("no heap line on stderr: %w", err)
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), standalone.HeapPrefix); ok {
			c.heap, err = strconv.ParseUint(v, 10, 64)
			return c, err
		}
	}
}

// coldStarts runs n cold starts and n heap runs of every stack, the stacks
// interleaved, after one untimed run each (the binary into the page cache),
// and prints the medians.
func coldStarts(dir func(string) string, n int) error {
	times := map[string][]float64{}
	cpus := map[string][]float64{}
	settled := map[string][]float64{}
	heaps := map[string][]float64{}
	for _, s := range stacks {
		if _, err := coldStart(dir(s), false); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	for i := range n {
		for j := range stacks {
			s := stacks[(i+j)%len(stacks)]
			c, err := coldStart(dir(s), false)
			if err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
			h, err := coldStart(dir(s), true)
			if err != nil {
				return fmt.Errorf("%s, heap: %w", s, err)
			}
			times[s] = append(times[s], float64(c.wall))
			cpus[s] = append(cpus[s], float64(c.cpu))
			settled[s] = append(settled[s], float64(c.settled))
			heaps[s] = append(heaps[s], float64(h.heap))
		}
	}
	fmt.Printf("\ncold start over stdio, exec to the first tools/list answered, and the server's CPU time "+
		"by then and 50 ms later (every thread's, from /proc/PID/task/*/schedstat), median of %d runs; live heap then "+
		"(after a full GC, /gc/heap/live:bytes), median of %d runs:\n\n", n, n)
	fmt.Println("| server | cold start | CPU | CPU 50 ms later | live heap |")
	fmt.Println("| --- | --- | --- | --- | --- |")
	ms := func(v []float64) float64 { return median(v) / float64(time.Millisecond) }
	for _, s := range stacks {
		fmt.Printf("| %s | %.1f ms | %.1f ms | %.1f ms | %.2f MB |\n", s, ms(times[s]), ms(cpus[s]), ms(settled[s]), median(heaps[s])/1e6)
	}
	ratio := func(m map[string][]float64, of string) float64 { return median(m["mcpgen"]) / median(m[of]) }
	fmt.Printf("\nmcpgen's cold start %.2fx mcp-go's, %.2fx go-sdk's; CPU %.2fx mcp-go's, %.2fx go-sdk's "+
		"(50 ms later %.2fx, %.2fx); live heap %.2fx mcp-go's, %.2fx go-sdk's\n",
		ratio(times, "mcpgo"), ratio(times, "gosdk"), ratio(cpus, "mcpgo"), ratio(cpus, "gosdk"),
		ratio(settled, "mcpgo"), ratio(settled, "gosdk"), ratio(heaps, "mcpgo"), ratio(heaps, "gosdk"))
	return nil
}

// onCPU is the time every thread of process pid has run so far (the
// first field of each /proc/PID/task/TID/schedstat, in nanoseconds).
func onCPU(pid int) (time.Duration, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no schedstat of process %d: %v", pid, err)
	}
	var sum time.Duration
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a thread that has just exited
		}
		ns, err := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", f, err)
		}
		sum += time.Duration(ns)
	}
	return sum, nil
}

// median is the median of v.
func median(v []float64) float64 {
	v = slices.Sorted(slices.Values(v))
	switch {
	case len(v) == 0:
		return 0
	case len(v)%2 == 1:
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}
