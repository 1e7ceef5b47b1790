"""Agon's `mcts` against OpenSpiel's C++ `MCTSBot`: speed and strength, in one run.

Run through `run.sh` (which builds `agon` and installs OpenSpiel first); see README.md
beside this file for what is measured and why the settings are equal on both sides.

Parts, in order:
1. speed: simulations per second of one search from fixed positions, single thread,
   both programs alternating, `--reps` repetitions each; medians and the ratio.
2. Connect Four match: `--c4-games` games at `--c4-sims` simulations per move.
3. Pig match (only with `--pig-games` > 0): the same on Pig, chance drawn here.

Output (all in `--out`): `report.txt` (readable), `speed.csv`, `match_connect_four.csv`,
and `match_pig.csv` when Pig is played.
"""

import argparse
import csv
import importlib.metadata
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone

import pyspiel

UCT_C = 1.4
# OpenSpiel's tree may use this much memory before it prunes; large enough that it
# never prunes at the budgets used here (agon never prunes below 2^23 nodes).
MAX_MEMORY_MB = 2000
Z95 = 1.959964

# Fixed positions, written in agon's notation (converted to OpenSpiel's actions below).
SPEED_POSITIONS = [
    ("connect_four", "start", ""),
    ("connect_four", "mid8", "d d d c e c b e"),
    ("connect_four", "mid10", "d c e d c f g b a c"),
    ("pig", "start", ""),
    (
        "pig",
        "mid",
        "roll 6 roll 5 roll 4 hold roll 3 roll 6 roll 2 hold roll 5 roll 6 roll 6 hold "
        "roll 4 roll 1 roll 2 roll 2 roll 1 roll 6 roll 6 roll 5 roll 4 hold roll 4 roll 4",
    ),
]

AGON_GAME = {"connect_four": "connect4", "pig": "pig"}


# ---------------------------------------------------------------- notation


def agon_to_action(game_name, state, text):
    """OpenSpiel's action for one agon move `text` played in `state`."""
    if game_name == "connect_four":
        return ord(text) - ord("a")
    if text == "roll":
        return 0
    if text in ("hold", "stop"):
        return 1
    if state.is_chance_node():
        return int(text) - 1  # chance action i is face i + 1
    raise ValueError(f"not a pig move here: {text}")


def action_to_agon(game_name, state, action):
    """Agon's notation for OpenSpiel's `action` played in `state`."""
    if game_name == "connect_four":
        return chr(ord("a") + action)
    if state.is_chance_node():
        return str(action + 1)
    return "roll" if action == 0 else "hold"


def replay(game, game_name, moves):
    """OpenSpiel's state after agon's `moves` (a space-separated line)."""
    state = game.new_initial_state()
    for text in moves.split():
        state.apply_action(agon_to_action(game_name, state, text))
    return state


# ---------------------------------------------------------------- the two searchers


def agon_spec(sims):
    """Agon's agent spec with OpenSpiel's MCTSBot settings (see README.md)."""
    return f"mcts:iters={sims},c={UCT_C},rollout=random,solver=false,reuse=false,threads=1"


def agon_search(agon, game_name, moves, sims, seed):
    """Runs `agon analyse`; returns (move, reported search seconds, process seconds)."""
    cmd = [
        agon,
        "analyse",
        "--game",
        AGON_GAME[game_name],
        "--moves",
        moves,
        "--agent",
        agon_spec(sims),
        "--seed",
        str(seed),
    ]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - start
    last = out.strip().splitlines()[-1].split()
    if last[0] != "bestmove":
        raise RuntimeError(f"unexpected agon output: {out}")
    fields = dict(zip(last[2::2], last[3::2]))  # value ... nodes n time_ms t nps r
    nodes, nps = int(fields["nodes"]), int(fields["nps"])
    if nodes != sims:
        raise RuntimeError(f"agon ran {nodes} iterations, not {sims}: {out}")
    # nps is nodes * 10^6 / search microseconds, rounded down: invert it for the time.
    return last[1], nodes / nps, wall


