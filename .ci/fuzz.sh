#!/usr/bin/env bash
# Runs every fuzz target of every Go module in the repository for FUZZTIME
# each (default 10s). Targets are found with `go test -list '^Fuzz'`, so a new
# Fuzz function is picked up without touching this script. The seed corpora
# (testdata/fuzz/<Target>/ beside each package) run first, as part of each
# target's run. A failing input is written to that directory by go test:
# commit it with the fix, and it stays a regression test.
#
#   FUZZTIME=60s bash .ci/fuzz.sh            # every target, a minute each
#   FUZZTIME=5m bash .ci/fuzz.sh ./mcptool   # the targets of some packages
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-10s}"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

# The modules: the root one, and any nested one (bench/, adapters/...).
mapfile -t modules < <(git ls-files -- 'go.mod' '*/go.mod' | xargs -n1 dirname | sort -u)

ran=0
failed=()
summary=()
for mod in "${modules[@]}"; do
  if [ "$#" -gt 0 ] && [ "$mod" != "." ]; then
    continue # package arguments name packages of the root module
  fi
  pkgs=("$@")
  if [ "${#pkgs[@]}" -eq 0 ]; then
    mapfile -t pkgs < <(cd "$mod" && go list ./...)
  fi
  for pkg in "${pkgs[@]}"; do
    # Test binaries that do not build show up in `go test -list` as a
    # failure; let the test step report those, and skip them here.
    if ! targets=$(cd "$mod" && go test -list '^Fuzz' "$pkg" 2>/dev/null); then
      echo "fuzz: cannot list the targets of $pkg (does it build?)" >&2
      failed+=("$pkg (list)")
      continue
    fi
    for target in $(printf '%s\n' "$targets" | grep -E '^Fuzz[A-Za-z0-9_]*$' || true); do
      printf '\n== fuzz %s %s for %s\n' "$pkg" "$target" "$FUZZTIME"
      ran=$((ran + 1))
      start=$SECONDS
      log=$(mktemp)
      corpus="$(cd "$mod" && go list -f '{{.Dir}}' "$pkg")/testdata/fuzz/$target"
      before=$(ls "$corpus" 2>/dev/null | sort || true)
      if (cd "$mod" && go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg") 2>&1 | tee "$log"; then
        execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo "?")
        summary+=("ok   $pkg $target: $((SECONDS - start))s, $execs execs")
      elif [ "$(ls "$corpus" 2>/dev/null | sort || true)" = "$before" ] &&
        [ "$(sed -n '/^--- FAIL: /,/^FAIL$/p' "$log" | sed '1d;$d' | tr -d ' \t')" = "contextdeadlineexceeded" ]; then
        # Go 1.26's fuzz coordinator can report its own -fuzztime deadline
        # as a failure when a worker is mid-input as time runs out
        # (go.dev/issue/75804, fixed in Go 1.27): no input failed and none
        # was written, so the run counts, with a note.
        execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo "?")
        summary+=("ok   $pkg $target: $((SECONDS - start))s, $execs execs (stopped by go.dev/issue/75804, no failing input)")
      else
        summary+=("FAIL $pkg $target (the failing input is in testdata/fuzz/$target/)")
        failed+=("$pkg $target")
      fi
      rm -f "$log"
    done
  done
done

printf '\n== fuzz summary (%s each)\n' "$FUZZTIME"
printf '%s\n' "${summary[@]}"
if [ "$ran" -eq 0 ]; then
  echo "fuzz: no fuzz target found" >&2
  exit 1
fi
if [ "${#failed[@]}" -gt 0 ]; then
  printf 'fuzz: %d failed: %s\n' "${#failed[@]}" "${failed[*]}" >&2
  exit 1
fi
echo "fuzz: $ran targets passed"
