#!/usr/bin/env bash
# The Slurm batch script of docs/clusters.md, run for real: a one-node Slurm cluster
# (munged, slurmctld, slurmd) is made in a temporary folder for this machine, the script is
# submitted with sbatch sized for that node (a copy with --nodes=1, 2 tasks, a short --time and
# a short --generations), and the session it runs is compared with a one-process run of the same
# seed: the same checkpoints (wall clock aside) and best weights. Then faults: a job cancelled
# with scancel mid-session, and a second sbatch of the same script, give the same result too.
#
# Installs slurm-wlm and munge (and, for the `mpi` build, openmpi-bin libopenmpi-dev
# libclang-dev) from Debian's packages when missing; needs root for that and for the daemons.
# Always stops the daemons it started (by their PIDs) and removes its temporary folder, also
# on failure. Outside CI (CI=true) it skips, saying why, when it cannot run here.
#
# Usage: bash scripts/test-slurm.sh   (about 35 s on 2 cores once Slurm is installed and built)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export CARGO_TERM_COLOR=never

say() { printf 'test-slurm [%3d s]: %s\n' "$SECONDS" "$*"; }
fail() {
    printf 'test-slurm [%3d s]: FAILED: %s\n' "$SECONDS" "$*" >&2
    exit 1
}
# Outside CI a machine without what this needs is skipped; in CI it is a failure.
cannot() {
    if [ "${CI:-}" = true ]; then
        fail "$*"
    fi
    echo "test-slurm: skipped (not a failure): $*"
    exit 0
}

# The session: small enough for a minute on 2 cores, long enough to cancel a job mid-session.
SEED=3
POPULATION=16
DEPTH=3
GENERATIONS=24
CANCEL_AT=6 # scancel once this generation's checkpoint is written

# --- what it needs ---------------------------------------------------------------------------
[ "$(id -u)" = 0 ] || cannot "needs root (to install Slurm and run its daemons as SlurmUser=root)"
missing=()
for c in munged mungekey slurmctld slurmd sbatch srun scancel squeue sinfo scontrol; do
    command -v "$c" >/dev/null || missing+=("$c")
