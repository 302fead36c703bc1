#!/usr/bin/env bash
# Games per second through the Hub protocol against in-process, release build, one thread:
# `match material hub:"checkers-ga hub hand --tie-break first"` (B an outside process, every
# move a round trip through its pipes) against `match material hand` (both in this process),
# at depth 4 over the same games (--first-ties: the two record the same moves). Each figure is
# the median of RUNS runs (default 5) of GAMES games (default 100), timed as whole processes
# (the engine's start included); the ratio hub/in-process must be at least 0.5.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
games=${GAMES:-100}
depth=${DEPTH:-4}
echo "building release..."
cargo build --release --quiet
bin=$PWD/target/release/checkers-ga
common=(--depth "$depth" --games "$games" --first-ties --threads 1 --seed 1 --quiet)
# Seconds (wall clock) a command takes.
seconds() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", (b - a) / 1e9}'
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
hub=()
inproc=()
# Warm-up (page cache, the binary), not counted.
seconds "$bin" match material hand "${common[@]}" >/dev/null
for i in $(seq "$runs"); do
  h=$(seconds "$bin" match material "hub:$bin hub hand --tie-break first" \
    --option-b repetition-draws=false "${common[@]}")
  p=$(seconds "$bin" match material hand "${common[@]}")
  gh=$(awk -v s="$h" -v g="$games" 'BEGIN {printf "%.1f", g / s}')
  gp=$(awk -v s="$p" -v g="$games" 'BEGIN {printf "%.1f", g / s}')
  echo "run $i: through the protocol ${gh} games/s (${h} s), in-process ${gp} games/s (${p} s)"
  hub+=("$gh")
  inproc+=("$gp")
done
mh=$(median "${hub[@]}")
mp=$(median "${inproc[@]}")
ratio=$(awk -v h="$mh" -v p="$mp" 'BEGIN {printf "%.2f", h / p}')
echo "median games/s at depth $depth: through the protocol $mh, in-process $mp"
echo "ratio $ratio (target >= 0.5)"
echo "load: $(uptime)"
