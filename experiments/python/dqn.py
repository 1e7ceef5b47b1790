"""Deep Q-learning (OpenSpiel's JAX DQN) on an Agon game through rl_environment.

One ``open_spiel.python.jax.dqn.DQN`` agent, one Q-network, learns by self-play in both
seats, reading the game's information-state tensor (Agon's encoding, flat, seen from
the mover's seat); every ``--eval-every`` episodes its greedy policy plays
``--eval-games`` games against a uniformly random player and as many against Agon's
``greedy`` agent (``agon.openspiel.AgonBot``), half in each seat. Writes ``curve.csv``
(one row per evaluation), ``reference.csv`` (greedy against random, to read the curve
by) and ``curve.svg`` into ``--out``.

**One network for both seats.** The tensor is seen from the mover's seat ("my" stones,
"their" stones, whether I am to move), so a position means the same to either seat and
each game gives the network both seats' experience. OpenSpiel's ``DQN`` serves one seat
(``player_id``) and keeps that seat's last decision to pair with the next time step as a
replay transition; :class:`SelfPlay` keeps that pending decision per seat and hands the
agent the right one before each step, so every transition runs from one decision of a
seat to that seat's next decision (or the end), with that seat's reward, as two separate
learners would record it, but into one replay buffer and one network. The other seat's
moves in between are the environment, as in any self-play DQN; the target is that
seat's best next value, not a minimax backup.

**Exploration** falls linearly from ``--epsilon`` to ``--epsilon-end`` over the first
``--explore`` fraction of the expected decisions (``--episodes`` times
``--decisions-per-episode``), then stays. The schedule is set on the agent after it is
made: the linear schedule OpenSpiel 2.0.2 ships cannot run under ``jax.jit`` (it calls
Python's ``max`` on a traced value).

**Seeds.** Everything random comes from ``--seed``: the network's initial weights, the
exploration and the replay sampling (the agent's JAX PRNG key, ``seed``), the chance
outcomes (one ``ChanceEventSampler`` per environment), the random player and the greedy
agent. NumPy's global generator is seeded too, though nothing here draws from it. On one
machine with the same library versions the same command gives the same files,
``seconds`` aside: XLA on the CPU is deterministic for the same program and flags. On
another CPU (other vector instructions) or with other versions of JAX, the
floating-point sums may round differently, and after many updates the network and the
curve drift apart; only the shape of the curve should be expected to repeat there. The
evaluation games read the network without drawing from the agent's key, so the training
does not depend on ``--eval-every`` or ``--eval-games``.
"""

from __future__ import annotations

import argparse
import os
from typing import Callable, Dict, List, Optional, Tuple

import jax
import numpy as np
from flax import nnx
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.jax import dqn

from learning import (
    Chooser,
    chart,
    environment,
    learning_curve,
    opponents,
)

Pending = Tuple[Optional[rl_environment.TimeStep], Optional[int]]


class SelfPlay:
    """One DQN agent playing and learning in both seats (see the module's docs)."""

    def __init__(self, agent: dqn.DQN) -> None:
        self.agent = agent
        # Each seat's last decision, not yet paired with what followed it.
        self.pending: Dict[int, Pending] = {0: (None, None), 1: (None, None)}

    def step(self, seat: int, step: rl_environment.TimeStep) -> Optional[int]:
        """The agent's training step as ``seat``: records the transition from that seat's
        pending decision to ``step``, maybe learns, and returns the action it explores
        (``None`` at the end of the game)."""
        agent = self.agent
        agent.player_id = seat
        agent._prev_timestep, agent._prev_action = self.pending[seat]
        output = agent.step(step)
        self.pending[seat] = (agent._prev_timestep, agent._prev_action)
        return None if output is None else int(output.action)

    def episode(self, env: rl_environment.Environment) -> int:
        """One self-play game; returns its decisions."""
        step = env.reset()
        decisions = 0
        acted = set()
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([self.step(seat, step)])
            acted.add(seat)
            decisions += 1
        # The final reward, to each seat that acted (its last decision's transition).
        for seat in sorted(acted):
            self.step(seat, step)
        return decisions

    def greedy(self) -> Chooser:
        """The network's greedy policy as a player, in whichever seat is to move: the
        legal action of highest Q-value, the first of equals, which is the action
        ``DQN.step(..., is_evaluation=True)`` takes. It neither records nor learns nor
        draws from the agent's key, so the training does not depend on the evaluations.
        It reads the network through the agent's jitted forward pass with the weights
        taken once per training step count (``DQN.step`` flattens them on every call,
        which costs far more than the network itself)."""
        agent = self.agent
        cache: Dict[str, object] = {"steps": -1, "weights": None}

        def choose(env: rl_environment.Environment, step: rl_environment.TimeStep) -> int:
            if cache["steps"] != agent.step_counter:
                cache["steps"] = agent.step_counter
                cache["weights"] = nnx.state(agent._q_network)
            seat = step.observations["current_player"]
            tensor = np.asarray(step.observations["info_state"][seat], dtype=np.float32)
            q = np.asarray(agent._jittable_inference(cache["weights"], tensor))
            legal = step.observations["legal_actions"][seat]
            return int(legal[int(np.argmax(q[legal]))])

        return choose


