// Package npmtest installs the npm packages the repository's end-to-end
// tests run in Node (the TypeScript SDK's clients, a sentence encoder), once
// into the user's cache directory, and finds a Node to run them with. For
// tests only; nothing else imports it.
package npmtest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Install returns a Node of major version at least minMajor and a directory
// (named name, under the user's cache directory, reused by later runs)
// whose node_modules hold pkgs, installing them with npm; when the Node on
// PATH is older, it installs npm's node-linux package of version minMajor
// beside them. The test is skipped when npm is missing, unless
// MCPGEN_REQUIRE_NPM is set (.ci/run sets it): then it fails.
func Install(t testing.TB, name string, minMajor int, pkgs ...string) (node, dir string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		if os.Getenv("MCPGEN_REQUIRE_NPM") != "" {
			t.Fatal("npm not found, and MCPGEN_REQUIRE_NPM is set")
		}
		t.Skipf("npm not found: the test runs npm packages (and Node %d, which it installs from npm)", minMajor)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir = filepath.Join(cache, "mcpgen", name)
	pkgs = slices.Clone(pkgs)
	node, _ = exec.LookPath("node")
	if node != "" && Major(node) < minMajor {
		node = ""
	}
	if node == "" {
		arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
		if runtime.GOOS != "linux" || arch == "" {
			t.Skipf("no Node >= %d on PATH, and no node-linux package for %s/%s", minMajor, runtime.GOOS, runtime.GOARCH)
		}
		pkg := "node-linux-" + arch
		pkgs = append(pkgs, pkg+"@"+strconv.Itoa(minMajor))
		node = filepath.Join(dir, "node_modules", pkg, "bin", "node")
	}
	marker := filepath.Join(dir, "installed-"+strings.NewReplacer("/", "_", "@", "_").Replace(strings.Join(pkgs, "+")))
	if _, err := os.Stat(marker); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		args := append([]string{"install", "--prefix", dir, "--no-audit", "--no-fund", "--no-save", "--loglevel=error"}, pkgs...)
		if out, err := exec.CommandContext(ctx, npm, args...).CombinedOutput(); err != nil {
			t.Fatalf("npm %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if err := os.WriteFile(marker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if m := Major(node); m < minMajor {
		t.Fatalf("node at %s is version %d, want %d or later", node, m, minMajor)
	}
	return node, dir
}

// Major is the major version of the Node at node, 0 when it does not run.
func Major(node string) int {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return 0
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	return major
}
