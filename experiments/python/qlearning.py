"""Tabular Q-learning on an Agon game through OpenSpiel's rl_environment.

OpenSpiel's ``QLearner`` learns by self-play on the game's information-state tensor (Agon's
encoding, seen from the mover's seat), and every ``--eval-every`` episodes its greedy
policy plays ``--eval-games`` games against a uniformly random player and as many against
Agon's ``greedy`` agent (``agon.openspiel.AgonBot``), half in each seat. Writes
``curve.csv`` (one row per evaluation), ``reference.csv`` (greedy against random, to read
the curve by) and ``curve.svg`` into ``--out``.

Every random choice comes from ``--seed``: the exploration and tie-breaks of the learner
(NumPy's global generator, which ``QLearner`` draws from), the chance outcomes (one
``ChanceEventSampler`` per environment), the random player and the greedy agent. The
same command gives the same files, ``seconds`` aside.

Both seats learn into one table: the tensor is seen from the mover's seat ("my score",
"their score"), so a position means the same to either seat and each game teaches the
table twice as much.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import time
from typing import Callable, Dict, List, Tuple

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import tabular_qlearner
from open_spiel.python.rl_tools import LinearSchedule

import agon.openspiel

Chooser = Callable[[rl_environment.Environment, rl_environment.TimeStep], int]


def wilson(wins: int, games: int, z: float = 1.96) -> Tuple[float, float]:
    """The 95% Wilson interval of a win rate of ``wins`` in ``games``."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def learners(game: pyspiel.Game, args: argparse.Namespace) -> List[tabular_qlearner.QLearner]:
    """One QLearner per seat, sharing one table (see the module's docs)."""
    # Exploration falls linearly from --epsilon to --epsilon-end over the training
    # decisions of each seat (the schedule steps once per learning update).
    decisions = args.episodes * args.decisions_per_episode
    agents = [
        tabular_qlearner.QLearner(
            player_id=seat,
            num_actions=game.num_distinct_actions(),
            step_size=args.step_size,
            epsilon_schedule=LinearSchedule(args.epsilon, args.epsilon_end, decisions),
            discount_factor=1.0,
        )
        for seat in (0, 1)
    ]
    agents[1]._q_values = agents[0]._q_values
    return agents


def train(env: rl_environment.Environment, agents: List[tabular_qlearner.QLearner]) -> int:
    """One self-play episode; returns its decisions."""
    step = env.reset()
    decisions = 0
    acted = set()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([agents[player].step(step).action])
        acted.add(player)
        decisions += 1
    # The final reward, to each seat that acted (a seat that never did, as when Pig's
    # first turn wins, has no decision to credit, and QLearner must not be shown the end).
    for seat in sorted(acted):
        agents[seat].step(step)
    return decisions


def evaluate(
    env: rl_environment.Environment,
    agent: tabular_qlearner.QLearner,
    opponent: Chooser,
    games: int,
    learner: Chooser | None = None,
) -> Dict[str, int]:
    """``games`` games of the learner's greedy policy (or ``learner``) against
    ``opponent``, the learner in seat 0 in the even games and seat 1 in the odd ones;
    returns its wins, draws and losses."""
    tally = {"wins": 0, "draws": 0, "losses": 0}
    try:
        _play(env, agent, opponent, games, learner, tally)
    finally:
        agent._player_id = 0  # the seat it learns as
    return tally


def _play(
    env: rl_environment.Environment,
    agent: tabular_qlearner.QLearner,
    opponent: Chooser,
    games: int,
    learner: Chooser | None,
    tally: Dict[str, int],
) -> None:
    """The games of :func:`evaluate`, counted into ``tally``."""
    for k in range(games):
        seat = k % 2
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            if player == seat:
                if learner is not None:
                    action = learner(env, step)
                else:
                    agent._player_id = seat
                    action = agent.step(step, is_evaluation=True).action
            else:
                action = opponent(env, step)
            step = env.step([action])
        reward = step.rewards[seat]
        tally["wins" if reward > 0 else "losses" if reward < 0 else "draws"] += 1


