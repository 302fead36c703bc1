#!/usr/bin/env bash
# Perft speed test of the move generator, single thread, from the start position.
#
# Builds the release binary, runs `checkers-ga perft 11` and `perft 12` three times each,
# checks the node counts against the published numbers and prints the median nodes/s.
# Exits non-zero if the build fails or a count is wrong.
#
# Usage: scripts/bench-perft.sh        (from anywhere inside the repository)
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=3

echo "building release..."
cargo build --release --quiet
BIN=target/release/checkers-ga

# depth -> published perft count
declare -A EXPECTED=([11]=85242128 [12]=388623673)

status=0
for depth in 11 12; do
    want=${EXPECTED[$depth]}
    rates=()
    for run in $(seq 1 "$RUNS"); do
        out=$("$BIN" perft "$depth")
        nodes=$(awk '$1 == "nodes" { print $2 }' <<<"$out")
        secs=$(awk '$1 == "time" { print $2 }' <<<"$out")
        nps=$(awk '$1 == "nps" { print $2 }' <<<"$out")
        if [[ "$nodes" != "$want" ]]; then
            echo "perft $depth run $run: nodes $nodes, expected $want  FAIL"
            status=1
        else
            echo "perft $depth run $run: nodes $nodes ok, time $secs s, nps $nps"
        fi
        rates+=("$nps")
    done
    median=$(printf '%s\n' "${rates[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
    echo "perft $depth: median nps $median ($(awk -v n="$median" 'BEGIN { printf "%.1f", n / 1e6 }') M nodes/s)"
done

if [[ $status -ne 0 ]]; then
    echo "FAILED: wrong perft count"
fi
exit $status
