#!/usr/bin/env bash
# MPI speed test: games per second of one generation run as one process, and under
# `mpirun -n N` for N = 1, 2 and 4 ranks, as ratios to the one-process run.
#
# Builds the release binary with the `mpi` feature (Open MPI: docs/clusters.md), then
# runs, in fresh temporary folders,
#   checkers-ga new --population P --depth D --generations 1 --games 0 --seed 1 ...
# once without mpirun (the one-process run, one thread per core) and under
#   mpirun --bind-to none --oversubscribe -n N checkers-ga new ... --threads T
# with T = max(1, cores / N) threads per rank: the same number of threads in all until N
# exceeds the cores (on 2 cores, N = 4 is oversubscribed: 4 threads). RUNS times each,
# alternating, and parses the generation's summary line
#   gen 1/1  points ...  992 games 951.8/s  49.2 plies/game  1.0 s
# (the generation's own time: MPI start-up and the process launch are not in it). Prints per
# setting the median games/s and its ratio to the one-process median.
#
# Usage: scripts/bench-mpi.sh [RUNS] [POPULATION] [DEPTH]   (defaults 3, 32, 4)
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=${1:-3}
POP=${2:-32}
DEPTH=${3:-4}

for tool in mpirun; do
    if ! command -v "$tool" >/dev/null; then
        echo "error: no $tool: install Open MPI (apt-get install openmpi-bin libopenmpi-dev libclang-dev)" >&2
        exit 1
    fi
done

echo "building release with --features mpi..."
cargo build --release --features mpi --quiet
BIN=$PWD/target/release/checkers-ga
CORES=$(nproc 2>/dev/null || echo 2)
ROOT=()
if [[ $(id -u) == 0 ]]; then
    ROOT=(--allow-run-as-root)
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-mpi.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

declare -A RATES=() LINES=()

run_once() { # setting run -> games_per_s
    local setting=$1 run=$2 dir out line threads
    dir="$WORK/$setting-r$run"
    mkdir -p "$dir"
    # The workload is pinned (the 60 parameters, a first population from the whole i16 range,
    # no measurement) so figures stay comparable when the defaults of `new` change.
    local args=(new --population "$POP" --depth "$DEPTH" --generations 1 --games 0 --seed 1
        --params thesis60 --init-range 32767 --measure-every 0
        --populations "$dir/populations" --weights-dir "$dir/weights" --name bench)
    if [[ $setting == one ]]; then
        out=$("$BIN" "${args[@]}" --threads 0 2>&1)
    else
        threads=$((CORES / setting))
        ((threads >= 1)) || threads=1
        out=$(mpirun "${ROOT[@]}" --oversubscribe --bind-to none -n "$setting" \
            "$BIN" "${args[@]}" --threads "$threads" 2>&1)
    fi
    line=$(grep -E '^gen 1/1 ' <<<"$out" || true)
    if [[ -z "$line" ]]; then
        echo "no summary line in run $run of setting $setting:" >&2
        echo "$out" >&2
        exit 1
    fi
    awk '{
        for (i = 1; i <= NF; i++)
            if ($i ~ /\/s$/ && $(i - 1) == "games") { r = $i; sub(/\/s$/, "", r) }
        if (r == "") exit 1
        print r
    }' <<<"$line" || { echo "cannot parse: $line" >&2; exit 1; }
    echo "  $setting run $run: ${line#gen 1/1  }" >&2
}

SETTINGS=(one 1 2 4)
echo "population $POP, depth $DEPTH, all against all ($((POP * (POP - 1))) games), seed 1; $RUNS runs per setting"
echo "cores: $CORES, load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
for run in $(seq 1 "$RUNS"); do
    for s in "${SETTINGS[@]}"; do
        RATES[$s]+="$(run_once "$s" "$run") "
    done
done

median() { printf '%s\n' $1 | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

base=$(median "${RATES[one]}")
echo
printf '%-22s %14s %8s   %s\n' "setting" "median games/s" "ratio" "games/s of each run"
for s in "${SETTINGS[@]}"; do
    m=$(median "${RATES[$s]}")
    if [[ $s == one ]]; then
        name="one process"
    else
        t=$((CORES / s)); ((t >= 1)) || t=1
        name="mpirun -n $s x $t thr"
    fi
    printf '%-22s %14s %8s   %s\n' "$name" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.2f", a / b }')" "${RATES[$s]}"
done
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
