#!/usr/bin/env python3
"""A bot for any Agon game, written with the Python bindings (`pip install ./python`).

It speaks Agon's protocol (docs/protocol.md) and keeps the position with the bindings,
so it plays whatever game `setoption name game` names. Without arguments it looks one
ply ahead: it plays a move that wins at once if there is one, else a random legal move.
With an agent spec as its argument (`agon_bot.py mcts:iters=500`) it asks that Agon
agent instead, which shows an agent of the bindings joining a tournament from outside.

Run by Agon as `ext:cmd=python3,args=examples/agon_bot.py`.
"""

import random
import sys

import agon


def one_ply(state, rng):
    """A move that wins at once, else a random legal move."""
    mover = state.current_player()
    moves = state.legal_moves()
    for move in moves:
        after = state.clone()
        after.apply(move)
        if after.is_terminal() and after.returns()[mover] > 0:
            return move
    return rng.choice(moves)


def main(argv):
    spec = argv[1] if len(argv) > 1 else None
    seed = 1
    rng = random.Random(seed)
    game = state = bot = None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "ugi":
            print("id name agon-bot " + (spec or "one-ply"))
            print("id author the Agon examples")
            print("ugiok")
        elif command == "isready":
            print("readyok")
        elif command == "setoption" and words[1:4] == ["name", "seed", "value"]:
            seed = int(words[4])
            rng = random.Random(seed)
        elif command == "setoption" and words[1:4] == ["name", "game", "value"]:
            game = agon.load_game(words[4])
        elif command == "uginewgame" and spec is not None:
            bot = agon.agent(spec, game, seed=seed)
        elif command == "position" and words[1:2] == ["startpos"]:
            state = game.new_initial_state()
            for move in words[3:] if words[2:3] == ["moves"] else []:
                state.apply(move)
        elif command == "go":
            if spec is None:
                move = one_ply(state, rng)
            else:
                bot = bot or agon.agent(spec, game, seed=seed)
                move = bot.choose(state).move
            print("bestmove " + move)
        elif command == "quit":
            return
        # Anything else is ignored, as the protocol asks.
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv)
