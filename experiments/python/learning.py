"""What the learning runs of this folder share: their opponents, their evaluation games,
the win rates with their intervals, and the learning curve as CSV rows and an SVG.

``qlearning.py`` (a tabular learner) and ``dqn.py`` (a neural one) import it; each
supplies its learner as a :data:`Chooser`, so the evaluation is the same code for both.
Every opponent and environment takes its own seed, so a run's random choices all come
from the seed its command gives.
"""

from __future__ import annotations

import csv
import math
import os
import time
from typing import Callable, Dict, List, Sequence, Tuple

import numpy as np
import pyspiel
from open_spiel.python import rl_environment

import agon.openspiel

Chooser = Callable[[rl_environment.Environment, rl_environment.TimeStep], int]
"""A player: given the environment and the time step at which it is to move, its action."""

OPPONENTS = ("random", "greedy")
"""The opponents every curve is measured against, in the CSV's column order."""

COUNTS = ("games", "wins", "draws", "losses", "rate", "lo", "hi")
"""The cells :func:`rates` gives for one opponent."""


def wilson(wins: int, games: int, z: float = 1.96) -> Tuple[float, float]:
    """The 95% Wilson interval of a win rate of ``wins`` in ``games``."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(
    env: rl_environment.Environment, learner: Chooser, opponent: Chooser, games: int
) -> Dict[str, int]:
    """``games`` games of ``learner`` against ``opponent``, the learner in seat 0 in the
    even games and seat 1 in the odd ones; returns its wins, draws and losses."""
    tally = {"wins": 0, "draws": 0, "losses": 0}
    for k in range(games):
        seat = k % 2
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            chooser = learner if player == seat else opponent
            step = env.step([chooser(env, step)])
        reward = step.rewards[seat]
        tally["wins" if reward > 0 else "losses" if reward < 0 else "draws"] += 1
    return tally


def random_player(seed: int) -> Chooser:
    """A uniformly random player with its own generator."""
    rng = np.random.RandomState(seed)

    def choose(env: rl_environment.Environment, step: rl_environment.TimeStep) -> int:
        player = step.observations["current_player"]
        return int(rng.choice(step.observations["legal_actions"][player]))

    return choose


def agon_player(game: pyspiel.Game, spec: str, seed: int) -> Chooser:
    """Agon's agent ``spec`` (``"greedy"``, ``"random"``, ...) as a player."""
    bot = agon.openspiel.AgonBot(game, spec, seed=seed)

    def choose(env: rl_environment.Environment, step: rl_environment.TimeStep) -> int:
        return bot.step(env.get_state)

    return choose


def environment(game: pyspiel.Game, seed: int) -> rl_environment.Environment:
    """An rl_environment of ``game`` whose chance outcomes come from ``seed``."""
    sampler = rl_environment.ChanceEventSampler(seed=seed)
    return rl_environment.Environment(game, chance_event_sampler=sampler)


def rates(tally: Dict[str, int]) -> List[object]:
    """The CSV cells of one tally, in :data:`COUNTS`' order: games, wins, draws, losses,
    the win rate and its interval."""
    games = sum(tally.values())
    lo, hi = wilson(tally["wins"], games)
    rate = tally["wins"] / games
    return [games, tally["wins"], tally["draws"], tally["losses"], f"{rate:.4f}", f"{lo:.4f}", f"{hi:.4f}"]


def curve_header(columns: Sequence[str]) -> List[str]:
    """A curve's CSV header: the run's own ``columns``, then :data:`COUNTS` for each of
    :data:`OPPONENTS` (``random_games``, ..., ``greedy_hi``)."""
    return list(columns) + [f"{name}_{c}" for name in OPPONENTS for c in COUNTS]


def learning_curve(
    path: str,
    episodes: int,
    eval_every: int,
    train: Callable[[], int],
    learner: Chooser,
    env: rl_environment.Environment,
    opponents: Dict[str, Chooser],
    eval_games: int,
    extra: Sequence[str] = (),
    status: Callable[[], List[object]] = lambda: [],
) -> List[Dict[str, str]]:
    """Trains for ``episodes`` episodes (``train`` plays one and returns its decisions)
    and, before the first and after every ``eval_every``-th, plays ``eval_games`` games of
    ``learner`` against each of ``opponents`` (keyed as :data:`OPPONENTS`) in ``env``.
    Writes one CSV row per evaluation to ``path`` as it goes (flushed, so a long run can
    be watched) and prints it; returns the rows. The columns: ``episodes``,
    ``decisions`` (trained so far), the run's ``extra`` columns (their cells from
    ``status()``), ``seconds`` of wall time since the start, then :func:`curve_header`'s."""
    header = curve_header(["episodes", "decisions", *extra, "seconds"])
    rows: List[Dict[str, str]] = []
    start = time.time()
    decisions = 0
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for done in range(0, episodes + 1):
            if done % eval_every == 0:
                row: List[object] = [done, decisions, *status(), f"{time.time() - start:.1f}"]
                for name in OPPONENTS:
                    row += rates(play(env, learner, opponents[name], eval_games))
                w.writerow(row)
                f.flush()
                rows.append(dict(zip(header, map(str, row))))
                print(" ".join(f"{h}={v}" for h, v in zip(header, row)), flush=True)
            if done < episodes:
                decisions += train()
    return rows


