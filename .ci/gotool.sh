#!/usr/bin/env bash
# The generator installed the way Go installs tools, as README.md and
# docs/mcpgen.md show it: in a fresh module,
#
#   go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen
#   //go:generate go tool mcpgen
#
# must work with no further go.mod edits. This script does it in a temporary
# module whose go.mod points github.com/mcpgen/mcpgen at this checkout, then
# generates, builds and runs a program and checks that the tool it registers
# has the descriptions of its doc comments (which only mcpgen_gen.go carries).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:/usr/local/go/bin"
export GOWORK=off GOFLAGS=-mod=mod # as a user has it, outside this workspace

# Every dependency in the module cache, fetched through the proxy.
(cd "$root" && go mod download)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
go mod init example.com/greeter
go mod edit -replace "github.com/mcpgen/mcpgen=$root"

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
GOPROXY=off GOSUMDB=off go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen
GOPROXY=off GOSUMDB=off go get github.com/mcpgen/mcpgen/mcptool

cat >main.go <<'EOF'
// Command greeter is a fresh module using mcpgen's generator as a go tool.
package main

//go:generate go tool mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

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

func main() {
	reg := mcptool.NewRegistry()
	if err := reg.Add("greet", Greet); err != nil {
		log.Fatal(err)
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
# The tool directive keeps the generator's dependencies through go mod tidy.
grep -qx 'tool github.com/mcpgen/mcpgen/cmd/mcpgen' go.mod || { echo "FAIL: go.mod has no tool directive"; fail=1; }
GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off go mod tidy
rm mcpgen_gen.go
go generate ./... || { echo "FAIL: go generate after go mod tidy"; fail=1; }
[ -s mcpgen_gen.go ] || { echo "FAIL: no mcpgen_gen.go after go mod tidy"; fail=1; }
[ "$fail" -eq 0 ] && echo "ok: go get -tool, go generate (go tool mcpgen), go build in a fresh module"
exit $fail
