"""The ``agon`` command line, from the package: ``python -m agon ARGS...``, and the
``agon`` command pip installs with it, are the ``agon`` binary run in this process,
with the same output, exit codes and files.

Ctrl-C ends the process at once, as it ends the binary: the runs of games keep every
game finished before it (their files are flushed game by game), and the same command
with ``--resume`` continues them. (``agon.run`` from Python code instead stops a run
between games and raises ``KeyboardInterrupt``.)
"""

from __future__ import annotations

import signal
import sys
from typing import List, Optional

from . import _agon


def main(argv: Optional[List[str]] = None) -> int:
    """Runs ``agon`` with ``argv`` (default: this process's arguments, without the
    program's name) and returns its exit code: 0, 1 (a failure of the machine) or 2
    (bad input, one line on standard error)."""
    args = sys.argv[1:] if argv is None else argv
    # Python's own handler would only raise KeyboardInterrupt when the command returns:
    # let the signal end the process as it ends the binary (the same for a closed pipe,
    # which Python ignores and the binary treats as the end of its output).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    # Anything Python buffered goes out before the command's own output.
    sys.stdout.flush()
    sys.stderr.flush()
    return _agon.main(args)


if __name__ == "__main__":
    sys.exit(main())