def opponents(
    game: pyspiel.Game, spec: str, seed: int, games: int, out: str
) -> Tuple[Dict[str, Chooser], Dict[str, int]]:
    """The evaluation's opponents, the random player and Agon's agent ``spec``, seeded
    from ``seed`` (``seed + 2`` and ``seed + 3``), and the reference match between them:
    ``games`` games of ``spec`` against the random player (seeds ``seed + 4`` to
    ``seed + 6``), written to ``out``/reference.csv and printed. None of them draws from
    NumPy's global generator, so a learner's own draws do not depend on them."""
    versus = {"random": random_player(seed + 2), "greedy": agon_player(game, spec, seed + 3)}
    reference = play(
        environment(game, seed + 4),
        agon_player(game, spec, seed + 6),
        random_player(seed + 5),
        games,
    )
    write_reference(os.path.join(out, "reference.csv"), spec, reference)
    print(f"{spec} against random: {rates(reference)}", flush=True)
    return versus, reference


def write_reference(path: str, player: str, tally: Dict[str, int]) -> None:
    """``reference.csv``: ``player``'s games against the random player, to read a curve by."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["player", "opponent", *COUNTS])
        w.writerow([player, "random", *rates(tally)])


def chart(
    rows: List[Dict[str, str]],
    reference: float,
    title: str,
    path: str,
    x_label: str = "training episodes (self-play)",
) -> None:
    """The learning curve as an SVG: win rate against episodes, each point with its 95%
    interval, against random and against greedy; dashed, greedy's own rate against
    random and the even line."""
    width, height, left, right, top, bottom = 900, 520, 70, 200, 50, 60
    xs = [int(r["episodes"]) for r in rows]
    x_max = max(xs) or 1

    def x(e: float) -> float:
        return left + (width - left - right) * e / x_max

    def y(v: float) -> float:
        return top + (height - top - bottom) * (1 - v)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2 - right / 2 + left / 2}" y="28" text-anchor="middle" '
        f'font-size="16">{title}</text>',
    ]
    for v in [0.0, 0.25, 0.5, 0.75, 1.0]:
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(v)}" y2="{y(v)}" stroke="#ddd"/>'
            f'<text x="{left - 8}" y="{y(v) + 4}" text-anchor="end">{v:.2f}</text>'
        )
    for k in range(6):
        e = x_max * k / 5
        out.append(
            f'<line x1="{x(e)}" x2="{x(e)}" y1="{y(0)}" y2="{y(0) + 5}" stroke="black"/>'
            f'<text x="{x(e)}" y="{y(0) + 20}" text-anchor="middle">{int(e):,}</text>'
        )
    out.append(
        f'<line x1="{left}" x2="{left}" y1="{y(0)}" y2="{y(1)}" stroke="black"/>'
        f'<line x1="{left}" x2="{width - right}" y1="{y(0)}" y2="{y(0)}" stroke="black"/>'
        f'<text x="{(left + width - right) / 2}" y="{height - 15}" text-anchor="middle">'
        f"{x_label}</text>"
        f'<text x="18" y="{(top + height - bottom) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 18 {(top + height - bottom) / 2})">'
        "learner's win rate (95% interval)</text>"
    )
    lines = [("random", "#1f77b4", "vs random"), ("greedy", "#d62728", "vs greedy")]
    for key, colour, _ in lines:
        points = " ".join(f"{x(int(r['episodes']))},{y(float(r[key + '_rate']))}" for r in rows)
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for r in rows:
            cx = x(int(r["episodes"]))
            lo, hi = y(float(r[key + "_lo"])), y(float(r[key + "_hi"]))
            out.append(
                f'<line x1="{cx}" x2="{cx}" y1="{lo}" y2="{hi}" stroke="{colour}" '
                'stroke-opacity="0.6"/>'
                f'<circle cx="{cx}" cy="{y(float(r[key + "_rate"]))}" r="3" fill="{colour}"/>'
            )
    dashed = [
        (0.5, "#888", "even"),
        (reference, "#2ca02c", "greedy vs random"),
    ]
    for value, colour, _ in dashed:
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(value)}" y2="{y(value)}" '
            f'stroke="{colour}" stroke-dasharray="6 4"/>'
        )
    legend = [(c, t, False) for _, c, t in lines] + [(c, t, True) for _, c, t in dashed]
    for k, (colour, text, dash) in enumerate(legend):
        ly = top + 20 + 24 * k
        style = ' stroke-dasharray="6 4"' if dash else ' stroke-width="2"'
        out.append(
            f'<line x1="{width - right + 15}" x2="{width - right + 45}" y1="{ly}" y2="{ly}" '
            f'stroke="{colour}"{style}/>'
            f'<text x="{width - right + 52}" y="{ly + 4}">{text}</text>'
        )
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
