#!/usr/bin/env bash
# Tree-parallel MCTS scaling against the machine's own 2-thread scaling, in one run.
#
#   T = wall time of a self-play tournament with --threads 1 / with --threads 2
#       (independent games: what 2 threads give on this machine, with its
#       hyper-threads, caches and load)
#   M = iterations/s of `agon analyse` with mcts threads=2 (tree parallelism)
#       / with threads=1 (the single-threaded tree)
#
# The four runs alternate within each repetition; T and M are the medians of the
# per-repetition ratios. The goal is M >= 0.9 T. Usage, from the repository root
# after `cargo build --release -p agon-cli`:
#
#   experiments/tree-parallel-scaling.sh [REPS]    (default 5; AGON=path/to/agon)
set -euo pipefail
agon=${AGON:-target/release/agon}
reps=${1:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# A quotient or difference in floating point (awk: `bc` is not installed everywhere).
calc() { awk "BEGIN { print $1 }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# tournament_seconds GAME AGENT GAMES THREADS
tournament_seconds() {
    local start end
    start=$(date +%s.%N)
    "$agon" tournament --game "$1" --agents "$2" --games "$3" --threads "$4" \
        --out "$out/t$4" >/dev/null 2>&1
    end=$(date +%s.%N)
    rm -rf "$out/t$4"
    calc "$end - $start"
}

# analyse_nps GAME AGENT
analyse_nps() {
    "$agon" analyse --game "$1" --agent "$2" | awk '/^bestmove/ { for (i = 1; i < NF; i++) if ($i == "nps") print $(i + 1) }'
}

# measure LABEL GAME TOURNAMENT_AGENT GAMES ANALYSE_ITERS
measure() {
    local label=$1 game=$2 agent=$3 games=$4 iters=$5
    local ts=() ms=()
    for ((r = 1; r <= reps; r++)); do
        local t1 t2 n1 n2
        t1=$(tournament_seconds "$game" "$agent" "$games" 1)
        n2=$(analyse_nps "$game" "mcts:iters=$iters,threads=2,parallel=tree")
        t2=$(tournament_seconds "$game" "$agent" "$games" 2)
        n1=$(analyse_nps "$game" "mcts:iters=$iters,threads=1")
        ts+=("$(calc "$t1 / $t2")")
        ms+=("$(calc "$n2 / $n1")")
        printf '%s rep %d: tournament %.2fs / %.2fs, analyse %s / %s it/s\n' \
            "$label" "$r" "$t1" "$t2" "$n2" "$n1"
    done
    local t m
    t=$(printf '%s\n' "${ts[@]}" | median)
    m=$(printf '%s\n' "${ms[@]}" | median)
    printf '%s: T = %.3f  M = %.3f  M/T = %.3f  (load %s)\n' \
        "$label" "$t" "$m" "$(calc "$m / $t")" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

echo "load before: $(cat /proc/loadavg)"
measure connect4 connect4 mcts:iters=2000 40 400000
measure invector invector mcts:iters=500 8 40000
