#!/usr/bin/env bash
# Strength per CPU time of GA variants: for each variant and seed, an evolution session of a
# fixed time from random weights, then `match` of its best against fixed yardsticks at depth 6
# over the 156 ballot openings, both colours (312 games). Prints one line per session and a
# table of the mean Elo per variant and yardstick.
#
#   scripts/bench-strength.sh [--time S] [--seeds "1 2"] [--threads T] [--refs "material hand classic"]
#                             [--depth D | --tc TC] [--out DIR] NAME='FLAGS' [NAME='FLAGS' ...]
#
# --tc TC: equal-time matches instead (`match --tc`, e.g. --tc 0.1 or --tc 10+0.1), so variants
# whose evaluation costs more per call are measured at their strength per second; with --tc the
# matches are not reproducible, and each match thread needs a core of its own.
#
# Example: scripts/bench-strength.sh --time 120 default='' gauss='--mutation-kind gauss:1500:4'
# Sessions use --time (seconds of evolution), so every variant gets the same wall time on the
# same threads; run nothing else meanwhile. Results go to DIR (default target/bench-strength).
set -euo pipefail
cd "$(dirname "$0")/.."
time_s=120
seeds="1 2"
threads=0
refs="material hand classic"
depth=6
tc=
out=target/bench-strength
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --time) time_s=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --refs) refs=$2; shift 2 ;;
    --depth) depth=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ $# -eq 0 ]]; then
  set -- default=''
fi
bin=${CHECKERS_GA:-}
if [[ -z $bin ]]; then
  cargo build --release --quiet
  bin=target/release/checkers-ga
fi
mkdir -p "$out"
if [[ -n $tc ]]; then
  strength=(--tc "$tc")
  at="tc $tc"
else
  strength=(--depth "$depth")
  at="depth $depth"
fi
cores=$threads
if [[ $cores -eq 0 ]]; then cores=$(nproc); fi
results="$out/results.tsv"
: >"$results"
for variant in "$@"; do
  name=${variant%%=*}
  flags=${variant#*=}
  for seed in $seeds; do
    sname="$name-s$seed"
    rm -rf "$out/populations/$sname" "$out/weights/$sname-best.json"
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$bin" new --seed "$seed" --time "$time_s" --threads "$threads" --keep 2 --quiet \
      --name "$sname" --populations "$out/populations" --weights-dir "$out/weights" \
      $flags >"$out/$sname.log" 2>&1
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    gens=$("$bin" history "$sname" --populations "$out/populations" | sed -n 's/.*: \([0-9]*\) generations\{0,1\},.*/\1/p')
    line="$name	$seed	$gens	$secs"
    for ref in $refs; do
      res=$("$bin" match "$out/weights/$sname-best.json" "$ref" "${strength[@]}" --seed 1 \
        --threads "$threads" --quiet)
      elo=$(echo "$res" | sed -n 's/^Elo difference: \([^ ]*\) +\/- \([^,]*\),.*/\1 \2/p')
      wdl=$(echo "$res" | sed -n 's/^W\/D\/L for A: //p')
      line="$line	$ref	$elo	$wdl"
    done
    echo "$line" | tee -a "$results"
  done
done
echo
echo "mean Elo at $at over 312 ballot games; sessions of $time_s s on $cores thread(s) = $(echo "$time_s * $cores / 60" | bc -l | xargs printf '%.1f') CPU-minutes"
awk -F'\t' -v refs="$refs" -v cpumin="$(echo "$time_s * $cores / 60" | bc -l)" '
  { n[$1]++; if (!($1 in seen)) { order[++k] = $1; seen[$1] = 1 }
    gens[$1] += $3
    for (i = 5; i <= NF; i += 3) { split($(i + 1), e, " "); sum[$1, $i] += e[1] } }
  END {
    nr = split(refs, r, " ")
    printf "%-24s %6s %8s", "variant", "runs", "gens"
    for (j = 1; j <= nr; j++) printf " %10s %9s", "vs " r[j], "/CPU-min"
    printf "\n"
    for (v = 1; v <= k; v++) {
      name = order[v]
      printf "%-24s %6d %8.0f", name, n[name], gens[name] / n[name]
      for (j = 1; j <= nr; j++) { m = sum[name, r[j]] / n[name]; printf " %+10.0f %+9.1f", m, m / cpumin }
      printf "\n"
    }
  }' "$results"