def random_player(seed: int) -> Chooser:
    """A uniformly random player with its own generator."""
    rng = np.random.RandomState(seed)

    def choose(env: rl_environment.Environment, step: rl_environment.TimeStep) -> int:
        player = step.observations["current_player"]
        return int(rng.choice(step.observations["legal_actions"][player]))

    return choose


def agon_player(game: pyspiel.Game, spec: str, seed: int) -> Chooser:
    """Agon's agent ``spec`` as a player."""
    bot = agon.openspiel.AgonBot(game, spec, seed=seed)

    def choose(env: rl_environment.Environment, step: rl_environment.TimeStep) -> int:
        return bot.step(env.get_state)

    return choose


def environment(game: pyspiel.Game, seed: int) -> rl_environment.Environment:
    """An rl_environment of ``game`` whose chance outcomes come from ``seed``."""
    sampler = rl_environment.ChanceEventSampler(seed=seed)
    return rl_environment.Environment(game, chance_event_sampler=sampler)


def rates(tally: Dict[str, int]) -> List[object]:
    """The CSV cells of one tally: games, wins, draws, losses, win rate and its interval."""
    games = sum(tally.values())
    lo, hi = wilson(tally["wins"], games)
    rate = tally["wins"] / games
    return [games, tally["wins"], tally["draws"], tally["losses"], f"{rate:.4f}", f"{lo:.4f}", f"{hi:.4f}"]


def chart(rows: List[Dict[str, str]], reference: float, title: str, path: str) -> None:
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
        "training episodes (self-play)</text>"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="agon_pig(target=20)", help="OpenSpiel game string")
    parser.add_argument("--episodes", type=int, default=100_000, help="self-play episodes")
    parser.add_argument("--eval-every", type=int, default=5_000)
    parser.add_argument("--eval-games", type=int, default=1_000, help="per opponent")
    parser.add_argument("--step-size", type=float, default=0.1)
    parser.add_argument("--epsilon", type=float, default=0.5)
    parser.add_argument("--epsilon-end", type=float, default=0.05)
    parser.add_argument(
        "--decisions-per-episode",
        type=int,
        default=10,
        help="a seat's expected learning updates per episode, to spread the schedule",
    )
    parser.add_argument("--opponent", default="greedy", help="the Agon agent to measure against")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    os.makedirs(args.out, exist_ok=True)
    np.random.seed(args.seed)
    game = pyspiel.load_game(args.game)
    train_env = environment(game, args.seed)
    eval_env = environment(game, args.seed + 1)
    agents = learners(game, args)
    versus = {
        "random": random_player(args.seed + 2),
        "greedy": agon_player(game, args.opponent, args.seed + 3),
    }

    reference = evaluate(
        environment(game, args.seed + 4),
        agents[0],
        random_player(args.seed + 5),
        args.eval_games,
        learner=agon_player(game, args.opponent, args.seed + 6),
    )
    with open(os.path.join(args.out, "reference.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["player", "opponent", "games", "wins", "draws", "losses", "rate", "lo", "hi"])
        w.writerow([args.opponent, "random", *rates(reference)])
    print(f"{args.opponent} against random: {rates(reference)}", flush=True)

    header = ["episodes", "decisions", "states", "seconds"]
    for name in versus:
        header += [f"{name}_{c}" for c in ("games", "wins", "draws", "losses", "rate", "lo", "hi")]
    rows: List[Dict[str, str]] = []
    start = time.time()
    decisions = 0
    path = os.path.join(args.out, "curve.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for episodes in range(0, args.episodes + 1):
            if episodes % args.eval_every == 0:
                row: List[object] = [episodes, decisions, len(agents[0]._q_values)]
                row.append(f"{time.time() - start:.1f}")
                for opponent in versus.values():
                    row += rates(evaluate(eval_env, agents[0], opponent, args.eval_games))
                w.writerow(row)
                f.flush()
                rows.append(dict(zip(header, map(str, row))))
                print(" ".join(f"{h}={v}" for h, v in zip(header, row)), flush=True)
            if episodes < args.episodes:
                decisions += train(train_env, agents)
    rate = reference["wins"] / sum(reference.values())
    title = f"Tabular Q-learning on {args.game} through rl_environment (seed {args.seed})"
    chart(rows, rate, title, os.path.join(args.out, "curve.svg"))


if __name__ == "__main__":
    main()
