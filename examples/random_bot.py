#!/usr/bin/env python3
"""A Connect Four bot for Agon's protocol: a uniformly random legal column.

Seeded by `setoption name seed value N`, so the same session plays the same moves.
Run by Agon as `ext:cmd=python3,args=examples/random_bot.py`.
"""

from connect4 import serve


def random_move(board, rng):
    """Any legal column, uniformly."""
    return rng.choice(board.legal())


if __name__ == "__main__":
    serve(random_move)
