#!/usr/bin/env bash
# The tuners on the tuning simulator (issue 38, docs/simulator.md): the GA of
# `new --engine sim:N --games-budget GAMES`, SPSA (`spsa --engine sim:N --games GAMES`) and
# CMA-ES (`cmaes --engine sim:N --games GAMES`), each run SEEDS times (tuner seeds 1..SEEDS, the
# model fixed per N) for N = 8, 16 and 66 parameters and budgets of 1,000, 4,000 and 16,000
# games. Prints one line per tuner, parameters and budget:
#   regret TUNER PARAMS GAMES MEAN LOW HIGH
# the Elo the tuner's answer plays below the model's optimum: the mean over the seeds and its
# 95% interval (Student's t). Then the wall time on stderr.
#
# Builds the release binary first (a few minutes the first time; the runs themselves take
# seconds). Flags after the script's name go to `tune-sim` (e.g. `--detail`, or `-- --duel-games
# 96` for the GA's settings as `new` takes them).
#
# Usage: scripts/bench-tuners.sh [TUNE-SIM FLAGS]   (from anywhere inside the repository).
#        Environment: SEEDS (100), THREADS (0 = one per core), BIN (a built binary instead of
#        the release build).
set -euo pipefail

cd "$(dirname "$0")/.."
SEEDS=${SEEDS:-100}
THREADS=${THREADS:-0}
began=$(date +%s.%N)
if [[ -z "${BIN:-}" ]]; then
    echo "building release..." >&2
    cargo build --release --quiet
    BIN=$PWD/target/release/checkers-ga
fi
built=$(date +%s.%N)
"$BIN" tune-sim --tuner ga,spsa,cmaes --params 8,16,66 --games 1000,4000,16000 --seeds "$SEEDS" \
    --threads "$THREADS" --quiet "$@"
ended=$(date +%s.%N)
awk -v a="$began" -v b="$built" -v c="$ended" -v s="$SEEDS" 'BEGIN {
    printf "%d seeds: the runs took %.1f s, %.1f s in all with the build\n", s, c - b, c - a
}' >&2
