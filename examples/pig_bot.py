#!/usr/bin/env python3
"""A Pig bot written with the bot kit (`agon.bot`): a game with dice.

It plays the classic "hold at 20": it rolls until its turn total reaches 20 (or the
number given as its argument), then holds. The dice are the controller's: each roll's
face comes in the line of moves (`roll 4 roll 6 hold ...`) and the kit replays it, so
the state holds the real turn total and the legal moves. When the rules leave only
`hold` (a player whose banked score and turn total reach the target must hold), the
legal moves say so and the bot follows them: it never needs the rule itself.

Run by Agon as `ext:cmd=.venv/bin/python,args=examples/pig_bot.py 25`.
"""

import sys

import agon.bot


def turn_total(state):
    """The faces rolled so far in the turn being played, from the line of moves: a turn
    ends at a hold or at a roll of 1."""
    total = 0
    for move in reversed(state.history()):
        if move in ("hold", "1"):
            break
        if move != "roll":
            total += int(move)
    return total


def hold_at(threshold):
    """A bot that rolls until its turn total reaches `threshold`, then holds."""

    def choose(state, request):
        moves = state.legal_moves()
        if "roll" in moves and turn_total(state) < threshold:
            return "roll"
        return "hold"

    return choose


if __name__ == "__main__":
    threshold = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    agon.bot.serve(hold_at(threshold), name=f"hold-at-{threshold}")
