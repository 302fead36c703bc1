#!/usr/bin/env bash
# Evaluation and search speed, single thread, release build: ns per full evaluation (both
# sides of 312 fixed positions, 2000 passes) and search nodes per second at depth 6 over the same
# positions. Each figure is the median of 5 runs. Targets: evaluation under 100 ns, search at
# least 5 M nodes/s.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
depth=${DEPTH:-6}
echo "building release..."
cargo build --release --quiet
bin=target/release/checkers-ga
evals=()
npss=()
for i in $(seq "$runs"); do
  out=$("$bin" bench --depth "$depth")
  e=$(awk '$1 == "eval_ns" {print $2}' <<<"$out")
  n=$(awk '$1 == "search_nps" {print $2}' <<<"$out")
  echo "run $i: eval ${e} ns, search ${n} nodes/s at depth ${depth}"
  evals+=("$e")
  npss+=("$n")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
me=$(median "${evals[@]}")
mn=$(median "${npss[@]}")
echo "median eval_ns ${me} (target < 100)"
echo "median search_nps ${mn} ($(awk -v n="$mn" 'BEGIN {printf "%.2f", n/1e6}') M nodes/s, target >= 5)"
