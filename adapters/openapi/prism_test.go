package mcpopenapi_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	mcpopenapi "github.com/mcpgen/mcpgen/adapters/openapi"
	"github.com/mcpgen/mcpgen/internal/npmtest"
	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// prismCLI is Stoplight's Prism, a mock server that validates each request
// against the description.
const prismCLI = "@stoplight/prism-cli@5.16.0"

// TestPrism: against Prism, which checks every request against the
// description independently, each tool called with the valid arguments
// mcptest.Fuzz derives from its input schema passes Prism's validation,
// and the invalid ones never reach it (Fuzz checks that they are refused
// before the tool runs; the proxy in front of Prism counts what arrives).
func TestPrism(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prism")
	}
	node, dir := npmtest.Install(t, "openapi-prism", 20, prismCLI)
	prism := filepath.Join(dir, "node_modules", "@stoplight", "prism-cli", "dist", "index.js")
	for _, file := range []string{"testdata/petstore.yaml", "testdata/petstore-expanded.yaml", "testdata/petstore-3.1.yaml"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			base := startPrism(t, node, prism, file)
			counter := &prismProxy{target: base}
			proxy := newPetstore(t, counter.ServeHTTP)
			reg := mcptool.NewRegistry(mcpopenapi.Types())
			if err := mcpopenapi.Add(reg, load(t, file), mcpopenapi.Options{BaseURL: proxy.URL + "/v1"}); err != nil {
				t.Fatal(err)
			}
			for _, tl := range reg.Tools() {
				before := counter.count()
				mcptest.Fuzz(t, reg, tl.Name)
				if counter.count() == before {
					t.Errorf("%s: no valid call reached Prism", tl.Name)
				}
			}
			counter.mu.Lock()
			defer counter.mu.Unlock()
			t.Logf("%s: %d requests reached Prism; it refused %d, all for an integer beyond 2^53-1", file, counter.n, counter.unsafe)
			for _, r := range counter.refused {
				t.Errorf("Prism refused: %s", r)
			}
		})
	}
}

// prismProxy forwards to Prism, counting the requests and keeping those
// Prism found invalid (4xx).
type prismProxy struct {
	target  *url.URL
	mu      sync.Mutex
	n       int
	refused []string
	unsafe  int // refused for an int64 beyond JavaScript's safe integers
}

// beyondSafe finds an integer beyond ±(2^53-1) in a request: OpenAPI's
// int64 is the full 64-bit range (so is the tools' schema), while Prism,
// in JavaScript, refuses what its numbers cannot hold exactly.
var beyondSafe = func() func(string) bool {
	re := regexp.MustCompile(`-?[0-9]{16,}`)
	limit := new(big.Int).SetInt64(1<<53 - 1)
	return func(s string) bool {
		for _, m := range re.FindAllString(s, -1) {
			n, ok := new(big.Int).SetString(m, 10)
			if ok && new(big.Int).Abs(n).Cmp(limit) > 0 {
				return true
			}
		}
		return false
	}
}()

func (p *prismProxy) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

func (p *prismProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.URL.Path = strings.TrimPrefix(r.URL.Path, "/v1")
	r.URL.RawPath = strings.TrimPrefix(r.URL.RawPath, "/v1")
	rec := &statusWriter{ResponseWriter: w}
	httputil.NewSingleHostReverseProxy(p.target).ServeHTTP(rec, r)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	switch {
	case rec.status >= 400 && beyondSafe(r.URL.RequestURI()+" "+string(body)):
		p.unsafe++
	case rec.status >= 400:
		p.refused = append(p.refused, fmt.Sprintf("%s %s: %d %s", r.Method, r.URL.RequestURI(), rec.status, rec.body.String()))
	}
}

type statusWriter struct {
	http.ResponseWriter
	status int
	body   strings.Builder
}

func (s *statusWriter) WriteHeader(code int) { s.status = code; s.ResponseWriter.WriteHeader(code) }
func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = 200
	}
	if s.status >= 400 && s.body.Len() < 2000 {
		s.body.Write(b)
	}
	return s.ResponseWriter.Write(b)
}

// startPrism runs prism mock on a free loopback port with the description
// and waits until it listens.
func startPrism(t *testing.T, node, prism, file string) *url.URL {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, prism, "mock", "-h", "127.0.0.1", "-p", fmt.Sprint(port), file)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	ready := make(chan struct{})
	var log strings.Builder
	var logMu sync.Mutex
	go func() {
		sc := bufio.NewScanner(out)
		once := sync.Once{}
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if strings.Contains(sc.Text(), "Prism is listening") {
				once.Do(func() { close(ready) })
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		logMu.Lock()
		defer logMu.Unlock()
		t.Fatalf("prism did not start in 60 s:\n%s", log.String())
	}
	u, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", port))
	return u
}
