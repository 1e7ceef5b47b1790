#!/bin/bash
# Tests the Slurm recipe end to end on the single-node Slurm of local-slurm.sh. Run as
# root on a Debian machine, after a release build (CI does not run it):
#
#   cargo build --release -p agon-cli
#   experiments/cluster/test-recipe.sh [WORK_DIR]
#
# It starts the local Slurm (local-slurm.sh), then with a small Connect Four tournament
# (24 games, 3 shards, about a minute on two cores):
#   1. submit.sh with more shards than pairs is refused, and nothing is submitted;
#   2. submit.sh submits the 3 shards and the merge;
#   3. task 2 is requeued in the middle of its shard (as on preemption or a node failure);
#      it must resume its shard;
#   4. task 3 is cancelled in the middle of its shard; the merge, whose dependency can no
#      longer be met, must be cancelled by Slurm rather than wait forever;
#   5. `submit.sh --tasks 3` submits task 3 again and a new merge; task 3 must resume;
#   6. the merge submitted by hand from the checkout's root, without $AGON, must work;
#   7. the merged games.csv and summary.csv must equal, byte for byte, those of the same
#      tournament played on this machine in one go.
# It prints each step with the seconds since the start, exits 0 when all holds and
# non-zero, naming what failed, otherwise. The work folder (default: a new one in /tmp,
# removed after a success) keeps the run, the logs and the single-machine run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export AGON=${AGON:-$root/target/release/agon}
start=$(date +%s)

say() { echo "[$(($(date +%s) - start)) s] $*"; }
fail() {
    echo "test-recipe: FAILED: $*" >&2
    exit 1
}

# Polls the command "$@" every 0.2 s until it succeeds; fails after $1 seconds, naming $2.
wait_for() {
    local limit=$1 what=$2 began
    shift 2
    began=$(date +%s)
    until "$@"; do
        if [ $(($(date +%s) - began)) -ge "$limit" ]; then
            fail "waited ${limit} s for $what"
        fi
        sleep 0.2
    done
}

# The state of job $1 (JOBID or ARRAY_TASK), as scontrol shows it.
state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
# Whether job $1 is running.
is_running() { [ "$(state "$1")" = RUNNING ]; }
# Whether jobs "$@" have all left the queue.
gone() {
    local ids
    ids=$(
        IFS=,
        echo "$*"
    )
    [ -z "$(squeue -h -j "$ids" 2>/dev/null)" ]
}
# Whether requeued job $1 has started again. While it waits for its begin time (Slurm
# delays a requeued job by two minutes), it is told to start now.
restarted() {
    local shown
    shown=$(scontrol show job "$1")
    case "$shown" in
        *"JobState=PENDING Reason=BeginTime"*)
            scontrol update JobId="$1" StartTime=now >/dev/null 2>&1 || true
            return 1
            ;;
        *Restarts=0*) return 1 ;;
        *JobState=RUNNING* | *JobState=COMPLETED*) return 0 ;;
        *) return 1 ;;
    esac
}
# Whether shard folder $1 holds at least one game, not all (playing, not finished).
midway() {
    if [ -e "$1/summary.csv" ]; then
        fail "$1 finished before the test could stop it midway (is this machine much faster than two busy cores? then raise --games)"
    fi
    [ -f "$1/games.csv" ] && [ "$(wc -l <"$1/games.csv")" -ge 2 ]
}
# The job ids of submit.sh's first line of output, $1: array job and merge job.
job_ids() { sed -n 's/^submitted shards as job \([0-9]*\) .* merge as job \([0-9]*\)$/\1 \2/p' <<<"$1"; }

if [ "$(id -u)" -ne 0 ]; then
    fail "run me as root (local-slurm.sh installs and starts Slurm)"
fi
if [ ! -x "$AGON" ]; then
    fail "no agon binary at $AGON; run 'cargo build --release -p agon-cli' or set AGON"
fi
"$here/local-slurm.sh"

if [ -n "${1:-}" ]; then
    work=$1
    mkdir -p "$work"
    work=$(cd "$work" && pwd)
    keep=yes
else
    work=$(mktemp -d /tmp/agon-recipe.XXXXXX)
    keep=no
fi
cd "$work"
out=$work/run
rm -rf "$out" "$work/single" "$work/too-many"
jobs=()
cleanup() {
    if [ "${#jobs[@]}" -gt 0 ]; then
        scancel "${jobs[@]}" 2>/dev/null || true
    fi
}
trap cleanup EXIT
game=(tournament --game connect4 --agents ab:depth=8 mcts:iters=40000 --games 24 --seed 3)
say "work folder $work; agon is $AGON"

# 1. More shards than the run's 12 pairs: refused before anything is submitted.
queued=$(squeue -h | wc -l)
if refusal=$("$here/submit.sh" 13 "$work/too-many" "${game[@]}" 2>&1); then
    fail "submit.sh accepted 13 shards of 12 pairs: $refusal"
else
    status=$?
