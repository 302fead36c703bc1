#!/usr/bin/env bash
# The exported C evaluation's speed against checkers-ga's own: exports WEIGHTS (default
# weights/evolved-hour.json) as a C header, compiles tests/data/export/author-search.c with it
# at -O2 (plain: no -march, no -O3; CC and CFLAGS override), and prints the ns per evaluation
# of both (each the median of RUNS runs, default 5): the header's on 312 positions of its own
# (the start and positions 6 to 40 random plies after it), `checkers-ga bench`'s on its 312
# (the ballot openings and a position 6 to 30 random plies after each). Target: the export
# within 1.5 times checkers-ga's time.
set -euo pipefail
cd "$(dirname "$0")/.."
weights=${WEIGHTS:-weights/evolved-hour.json}
runs=${RUNS:-5}
cc=${CC:-cc}
cflags=${CFLAGS:--O2}
echo "building release..."
cargo build --release --quiet
bin=target/release/checkers-ga
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" export "$weights" --format c --prefix net66 -o "$tmp/net66.h" >/dev/null
# author-search.c includes two headers; the second is not timed.
"$bin" export "$weights" --format c --prefix endgame66 -o "$tmp/endgame66.h" >/dev/null
cp tests/data/export/author-search.c "$tmp/"
# shellcheck disable=SC2086
"$cc" -std=c99 $cflags -o "$tmp/author-search" "$tmp/author-search.c"
echo "compiler: $("$cc" --version | head -1), flags: $cflags"
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
cs=()
rs=()
for i in $(seq "$runs"); do
  c=$("$tmp/author-search" bench net66 2000 | awk '$1 == "eval_ns" {print $2}')
  r=$("$bin" bench --weights "$weights" --depth 1 --repeats 1 | awk '$1 == "eval_ns" {print $2}')
  echo "run $i: export ${c} ns, checkers-ga ${r} ns"
  cs+=("$c")
  rs+=("$r")
done
mc=$(median "${cs[@]}")
mr=$(median "${rs[@]}")
echo "median export_eval_ns ${mc}, checkers-ga eval_ns ${mr}: x$(awk -v c="$mc" -v r="$mr" 'BEGIN {printf "%.2f", c/r}') (target <= 1.5)"
