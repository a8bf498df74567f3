#!/usr/bin/env bash
# A module of a user's, outside this repository, set up by README.md's recipe
# for a checkout ("Use it in your module"): the shell block after the marker
# <!-- ci: .ci/gotool.sh runs this block --> is extracted and run as written,
# in a new module next to the clone (../mcpgen), with empty module and build
# caches, so that every module comes from the module proxy (or the clone) and
# every package is compiled. The recipe must then be enough: the script builds
# and runs a server with the OpenTelemetry adapter, checks that the tool it
# registers has the descriptions of its doc comments (which only
# mcpgen_gen.go carries), runs its mcptest test, classes a change of its
# catalogue with go tool mcpgen diff, and runs go mod tidy again.
#
# Why a recipe and not go get: go get asks the module proxy about every path
# it is given, even one a replace line points at a directory, and a proxy that
# does not have the module fails it (this machine's proxy answers 403
# Forbidden for reading .../github.com/mcpgen/mcpgen/mcptool/@v/list; the
# public one answers 404, which go get takes for "no such module"). go mod
# edit writes the requirements without asking anyone, and go mod tidy takes
# the replaced modules from the clone and only their dependencies from the
# proxy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:/usr/local/go/bin"

tmp=$(mktemp -d)
# -modcacherw (below) leaves the module cache writable, so that it can be
# removed; the chmod is for a cache some step made read-only anyway.
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
# As a user has it: outside this workspace, with nothing downloaded or
# compiled yet, and go's default -mod=readonly (go.mod and go.sum must be
# complete after the recipe: any missing requirement or checksum fails).
export GOWORK=off GOFLAGS=-modcacherw GOMODCACHE="$tmp/modcache" GOCACHE="$tmp/gocache"

# The recipe, as README.md writes it.
recipe=$(awk '
  /^<!-- ci: \.ci\/gotool\.sh runs this block -->$/ { marked = 1; next }
  marked && !open && /^```sh$/ { open = 1; next }
  open && /^```$/ { exit }
  open { print }
' "$root/README.md")
if [ -z "$recipe" ]; then
  echo "FAIL: README.md has no shell block after <!-- ci: .ci/gotool.sh runs this block -->"; exit 1
fi

# The layout the recipe assumes: the user's module, and the clone beside it.
ln -s "$root" "$tmp/mcpgen"
mkdir "$tmp/greeter"
cd "$tmp/greeter"
go mod init example.com/greeter

cat >main.go <<'EOF'
// Command greeter is a fresh module using mcpgen, its OpenTelemetry adapter
// and its generator as a go tool.
package main

//go:generate go tool mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	mcpotel "github.com/mcpgen/mcpgen/adapters/otel"
	"github.com/mcpgen/mcpgen/mcptool"
)

// GreetArgs are the arguments of greet.
type GreetArgs struct {
	// Name is the person to greet.
	Name string `json:"name"`
}

// Greet says hello to someone by name.
func Greet(_ context.Context, in GreetArgs) (string, error) {
	return "Hello, " + in.Name + "!", nil
}

// registry registers the server's tools, traced with the global
// OpenTelemetry providers.
func registry() (*mcptool.Registry, error) {
	mw, err := mcpotel.Middleware(nil)
	if err != nil {
		return nil, err
	}
	reg := mcptool.NewRegistry(mcptool.Use(mw))
	return reg, reg.Add("greet", Greet)
}

func main() {
	reg, err := registry()
	if err != nil {
		log.Fatal(err)
	}
	if len(os.Args) > 1 && os.Args[1] == "catalog" {
		c, err := reg.Catalog()
		if err != nil {
			log.Fatal(err)
		}
		if err := c.Write(os.Stdout, "json", "Greeter"); err != nil {
			log.Fatal(err)
		}
		return
	}
	for _, t := range reg.Tools() {
		b, err := json.Marshal(t)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(string(b))
	}
	res, err := reg.Call(context.Background(), "greet", json.RawMessage(`{"name":"Ada"}`))
	if err != nil {
		log.Fatal(err)
	}
	b, _ := json.Marshal(res)
	fmt.Println(string(b))
}
EOF

cat >main_test.go <<'EOF'
package main

import (
	"testing"

	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

func TestGreet(t *testing.T) {
	reg, err := registry()
	if err != nil {
		t.Fatal(err)
	}
	c := mcptest.Client(t, reg)
	if got := c.Call("greet", map[string]any{"name": "Ada"}).Text(); got != "Hello, Ada!" {
		t.Errorf("greet: %q", got)
	}
	if got := c.Call("greet", map[string]any{}).ErrorText(); got == "" {
		t.Error("greet without a name: no error text")
	}
}

func TestGenerated(t *testing.T) { mcptest.GeneratedCurrent(t) }
EOF

echo "--- README.md's recipe, run in $tmp/greeter:"
echo "$recipe"
echo "---"
bash -euo pipefail -c "$recipe"

go generate ./...
[ -s mcpgen_gen.go ] || { echo "go generate wrote no mcpgen_gen.go"; ls -la; exit 1; }
sed -n 1p mcpgen_gen.go | grep -q '^// Code generated' || { echo "mcpgen_gen.go lacks the generated-code header"; exit 1; }
go vet ./...
go build -o greeter .
out=$(./greeter)
echo "$out"
fail=0
for want in '"name":"greet"' '"description":"Says hello to someone by name."' \
  '"description":"The person to greet."' 'Hello, Ada!'; do
  if ! grep -qF "$want" <<<"$out"; then
    echo "FAIL: the program's output lacks $want"; fail=1
  fi
done
go test -count=1 ./... || { echo "FAIL: the module's mcptest test"; fail=1; }

# go tool mcpgen diff classes a change of the catalogue: a new required
# argument is breaking (exit status 1).
./greeter catalog >old.json
sed -i 's|^\tName string `json:"name"`$|&\n\t// Greeting is the word to greet with.\n\tGreeting string `json:"greeting"`|' main.go
go generate ./...
go build -o greeter .
./greeter catalog >new.json
set +e
diff_out=$(go tool mcpgen diff old.json new.json)
status=$?
set -e
echo "$diff_out"
[ "$status" -eq 1 ] || { echo "FAIL: go tool mcpgen diff exited $status, want 1 (breaking)"; fail=1; }
grep -q 'greeting' <<<"$diff_out" || { echo "FAIL: the diff does not name the new argument"; fail=1; }

# The tool directive keeps the generator's dependencies through go mod tidy.
grep -qx 'tool github.com/mcpgen/mcpgen/cmd/mcpgen' go.mod || { echo "FAIL: go.mod has no tool directive"; fail=1; }
go mod tidy
rm mcpgen_gen.go
go generate ./... || { echo "FAIL: go generate after go mod tidy"; fail=1; }
[ -s mcpgen_gen.go ] || { echo "FAIL: no mcpgen_gen.go after go mod tidy"; fail=1; }
[ "$fail" -eq 0 ] && echo "ok: README.md's recipe (go mod edit, go mod tidy) with empty caches; go generate, go test, go tool mcpgen diff in a fresh module"
exit $fail
