#!/usr/bin/env python3
"""Random playouts from Python: Agon's bindings against pyspiel, in states per second.

Plays uniformly random Connect Four games from the start, the moves chosen in Python,
in four ways, each repeated --reps times with the ways alternating (so that a change of
machine load hits all alike), and prints the median states per second (min-max) of each
and the ratio to pyspiel's:

1. pyspiel, OpenSpiel's C++ connect_four driven from Python
   (legal_actions, random choice, apply_action);
2. agon, the bindings' State driven the same way (legal_actions, apply);
3. agon via OpenSpiel, Agon's game registered in OpenSpiel (agon_connect4) and driven
   through pyspiel's API, as OpenSpiel's algorithms drive it;
4. agon batch, whole playouts in one call (Game.random_playouts), the choices made in
   Rust.

A state is a position reached: every applied move counts one, and each game's initial
state one more.
"""

import argparse
import random
import statistics
import sys
import time

import pyspiel

import agon
import agon.openspiel  # noqa: F401  (registers agon_connect4)


def loop(game, games, rng, apply):
    """Random games driven from Python; `apply` names the state's method for an id."""
    states = 0
    for _ in range(games):
        state = game.new_initial_state()
        states += 1
        while not state.is_terminal():
            getattr(state, apply)(rng.choice(state.legal_actions()))
            states += 1
    return states


def loop_pyspiel(game, games, rng):
    return loop(game, games, rng, "apply_action")


def loop_agon(game, games, rng):
    return loop(game, games, rng, "apply")


def batch_agon(game, games, rng):
    return game.random_playouts(games, seed=rng.randrange(2**32)) + games


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=7, help="repetitions of each way")
    parser.add_argument("--games", type=int, default=2000, help="games per repetition")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ways = [
        ("pyspiel", loop_pyspiel, pyspiel.load_game("connect_four"), args.games),
        ("agon", loop_agon, agon.load_game("connect4"), args.games),
        ("agon via OpenSpiel", loop_pyspiel, pyspiel.load_game("agon_connect4"), args.games),
        ("agon batch", batch_agon, agon.load_game("connect4"), args.games * 20),
    ]
    rng = random.Random(args.seed)
    rates = {name: [] for name, *_ in ways}
    for _ in range(args.reps):
        for name, run, game, games in ways:
            start = time.perf_counter()
            states = run(game, games, rng)
            rates[name].append(states / (time.perf_counter() - start))
    base = statistics.median(rates["pyspiel"])
    print(f"Connect Four, uniformly random playouts from the start; {args.reps} repetitions")
    print(f"{'way':<20} {'states/s (median)':>18} {'min-max':>22} {'vs pyspiel':>11}")
    for name, values in rates.items():
        median = statistics.median(values)
        spread = f"{min(values):,.0f}-{max(values):,.0f}"
        print(f"{name:<20} {median:>18,.0f} {spread:>22} {median / base:>10.2f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
