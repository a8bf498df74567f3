package standalone

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"syscall"
)

// The wires a server serves, named by its -wire flag.
const (
	// Stateless is 2026-07-28 streamable HTTP, one request per call (the
	// default).
	Stateless = "stateless"
	// Session is 2025-11-25 streamable HTTP: initialize opens a session
	// (Mcp-Session-Id) that every later request names.
	Session = "session"
	// Stdio is newline-delimited JSON-RPC over stdin and stdout.
	Stdio = "stdio"
)

// Wire parses the command line of a server: -wire stateless|session|stdio.
func Wire() string {
	w := flag.String("wire", Stateless, "what to serve: stateless (2026-07-28 HTTP), session (2025-11-25 HTTP sessions) or stdio")
	flag.Parse()
	switch *w {
	case Stateless, Session, Stdio:
	default:
		log.Fatalf("-wire: no wire %q (stateless, session, stdio)", *w)
	}
	return *w
}

// HeapEnv is the environment variable that makes a server report its heap:
// when it is "1", [HeapOnSignal] listens for SIGUSR1.
const HeapEnv = "MCPGEN_BENCH_HEAP"

// HeapPrefix starts the line [HeapOnSignal] writes.
const HeapPrefix = "mcpgen-bench-heap "

// HeapOnSignal, when HeapEnv is "1", writes "mcpgen-bench-heap BYTES" to
// stderr at every SIGUSR1: the live heap (runtime/metrics
// "/gc/heap/live:bytes") after a full GC, so that the series can read a
// stdio server's heap at the moment it chooses (right after its first
// tools/list answer) without the server knowing what it answered. Without
// the variable it does nothing, so the timed runs carry no signal handler.
func HeapOnSignal() {
	if os.Getenv(HeapEnv) != "1" {
		return
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for range sig {
			runtime.GC()
			metrics.Read(s)
			fmt.Fprintf(os.Stderr, "%s%d\n", HeapPrefix, s[0].Value.Uint64())
		}
	}()
}

// ProfileEnv is the environment variable that makes a server profile
// itself: when it names a directory, [Profile] writes the CPU profile of
// the server's run to DIR/SERVER-WIRE.cpu and its allocations since start
// to DIR/SERVER-WIRE.allocs when it is stopped by SIGTERM (each run
// overwrites the last). The series passes it on and stops its servers with
// SIGTERM then, so a server is profiled under the series' own load:
//
//	MCPGEN_BENCH_PROFILE=$PWD go run ./internal/series -rounds 1 -c 8
const ProfileEnv = "MCPGEN_BENCH_PROFILE"

// Profile starts the CPU profile ProfileEnv asks for, of the server
// serving wire, and writes both profiles and exits at SIGTERM. Without the
// variable it does nothing.
func Profile(wire string) {
	dir := os.Getenv(ProfileEnv)
	if dir == "" {
		return
	}
	name := filepath.Join(dir, filepath.Base(os.Args[0])+"-"+wire)
	f, err := os.Create(name + ".cpu")
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	go func() {
		<-sig
		pprof.StopCPUProfile()
		err := f.Close()
		if m, merr := os.Create(name + ".allocs"); merr == nil {
			err = errors.Join(err, pprof.Lookup("allocs").WriteTo(m, 0), m.Close())
		}
		if err != nil {
			log.Fatal(err)
		}
		os.Exit(0)
	}()
}
