#!/usr/bin/env bash
# Tree-parallel MCTS iterations per second at 1, 2, 4, 8 and 16 threads: Connect Four
# (1,000,000 iterations from the start) and Invector 8×7 (100,000), each build given
# in turn within every repetition, so that builds meet the same machine load. Prints
# one line per repetition, build and thread count, then each build's medians and
# their ratio to one thread. Usage, from the repository root:
#
#   experiments/tree-parallel-threads.sh REPS AGON [AGON...]
set -euo pipefail
reps=${1:?usage: tree-parallel-threads.sh REPS AGON [AGON...]}
shift
builds=("$@")
[ ${#builds[@]} -gt 0 ] || { echo "name at least one agon binary" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

nps() {
    "$1" analyse --game "$2" --agent "mcts:iters=$3,threads=$4,parallel=tree" |
        awk '/^bestmove/ { print $NF }'
}

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= reps; r++)); do
    for b in "${builds[@]}"; do
        for t in 1 2 4 8 16; do
            line="$r $b $t $(nps "$b" connect4 1000000 "$t") $(nps "$b" invector 100000 "$t")"
            echo "$line" | tee -a "$out"
        done
    done
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "medians: build game, then threads: iterations/s (ratio to one thread)"
for b in "${builds[@]}"; do
    for col in 4 5; do
        game=connect4
        [ "$col" = 5 ] && game=invector
        row="$b $game"
        one=""
        for t in 1 2 4 8 16; do
            m=$(awk -v b="$b" -v t="$t" -v c="$col" '$2 == b && $3 == t { print $c }' "$out" | median)
            [ -n "$one" ] || one=$m
            row="$row  $t: $m ($(awk -v m="$m" -v o="$one" 'BEGIN { printf "%.2f", m / o }'))"
        done
        echo "$row"
    done
done
