#!/usr/bin/env bash
# The first build of a one-tool server on mcptool against a one-tool go-sdk
# server: each built from empty module and build caches (GOMODCACHE and
# GOCACHE in a new temporary directory), in turn, RUNS times (default 3).
# Prints each build's user+sys CPU and wall seconds, and each pair's ratio.
#
# The modules come from GOPROXY; to leave the network out, point it at a
# module cache that has them (after one build of each):
#   GOPROXY=file://$(go env GOMODCACHE)/cache/download GOSUMDB=off bash bench/firstbuild.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${RUNS:-3}"
work="$(mktemp -d)"
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
mkdir -p "$work/mcptool" "$work/gosdk"

cat >"$work/mcptool/main.go" <<'EOF'
package main

import (
	"context"
	"log"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type SearchArgs struct {
	Query string `json:"query" jsonschema_description:"Words to look for" validate:"required,min=2"`
	Limit int    `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
}

type Note struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

func Search(ctx context.Context, in SearchArgs) ([]Note, error) {
	return []Note{{ID: "1", Title: in.Query}}, nil
}

func main() {
	reg := mcptool.NewRegistry()
	if err := reg.Add("search_notes", Search, mcptool.Description("Search notes by title.")); err != nil {
		log.Fatal(err)
	}
	srv := reg.Server(&mcp.Implementation{Name: "notes", Version: "1.0.0"}, nil)
	if err := srv.Run(context.Background(), &mcptool.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
EOF

cat >"$work/gosdk/main.go" <<'EOF'
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type SearchArgs struct {
	Query string `json:"query" jsonschema:"Words to look for"`
	Limit int    `json:"limit,omitempty"`
}

type Note struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

type Notes struct {
	Result []Note `json:"result"`
}

func Search(ctx context.Context, req *mcp.CallToolRequest, in SearchArgs) (*mcp.CallToolResult, Notes, error) {
	return nil, Notes{Result: []Note{{ID: "1", Title: in.Query}}}, nil
}

func main() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "search_notes", Description: "Search notes by title."}, Search)
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
EOF

export GOWORK=off
printf 'module example.com/onetool\n\ngo 1.26.0\n\nrequire github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000\n\nreplace github.com/mcpgen/mcpgen => %s\n' "$root" >"$work/mcptool/go.mod"
printf 'module example.com/onetool\n\ngo 1.26.0\n' >"$work/gosdk/go.mod"
(cd "$work/mcptool" && go mod tidy)
(cd "$work/gosdk" && go get github.com/modelcontextprotocol/go-sdk@"$(cd "$root" && go list -m -f '{{.Version}}' github.com/modelcontextprotocol/go-sdk)" && go mod tidy)

# build DIR prints "cpu wall" of DIR's build on empty caches.
build() {
  local t
  t="$(mktemp -d)"
  /usr/bin/time -f '%U %S %e' -o "$t.time" env GOMODCACHE="$t/mod" GOCACHE="$t/cache" GOFLAGS=-modcacherw \
    go build -C "$1" -o "$t/server" . >"$t.log" 2>&1 || { cat "$t.log" >&2; exit 1; }
  awk '{ printf "%.1f %.1f", $1 + $2, $3 }' "$t.time"
  chmod -R u+w "$t"
  rm -rf "$t" "$t.time" "$t.log"
}

printf '%-4s %22s %22s %10s\n' run 'mcptool cpu/wall (s)' 'go-sdk cpu/wall (s)' 'cpu ratio'
for i in $(seq "$runs"); do
  read -r ac aw <<<"$(build "$work/mcptool")"
  read -r bc bw <<<"$(build "$work/gosdk")"
  printf '%-4s %22s %22s %10s\n' "$i" "$ac / $aw" "$bc / $bw" "$(awk -v a="$ac" -v b="$bc" 'BEGIN { printf "%.2fx", a / b }')"
done
