#!/usr/bin/env bash
# Scaling test: what a session, a match and an outside engine's session make of more threads,
# modelled from a 1-thread run's schedule log and measured at the thread counts this machine
# has (issue 39's table).
#
# Builds the release binary and runs each case once with --threads 1 and its schedule log on
# (CHECKERS_GA_SCHEDULE_LOG), then `checkers-ga schedule` on the log, then the case again at
# every measured thread count (2, 4, 8, ... up to the cores, and the cores themselves), logged
# too. The cases (RUN):
#   default  new --generations $GENS_DEFAULT --measure-every 0        (population 32, depth 4, a fit every generation)
#   pop64    new --population 64 --generations $GENS_POP64 --measure-every 0
#   match    match evolved-hour classic --depth 6 --games $MATCH_GAMES
#   engine   new --engine "checkers-ga hub --tunable --tunable-range 1000 --tie-break first material"
#                --selection truncation --population 32 --generations $GENS_ENGINE --measure-every 0
#                (the GA's round robin of 992 games a generation; the default tuner is the mean's)
#   tuner    new --engine (the same engine) --games-budget $GAMES_TUNER: the default tuner of an
#                engine of 60 parameters (CMA-ES, 3 generations of 16 games in flight)
#   mean     new --engine (the same engine) --tune (12 of its weights) --games-budget $GAMES_MEAN:
#                the default tuner of an engine of 9 to 16 parameters (the mean, generations
#                of 16 games, 3 in flight; MEAN_FLIGHT, when set, is its --in-flight)
# Prints for each case
#   modelled RUN THREADS EFFICIENCY  SECONDS s  idle: CAUSE SHARE, ...   (THREADS = 1 2 4 8 16 64)
#   measured RUN THREADS EFFICIENCY  SECONDS s
#   measured RUN default THREADS EFFICIENCY  SECONDS s   (engine, tuner, mean: --threads 0, which
#            plays an outside engine's games one a core, each holding its core, or with
#            --no-pin in EXTRA_ARGS two a core; efficiency against the cores)
#   jobs RUN THREADS RATIO        (the games' own seconds at THREADS / at 1 thread, from the logs)
# where efficiency = the 1-thread time / (threads x the time). With REPEAT=N the measured runs
# are made in N rounds (each a 1-thread run, then the other thread counts), and each line gives
# the median of the rounds' figures, with their range: on a noisy machine one run is not a
# measurement. The model too is made of every round's 1-thread log, and each modelled line is
# the median round's, with the range. The issue's table used
# GENS_DEFAULT=6 GENS_POP64=4 MATCH_GAMES=1248 GENS_ENGINE=3 (and a pop64 run with
# --fit-every 0: add it with EXTRA=1); the defaults here are smaller, so that the script takes a
# few minutes on 2 cores.
#
# Usage: scripts/bench-scale.sh [RUN...]     (from anywhere inside the repository; all cases
#        when none is named). Environment: GENS_DEFAULT (2), GENS_POP64 (2), MATCH_GAMES (312),
#        GENS_ENGINE (2), GAMES_TUNER (1600), GAMES_MEAN (1600), MEAN_FLIGHT, MODEL_THREADS (1,2,4,8,16,64), MEASURE_THREADS (1 2 4 ... cores),
#        EXTRA (0), BIN (a built binary instead of the release build), EXTRA_ARGS (words added
#        to every case's command line, e.g. --no-pin), REPEAT (1: how many rounds of the
#        measured runs; with more, each line is the median over the rounds).
set -euo pipefail

cd "$(dirname "$0")/.."
GENS_DEFAULT=${GENS_DEFAULT:-2}
GENS_POP64=${GENS_POP64:-2}
MATCH_GAMES=${MATCH_GAMES:-312}
GENS_ENGINE=${GENS_ENGINE:-2}
GAMES_TUNER=${GAMES_TUNER:-1600}
GAMES_MEAN=${GAMES_MEAN:-1600}
MEAN_TUNE=men,kings,opp_men,opp_kings,wall_men,wall_kings,opp_wall_men,opp_wall_kings,moves,opp_moves,movable_men,opp_movable_men
MODEL_THREADS=${MODEL_THREADS:-1,2,4,8,16,64}
EXTRA=${EXTRA:-0}
REPEAT=${REPEAT:-1}