def linear(start: float, end: float, decisions: int) -> Callable[[int], float]:
    """Epsilon falling linearly from ``start`` to ``end`` over ``decisions`` training
    steps, then ``end``."""

    def schedule(t: int) -> float:
        return end + (start - end) * max(0.0, 1.0 - t / max(1, decisions))

    return schedule


def make_agent(game: pyspiel.Game, args: argparse.Namespace) -> dqn.DQN:
    """The DQN agent with the command's settings."""
    size = int(np.prod(game.information_state_tensor_shape()))
    agent = dqn.DQN(
        player_id=0,
        state_representation_size=size,
        num_actions=game.num_distinct_actions(),
        hidden_layers_sizes=layers(args.hidden),
        batch_size=args.batch_size,
        replay_buffer_capacity=args.replay,
        learning_rate=args.learning_rate,
        update_target_network_every=args.target_every,
        weight_update_coeff=1.0,  # a plain copy into the target network
        learn_every=args.learn_every,
        discount_factor=1.0,
        min_buffer_size_to_learn=args.min_buffer,
        optimizer_str="adam",
        loss_str="mse",
        seed=args.seed,
        allow_checkpointing=False,
    )
    decisions = int(args.episodes * args.decisions_per_episode * args.explore)
    agent.epsilon_schedule = linear(args.epsilon, args.epsilon_end, decisions)
    return agent


def layers(text: str) -> List[int]:
    """``"128,128"`` as ``[128, 128]``; a clear error for anything else."""
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or any(size < 1 for size in sizes):
        raise argparse.ArgumentTypeError(
            f"--hidden {text!r}: expected positive layer sizes separated by commas, like 128,128"
        )
    return sizes


def fmt(value: Optional[jax.Array]) -> str:
    """A loss for the CSV (empty before the first update)."""
    return "" if value is None else f"{float(value):.5f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", default="agon_invector(width=5,height=4)", help="OpenSpiel game string"
    )
    parser.add_argument("--episodes", type=int, default=4_000, help="self-play episodes")
    parser.add_argument("--eval-every", type=int, default=200)
    parser.add_argument("--eval-games", type=int, default=400, help="per opponent")
    parser.add_argument("--hidden", default="128,128", help="hidden layer sizes")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--replay", type=int, default=50_000, help="replay buffer capacity")
    parser.add_argument("--learning-rate", type=float, default=1e-3, help="Adam's step size")
    parser.add_argument("--learn-every", type=int, default=4, help="decisions per update")
    parser.add_argument("--target-every", type=int, default=1_000, help="decisions per target copy")
    parser.add_argument("--min-buffer", type=int, default=1_000, help="transitions before learning")
    parser.add_argument("--epsilon", type=float, default=1.0)
    parser.add_argument("--epsilon-end", type=float, default=0.05)
    parser.add_argument(
        "--explore", type=float, default=0.3, help="fraction of the run over which epsilon falls"
    )
    parser.add_argument(
        "--decisions-per-episode",
        type=int,
        default=30,
        help="the agent's expected steps per episode (decisions and closing steps), "
        "to spread the exploration schedule",
    )
    parser.add_argument("--opponent", default="greedy", help="the Agon agent to measure against")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    try:
        layers(args.hidden)
    except argparse.ArgumentTypeError as error:
        parser.error(str(error))

    os.makedirs(args.out, exist_ok=True)
    np.random.seed(args.seed)
    game = pyspiel.load_game(args.game)
    train_env = environment(game, args.seed)
    eval_env = environment(game, args.seed + 1)
    learner = SelfPlay(make_agent(game, args))
    versus, reference = opponents(game, args.opponent, args.seed, args.eval_games, args.out)
    print(f"jax {jax.__version__} on {jax.default_backend()}", flush=True)

    agent = learner.agent
    rows = learning_curve(
        os.path.join(args.out, "curve.csv"),
        args.episodes,
        args.eval_every,
        lambda: learner.episode(train_env),
        learner.greedy(),
        eval_env,
        versus,
        args.eval_games,
        extra=["steps", "epsilon", "loss"],
        status=lambda: [
            agent.step_counter,
            f"{agent.epsilon_schedule(agent.step_counter):.4f}",
            fmt(agent.loss),
        ],
    )
    rate = reference["wins"] / sum(reference.values())
    title = f"JAX DQN on {args.game} through rl_environment (seed {args.seed})"
    chart(rows, rate, title, os.path.join(args.out, "curve.svg"))


if __name__ == "__main__":
    main()
