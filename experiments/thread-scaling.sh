#!/usr/bin/env bash
# Scaling with threads on one machine, in one run: for each thread count T, the
# median of REPS alternated repetitions of
#
#   tournament  wall seconds of 600 Connect Four self-play games of ab:depth=5
#               (independent games: the machine's own scaling)
#   tree        iterations/s of tree-parallel mcts on the Connect Four start
#               (400,000 iterations) and on the Invector 8x7 start (100,000)
#   smp         wall seconds of Lazy SMP to depth 16 on the Connect Four start
#               (ab:depth=16,hash=256), and its nodes
#
# Usage, from the repository root after `cargo build --release -p agon-cli`:
#
#   experiments/thread-scaling.sh [REPS] [T ...]   (default 3 and 1 2 4 8 16;
#                                                   AGON=path/to/agon)
set -euo pipefail
agon=${AGON:-target/release/agon}
reps=${1:-3}
shift || true
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2 4 8 16)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now() { date +%s.%N; }
# The value after KEY on analyse's bestmove line.
field() { awk -v k="$1" '/^bestmove/ { for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%3s %12s %14s %14s %10s %14s\n' T tournament_s c4_tree_it/s inv_tree_it/s smp_s smp_nodes
for t in "${threads[@]}"; do
    tour=() c4=() inv=() smp=() nodes=()
    for ((r = 1; r <= reps; r++)); do
        s=$(now)
        "$agon" tournament --game connect4 --agents ab:depth=5 --games 600 --threads "$t" \
            --out "$out/t" >/dev/null 2>&1
        tour+=("$(awk -v a="$s" -v b="$(now)" 'BEGIN { print b - a }')")
        rm -rf "$out/t"
        c4+=("$("$agon" analyse --game connect4 \
            --agent "mcts:iters=400000,threads=$t,parallel=tree" | field nps)")
        inv+=("$("$agon" analyse --game invector \
            --agent "mcts:iters=100000,threads=$t,parallel=tree" | field nps)")
        s=$(now)
        line=$("$agon" analyse --game connect4 --agent "ab:depth=16,hash=256,threads=$t" | grep '^bestmove')
        smp+=("$(awk -v a="$s" -v b="$(now)" 'BEGIN { print b - a }')")
        nodes+=("$(echo "$line" | field nodes)")
    done
    printf '%3s %12.2f %14.0f %14.0f %10.2f %14.0f\n' "$t" \
        "$(printf '%s\n' "${tour[@]}" | median)" "$(printf '%s\n' "${c4[@]}" | median)" \
        "$(printf '%s\n' "${inv[@]}" | median)" "$(printf '%s\n' "${smp[@]}" | median)" \
        "$(printf '%s\n' "${nodes[@]}" | median)"
done
