#!/bin/bash
# Runs an agon tournament as N Slurm array tasks (one shard each), then merges them.
#
#   experiments/cluster/submit.sh N OUT AGON_ARGS...
#
# AGON_ARGS is what follows `agon` for the whole run, without --shard, --out or --threads:
#   experiments/cluster/submit.sh 100 results/c4-ladder run experiments/connect4-ladder.toml
#   experiments/cluster/submit.sh 50 results/big tournament --game connect4 \
#       --agents ab:depth=4 mcts:simulations=2000 --games 10000 --seed 1
#
# Shard I is written to OUT/shards/I, the merged run to OUT/merged, Slurm's logs to
# OUT/logs. The binary is $AGON if set, else target/release/agon of this checkout.
# Extra sbatch options (partition, account) go in SBATCH_* environment variables, which
# sbatch reads itself (e.g. SBATCH_PARTITION=short, SBATCH_ACCOUNT=myproject).
set -euo pipefail

if [ "$#" -lt 3 ]; then
    echo "usage: $0 N OUT AGON_ARGS... (e.g. $0 100 results/study run experiments/x.toml)" >&2
    exit 2
fi
shards=$1
out=$2
shift 2
case "$shards" in
    '' | *[!0-9]* | 0*)
        echo "$0: N must be a whole number of shards from 1, got '$shards'" >&2
        exit 2
        ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
agon=${AGON:-$(cd "$here/../.." && pwd)/target/release/agon}
if [ ! -x "$agon" ]; then
    echo "$0: no agon binary at $agon; run 'cargo build --release' or set AGON" >&2
    exit 2
fi
export AGON=$agon

mkdir -p "$out/logs"
array=$(sbatch --parsable --array="1-${shards}" \
    --output="$out/logs/shard-%A_%a.out" \
    "$here/shard.sbatch" "$shards" "$out" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:${array}" \
    --output="$out/logs/merge-%j.out" \
    "$here/merge.sbatch" "$shards" "$out")
merge=${merge%%;*}
echo "submitted shards as job $array (array 1-$shards) and the merge as job $merge"
echo "results: $out/merged (shards in $out/shards, logs in $out/logs)"