def openspiel_bot(game, sims, seed):
    """OpenSpiel's C++ MCTSBot: random rollouts, UCT c, solver off, its own seeds."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(game, evaluator, UCT_C, sims, MAX_MEMORY_MB, False, seed + 1, False)


def openspiel_search(bot, state):
    """One `bot.step`; returns (action, seconds)."""
    start = time.perf_counter()
    action = bot.step(state)
    return action, time.perf_counter() - start


# ---------------------------------------------------------------- part 1: speed


def measure_speed(args, games, writer):
    """Sims/s of both programs from each position; returns summary rows."""
    rows = []
    for (game_name, label, moves), sims in (
        (p, n) for n in args.speed_sims for p in SPEED_POSITIONS
    ):
        game = games[game_name]
        state = replay(game, game_name, moves)
        agon_rates, os_rates = [], []
        for rep in range(args.reps):
            seed = 1000 + rep
            # Alternate the programs so that a change of machine load hits both alike.
            _, secs, wall = agon_search(args.agon, game_name, moves, sims, seed)
            agon_rates.append(sims / secs)
            writer.writerow([game_name, label, moves, "agon", rep, sims, f"{secs:.6f}",
                             f"{wall:.6f}", f"{sims / secs:.0f}"])
            bot = openspiel_bot(game, sims, seed)
            _, secs = openspiel_search(bot, state)
            os_rates.append(sims / secs)
            writer.writerow([game_name, label, moves, "openspiel", rep, sims, f"{secs:.6f}",
                             f"{secs:.6f}", f"{sims / secs:.0f}"])
        a, o = statistics.median(agon_rates), statistics.median(os_rates)
        rows.append((game_name, label, sims, a, min(agon_rates), max(agon_rates),
                     o, min(os_rates), max(os_rates), a / o))
        print(f"speed {game_name} {label} {sims}: agon {a:.0f}/s, OpenSpiel {o:.0f}/s, "
              f"ratio {a / o:.2f}", flush=True)
    return rows


def mean_playout_plies(game, game_name, moves, n, rng):
    """Mean length in plies (decisions and chance outcomes) of uniformly random
    playouts from a position: what one simulation's rollout costs."""
    total = 0
    for _ in range(n):
        state = replay(game, game_name, moves)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            total += 1
    return total / n


# ---------------------------------------------------------------- parts 2 and 3: matches


def play_match(args, game, game_name, n_games, sims, writer):
    """Seat-swapped pairs: even games agon moves first, odd games OpenSpiel does.
    Returns the per-game results from agon's view and the timing totals."""
    results = []
    times = {"agon_search": 0.0, "agon_wall": 0.0, "agon_moves": 0, "os": 0.0, "os_moves": 0}
    for g in range(n_games):
        agon_seat = g % 2
        seed = args.seed * 1_000_003 + g * 1009  # different for every game
        bot = openspiel_bot(game, sims, seed)
        chance = random.Random(seed + 7)
        state = game.new_initial_state()
        moves = []
        g_times = [0.0, 0.0, 0, 0.0, 0]
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                action = chance.choices(actions, probs)[0]
            elif state.current_player() == agon_seat:
                text, secs, wall = agon_search(args.agon, game_name, " ".join(moves), sims,
                                               seed + len(moves))
                action = agon_to_action(game_name, state, text)
                if action not in state.legal_actions():
                    raise RuntimeError(f"agon played an illegal move {text} after {moves}")
                g_times[0] += secs
                g_times[1] += wall
                g_times[2] += 1
            else:
                action, secs = openspiel_search(bot, state)
                g_times[3] += secs
                g_times[4] += 1
            moves.append(action_to_agon(game_name, state, action))
            state.apply_action(action)
        ret = state.returns()[agon_seat]
        result = 1.0 if ret > 0 else (0.0 if ret < 0 else 0.5)
        results.append(result)
        for key, v in zip(("agon_search", "agon_wall", "agon_moves", "os", "os_moves"), g_times):
            times[key] += v
        writer.writerow([g, g // 2, agon_seat, result, len(moves), g_times[2],
                         f"{g_times[0]:.6f}", f"{g_times[1]:.6f}", g_times[4],
                         f"{g_times[3]:.6f}", " ".join(moves)])
        if (g + 1) % 20 == 0:
            print(f"{game_name} match: {g + 1}/{n_games} games, agon score "
                  f"{sum(results)}/{len(results)}", flush=True)
    return results, times


def elo(p):
    """Logistic Elo difference for score p."""
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0)


def elo_interval(results):
    """(W, D, L, score, elo, low, high): the trinomial normal approximation the
    toolkit's summary.csv uses (results/README.md), per-game score variance."""
    n = len(results)
    w = sum(1 for r in results if r == 1.0)
    d = sum(1 for r in results if r == 0.5)
    loss = n - w - d
    p = (w + d / 2) / n
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + loss * p ** 2) / n
    if w == n:
        return w, d, loss, p, math.inf, elo(0.05 ** (1 / n)), math.inf
    if loss == n:
        return w, d, loss, p, -math.inf, -math.inf, -elo(0.05 ** (1 / n))
    se = math.sqrt(var / n)
    return w, d, loss, p, elo(p) + 0.0, elo(p - Z95 * se), elo(p + Z95 * se)


def match_lines(title, results, times, sims):
    """The report's lines for one match."""
    w, d, loss, p, e, lo, hi = elo_interval(results)
    seat_first = [r for i, r in enumerate(results) if i % 2 == 0]
    seat_second = [r for i, r in enumerate(results) if i % 2 == 1]
    return [
        f"{title}: {len(results)} games, {sims} simulations per move on both sides",
        f"  agon W/D/L {w}/{d}/{loss}, score {p:.4f}"
        f" (moving first {sum(seat_first):g} of {len(seat_first)},"
        f" second {sum(seat_second):g} of {len(seat_second)})",
        f"  Elo agon - OpenSpiel {e:+.1f}, 95% interval [{lo:+.1f}, {hi:+.1f}]"
        " (normal approximation on the per-game score, trinomial variance)",
        f"  mean time per move: agon search {1000 * times['agon_search'] / times['agon_moves']:.2f} ms"
        f" (process incl. start-up {1000 * times['agon_wall'] / times['agon_moves']:.2f} ms),"
        f" OpenSpiel step {1000 * times['os'] / times['os_moves']:.2f} ms"
        f" ({times['agon_moves']} and {times['os_moves']} moves)",
    ]


