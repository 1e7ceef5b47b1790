#!/usr/bin/env bash
# One run of the OpenSpiel comparison (see README.md beside this file): makes the local
# virtual environment with the pinned OpenSpiel, builds agon in release, then runs
# compare.py, which writes results/openspiel/. Extra arguments go to compare.py
# (e.g. --pig-games 40). Never run by .ci/run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PYTHON:-python3.11}"

if [ ! -x "$here/.venv/bin/python" ]; then
    "$python" -m venv "$here/.venv"
fi
"$here/.venv/bin/pip" install --quiet -r "$here/requirements.txt"

(cd "$root" && cargo build --release --locked -p agon-cli)
agon="${CARGO_TARGET_DIR:-$root/target}/release/agon"

cd "$root"
exec "$here/.venv/bin/python" "$here/compare.py" --agon "$agon" --out results/openspiel "$@"