fi
[ "$status" -eq 2 ] || fail "submit.sh refused 13 shards with exit code $status, not 2: $refusal"
case "$refusal" in
    *"--shard 13/13: the run has 12 seat-swapped pairs, so it can be cut into at most 12 shards"*) ;;
    *) fail "submit.sh refused 13 shards with an unexpected message: $refusal" ;;
esac
[ ! -e "$work/too-many" ] || fail "submit.sh created $work/too-many while refusing"
[ "$(squeue -h | wc -l)" -eq "$queued" ] || fail "submit.sh submitted jobs while refusing"
say "1. refused 13 shards of 12 pairs, exit 2: $refusal"

# 2. Submit.
submitted=$("$here/submit.sh" 3 "$out" "${game[@]}")
read -r array merge <<<"$(job_ids "$submitted")"
[ -n "${merge:-}" ] || fail "cannot read the job ids in: $submitted"
jobs+=("$array" "$merge")
say "2. $(head -n 1 <<<"$submitted")"

# 3. Requeue task 2 midway; task 3 takes its CPU.
wait_for 300 "shard 2 to be midway" midway "$out/shards/2"
is_running "${array}_2" || fail "task ${array}_2 is not running while its shard is midway"
played=$(($(wc -l <"$out/shards/2/games.csv") - 1))
scontrol requeue "${array}_2"
say "3. requeued task ${array}_2 after $played of its 8 games"

# 4. Cancel task 3 midway, and let task 2 start again: the merge must be cancelled, not
# left pending.
wait_for 300 "shard 3 to be midway" midway "$out/shards/3"
is_running "${array}_3" || fail "task ${array}_3 is not running while its shard is midway"
played=$(($(wc -l <"$out/shards/3/games.csv") - 1))
scancel "${array}_3"
say "4. cancelled task ${array}_3 after $played of its 8 games"
wait_for 120 "task ${array}_2 to start again" restarted "${array}_2"
say "   task ${array}_2 started again"
wait_for 120 "the merge $merge to leave the queue" gone "$merge"
merge_state=$(scontrol show job "$merge" | grep -o 'JobState=[A-Z_]* Reason=[A-Za-z_]*')
[ "$merge_state" = "JobState=CANCELLED Reason=DependencyNeverSatisfied" ] ||
    fail "merge $merge: $merge_state, expected it cancelled for its dependency"
say "   merge $merge: $merge_state"
[ ! -e "$out/merged" ] || fail "the cancelled merge wrote $out/merged"

# 5. Submit task 3 again, with a new merge.
wait_for 300 "the first array $array to finish" gone "$array"
again=$("$here/submit.sh" --tasks 3 3 "$out" "${game[@]}")
read -r array2 merge2 <<<"$(job_ids "$again")"
[ -n "${merge2:-}" ] || fail "cannot read the job ids in: $again"
jobs+=("$array2" "$merge2")
say "5. $(head -n 1 <<<"$again")"
wait_for 600 "the new array $array2 and merge $merge2 to finish" gone "$array2" "$merge2"
[ "$(state "$merge2")" = COMPLETED ] || fail "merge $merge2 ended $(state "$merge2"); see $out/logs"
say "   merge $merge2 completed"

# The logs: task 2 ran twice and resumed; task 3 resumed in its new array.
log2=$out/logs/shard-${array}_2.out
log3=$out/logs/shard-${array2}_3.out
grep -q "^shard 2/3, attempt 2, " "$log2" || fail "$log2 shows no second attempt"
grep -q "^resuming $out/shards/2 " "$log2" || fail "$log2 shows no resume"
grep -q "^resuming $out/shards/3 " "$log3" || fail "$log3 shows no resume"
say "   $(grep "^resuming" "$log2"); $(grep "^resuming" "$log3")"

# 6. The merge again, submitted by hand from the checkout's root as the README shows,
# without $AGON: the job finds target/release/agon there (this rewrites the same bytes).
by_hand=$(cd "$root" && env -u AGON sbatch --parsable --wait \
    --output="$out/logs/merge-%j.out" experiments/cluster/merge.sbatch 3 "$out") ||
    fail "the merge submitted by hand failed; see $out/logs"
by_hand=${by_hand%%;*}
[ -s "$out/logs/merge-$by_hand.out" ] || fail "the merge submitted by hand left no log in $out/logs"
say "6. merge $by_hand, submitted by hand without AGON, completed"

# 7. The same tournament on this machine in one go.
"$AGON" "${game[@]}" --threads 2 --out "$work/single" >/dev/null 2>&1
for file in games.csv summary.csv; do
    cmp "$out/merged/$file" "$work/single/$file" ||
        fail "$out/merged/$file differs from the single-machine run's $work/single/$file"
done
say "7. merged games.csv ($(($(wc -l <"$out/merged/games.csv") - 1)) games) and summary.csv equal the single-machine run's"

trap - EXIT
if [ "$keep" = no ]; then
    rm -rf "$work"
fi
say "test-recipe: PASSED"
