#!/bin/bash
# Runs an agon tournament as N Slurm array tasks (one shard each), then merges them.
#
#   experiments/cluster/submit.sh [--cpus C] [--tasks LIST] N OUT AGON_ARGS...
#
# AGON_ARGS is what follows `agon` for the whole run, without --shard, --out or --threads:
#   experiments/cluster/submit.sh 100 results/c4-ladder run experiments/connect4-ladder.toml
#   experiments/cluster/submit.sh --cpus 4 50 results/big tournament --game connect4 \
#       --agents ab:depth=4 mcts:iters=2000 --games 10000 --seed 1
#
# --cpus C: CPUs (and agon threads) per shard task, 1 unless given; results never depend
#   on it. --tasks LIST: submit only these tasks (sbatch's --array syntax, e.g. 7,12 or
#   3-5), to redo failed ones; each resumes its shard where it stopped. Either way a merge
#   of all N shards follows, once the submitted tasks have succeeded.
#
# Before submitting, the command is checked as a shard task will run it (agon refuses,
# e.g., more shards than seat-swapped pairs or an unknown agent), and Slurm is asked
# (sbatch --test-only) whether it can ever run both jobs as asked.
#
# Shard I is written to OUT/shards/I, the merged run to OUT/merged, Slurm's logs to
# OUT/logs. The binary is $AGON if set, else target/release/agon of this checkout.
# Other sbatch settings (partition, account, time, memory) go in SBATCH_* environment
# variables (e.g. SBATCH_PARTITION=short, SBATCH_TIMELIMIT=8:00:00), which sbatch reads
# itself; they apply to both jobs, the shard tasks and the merge.
set -euo pipefail

usage="usage: $0 [--cpus C] [--tasks LIST] N OUT AGON_ARGS... (e.g. $0 100 results/study run experiments/x.toml)"
bad() {
    echo "$0: $*" >&2
    exit 2
}
# Whether $1 is a whole number from 1.
whole() {
    case "$1" in
        '' | *[!0-9]* | 0*) return 1 ;;
        *) return 0 ;;
    esac
}
# Whether $1 is a list of tasks from 1 to $2: numbers or ranges A-B, comma-separated.
task_list() {
    local item first last
    local -a items
    case "$1" in
        '' | ,* | *, | *,,*) return 1 ;;
    esac
    IFS=, read -r -a items <<<"$1"
    for item in "${items[@]}"; do
        first=${item%-*}
        last=${item#*-}
        whole "$first" && whole "$last" && [ "$first" -le "$last" ] &&
            [ "$last" -le "$2" ] || return 1
    done
}

cpus=1
unset tasks # given or not: --tasks '' is refused, not taken for all tasks
while [ "$#" -gt 0 ]; do
    case "$1" in
        --cpus | --tasks)
            [ "$#" -ge 2 ] || bad "$1 needs a value; $usage"
            if [ "$1" = --cpus ]; then cpus=$2; else tasks=$2; fi
            shift 2
            ;;
        -h | --help)
            echo "$usage"
            exit 0
            ;;
        -*) bad "unknown option '$1': the options are --cpus C and --tasks LIST; $usage" ;;
        *) break ;;
    esac
done
if [ "$#" -lt 3 ]; then
    bad "$usage"
fi
shards=$1
out=$2
shift 2
whole "$shards" || bad "N must be a whole number of shards from 1, got '$shards'"
whole "$cpus" || bad "--cpus must be a whole number of CPUs from 1, got '$cpus'"
if [ -z "${tasks+given}" ]; then
    tasks="1-$shards"
elif ! task_list "$tasks" "$shards"; then
    bad "--tasks '$tasks' is not valid: expected task numbers or ranges from 1 to $shards, comma-separated (e.g. 7,12 or 3-5)"
fi

here=$(cd "$(dirname "$0")" && pwd)
agon=${AGON:-$(cd "$here/../.." && pwd)/target/release/agon}
if [ ! -x "$agon" ]; then
    echo "$0: no agon binary at $agon; run 'cargo build --release' or set AGON" >&2
    exit 2
fi
export AGON=$agon

# The command as shard N will run it, into a folder inside a plain file: agon checks
# everything it is given (agents, games, seed, shard count) before it looks at the
# output folder, where it must stop, since nothing can be created there. So a refusal
# that does not name that folder is one that every task would meet.
probe=$(mktemp)
trap 'rm -f "$probe"' EXIT
if refusal=$("$agon" "$@" --threads 1 --shard "$shards/$shards" --resume \
    --out "$probe/out" 2>&1 >/dev/null); then
    status=0
else
    status=$?
fi
case "$refusal" in
    *"$probe"*) ;;
    *)
        echo "$0: nothing submitted: the shards would fail: $refusal" >&2
        exit $((status == 0 ? 1 : status))
        ;;
esac

shard_job=(--array="$tasks" --cpus-per-task="$cpus" --output="$out/logs/shard-%A_%a.out"
    "$here/shard.sbatch" "$shards" "$out" "$@")
merge_job=(--output="$out/logs/merge-%j.out" "$here/merge.sbatch" "$shards" "$out")
if ! verdict=$(sbatch --test-only "${shard_job[@]}" 2>&1); then
    bad "nothing submitted: Slurm cannot run the shard tasks as asked (--cpus $cpus and SBATCH_* settings; see shard.sbatch for the rest): $verdict"
fi
if ! verdict=$(sbatch --test-only "${merge_job[@]}" 2>&1); then
    bad "nothing submitted: Slurm cannot run the merge as asked (SBATCH_* settings; see merge.sbatch for the rest): $verdict"
fi

mkdir -p "$out/logs"
array=$(sbatch --parsable "${shard_job[@]}")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:${array}" --kill-on-invalid-dep=yes \
    "${merge_job[@]}")
merge=${merge%%;*}
echo "submitted shards as job $array (array $tasks of 1-$shards) and the merge as job $merge"
echo "results: $out/merged (shards in $out/shards, logs in $out/logs)"
