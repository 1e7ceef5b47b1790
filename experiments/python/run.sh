#!/usr/bin/env bash
# The Python experiments (see README.md beside this file): makes the local virtual
# environment, installs the bindings from python/ in release with the pinned OpenSpiel,
# then runs speed.py and match.py and writes their outputs to results/python/.
# Arguments after run.sh go to match.py (e.g. --games 40 --sims 400). Never run by
# .ci/run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PYTHON:-python3}"

if [ ! -x "$here/.venv/bin/python" ]; then
    "$python" -m venv "$here/.venv"
fi
"$here/.venv/bin/pip" install --quiet -r "$root/experiments/openspiel/requirements.txt"
"$here/.venv/bin/pip" install --quiet "$root/python"

mkdir -p "$root/results/python"
cd "$root"
"$here/.venv/bin/python" "$here/speed.py" --reps 7 | tee results/python/speed.txt
"$here/.venv/bin/python" "$here/match.py" "$@" | tee results/python/match.txt
