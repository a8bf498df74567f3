#!/usr/bin/env bash
# Runs every benchmark of the comparison, keeps the raw output in out/, and
# prints a benchstat table (stacks side by side) and the issue 7 target
# verdicts. The test binary is built once and run COUNT times with -count=1,
# so the repetitions of every stack are interleaved in time: drift on the
# machine (other load, heap growth) then spreads over all stacks alike
# instead of favouring whichever ran in a quiet moment.
#
#   ./run.sh                      # COUNT=6 BENCHTIME=1s BENCH=.
#   COUNT=10 BENCHTIME=2s ./run.sh
#   BENCH='Handler|E2E' ./run.sh  # a subset
#   BENCH=Standalone COUNT=10 ./run.sh  # the standalone throughput row only
#   MCPGEN_DIR=/path/to/checkout ./run.sh  # benchmark another mcpgen tree
#                                 # (default: the working tree, ../)
set -euo pipefail
cd "$(dirname "$0")"

modflag=()
if [[ -n "${MCPGEN_DIR:-}" ]]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	sed "s#=> \.\./\$#=> $(cd "$MCPGEN_DIR" && pwd)#" go.mod >"$tmp/go.mod"
	cp go.sum "$tmp/go.sum"
	modflag=(-modfile="$tmp/go.mod")
fi

COUNT=${COUNT:-6}
BENCHTIME=${BENCHTIME:-1s}
BENCH=${BENCH:-.}
BENCHSTAT=${BENCHSTAT:-golang.org/x/perf/cmd/benchstat@latest}

mkdir -p out
stamp=$(date -u +%Y%m%dT%H%M%SZ)
raw=out/bench-$stamp.txt
{
	echo "# $(go version)"
	echo "# nproc: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | sed 's/\t//')"
	echo "# mcpgen: ${MCPGEN_DIR:-..}"
	echo "# go test -c; $COUNT x: bench.test -test.run '^\$' -test.bench '$BENCH' -test.benchmem -test.count=1 -test.benchtime=$BENCHTIME"
} >"$raw"
go test "${modflag[@]}" -c -o out/bench.test .
# BenchmarkStandalone's two server binaries, built from the same tree.
go build "${modflag[@]}" -o out/standalone/ ./internal/standalone/mcpgen ./internal/standalone/gosdk
export STANDALONE_BIN=$PWD/out/standalone
for i in $(seq "$COUNT"); do
	echo "# pass $i/$COUNT" >&2
	./out/bench.test -test.run '^$' -test.bench "$BENCH" -test.benchmem -test.count=1 \
		-test.benchtime="$BENCHTIME" -test.timeout=60m | tee -a "$raw"
done
cp "$raw" out/latest.txt

echo
go run "$BENCHSTAT" -col /stack "$raw" | tee out/benchstat-latest.txt
echo
go run ./internal/verdict "$raw" | tee out/verdict-latest.txt
