// Command verdict reads the output of the bench module's benchmarks and
// prints, for each target of issue 7, the measured ratios and whether the
// target is met. It takes the median of repeated runs (-count).
//
//	go run ./internal/verdict out/latest.txt
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

type sample struct{ ns, bytes, allocs, perTool []float64 }

var line = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: verdict BENCH_OUTPUT")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	data := map[string]*sample{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		s := data[m[1]]
		if s == nil {
			s = &sample{}
			data[m[1]] = s
		}
		fields := strings.Fields(m[2])
		for i := 0; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			switch fields[i+1] {
			case "ns/op":
				s.ns = append(s.ns, v)
			case "B/op":
				s.bytes = append(s.bytes, v)
			case "allocs/op":
				s.allocs = append(s.allocs, v)
			case "ns/tool":
				s.perTool = append(s.perTool, v)
			}
		}
	}
	get := func(name string) (ns, b, allocs, perTool float64, ok bool) {
		s := data[name]
		if s == nil || len(s.ns) == 0 {
			return 0, 0, 0, 0, false
		}
		return median(s.ns), median(s.bytes), median(s.allocs), median(s.perTool), true
	}
	verdict := func(ok bool) string {
		if ok {
			return "MET"
		}
		return "MISSED"
	}

	fmt.Println("== Targets (medians) ==")
	// 1. Handler path.
	if mns, _, mal, _, ok := get("BenchmarkHandler/stack=mcpgen"); ok {
		fns, _, fal, _, _ := get("BenchmarkHandler/stack=floor")
		gns, _, gal, _, _ := get("BenchmarkHandler/stack=gosdk")
		ons, _, oal, _, _ := get("BenchmarkHandler/stack=mcpgo")
		fmt.Printf("handler: mcpgen %.0f ns, %.0f allocs; floor %.0f ns, %.0f allocs\n", mns, mal, fns, fal)
		fmt.Printf("  within 1.2x of floor, time:   %.2fx  %s\n", mns/fns, verdict(mns <= 1.2*fns))
		fmt.Printf("  within 1.2x of floor, allocs: %.2fx  %s\n", mal/fal, verdict(mal <= 1.2*fal))
		fmt.Printf("  >=3x faster than gosdk:       %.2fx (allocs %.1fx)  %s\n", gns/mns, gal/mal, verdict(gns >= 3*mns))
		fmt.Printf("  >=3x faster than mcpgo:       %.2fx (allocs %.1fx)  %s\n", ons/mns, oal/mal, verdict(ons >= 3*mns))
	}
	// 2. End to end.
	for _, tr := range []string{"inmemory", "http", "http-2025"} {
		p := "BenchmarkE2E/transport=" + tr + "/stack="
		mns, mb, mal, _, ok := get(p + "mcpgen")
		if !ok {
			continue
		}
		fns, fb, fal, _, _ := get(p + "floor")
		gns, _, _, _, _ := get(p + "gosdk")
		ons, _, _, _, _ := get(p + "mcpgo")
		fmt.Printf("e2e %-9s: mcpgen %.0f ns vs floor %.0f ns = %.3fx (B/op %.2fx, allocs %.2fx; gosdk %.2fx, mcpgo %.2fx of mcpgen)  within 5%%: %s\n",
			tr, mns, fns, mns/fns, mb/fb, mal/fal, gns/mns, ons/mns, verdict(mns <= 1.05*fns))
	}
	// 3. Registration.
	for _, n := range []string{"10", "100", "1000"} {
		p := "BenchmarkRegister/n=" + n + "/stack="
		_, _, _, g, ok := get(p + "gosdk")
		if !ok {
			continue
		}
		for _, st := range []string{"mcpgen", "mcpgen-generic", "mcpgen-cold"} {
			name := p + st
			if st == "mcpgen-cold" {
				name = "BenchmarkRegisterCold/n=" + n + "/stack=" + st
			}
			_, _, _, m, ok := get(name)
			if !ok {
				continue
			}
			fmt.Printf("register n=%-4s %-15s %8.0f ns/tool vs gosdk uncached %8.0f ns/tool = %5.1fx cheaper  >=10x: %s\n",
				n, st, m, g, g/m, verdict(g >= 10*m))
		}
	}
	// 4. Server construction.
	if mns, mb, mal, _, ok := get("BenchmarkServer/stack=mcpgen"); ok {
		fns, fb, fal, _, _ := get("BenchmarkServer/stack=floor")
		fmt.Printf("server (100 tools): mcpgen %.0f ns %.0f B %.0f allocs; floor (no schema derivation) %.0f ns %.0f B %.0f allocs: %.2fx time, %.2fx B, %.2fx allocs\n",
			mns, mb, mal, fns, fb, fal, mns/fns, mb/fb, mal/fal)
		fmt.Printf("  mcpgen adds no per-request schema work beyond go-sdk's own AddTool (<=1.1x floor): %s\n", verdict(mns <= 1.1*fns && mb <= 1.1*fb))
	}
	// 5. tools/list.
	if fns, fb, _, _, ok := get("BenchmarkToolsList/stack=floor"); ok {
		for _, st := range []string{"mcpgen", "gosdk", "mcpgo"} {
			ns, b, _, _, ok := get("BenchmarkToolsList/stack=" + st)
			if ok {
				fmt.Printf("tools/list 10k %-6s %.3fx floor time, %.2fx floor B/op\n", st, ns/fns, b/fb)
			}
		}
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
