#!/usr/bin/env bash
# Checks mcpgen's Go policy on every module of the repository (or on the
# module directories given as arguments):
#
#   The go directive is the oldest Go release the Go team still supports,
#   and no dependency needs a newer Go than that.
#
# The Go team supports the two newest major releases, so the directive must be
# the older one's .0: 1.26.0 while 1.27 is current. The current release is read
# from the module proxy (`go list -m -versions go` lists the released
# toolchains, served as golang.org/toolchain), so the check follows new Go
# releases without edits here. Set GO_CURRENT_RELEASE=1.27 to skip the query.
#
# Usage: .ci/godirective.sh [module-dir ...]   (from any directory)
set -euo pipefail
export GOWORK=off
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

current=${GO_CURRENT_RELEASE:-}
if [ -z "$current" ]; then
  # Released versions only (1.27.0, 1.27.4), not 1.28rc1; the newest major wins.
  if ! versions=$(go list -m -versions go); then
    echo "godirective: cannot list Go releases from the module proxy ($(go env GOPROXY));"
    echo "set GO_CURRENT_RELEASE (e.g. 1.27) to check offline"; exit 1
  fi
  current=$(printf '%s\n' $versions | grep -E '^1\.[0-9]+\.[0-9]+$' | sort -V | tail -n1 | cut -d. -f1,2)
fi
case "$current" in
  1.[0-9]*) ;;
  *) echo "godirective: cannot tell the current Go release (got '$current')"; exit 1 ;;
esac
want="1.$(( ${current#1.} - 1 )).0"
echo "current Go release $current: supported $want and newer; every go directive must be 'go $want'"

# newer A B: A is a newer Go version than B.
newer() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n1)" = "$1" ]; }

if [ $# -gt 0 ]; then
  mods=("$@")
else
  mapfile -t mods < <(git ls-files '*go.mod' | grep -v '/testdata/' | xargs -n1 dirname)
fi

fail=0
directive() { awk '$1 == "go" { print $2; exit }' "$1"; }

if [ $# -eq 0 ] && [ -f go.work ]; then
  got=$(directive go.work)
  if [ "$got" != "$want" ]; then
    echo "FAIL go.work: 'go $got', want 'go $want' (the oldest supported Go release)"; fail=1
  fi
fi

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for m in "${mods[@]}"; do
  gomod="$m/go.mod"
  bad=0
  got=$(directive "$gomod")
  if [ "$got" != "$want" ]; then
    echo "FAIL $gomod: 'go $got', want 'go $want' (the oldest supported Go release;"
    echo "     run: (cd $m && go mod edit -go=$want && go mod tidy))"
    bad=1
  fi
  # The Go version each module of the build graph asks for. Listing the graph
  # may add go.sum lines, so list from a copy of go.mod/go.sum.
  cp "$gomod" "$tmp/go.mod"
  if [ -f "$m/go.sum" ]; then cp "$m/go.sum" "$tmp/go.sum"; else : >"$tmp/go.sum"; fi
  deps=$( (cd "$m" && go list -mod=mod -modfile="$tmp/go.mod" -m -f '{{if not .Main}}{{.Path}}@{{.Version}} {{.GoVersion}}{{end}}' all) )
  n=0; too_new=""
  while read -r dep v; do
    [ -z "$dep" ] && continue
    n=$((n + 1))
    if [ -n "$v" ] && newer "$v" "$want"; then too_new="$too_new     $dep needs go $v"$'\n'; fi
  done <<<"$deps"
  if [ -n "$too_new" ]; then
    echo "FAIL $gomod: dependencies need a Go newer than $want (downgrade them, or say in go.mod why not):"
    printf '%s' "$too_new"; bad=1
  fi
  if grep -q '^require' "$gomod" && [ "$n" -eq 0 ]; then
    echo "FAIL $gomod: listed no dependencies (go list -m all failed?)"; bad=1
  fi
  if [ "$bad" -ne 0 ]; then fail=1; continue; fi
  echo "ok   $gomod: go $got; $n modules in its build graph, none needs a newer Go"
done
exit $fail
