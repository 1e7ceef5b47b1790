"""Shared settings of the bindings' tests: short games of every Agon game."""

import pytest

# Every game with parameters that keep a random game short, so that the whole suite
# (OpenSpiel's checks included) runs in seconds on a debug build.
SHORT = {
    "invector": "invector:width=5,height=4",
    "connect4": "connect4",
    "pig": "pig:target=20,horizon=40",
    "apv": "apv:max_turns=16",
    "romgon": "romgon:max_actions=30",
    "threewill": "threewill:max_turns=8",
    "hexstrat": "hexstrat:max_rounds=3",
}


@pytest.fixture(params=sorted(SHORT))
def short_spec(request):
    """The spec of one game with a short cap."""
    return SHORT[request.param]