if [[ -z "${BIN:-}" ]]; then
    echo "building release..." >&2
    cargo build --release --quiet
    BIN=$PWD/target/release/checkers-ga
fi
CORES=$(nproc 2>/dev/null || echo 1)
if [[ -z "${MEASURE_THREADS:-}" ]]; then
    MEASURE_THREADS=1
    for ((t = 2; t < CORES; t *= 2)); do MEASURE_THREADS+=" $t"; done
    if ((CORES > 1)); then MEASURE_THREADS+=" $CORES"; fi
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-scale.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The command line of case $1 at $2 threads, in folder $3 (a fresh session each time).
case_args() {
    local run=$1 threads=$2 dir=$3
    local session=(--threads "$threads" --populations "$dir/populations" --weights-dir "$dir/weights"
        --name bench --seed 1 --quiet)
    case $run in
    default) echo new --generations "$GENS_DEFAULT" --measure-every 0 "${session[@]}" ;;
    pop64) echo new --population 64 --generations "$GENS_POP64" --measure-every 0 "${session[@]}" ;;
    pop64-nofit) echo new --population 64 --generations "$GENS_POP64" --measure-every 0 --fit-every 0 "${session[@]}" ;;
    match) echo match evolved-hour classic --depth 6 --games "$MATCH_GAMES" --seed 1 --threads "$threads" --quiet ;;
    engine) echo new --selection truncation --population 32 --generations "$GENS_ENGINE" --measure-every 0 "${session[@]}" ;;
    tuner) echo new --games-budget "$GAMES_TUNER" "${session[@]}" ;;
    mean) echo new --games-budget "$GAMES_MEAN" --tune "$MEAN_TUNE" ${MEAN_FLIGHT:+--in-flight "$MEAN_FLIGHT"} "${session[@]}" ;;
    *) echo "unknown case '$run' (default, pop64, pop64-nofit, match, engine, tuner, mean)" >&2; exit 2 ;;
    esac
}

# Runs case $1 at $2 threads (with the schedule log $3 when given); prints its seconds.
run_case() {
    local run=$1 threads=$2 log=${3:-} dir start end
    dir=$(mktemp -d "$WORK/$run-t$threads.XXXXXX")
    # shellcheck disable=SC2046 # the case's words are plain words
    local args=($(case_args "$run" "$threads" "$dir") ${EXTRA_ARGS:-})
    local engine=()
    if [[ $run == engine || $run == tuner || $run == mean ]]; then
        engine=(--engine "$BIN hub --tunable --tunable-range 1000 --tie-break first material")
    fi
    start=$(date +%s.%N)
    if [[ -n "$log" ]]; then
        CHECKERS_GA_SCHEDULE_LOG=$log "$BIN" "${args[@]}" "${engine[@]}" >"$dir/out" 2>&1 ||
            { echo "$run at $threads thread(s) failed:" >&2; cat "$dir/out" >&2; exit 1; }
    else
        env -u CHECKERS_GA_SCHEDULE_LOG "$BIN" "${args[@]}" "${engine[@]}" >"$dir/out" 2>&1 ||
            { echo "$run at $threads thread(s) failed:" >&2; cat "$dir/out" >&2; exit 1; }
    fi
    end=$(date +%s.%N)
    rm -rf "$dir"
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}

