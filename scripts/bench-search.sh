#!/usr/bin/env bash
# Evaluation and search speed, single thread, release build: ns per full evaluation (both
# sides of 312 fixed positions, 2000 passes), search nodes per second at depth 6 over the same
# positions, and the time to depth 6 by iterative deepening (what a search on a clock does),
# each with the search's reductions and pruning off (`neutral`, the plain alpha-beta of a
# fixed-depth search) and at the tuned defaults (`default`, what `match --tc`, `play` and
# `hub` use on a clock); PARAMS adds a third setting to compare, e.g.
# PARAMS=default,lmr-reduction=2. Each figure is the median of RUNS runs (5). Targets:
# evaluation under 100 ns, search at least 5 M nodes/s.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
depth=${DEPTH:-6}
settings=(neutral default)
if [ -n "${PARAMS:-}" ]; then settings+=("$PARAMS"); fi
echo "building release..."
cargo build --release --quiet
bin=target/release/checkers-ga
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { awk -v k="$1" '$1 == k {print $2}' <<<"$2"; }
for s in "${settings[@]}"; do
  evals=() npss=() times=() tnodes=() tnpss=()
  for i in $(seq "$runs"); do
    out=$("$bin" bench --depth "$depth" --search-params "$s")
    evals+=("$(field eval_ns "$out")")
    npss+=("$(field search_nps "$out")")
    times+=("$(field depth_time_seconds "$out")")
    tnodes+=("$(field depth_time_nodes "$out")")
    tnpss+=("$(field depth_time_nps "$out")")
    echo "$s run $i: eval ${evals[-1]} ns, search ${npss[-1]} nodes/s at depth ${depth}," \
      "to depth ${depth} in ${times[-1]} s (${tnodes[-1]} nodes, ${tnpss[-1]} nodes/s)"
  done
  me=$(median "${evals[@]}")
  mn=$(median "${npss[@]}")
  echo "$s: median eval_ns ${me} (target < 100)"
  echo "$s: median search_nps ${mn} ($(awk -v n="$mn" 'BEGIN {printf "%.2f", n/1e6}') M nodes/s, target >= 5)"
  echo "$s: median time to depth ${depth} $(median "${times[@]}") s, $(median "${tnodes[@]}") nodes," \
    "$(median "${tnpss[@]}") nodes/s"
done
