#!/usr/bin/env python3
"""A bot for any Agon game, written with the bot kit of the bindings (`agon.bot`).

The kit speaks Agon's protocol (docs/protocol.md) and hands the bot each position as an
`agon.State`, so this bot plays whatever game `setoption name game` names. Without
arguments it looks one ply ahead: it plays a move that wins at once if there is one,
else a random legal move. With an agent spec as its argument (`agon_bot.py
mcts:iters=500`) it asks that Agon agent instead, which shows an agent of the bindings
joining a tournament from outside.

Run by Agon as `ext:cmd=.venv/bin/python,args=examples/agon_bot.py` (a Python with the
bindings installed).
"""

import sys

import agon
import agon.bot


def one_ply(state, request):
    """A move that wins at once, else a random legal move."""
    mover = state.current_player()
    moves = state.legal_moves()
    for move in moves:
        after = state.clone()
        after.apply(move)
        if after.is_terminal() and after.returns()[mover] > 0:
            return move
    return request.rng.choice(moves)


def agent_bot(spec):
    """A bot asking the Agon agent of `spec`, seeded from the protocol's seed."""

    def choose(state, request):
        agent = agon.agent(spec, request.game, seed=request.rng.getrandbits(64))
        return agent.choose(state).move

    return choose


if __name__ == "__main__":
    if len(sys.argv) > 1:
        agon.bot.serve(agent_bot(sys.argv[1]), name="agon-bot " + sys.argv[1])
    else:
        agon.bot.serve(one_ply, name="agon-bot one-ply")
