"""Connect Four's rules and the protocol loop shared by the example bots.

The board has 7 columns (`a` to `g`, Agon's notation for a drop) and 6 rows; seat 0
moves first, and four stones in a row (across, up or diagonally) win. A full board
with no four is a draw. Standard library only.
"""

import random
import sys

COLUMNS = "abcdefg"
WIDTH, HEIGHT = 7, 6


class Board:
    """A position: each column's stones from the bottom, and whose turn it is."""

    def __init__(self):
        self.columns = [[] for _ in range(WIDTH)]
        self.to_move = 0

    def legal(self):
        """The columns (as notation) that are not full, unless the game is over."""
        if self.winner() is not None:
            return []
        return [COLUMNS[c] for c in range(WIDTH) if len(self.columns[c]) < HEIGHT]

    def play(self, move):
        """Drops the mover's stone into column `move` (`a`..`g`)."""
        column = self.columns[COLUMNS.index(move)]
        if len(column) >= HEIGHT:
            raise ValueError(f"column {move} is full")
        column.append(self.to_move)
        self.to_move = 1 - self.to_move

    def undo(self, move):
        """Takes back the last stone of column `move`."""
        self.columns[COLUMNS.index(move)].pop()
        self.to_move = 1 - self.to_move

    def stone(self, c, r):
        """The seat whose stone is at column c, row r, or None."""
        if 0 <= c < WIDTH and 0 <= r < len(self.columns[c]):
            return self.columns[c][r]
        return None

    def winner(self):
        """The seat with four in a row, or None."""
        for c in range(WIDTH):
            for r in range(len(self.columns[c])):
                seat = self.columns[c][r]
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(self.stone(c + i * dc, r + i * dr) == seat for i in range(1, 4)):
                        return seat
        return None


def serve(choose):
    """Speaks Agon's protocol on standard input and output until `quit`.

    `choose(board, rng)` returns the move to play at `board`, where the bot is to move.
    """
    rng = random.Random(1)
    board = Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "ugi":
            print("id name " + choose.__name__)
            print("id author the Agon examples")
            print("option name seed type spin default 1")
            print("ugiok")
        elif command == "isready":
            print("readyok")
        elif command == "setoption" and words[1:4] == ["name", "seed", "value"]:
            rng = random.Random(int(words[4]))
        elif command == "setoption" and words[1:4] == ["name", "game", "value"]:
            if not words[4].startswith("connect4"):
                print(f"this bot plays connect4 only, not {words[4]}", file=sys.stderr)
        elif command == "position" and words[1:2] == ["startpos"]:
            board = Board()
            for move in words[3:] if words[2:3] == ["moves"] else []:
                board.play(move)
        elif command == "go":
            print("bestmove " + choose(board, rng))
        elif command == "quit":
            return
        # Anything else is ignored, as the protocol asks.
        sys.stdout.flush()
