#!/usr/bin/env python3
"""A one-ply Connect Four bot for Agon's protocol.

It wins at once if it can, else blocks a column where the opponent would win at once,
else plays a random legal column (seeded by `setoption name seed value N`).
Run by Agon as `ext:cmd=python3,args=examples/greedy_bot.py`.
"""

from connect4 import serve


def greedy_move(board, rng):
    """A winning drop, else a block of the opponent's winning drop, else random."""
    legal = board.legal()
    me = board.to_move
    for move in legal:
        board.play(move)
        won = board.winner() == me
        board.undo(move)
        if won:
            return move
    # Pretend the opponent moved: a drop that would win for them is one to block.
    board.to_move = 1 - me
    threats = []
    for move in legal:
        board.play(move)
        if board.winner() == 1 - me:
            threats.append(move)
        board.undo(move)
    board.to_move = me
    if threats:
        return threats[0]
    return rng.choice(legal)


if __name__ == "__main__":
    serve(greedy_move)
