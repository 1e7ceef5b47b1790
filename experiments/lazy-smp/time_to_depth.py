#!/usr/bin/env python3
"""Time to a fixed depth of `ab` at 1 thread against N threads (default 2).

Runs `agon analyse` on every position of positions.txt (game | moves | depth), the
thread counts alternated within each repetition so that both sides see the same load,
and prints per position the median search time of each side (the `time_ms` of the
`bestmove` line), the ratio 1-thread / N-thread (above 1: the threads help), and the
geometric mean of the ratios.

On a loaded machine the N threads do not get N cores, and the wall ratio says little.
So it also prints two ratios that hardly depend on the load: the work ratio, N x
(1-thread nodes) / (N-thread nodes, all threads together), the speed-up the search
would have if every thread ran on its own core at the speed of the one thread; and the
CPU ratio, N x (1-thread user CPU time) / (N-thread user CPU time), the same with each
thread's real speed (a shared table's memory traffic included).

    experiments/lazy-smp/time_to_depth.py [--agon target/release/agon] [--reps 5]
        [--threads 2] [--hash 512] [--positions experiments/lazy-smp/positions.txt]
"""

import argparse
import math
import os
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def positions(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            game, moves, depth = (part.strip() for part in line.split("|"))
            yield game, moves, int(depth)


def search(agon, game, moves, depth, hash_mb, threads):
    """Search time in ms, nodes, and the process's user CPU time in ms of one search."""
    agent = f"ab:depth={depth},hash={hash_mb},threads={threads}"
    child = subprocess.Popen(
        [agon, "analyse", "--game", game, "--moves", moves, "--agent", agent],
        stdout=subprocess.PIPE, text=True,
    )
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    assert status == 0, f"{agent} failed on {game} {moves!r}"
    best = next(l for l in out.splitlines() if l.startswith("bestmove"))
    words = best.split()
    reached = int(words[words.index("depth") + 1])
    assert reached >= depth, f"{game} {moves!r}: reached depth {reached} < {depth}"
    ms = int(words[words.index("time_ms") + 1])
    return ms, int(words[words.index("nodes") + 1]), 1000 * usage.ru_utime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agon", default="target/release/agon")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--hash", type=int, default=512)
    parser.add_argument("--positions", default=os.path.join(HERE, "positions.txt"))
    args = parser.parse_args()
    with open("/proc/loadavg") as f:
        print("load before:", f.read().strip())
    ratios, works, cpus = [], [], []
    for game, moves, depth in positions(args.positions):
        times = {1: [], args.threads: []}
        nodes = {1: [], args.threads: []}
        cpu = {1: [], args.threads: []}
        for rep in range(args.reps):
            order = [1, args.threads] if rep % 2 == 0 else [args.threads, 1]
            for threads in order:
                ms, n, cpu_ms = search(args.agon, game, moves, depth, args.hash, threads)
                times[threads].append(ms)
                nodes[threads].append(n)
                cpu[threads].append(cpu_ms)
        one = statistics.median(times[1])
        many = statistics.median(times[args.threads])
        ratio = one / max(many, 1)
        ratios.append(ratio)
        work = args.threads * statistics.median(nodes[1]) / statistics.median(nodes[args.threads])
        works.append(work)
        cpu_ratio = args.threads * statistics.median(cpu[1]) / statistics.median(cpu[args.threads])
        cpus.append(cpu_ratio)
        label = f"{game} [{moves[:24]}{'...' if len(moves) > 24 else ''}] depth {depth}"
        print(f"{label:52} 1 thread {one:7.0f} ms  {args.threads} threads {many:7.0f} ms"
              f"  speed-up {ratio:.2f}  work ratio {work:.2f}  CPU ratio {cpu_ratio:.2f}"
              f"  (all ms: {times[1]} / {times[args.threads]})", flush=True)
    def geo(xs):
        return math.exp(sum(math.log(x) for x in xs) / len(xs))
    print(f"geometric means at {args.threads} threads: speed-up {geo(ratios):.2f},"
          f" work ratio {geo(works):.2f}, CPU ratio {geo(cpus):.2f}")
    with open("/proc/loadavg") as f:
        print("load after:", f.read().strip())


if __name__ == "__main__":
    main()
