#!/usr/bin/env python3
"""Full games inside OpenSpiel: Agon's `mcts` (through the bindings, as an OpenSpiel bot)
against OpenSpiel's MCTSBot, on Agon's games registered in OpenSpiel.

Both bots get the same number of simulations per move (--sims). OpenSpiel's MCTSBot
uses UCT with c = 2 and one random rollout per leaf (its RandomRolloutEvaluator), Agon's
`mcts` its defaults (UCT, random playouts to the end). Games 2p and 2p+1 are a
seat-swapped pair: Agon moves first in even games. Each game seeds OpenSpiel's bot, its
rollouts and the chance draws with the game's number plus --seed, and Agon's agent with
the same number, so a rerun plays the same games. OpenSpiel's `evaluate_bots` plays
them: chance outcomes are drawn by it from the declared probabilities.

Prints, per game spec, Agon's wins, draws and losses, its score with a 95% interval
(normal approximation on the per-game score), and each side's mean seconds per move.
"""

import argparse
import math
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import agon.openspiel


class Timed(pyspiel.Bot):
    """A bot that adds up the seconds its steps take."""

    def __init__(self, bot):
        super().__init__()
        self.bot, self.seconds, self.moves = bot, 0.0, 0

    def step(self, state):
        start = time.perf_counter()
        action = self.bot.step(state)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return action

    def restart_at(self, state):
        self.bot.restart_at(state)

    def inform_action(self, state, player_id, action):
        self.bot.inform_action(state, player_id, action)


def play(spec, games, sims, seed):
    game = pyspiel.load_game(spec)
    scores, agon_time, theirs_time = [], [0.0, 0], [0.0, 0]
    for number in range(games):
        rng = np.random.RandomState(seed + number)
        theirs = Timed(mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(1, rng), random_state=rng))
        ours = Timed(agon.openspiel.AgonBot(game, f"mcts:iters={sims}", seed=seed + number))
        seat = number % 2
        bots = [ours, theirs] if seat == 0 else [theirs, ours]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        scores.append((returns[seat] + 1) / 2)
        for total, bot in ((agon_time, ours), (theirs_time, theirs)):
            total[0] += bot.seconds
            total[1] += bot.moves
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    wins = sum(s == 1 for s in scores)
    draws = sum(s == 0.5 for s in scores)
    return {
        "spec": spec,
        "games": n,
        "wdl": (wins, draws, n - wins - draws),
        "score": mean,
        "interval": (max(0.0, mean - half), min(1.0, mean + half)),
        "agon_s_per_move": agon_time[0] / max(1, agon_time[1]),
        "openspiel_s_per_move": theirs_time[0] / max(1, theirs_time[1]),
    }


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", help="OpenSpiel spec (repeatable)")
    parser.add_argument("--games", type=int, default=20, help="games per spec, even")
    parser.add_argument("--sims", type=int, default=200, help="simulations per move")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games % 2:
        parser.error("--games must be even (seat-swapped pairs)")
    specs = args.game or ["agon_connect4", "agon_pig", "agon_invector(height=4,width=5)"]
    print(f"Agon mcts:iters={args.sims} against OpenSpiel MCTSBot({args.sims} simulations, c=2, one random rollout)")
    print(f"{'game':<34} {'games':>5} {'W-D-L (Agon)':>13} {'score':>6} {'95% interval':>14} {'Agon s/move':>12} {'OpenSpiel s/move':>17}")
    for spec in specs:
        r = play(spec, args.games, args.sims, args.seed)
        low, high = r["interval"]
        wdl = "-".join(map(str, r["wdl"]))
        print(f"{spec:<34} {r['games']:>5} {wdl:>13} {r['score']:>6.3f} {f'{low:.3f}-{high:.3f}':>14} {r['agon_s_per_move']:>12.4f} {r['openspiel_s_per_move']:>17.4f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
