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
import os
from typing import List

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import tabular_qlearner
from open_spiel.python.rl_tools import LinearSchedule

from learning import (
    Chooser,
    chart,
    environment,
    learning_curve,
    opponents,
)


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


def greedy_policy(agent: tabular_qlearner.QLearner) -> Chooser:
    """The table's greedy policy as a player, in whichever seat is to move (ties broken by
    NumPy's global generator, as QLearner breaks them)."""

    def choose(env: rl_environment.Environment, step: rl_environment.TimeStep) -> int:
        agent._player_id = step.observations["current_player"]
        try:
            return agent.step(step, is_evaluation=True).action
        finally:
            agent._player_id = 0  # the seat it learns as

    return choose


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
    versus, reference = opponents(game, args.opponent, args.seed, args.eval_games, args.out)

    rows = learning_curve(
        os.path.join(args.out, "curve.csv"),
        args.episodes,
        args.eval_every,
        lambda: train(train_env, agents),
        greedy_policy(agents[0]),
        eval_env,
        versus,
        args.eval_games,
        extra=["states"],
        status=lambda: [len(agents[0]._q_values)],
    )
    rate = reference["wins"] / sum(reference.values())
    title = f"Tabular Q-learning on {args.game} through rl_environment (seed {args.seed})"
    chart(rows, rate, title, os.path.join(args.out, "curve.svg"))


if __name__ == "__main__":
    main()
