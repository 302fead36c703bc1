#!/usr/bin/env bash
# Our search with some of its tunable constants set (A) against the same search with none (B,
# the plain alpha-beta), at equal time: both are `checkers-ga hub --tunable-search
# --search-params neutral PLAYER` through the Hub protocol (every feature off unless set), A
# given the constants as `--option-a NAME=VALUE`.
#
# Usage: scripts/search-params-match.sh "lmr-reduction=1 futility=20" [TC] [GAMES]
#   TC: a time control as `match --tc` takes it (default 0.1, a tenth of a second a move)
#   GAMES: games of the match (default 312, the ballot twice)
# Environment: BIN (a built binary; default: a release build of this tree), PLAYER (the
# weights, default evolved-hour), THREADS (default: one per core), SEED (1), MARGIN (the
# time margin in ms for moves that cross a pipe, default 300). Timed games are not
# reproducible: the figures vary from run to run and with the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
settings=${1:?usage: scripts/search-params-match.sh "NAME=VALUE ..." [TC] [GAMES]}
tc=${2:-0.1}
games=${3:-312}
if [[ -z ${BIN:-} ]]; then
  cargo build --release --quiet
  BIN=target/release/checkers-ga
fi
bin=$(realpath "$BIN")
engine="hub:$bin hub --tunable-search --search-params neutral ${PLAYER:-evolved-hour}"
args=()
for s in $settings; do
  args+=(--option-a "$s")
done
exec "$bin" match "$engine" "$engine" "${args[@]}" --tc "$tc" --time-margin "${MARGIN:-300}" \
  --games "$games" --threads "${THREADS:-0}" --seed "${SEED:-1}" --quiet
