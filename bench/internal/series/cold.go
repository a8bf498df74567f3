package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
)

// toolsList is the request whose answer ends a cold start.
const toolsList = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`

// coldStart execs the server bin serving stdio and returns the time from
// exec to its first tools/list answered (initialize, its answer,
// notifications/initialized and tools/list written as soon as each may
// be). With heap, the server is started with standalone.HeapEnv, sent
// SIGUSR1 once that answer is read, and its live heap after a full GC is
// returned too; the time of such a run includes the signal handler's set-up,
// so the series times runs without it and reads the heap in runs of their
// own.
func coldStart(bin string, heap bool) (time.Duration, uint64, error) {
	p, err := startStdio(bin, heap)
	if err != nil {
		return 0, 0, err
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
		return 0, 0, err
	}
	if _, err := p.roundTrip(toolsList, `"calculate_sum"`); err != nil {
		return 0, 0, fmt.Errorf("tools/list: %w", err)
	}
	elapsed := time.Since(start)
	if !heap {
		return elapsed, 0, nil
	}
	if err := p.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		return 0, 0, err
	}
	for {
		line, err := p.stderr.ReadString('\n')
		if err != nil {
			return 0, 0, fmt.Errorf("no heap line on stderr: %w", err)
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), standalone.HeapPrefix); ok {
			n, err := strconv.ParseUint(v, 10, 64)
			return elapsed, n, err
		}
	}
}

// coldStarts runs n cold starts and n heap runs of every stack, the stacks
// interleaved, after one untimed run each (the binary into the page cache),
// and prints the medians.
func coldStarts(dir func(string) string, n int) error {
	times := map[string][]float64{}
	heaps := map[string][]float64{}
	for _, s := range stacks {
		if _, _, err := coldStart(dir(s), false); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	for i := range n {
		for j := range stacks {
			s := stacks[(i+j)%len(stacks)]
			d, _, err := coldStart(dir(s), false)
			if err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
			_, h, err := coldStart(dir(s), true)
			if err != nil {
				return fmt.Errorf("%s, heap: %w", s, err)
			}
			times[s] = append(times[s], float64(d))
			heaps[s] = append(heaps[s], float64(h))
		}
	}
	fmt.Printf("\ncold start over stdio, exec to the first tools/list answered, median of %d runs; "+
		"live heap then (after a full GC, /gc/heap/live:bytes), median of %d runs:\n\n", n, n)
	fmt.Println("| server | cold start | live heap |")
	fmt.Println("| --- | --- | --- |")
	for _, s := range stacks {
		fmt.Printf("| %s | %.1f ms | %.2f MB |\n", s, median(times[s])/float64(time.Millisecond), median(heaps[s])/1e6)
	}
	fmt.Printf("\nmcpgen's cold start %.2fx mcp-go's, %.2fx go-sdk's; live heap %.2fx mcp-go's, %.2fx go-sdk's\n",
		median(times["mcpgen"])/median(times["mcpgo"]), median(times["mcpgen"])/median(times["gosdk"]),
		median(heaps["mcpgen"])/median(heaps["mcpgo"]), median(heaps["mcpgen"])/median(heaps["gosdk"]))
	return nil
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
