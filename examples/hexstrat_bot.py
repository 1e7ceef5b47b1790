#!/usr/bin/env python3
"""A Hexstrat bot written with the bot kit (`agon.bot`): a game with hidden terrain.

Hexstrat's land tiles lie face down until a squad walks onto one. Nobody knows them, so
Agon draws a tile's type from the bag at the moment it is turned over: a chance event,
and the controller sends its outcome (`plains`, `forest`, `mountain`) in the line of
moves after the move that revealed it. The kit replays that line, so the state this bot
gets shows the tiles revealed so far and keeps the rest as the bag's counts: the bot
cannot see a tile before it is turned over, and need not pretend not to.

It plays flat Monte Carlo: for each legal decision, it plays random games from the
position after it, the face-down tiles drawn from the bag as they are revealed (with
the odds `state.chance_outcomes()` gives), and plays the decision whose games scored
best for it. It spends `go nodes N` playouts when the controller sets that limit, else
its own budget (its argument, 16 by default) for each decision; under `go movetime` it
stops at the deadline. The playouts' seeds come from the kit's generator, so the same
session plays the same moves.

Run by Agon as `ext:cmd=.venv/bin/python,args=examples/hexstrat_bot.py 16`; it plays
any other game of Agon as well.
"""

import sys
import time

import agon.bot


def monte_carlo(playouts_per_move):
    """A bot scoring each decision by `playouts_per_move` random games after it."""

    def choose(state, request):
        me = state.current_player()
        moves = state.legal_moves()
        budget = request.limits.nodes or playouts_per_move * len(moves)
        scores = {move: 0.0 for move in moves}
        played = 0
        for round_ in range(max(1, budget // len(moves))):
            if request.deadline is not None and time.monotonic() > request.deadline:
                break
            for move in moves:
                game = state.clone()
                game.apply(move)
                game.play_random(seed=request.rng.getrandbits(64))
                scores[move] += game.returns()[me]
                played += 1
        request.nodes = played
        # The best mean; ties to the first in the game's order.
        return max(moves, key=lambda move: scores[move])

    return choose


if __name__ == "__main__":
    per_move = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    agon.bot.serve(monte_carlo(per_move), name=f"monte-carlo-{per_move}")
