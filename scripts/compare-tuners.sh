#!/usr/bin/env bash
# The GA of `new --engine` against SPSA on real engines, at equal games (issue 38's test): each
# tuner runs from the engine's declared values with every seed and budget, then every result
# plays the declared values over the ballot (312 games) at the tuning depth and 2 plies deeper.
#
# Problems (PROBLEM):
#   example  examples/hub_engine.py (8 int parameters, Python), depth 2 (and 4)
#   ours     our engine through the protocol: `checkers-ga hub --tunable --tunable-range 1000
#            --tie-break first MATERIAL66` (the 66 weights of endgame66 from material), depth 4
#            (and 6)
# Prints, as results come in,
#   elo TUNER PROBLEM GAMES SEED DEPTH ELO MARGIN
# then per tuner, budget and depth
#   mean TUNER PROBLEM GAMES DEPTH MEAN LOW HIGH   (over the seeds; LOW..HIGH a 95% interval)
#
# Usage: scripts/compare-tuners.sh PROBLEM      Environment: SEEDS ("1 2 3 4 5"), BUDGETS
#        (4000), TUNERS ("ga spsa"; also cmaes), JOBS (parallel runs, the cores), BIN (a built
#        binary, else the release build), OUT (a folder for the runs and their logs, else a
#        temporary one), GA_FLAGS (more flags for `new`), SPSA_FLAGS (more flags for `spsa`),
#        CMAES_FLAGS (more flags for `cmaes`).
set -euo pipefail
cd "$(dirname "$0")/.."
PROBLEM=${1:?usage: scripts/compare-tuners.sh example|ours}
SEEDS=${SEEDS:-1 2 3 4 5}
BUDGETS=${BUDGETS:-4000}
TUNERS=${TUNERS:-ga spsa}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
if [[ -z "${BIN:-}" ]]; then
    cargo build --release --quiet
    BIN=$PWD/target/release/checkers-ga
fi
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/compare-tuners.XXXXXX")}
mkdir -p "$OUT"
case $PROBLEM in
example)
    ENGINE="python3 $PWD/examples/hub_engine.py"
    DEPTH=2
    ;;
ours)
    # endgame66 from material: men 100, kings 160, the other 62 weights 0.
    sed -e 's/"params": "thesis60"/"params": "endgame66"/' \
        -e 's/"opp_kings": -160,/"opp_kings": -160, "king_chase": 0, "opp_king_chase": 0, "cornered_distance": 0, "opp_cornered_distance": 0, "trade": 0, "centre_kings": 0,/' \
        weights/material.json >"$OUT/material66.json"
    ENGINE="$BIN hub --tunable --tunable-range 1000 --tie-break first $OUT/material66.json"
    DEPTH=4
    ;;
*) echo "unknown problem '$PROBLEM' (example, ours)" >&2; exit 2 ;;
esac
DEEPER=$((DEPTH + 2))
export BIN ENGINE DEPTH OUT GA_FLAGS=${GA_FLAGS:-} SPSA_FLAGS=${SPSA_FLAGS:-}
export CMAES_FLAGS=${CMAES_FLAGS:-}

# One tuning run, then its two matches: prints its elo lines.
one() {
    local tuner=$1 games=$2 seed=$3 name result
    name=$tuner-$games-$seed
    if [[ $tuner == ga ]]; then
        # shellcheck disable=SC2086 # GA_FLAGS are words
        "$BIN" new --engine "$ENGINE" --tuner ga --depth "$DEPTH" --games-budget "$games" \
            --measure-every 0 \
            --seed "$seed" --threads 1 --quiet --name "$name" --populations "$OUT/pops" \
            --weights-dir "$OUT/weights" $GA_FLAGS >"$OUT/$name.log" 2>&1
        result=$OUT/weights/$name-best.json
    elif [[ $tuner == cmaes ]]; then
        # shellcheck disable=SC2086
        "$BIN" cmaes --engine "$ENGINE" --depth "$DEPTH" --games "$games" --seed "$seed" \
            --threads 1 --quiet --name "$name" --populations "$OUT/pops" \
            --out "$OUT/$name.json" $CMAES_FLAGS >"$OUT/$name.log" 2>&1
        result=$OUT/$name.json
    else
        # shellcheck disable=SC2086
        "$BIN" spsa --engine "$ENGINE" --depth "$DEPTH" --games "$games" --seed "$seed" \
            --threads 1 --quiet --name "$name" --populations "$OUT/pops" \
            --out "$OUT/$name.json" $SPSA_FLAGS >"$OUT/$name.log" 2>&1
        result=$OUT/$name.json
    fi || { echo "failed: $name (see $OUT/$name.log)" >&2; return 0; }
    for d in "$DEPTH" "$DEEPER"; do
        local line="" log=$OUT/$name-d$d.match
        # A match stopped early prints the games so far: only a whole one counts.
        if "$BIN" match "$result" "hub:$ENGINE" --depth "$d" --games 312 --threads 1 >"$log" 2>&1; then
            line=$(grep -m1 '^Elo difference:' "$log" || true)
        fi
        # "Elo difference: +12.3 +/- 20.1, LOS: ..."
        read -r _ _ elo _ margin _ <<<"$line"
        margin=${margin%,}
        echo "elo $tuner $PROBLEM_NAME $games $seed $d ${elo:-nan} ${margin:-nan}"
    done
}
export -f one
export PROBLEM_NAME=$PROBLEM DEEPER

for games in $BUDGETS; do
    for seed in $SEEDS; do
        for tuner in $TUNERS; do echo "$tuner $games $seed"; done
    done
done | xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _ | tee "$OUT/elo.txt"

# Means over the seeds, with a t interval (t from a table for up to 10 seeds, else 1.96).
awk '$1 == "elo" && $7 != "nan" {
        k = $2 " " $3 " " $4 " " $6; n[k]++; s[k] += $7; q[k] += $7 * $7
    }
    END {
        split("12.71 4.30 3.18 2.78 2.57 2.45 2.36 2.31 2.26", t, " ")
        for (k in n) {
            m = s[k] / n[k]; h = 0
            if (n[k] > 1) {
                v = (q[k] - n[k] * m * m) / (n[k] - 1); if (v < 0) v = 0
                tt = (n[k] - 1 <= 9) ? t[n[k] - 1] : 1.96
                h = tt * sqrt(v / n[k])
            }
            split(k, f, " ")
            printf "mean %s %s %s %s %.1f %.1f %.1f\n", f[1], f[2], f[3], f[4], m, m - h, m + h
        }
    }' "$OUT/elo.txt" | sort -k2,2 -k4,4n -k5,5n
echo "runs and logs in $OUT" >&2
