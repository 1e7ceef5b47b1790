#!/usr/bin/env python3
"""Random playouts from Python: Agon's bindings against pyspiel, in states per second.

Plays uniformly random games from the start, the moves chosen in Python, of Connect Four
(no chance) and Pig (a die after every roll: OpenSpiel's `pig` and Agon's `pig` with the
same rules and parameters, target 100 and horizon 1000), in four ways each, every way
running the same loop code, each repeated --reps times with the ways alternating (so that
a change of machine load hits all alike). It prints the median states per second
(min-max) of each way and its ratio to pyspiel's on the same game:

1. pyspiel, OpenSpiel's C++ game (`connect_four`, `pig`) driven from Python;
2. agon, the bindings' `State` driven the same way (`legal_actions`,
   `chance_outcome_actions`, `apply`);
3. agon via OpenSpiel, Agon's game registered in OpenSpiel (`agon_connect4`, `agon_pig`)
   and driven through pyspiel's API, as OpenSpiel's Python algorithms drive it;
4. agon batch, whole playouts in one call (`Game.random_playouts`), the choices made in
   Rust.

The loop: while the game goes on, at a chance node draw an outcome by its probability
(one uniform number against the cumulated probabilities), else choose a legal action
uniformly (`random.choice`); apply it. A state is a position reached: every applied move
counts one, and each game's initial state one more.
"""

import argparse
import random
import statistics
import sys
import time

import pyspiel

import agon
import agon.openspiel  # noqa: F401  (registers agon_connect4 and agon_pig)


def draw(outcomes, rng):
    """The action of `outcomes` ((action, probability) pairs) that one uniform number
    picks."""
    r = rng.random()
    for action, p in outcomes:
        r -= p
        if r < 0:
            return action
    return outcomes[-1][0]


def loop(game, games, rng, outcomes, apply):
    """Random games driven from Python; `outcomes` and `apply` name the state's methods
    for the chance outcomes as (action, probability) pairs and for applying an id."""
    states = 0
    for _ in range(games):
        state = game.new_initial_state()
        states += 1
        while not state.is_terminal():
            if state.is_chance_node():
                action = draw(getattr(state, outcomes)(), rng)
            else:
                action = rng.choice(state.legal_actions())
            getattr(state, apply)(action)
            states += 1
    return states


def loop_pyspiel(game, games, rng):
    return loop(game, games, rng, "chance_outcomes", "apply_action")


def loop_agon(game, games, rng):
    return loop(game, games, rng, "chance_outcome_actions", "apply")


def batch_agon(game, games, rng):
    return game.random_playouts(games, seed=rng.randrange(2**32)) + games


# Each game: its title, OpenSpiel's game, Agon's spec of the same rules and parameters,
# the same in OpenSpiel, and the games per repetition relative to --games (a random Pig
# game is about ten times longer than one of Connect Four).
GAMES = {
    "connect4": ("Connect Four", "connect_four", "connect4", "agon_connect4", 1.0),
    "pig": (
        "Pig (target 100, horizon 1000)",
        "pig(winscore=100,horizon=1000)",
        "pig:target=100,horizon=1000",
        "agon_pig(target=100,horizon=1000)",
        0.1,
    ),
}


def measure(name, args, rng):
    title, openspiel_name, spec, adapted, scale = GAMES[name]
    games = max(1, round(args.games * scale))
    ways = [
        ("pyspiel", loop_pyspiel, pyspiel.load_game(openspiel_name), games),
        ("agon", loop_agon, agon.load_game(spec), games),
        ("agon via OpenSpiel", loop_pyspiel, pyspiel.load_game(adapted), games),
        ("agon batch", batch_agon, agon.load_game(spec), games * 20),
    ]
    rates = {way: [] for way, *_ in ways}
    for _ in range(args.reps):
        for way, run, game, count in ways:
            start = time.perf_counter()
            states = run(game, count, rng)
            rates[way].append(states / (time.perf_counter() - start))
    base = statistics.median(rates["pyspiel"])
    print(f"{title}, uniformly random playouts from the start; {games} games a repetition "
          f"({games * 20} in one call for agon batch), {args.reps} repetitions")
    print(f"{'way':<20} {'states/s (median)':>18} {'min-max':>24} {'vs pyspiel':>11}")
    for way, values in rates.items():
        median = statistics.median(values)
        spread = f"{min(values):,.0f}-{max(values):,.0f}"
        print(f"{way:<20} {median:>18,.0f} {spread:>24} {median / base:>10.2f}x")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=7, help="repetitions of each way")
    parser.add_argument("--games", type=int, default=5000,
                        help="Connect Four games per repetition (Pig: a tenth as many)")
    parser.add_argument("--game", choices=[*GAMES, "all"], default="all")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    names = list(GAMES) if args.game == "all" else [args.game]
    for k, name in enumerate(names):
        if k:
            print()
        measure(name, args, rng)


if __name__ == "__main__":
    main(sys.argv[1:])
