package mcptest_test

import (
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// recorder is a testing.TB that records what the helpers report instead
// of failing, so tests can check the failures mcptest reports and examples
// can print them. It implements the methods mcptest uses: Helper, Logf,
// Errorf, Fatalf, Cleanup and TempDir. Fatalf does not stop the goroutine;
// the helpers return after it.
type recorder struct {
	testing.TB // nil: any other method panics

	mu       sync.Mutex
	errors   []string
	logs     []string
	cleanups []func()
	print    bool // print each error as it comes, for examples
}

func (r *recorder) Helper() {}

func (r *recorder) Logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	msg := fmt.Sprintf(format, args...)
	r.errors = append(r.errors, msg)
	if r.print {
		fmt.Println(stable(msg))
	}
}

func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

func (r *recorder) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

func (r *recorder) TempDir() string {
	dir, err := os.MkdirTemp("", "mcptest")
	if err != nil {
		panic(err)
	}
	r.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// finish runs the cleanups, last first, as a test's end does.
func (r *recorder) finish() {
	for {
		r.mu.Lock()
		n := len(r.cleanups)
		if n == 0 {
			r.mu.Unlock()
			return
		}
		f := r.cleanups[n-1]
		r.cleanups = r.cleanups[:n-1]
		r.mu.Unlock()
		f()
	}
}

// failures returns the recorded errors, joined.
func (r *recorder) failures() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.errors, "\n")
}

var refPattern = regexp.MustCompile(`ref [0-9a-f]{12}`)

// stable replaces what changes from run to run (internal error references)
// in a report.
func stable(s string) string { return refPattern.ReplaceAllString(s, "ref …") }

// discard is a logger that drops everything: the examples' registries log
// the panics they provoke.
var discard = slog.New(slog.DiscardHandler)

// diffLines returns the lines of a diff that add or remove a line
// mentioning one of keys.
func diffLines(diff string, keys ...string) string {
	var out []string
	for _, line := range strings.Split(diff, "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+") {
			continue
		}
		for _, k := range keys {
			if strings.Contains(line, k) {
				out = append(out, t)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
