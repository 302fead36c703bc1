#!/usr/bin/env bash
# Our search's constants tuned by the GA at a time control, then measured at equal time: the
# experiment of docs/results.md, "Our search tuned on a clock".
#
# 1. `new --engine "checkers-ga hub --tunable-search --search-params START PLAYER" --tc
#    TUNE_TC --games-budget BUDGET`: the mean over the six constants the engine declares
#    (lmr-depth, lmr-moves, lmr-reduction, aspiration, futility, futility-depth; its settings
#    are left out), starting from START (default `neutral`: every feature off, as in the run
#    docs/results.md reports).
# 2. The answer against the plain search (the same engine, `--search-params neutral`: every
#    feature off, the search before they existed) at 0.1 s a move and at 10+0.1, GAMES ballot
#    games each.
# 3. The answer and the plain search each against `classic` on the same clocks, the yardstick
#    searching with every feature off too (through the protocol, `hub --search-params neutral
#    classic`), so that it stays the same yardstick whatever the defaults of a timed search.
#
# Usage: scripts/tune-search-clock.sh [TUNE_TC] [BUDGET] [GAMES]
#   TUNE_TC: the tuning games' clock (default 0.02); BUDGET: tuning games (default 3000);
#   GAMES: games of each match (default 312, the ballot twice)
# Environment: BIN (a built binary; default: a release build of this tree), PLAYER (the
# weights, default evolved-hour), NAME (the session, default search-clock), POPS (the
# populations folder, default a temporary one), SEED (1), THREADS (default: one per core),
# MARGIN (ms a move that crosses a pipe may end past its time in the matches, default 300),
# TUNE_MARGIN (the same in the tuning games, default 30),
# CLOCKS (the matches' clocks, default "0.1 10+0.1"), START (the search constants' start,
# default neutral).
# Nothing else may run on the machine meanwhile: clocks measure whatever shares the cores.
set -euo pipefail
cd "$(dirname "$0")/.."
tune_tc=${1:-0.02}
budget=${2:-3000}
games=${3:-312}
if [[ -z ${BIN:-} ]]; then
  cargo build --release --quiet
  BIN=target/release/checkers-ga
fi
bin=$(realpath "$BIN")
player=${PLAYER:-evolved-hour}
name=${NAME:-search-clock}
pops=${POPS:-$(mktemp -d)/populations}
seed=${SEED:-1}
threads=${THREADS:-0}
engine="$bin hub --tunable-search --search-params ${START:-neutral} $player"
plain="$bin hub --search-params neutral $player"
classic="$bin hub --search-params neutral classic"
echo "== tuning: $engine at --tc $tune_tc, $budget games ($(date -u +%H:%M:%S))"
start=$(date +%s)
"$bin" new --engine "$engine" --tc "$tune_tc" --time-margin "${TUNE_MARGIN:-30}" \
  --games-budget "$budget" --name "$name" \
  --populations "$pops" --seed "$seed" --threads "$threads"
echo "tuning took $(($(date +%s) - start)) s"
best="$pops/$name/best.json"
"$bin" show "$best"
match() {
  echo "== $1 vs $2 at --tc $3 ($(date -u +%H:%M:%S))"
  "$bin" match "$1" "$2" --tc "$3" --time-margin "${MARGIN:-300}" --games "$games" \
    --threads "$threads" --seed "$seed" --quiet | grep -E "Elo difference|W/D/L|lost on time|Faults" || true
}
for tc in ${CLOCKS:-0.1 10+0.1}; do
  match "$best" "hub:$plain" "$tc"
  match "$best" "hub:$classic" "$tc"
  match "hub:$plain" "hub:$classic" "$tc"
done