RUNS=("$@")
if ((${#RUNS[@]} == 0)); then
    RUNS=(default pop64 match engine tuner mean)
    if [[ $EXTRA == 1 ]]; then RUNS+=(pop64-nofit); fi
fi

echo "cores: $CORES; measured at: $MEASURE_THREADS; modelled at: $MODEL_THREADS"
if [[ -r /proc/loadavg ]]; then
    # Other work on the machine lowers the measured figures, the many-thread ones most.
    echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
# The median of the numbers given (the lower middle one of an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# "min .. max" of the numbers given.
span() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 { a = $1 } { b = $1 } END { printf "%.3f .. %.3f", a, b }'; }
# The games' own seconds in schedule log $2 against those in log $1.
jobs_ratio() {
    awk -F, 'FNR == 1 { f++ } $1 == "job" { s[f] += $7 }
        END { if (s[1] > 0) printf "%.3f\n", s[2] / s[1]; else print "nan" }' "$1" "$2"
}

for run in "${RUNS[@]}"; do
    # Each round runs the case at 1 thread, then at every measured thread count (and, for an
    # outside engine, at the default), so that a round's runs meet the same machine; a thread
    # count's efficiency is its round's 1-thread time / (threads x its time), and the lines give
    # the median over the rounds. The model is made of every round's 1-thread log, and each
    # thread count's line is that of the round whose figure is the median (a game that stalled
    # in one log keeps many threads waiting in its model: one log is one sample too).
    t1s=() defaults=()
    models="$WORK/$run-models.txt"
    : >"$models"
    declare -A times=() effs=() ratios=()
    for ((round = 1; round <= REPEAT; round++)); do
        log="$WORK/$run-1-r$round.csv"
        t1=$(run_case "$run" 1 "$log")
        t1s+=("$t1")
        "$BIN" schedule "$log" --threads "$MODEL_THREADS" --run "$run" | grep '^modelled ' >>"$models"
        for threads in $MEASURE_THREADS; do
            ((threads == 1)) && continue
            tp=$(run_case "$run" "$threads" "$WORK/$run-$threads-r$round.csv")
            times[$threads]+=" $tp"
            effs[$threads]+=" $(awk -v p="$threads" -v a="$t1" -v b="$tp" 'BEGIN { printf "%.3f", a / (p * b) }')"
            # The same games' own time at this thread count against one thread: above 1, the
            # games themselves slow down when threads share the machine (which the model does
            # not know).
            ratios[$threads]+=" $(jobs_ratio "$log" "$WORK/$run-$threads-r$round.csv")"
        done
        if [[ $run == engine || $run == tuner || $run == mean ]]; then
            # The default thread count: an outside engine's games to a depth, one a core (two
            # with --no-pin).
            tp=$(run_case "$run" 0)
            defaults+=("$tp")
            effs[default]+=" $(awk -v c="$CORES" -v a="$t1" -v b="$tp" 'BEGIN { printf "%.3f", a / (c * b) }')"
        fi
    done
    # modelled RUN THREADS EFFICIENCY ...: per thread count, the median round's line (the lower
    # middle of an even count), with the range over the rounds.
    awk -v n="$REPEAT" '{ k = $3; c[k]++; e[k, c[k]] = $4; l[k, c[k]] = $0; if (!(k in seen)) { seen[k] = 1; order[++m] = k } }
        END {
            for (i = 1; i <= m; i++) {
                k = order[i]
                for (a = 1; a <= c[k]; a++) { r[a] = a }
                for (a = 1; a <= c[k]; a++) for (b = a + 1; b <= c[k]; b++)
                    if (e[k, r[b]] + 0 < e[k, r[a]] + 0) { t = r[a]; r[a] = r[b]; r[b] = t }
                mid = r[int((c[k] + 1) / 2)]
                line = l[k, mid]
                if (n > 1) line = sprintf("%s  (median of %d logs, %.3f .. %.3f)", line, c[k], e[k, r[1]], e[k, r[c[k]]])
                print line
            }
        }' "$models"
    rounds=""
    ((REPEAT > 1)) && rounds="  (median of $REPEAT rounds)"
    printf 'measured %s 1 1.000  %.2f s%s\n' "$run" "$(median "${t1s[@]}")" "$rounds"
    for threads in $MEASURE_THREADS; do
        ((threads == 1)) && continue
        # shellcheck disable=SC2086 # the lists are plain numbers
        {
            extra=""
            ((REPEAT > 1)) && extra="  (median of $REPEAT rounds, $(span ${effs[$threads]}))"
            printf 'measured %s %d %.3f  %.2f s%s\n' "$run" "$threads" "$(median ${effs[$threads]})" \
                "$(median ${times[$threads]})" "$extra"
            printf 'jobs %s %d %.3f\n' "$run" "$threads" "$(median ${ratios[$threads]})"
        }
    done
    if ((${#defaults[@]} > 0)); then
        per=1
        [[ " ${EXTRA_ARGS:-} " == *" --no-pin "* ]] && per=2
        # shellcheck disable=SC2086
        {
            extra=""
            ((REPEAT > 1)) && extra="  (median of $REPEAT rounds, $(span ${effs[default]}))"
            printf 'measured %s default %d %.3f  %.2f s%s\n' "$run" $((per * CORES)) \
                "$(median ${effs[default]})" "$(median "${defaults[@]}")" "$extra"
        }
    fi
    unset times effs ratios
done
