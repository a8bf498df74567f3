#!/usr/bin/env bash
# A module of a user's, outside this repository, set up exactly as README.md's
# "Use it in your module" says for a checkout: replace lines for the core and
# the adapter it uses, then
#
#   go get github.com/mcpgen/mcpgen/mcptool
#   go get github.com/mcpgen/mcpgen/mcptool/mcptest
#   go get github.com/mcpgen/mcpgen/adapters/otel
#   go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen
#   //go:generate go tool mcpgen
#
# must work with no further go.mod edits. It generates, builds and runs a
# server with the OpenTelemetry adapter, checks that the tool it registers has
# the descriptions of its doc comments (which only mcpgen_gen.go carries), runs
# its mcptest test, and classes a change of its catalogue with go tool mcpgen
# diff.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:/usr/local/go/bin"
export GOWORK=off GOFLAGS=-mod=mod # as a user has it, outside this workspace

# Every dependency in the module cache, fetched through the proxy.
(cd "$root" && go mod download)
(cd "$root/adapters/otel" && go mod download)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
go mod init example.com/greeter
go mod edit -replace "github.com/mcpgen/mcpgen=$root" \
            -replace "github.com/mcpgen/mcpgen/adapters/otel=$root/adapters/otel"

# The module proxy these scripts run against answers 403, not 404, for the
# path github.com/mcpgen/mcpgen/cmd/mcpgen, which go get then takes for an
# error rather than for "no such module" (the public proxy answers 404). With
# GOPROXY=off the lookup is a plain not-found, and every module comes from
# the cache filled above: go get still records each one in go.mod and go.sum.
# With the proxy off, go would ask sum.golang.org itself (not through the
# proxy) about each module it records, and a machine that reaches only the
# module proxy cannot: the modules were checked against this repository's
# go.sum when go mod download fetched them, so the checksum database is not
# asked again (GOSUMDB=off).
GOPROXY=off GOSUMDB=off go get github.com/mcpgen/mcpgen/mcptool
GOPROXY=off GOSUMDB=off go get github.com/mcpgen/mcpgen/mcptool/mcptest
GOPROXY=off GOSUMDB=off go get github.com/mcpgen/mcpgen/adapters/otel
GOPROXY=off GOSUMDB=off go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen

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

# From here on go.mod and go.sum must be complete: -mod=readonly, Go's
# default, fails on any missing requirement or checksum.
export GOFLAGS=-mod=readonly
go generate ./...
[ -s mcpgen_gen.go ] || { echo "go generate wrote no mcpgen_gen.go"; ls -la; exit 1; }
sed -n 1p mcpgen_gen.go | grep -q '^// Code generated' || { echo "mcpgen_gen.go lacks the generated-code header"; exit 1; }
go vet ./...
go build -o greeter .
out=$(./greeter)
echo "$out"
fail=0
for want in '"name":"greet"' '"description":"Says hello to someone by name."' \
  '"description":"Name is the person to greet."' 'Hello, Ada!'; do
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
GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off go mod tidy
rm mcpgen_gen.go
go generate ./... || { echo "FAIL: go generate after go mod tidy"; fail=1; }
[ -s mcpgen_gen.go ] || { echo "FAIL: no mcpgen_gen.go after go mod tidy"; fail=1; }
[ "$fail" -eq 0 ] && echo "ok: go get (core, adapter), go get -tool, go generate, go test, go tool mcpgen diff in a fresh module"
exit $fail
