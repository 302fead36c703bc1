#!/usr/bin/env bash
# Evolution speed test: one generation of an all-vs-all tournament at population 16, depth 4
# (240 games), with 1 and with 2 worker threads.
#
# Builds the release binary, runs
#   checkers-ga new --population 16 --depth 4 --generations 1 --games 0 --seed 1 --threads T
# in a fresh temporary folder, 3 times per thread count (alternating 1, 2, 1, 2, ...), parses
# the per-generation summary line
#   gen 1/1  best .. mean .. min ..  diversity ..  first best  240 games 951.8/s  49.2 plies/game  0.3 s
# and prints, per thread count, the median games/s and the mean plies/game, then the
# 2-thread/1-thread speed ratio and the 2-thread figure against the original Java tool
# (7.7 games/s on the same task).
#
# Usage: scripts/bench-evolve.sh [RUNS]      (from anywhere inside the repository; RUNS = 3)
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=${1:-3}
JAVA_GAMES_PER_S=7.7

echo "building release..."
cargo build --release --quiet
BIN=$PWD/target/release/checkers-ga

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-evolve.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

declare -A RATES=() PLIES=()

run_once() { # threads run -> "games_per_s plies_per_game"
    local threads=$1 run=$2 dir out line
    dir="$WORK/t$threads-r$run"
    mkdir -p "$dir"
    # The workload is pinned (the first population drawn from the whole i16 range, the 60
    # parameters) so that figures stay comparable when the defaults of `new` change.
    out=$("$BIN" new --population 16 --depth 4 --generations 1 --games 0 --seed 1 \
        --params thesis60 --init-range 32767 --measure-every 0 \
        --threads "$threads" --populations "$dir/populations" --weights-dir "$dir/weights" \
        --name bench 2>/dev/null)
    line=$(grep -E '^gen 1/1 ' <<<"$out" || true)
    if [[ -z "$line" ]]; then
        echo "no summary line in the output of run $run with $threads thread(s):" >&2
        echo "$out" >&2
        exit 1
    fi
    # "... 240 games 951.8/s  49.2 plies/game  0.3 s"
    awk '{
        for (i = 1; i <= NF; i++) {
            if ($i ~ /\/s$/ && $(i - 1) == "games") { r = $i; sub(/\/s$/, "", r) }
            if ($i == "plies/game") p = $(i - 1)
        }
        if (r == "" || p == "") exit 1
        print r, p
    }' <<<"$line" || { echo "cannot parse: $line" >&2; exit 1; }
    echo "  threads $threads run $run: ${line#gen 1/1  }" >&2
}

echo "population 16, depth 4, all against all (240 games), seed 1; $RUNS runs per thread count"
if [[ -r /proc/loadavg ]]; then
    # Other work on the machine lowers the figures, the 2-thread ones most.
    echo "cores: $(nproc 2>/dev/null || echo '?'), load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
for run in $(seq 1 "$RUNS"); do
    for threads in 1 2; do
        res=$(run_once "$threads" "$run")
        read -r rate plies <<<"$res"
        RATES[$threads]+="$rate "
        PLIES[$threads]+="$plies "
    done
done

median() { printf '%s\n' $1 | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
mean() { printf '%s\n' $1 | awk '{ s += $1 } END { printf "%.1f\n", s / NR }'; }

echo
printf '%-10s %14s %16s   %s\n' "threads" "median games/s" "mean plies/game" "games/s of each run"
for threads in 1 2; do
    printf '%-10s %14s %16s   %s\n' "$threads" "$(median "${RATES[$threads]}")" \
        "$(mean "${PLIES[$threads]}")" "${RATES[$threads]}"
done
m1=$(median "${RATES[1]}")
m2=$(median "${RATES[2]}")
echo
awk -v a="$m1" -v b="$m2" -v j="$JAVA_GAMES_PER_S" 'BEGIN {
    printf "speed-up, 2 threads / 1 thread:      %.2fx\n", b / a
    printf "2 threads vs the original (%.1f games/s): %.0fx\n", j, b / j
}'