done
packages=()
[ ${#missing[@]} -eq 0 ] || packages+=(slurm-wlm munge)
if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null \
    || ! dpkg -s libclang-dev >/dev/null 2>&1; then
    packages+=(openmpi-bin libopenmpi-dev libclang-dev)
fi
if [ ${#packages[@]} -gt 0 ]; then
    command -v apt-get >/dev/null || cannot "no apt-get to install ${packages[*]}"
    say "installing ${packages[*]} (Debian's packages)..."
    # Packages must not start their own daemons (munge, slurmd, slurmctld): where no policy
    # says so already (containers have one), one is set for the install and removed after it.
    policy=
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' >"$policy"
        chmod 755 "$policy"
    fi
    status=0
    {
        apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                -o DPkg::Lock::Timeout=300 "${packages[@]}" >/dev/null
    } || status=$?
    [ -z "$policy" ] || rm -f "$policy"
    [ "$status" = 0 ] || fail "apt-get install ${packages[*]} exited with $status"
    say "installed"
fi
command -v cargo >/dev/null || cannot "no cargo to build the mpi feature"

say "building: cargo build --release --features mpi --bin checkers-ga --example same_session"
cargo build --release --features mpi --bin checkers-ga --example same_session
BIN=$ROOT/target/release/checkers-ga
SAME=$ROOT/target/release/examples/same_session

# --- the cluster: one node, in a temporary folder ---------------------------------------------
T=$(mktemp -d /tmp/checkers-ga-slurm.XXXXXX)
chmod 0711 "$T" # munged wants its socket's folder searchable by all
export SLURM_CONF=$T/slurm.conf
PIDS=() # munged, slurmctld, slurmd: what this script started
# Every process seen working in the temporary folder: the daemons (started there), the job steps
# (slurmstepd inherits slurmd's folder), the batch scripts, srun and the ranks. Job steps leave
# Slurm's daemons as orphans, so the cleanup also waits for those ended to be reaped.
declare -A SEEN=()
# The PIDs of the processes working in the temporary folder now.
in_folder() {
    find /proc/[0-9]*/cwd -maxdepth 0 \( -lname "$T" -o -lname "$T/*" \) 2>/dev/null \
        | cut -d/ -f3
}
track() {
    local pid
    for pid in $(in_folder); do
        SEEN[$pid]=1
    done
}

# Stops what it started, newest first, and removes the temporary folder; on failure it shows
# the logs first.
cleanup() {
    local status=$? pid i left=0 jobs=()
    trap - EXIT
    set +e
    if [ "$status" != 0 ] && [ -d "$T" ]; then
        for f in "$T"/log/*.log "$T"/job-*.out; do
            [ -f "$f" ] || continue
            echo "---- ${f#"$T"/} (last 30 lines)"
            tail -n 30 "$f"
        done
    fi
    track
    # Jobs first, while the controller and the node are up, so no job step outlives slurmd.
    if [ ${#PIDS[@]} -ge 2 ] && kill -0 "${PIDS[1]}" 2>/dev/null; then
        mapfile -t jobs < <(squeue -h -o %i 2>/dev/null)
        if [ ${#jobs[@]} -gt 0 ]; then
            scancel --quiet "${jobs[@]}" 2>/dev/null
            for _ in $(seq 100); do
                [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
                track
                sleep 0.2
            done
        fi
    fi
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        pid=${PIDS[i]}
        kill -TERM "$pid" 2>/dev/null || continue
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.2
        done
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    # Any process still working in the temporary folder (a job step, a rank) is this test's.
    for pid in $(in_folder); do
        kill -KILL "$pid" 2>/dev/null
    done
    # Ended processes of this test stay zombies until their parent (PID 1 for the job steps)
    # reaps them: wait for that, so that none is seen after the test (at most 20 s).
    for _ in $(seq 100); do
        left=0
        for pid in "${!SEEN[@]}"; do
            kill -0 "$pid" 2>/dev/null && left=$((left + 1))
        done
        [ "$left" = 0 ] && break
        sleep 0.2
    done
    [ "$left" = 0 ] || echo "test-slurm: warning: $left ended process(es) of this test not reaped yet" >&2
    rm -rf "$T"
    if [ "$status" = 0 ]; then
        say "daemons stopped, $T removed"
        # The uninterrupted job, and the cancelled one continued, each equal to one process.
        echo "test-slurm: 2 passed, 0 failed"
    else
        say "daemons stopped, $T removed (exit $status)"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$T"/{munge,state,spool,log,jobs}
NODE=$(hostname -s)
CPUS=$(nproc)
TASKS=2
CPUS_PER_TASK=$((CPUS / TASKS))
[ "$CPUS_PER_TASK" -ge 1 ] || CPUS_PER_TASK=1
[ "$CPUS" -ge "$TASKS" ] || CPUS=$TASKS # one core: two tasks share it
# Ports of this test's controller and node daemon (not Slurm's usual 6817/6818).
CTLD_PORT=16817
SLURMD_PORT=16818
for p in $CTLD_PORT $SLURMD_PORT; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
        fail "port $p is in use here: is another test cluster running?"
    fi
done

cat >"$SLURM_CONF" <<EOF
# One-node cluster of scripts/test-slurm.sh (made for this run, removed after it).
ClusterName=checkers-ga-test
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
# No cgroups: processes are tracked by their parents, tasks are not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
KillWait=5
MinJobAge=600
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=test Nodes=$NODE Default=YES MaxTime=10 State=UP
EOF

mungekey --create --keyfile="$T/munge/munge.key" >/dev/null
munged -F --key-file="$T/munge/munge.key" --socket="$T/munge/munge.socket" \
    --pid-file="$T/munge/munged.pid" --seed-file="$T/munge/munged.seed" \
    --log-file="$T/log/munged.log" >>"$T/log/munged.stderr.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do
    [ -S "$T/munge/munge.socket" ] && break
    sleep 0.1
done
[ -S "$T/munge/munge.socket" ] || fail "munged did not start"
(cd "$T" && exec slurmctld -D -i) >>"$T/log/slurmctld.stderr.log" 2>&1 &
PIDS+=($!)
(cd "$T" && exec slurmd -D) >>"$T/log/slurmd.stderr.log" 2>&1 &
PIDS+=($!)
say "cluster: $(sinfo -V), node $NODE with $CPUS CPUs, config $SLURM_CONF"
state=
for _ in $(seq 150); do
    state=$(sinfo -h -n "$NODE" -o %t 2>/dev/null || true)
    [ "$state" = idle ] && break
    for pid in "${PIDS[@]}"; do
        kill -0 "$pid" 2>/dev/null || fail "a daemon (PID $pid) exited"
    done
    sleep 0.2
done
[ "$state" = idle ] || fail "node $NODE is not idle after 30 s (state '${state:-none}')"
# "MPI plugin types are...", a tab-indented name a line, then the PMIx versions.
MPI_PLUGINS=$(srun --mpi=list 2>&1 | awk '/^[[:space:]]/ { printf "%s%s", s, $1; s = ", " }
    /versions available/ { v = $NF } END { if (v) printf " (%s)", v }')
say "node idle; srun --mpi=list: $MPI_PLUGINS"
say "$(mpirun --allow-run-as-root --version 2>/dev/null | head -n 1), PMIx $(dpkg-query -W -f '${Version}' libpmix2 2>/dev/null || echo '?')"

# --- the batch script of docs/clusters.md, sized for this node --------------------------------
# The first ```sh block after the line that opens the Slurm paragraph of docs/clusters.md.
awk '/^\*\*Slurm\*\*/ { s = 1; next }
     s == 1 && /^```sh$/ { s = 2; next }
     s == 2 && /^```$/ { exit }
     s == 2 { print }' docs/clusters.md >"$T/readme-job.sh"
[ -s "$T/readme-job.sh" ] || fail "no batch script found under **Slurm** in docs/clusters.md"
# Each change replaces one line's setting that must be there: a docs/clusters.md that changes
# them changes this test.
cp "$T/readme-job.sh" "$T/job.sh"
sized() {
    local from=$1 to=$2
    grep -qF -- "$from" "$T/job.sh" || fail "the batch script of docs/clusters.md has no '$from'"
    sed -i "s|$from|$to|" "$T/job.sh"
}
sized '#SBATCH --nodes=16' '#SBATCH --nodes=1'
sized '#SBATCH --ntasks-per-node=1' "#SBATCH --ntasks-per-node=$TASKS"
sized '#SBATCH --cpus-per-task=64' "#SBATCH --cpus-per-task=$CPUS_PER_TASK"
sized '#SBATCH --time=24:00:00' '#SBATCH --time=00:05:00'
sized 'resume big --generations 100000' "resume big --generations $GENERATIONS"
echo "---- the batch script submitted (docs/clusters.md's, sized for one node):"
diff -u --label docs/clusters.md --label job.sh "$T/readme-job.sh" "$T/job.sh" || true
echo "----"

# A session folder with the `new` line of docs/clusters.md (sized) run once by one process, as
# on a login node, and the binary at the path the script names.
start_session() {
    local dir=$1
    mkdir -p "$dir/target/release"
    ln -s "$BIN" "$dir/target/release/checkers-ga"
    (cd "$dir" && "$BIN" new --population "$POPULATION" --depth "$DEPTH" --generations 1 \
        --seed "$SEED" --name big --quiet >/dev/null)
}

# Submits the batch script from $1; prints the job id.
submit() {
    sbatch --parsable --chdir="$1" --output="$T/job-%j.out" "$T/job.sh"
}

# Waits until job $1 has left the queue (at most $2 seconds); sets STATE to its final state
# (not printed: a command substitution's subshell would lose what track sees).
wait_job() {
    local id=$1 limit=$2 start=$SECONDS
    while [ -n "$(squeue -h -j "$id" -o %T 2>/dev/null)" ]; do
        [ $((SECONDS - start)) -lt "$limit" ] || fail "job $id still queued after $limit s"
        track
        sleep 0.5
    done
    STATE=$(scontrol show job "$id" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
}

# The one-process run: the same `new`, then the script's line without Slurm and MPI.
say "one-process run (no MPI): new, then resume big --generations $GENERATIONS --keep 20"
start_session "$T/jobs/one"
(cd "$T/jobs/one" && "$BIN" resume big --generations "$GENERATIONS" --keep 20 --quiet >/dev/null)

# 1. The script, uninterrupted.
start_session "$T/jobs/slurm"
id=$(submit "$T/jobs/slurm")
say "job $id submitted (uninterrupted)"
wait_job "$id" 150
[ "$STATE" = COMPLETED ] || fail "job $id ended $STATE (see its output below)"
scontrol show job "$id" | grep -q "NumTasks=$TASKS " \
    || fail "job $id did not run $TASKS tasks: $(scontrol show job "$id" | grep -o 'NumTasks=[0-9]*')"
say "job $id COMPLETED ($TASKS tasks); its session against the one-process run:"
"$SAME" "$T/jobs/slurm" "$T/jobs/one" big || fail "the job's session differs from one process"

# 2. Faults: scancel mid-session, then the same script again.
start_session "$T/jobs/cancelled"
id=$(submit "$T/jobs/cancelled")
say "job $id submitted, to be cancelled after generation $CANCEL_AT"
cut=$(printf '%s/jobs/cancelled/populations/big/gen-%05d.ckpt' "$T" "$CANCEL_AT")
start=$SECONDS
until [ -e "$cut" ]; do
    [ -n "$(squeue -h -j "$id" -o %T 2>/dev/null)" ] || fail "job $id ended before generation $CANCEL_AT"
    [ $((SECONDS - start)) -lt 120 ] || fail "no generation $CANCEL_AT after 120 s"
    track
    sleep 0.1
done
scancel "$id"
wait_job "$id" 60
[ "$STATE" = CANCELLED ] || fail "cancelled job $id ended $STATE"
last=$(find "$T/jobs/cancelled/populations/big" -name 'gen-*.ckpt' | sort | tail -n 1)
last=${last##*/gen-}
last=$((10#${last%.ckpt}))
[ "$last" -lt "$GENERATIONS" ] \
    || fail "job $id finished the session before scancel took effect: nothing was tested"
grep -q 'the session stands at generation' "$T/job-$id.out" \
    || fail "rank 0 of cancelled job $id did not say where the session stands"
say "job $id CANCELLED at generation $last of $GENERATIONS; rank 0 said:"
grep 'the session stands at generation' "$T/job-$id.out"
id=$(submit "$T/jobs/cancelled")
say "job $id submitted: the same script continues the session"
wait_job "$id" 150
[ "$STATE" = COMPLETED ] || fail "job $id ended $STATE"
grep -q "resuming 'big' from .*generation $last" "$T/job-$id.out" \
    || fail "job $id did not resume from generation $last"
say "job $id COMPLETED; the session cancelled and continued against the one-process run:"
"$SAME" "$T/jobs/cancelled" "$T/jobs/one" big || fail "the continued session differs from one process"

say "passed: the Slurm script of docs/clusters.md (srun --mpi=pmix, $TASKS ranks) runs the session of one process, also when cancelled and continued"