# ---------------------------------------------------------------- main


def load_average():
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agon", required=True, help="path of the release agon binary")
    ap.add_argument("--out", required=True, help="output folder (results/openspiel)")
    ap.add_argument("--reps", type=int, default=7, help="speed repetitions per position")
    ap.add_argument("--speed-sims", type=int, nargs="+", default=[50000, 2000],
                    help="simulations per speed search (each budget measured)")
    ap.add_argument("--c4-games", type=int, default=200,
                    help="Connect Four match games (even; 0: none, speed only)")
    ap.add_argument("--c4-sims", type=int, default=2000, help="simulations per move, Connect Four")
    ap.add_argument("--pig-games", type=int, default=0, help="Pig match games (even; 0: none)")
    ap.add_argument("--pig-sims", type=int, default=1000, help="simulations per move, Pig")
    ap.add_argument("--seed", type=int, default=1, help="master seed of the matches")
    args = ap.parse_args()
    if args.c4_games % 2 or args.pig_games % 2:
        ap.error("game counts must be even (seat-swapped pairs)")
    os.makedirs(args.out, exist_ok=True)
    games = {name: pyspiel.load_game(name) for name in ("connect_four", "pig")}
    started = time.time()
    head = [
        "agon mcts vs OpenSpiel MCTSBot",
        f"date (UTC): {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M')}",
        f"OpenSpiel: open_spiel {importlib.metadata.version('open_spiel')} (PyPI), "
        f"Python {platform.python_version()}",
        "agon: " + subprocess.run([args.agon, "--version"], capture_output=True,
                                  text=True).stdout.strip(),
        f"machine: {platform.machine()}, {os.cpu_count()} logical CPUs, "
        f"load average at start {load_average()}",
        f"pig parameters: OpenSpiel {games['pig'].get_parameters()}; "
        "agon pig defaults target=100, die=6, horizon=1000",
        f"agon spec: {agon_spec('N')}",
        f"OpenSpiel: MCTSBot(uct_c={UCT_C}, max_simulations=N, "
        f"RandomRolloutEvaluator(n_rollouts=1), solve=False, max_memory_mb={MAX_MEMORY_MB})",
        "",
    ]
    print("\n".join(head), flush=True)

    with open(os.path.join(args.out, "speed.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "position", "moves", "program", "rep", "sims", "search_s",
                    "wall_s", "sims_per_s"])
        speed = measure_speed(args, games, w)
    rng = random.Random(12345)
    plies = {(g, label): mean_playout_plies(games[g], g, moves, 300, rng)
             for g, label, moves in SPEED_POSITIONS}
    lines = head + [
        f"1. Simulations per second, one thread, median of {args.reps} searches (min-max);"
        " agon's own timing of the search, OpenSpiel's bot.step",
        f"{'game':<13}{'position':<9}{'sims':>7}{'agon':>26}{'OpenSpiel':>24}{'ratio':>7}"
        f"{'playout plies':>15}",
    ]
    for g, label, sims, a, alo, ahi, o, olo, ohi, ratio in speed:
        agon_cell = f"{a:.0f} ({alo:.0f}-{ahi:.0f})"
        os_cell = f"{o:.0f} ({olo:.0f}-{ohi:.0f})"
        lines.append(f"{g:<13}{label:<9}{sims:>7}{agon_cell:>26}{os_cell:>24}{ratio:>7.2f}"
                     f"{plies[(g, label)]:>15.1f}")
    lines.append("(playout plies: mean length of a uniformly random playout from the position, "
                 "decisions and chance outcomes, 300 playouts)")
    lines.append("")

    header = ["game", "pair", "agon_seat", "agon_result", "plies", "agon_moves",
              "agon_search_s", "agon_process_s", "openspiel_moves", "openspiel_s", "moves"]
    if args.c4_games:
        with open(os.path.join(args.out, "match_connect_four.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            res, times = play_match(args, games["connect_four"], "connect_four",
                                    args.c4_games, args.c4_sims, w)
        lines += match_lines("2. Connect Four match", res, times, args.c4_sims)
        lines.append("")
    if args.pig_games:
        with open(os.path.join(args.out, "match_pig.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            res, times = play_match(args, games["pig"], "pig", args.pig_games, args.pig_sims, w)
        lines += match_lines("3. Pig match", res, times, args.pig_sims)
        lines.append("")
    lines.append(f"load average at end {load_average()}; "
                 f"run took {(time.time() - started) / 60:.1f} min")
    lines.append("command: " + " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "report.txt"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
