//! Round-robin tournaments: the schedule, one game, and the parallel run that writes
//! rows in game-index order.
//!
//! Schedule: agents are paired in round-robin order (`(0,1), (0,2), ..., (1,2), ...`);
//! one agent alone is paired with itself (self-play). Each pairing plays `N` games (`N`
//! even) with consecutive indices, so game `g` belongs to pairing `g / N` and pair
//! `g / 2`; within a pairing `(a, b)`, even games seat `a` at seat 0 and odd games swap
//! the seats, so games `2p` and `2p+1` start alike with seats swapped.
//!
//! Reproducibility: a game depends only on the plan and its index. Each game builds its
//! two agents fresh from their specs and draws from the streams of [`crate::seeds`], so
//! the worker that runs it and what that worker ran before do not matter, and the writer
//! emits rows in index order: any thread count gives the same games.csv.

use std::collections::BTreeMap;
use std::sync::mpsc;

use agon_engine::{Outcome, State, Turn};
use anyhow::{anyhow, Context, Result};
use rayon::prelude::*;

use crate::args::BadInput;
use crate::games::PlayableGame;
use crate::opening::Opening;
use crate::record::{GameRow, Result0, RunWriter, TimingRow};
use crate::seeds;
use crate::spec::{AgentSpec, GameSpec};

/// One agent of a tournament.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// The label records use: the canonical spec, with `#k` appended (k from 1) when the
    /// same spec is entered more than once.
    pub label: String,
    /// The agent's spec.
    pub spec: AgentSpec,
}

/// Everything that determines a tournament's results.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The game.
    pub game: GameSpec,
    /// The agents, in the order given.
    pub entrants: Vec<Entrant>,
    /// Games per pairing (even, at least 2).
    pub games_per_pairing: u64,
    /// Master seed.
    pub seed: u64,
    /// How each pair's games start ([`Opening::Start`] unless
    /// [`Plan::with_opening`] says otherwise).
    pub opening: Opening,
}

/// Where one game sits in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seating {
    /// Pairing index.
    pub pairing: u64,
    /// Pair index (`game / 2`).
    pub pair: u64,
    /// Entrant index at seat 0 and at seat 1.
    pub seats: [usize; 2],
}

impl Plan {
    /// A plan from parsed specs (without `human`: [`AgentSpec::parse`] refuses it here);
    /// fails on an odd or zero `games_per_pairing` and on no agents.
    pub fn new(
        game: GameSpec,
        agents: Vec<AgentSpec>,
        games_per_pairing: u64,
        seed: u64,
    ) -> Result<Plan, BadInput> {
        if games_per_pairing == 0 || games_per_pairing % 2 != 0 {
            return Err(BadInput::new(format!(
                "--games must be even and at least 2 (games 2k and 2k+1 form a \
                 seat-swapped pair), got {games_per_pairing}"
            )));
        }
        if agents.is_empty() {
            return Err(BadInput::new("--agents needs at least one agent"));
        }
        let texts: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
        let entrants = agents
            .into_iter()
            .enumerate()
            .map(|(i, spec)| {
                let text = &texts[i];
                let label = if texts.iter().filter(|t| *t == text).count() > 1 {
                    let k = texts[..=i].iter().filter(|t| *t == text).count();
                    format!("{text}#{k}")
                } else {
                    text.clone()
                };
                Entrant { label, spec }
            })
            .collect();
        Ok(Plan {
            game,
            entrants,
            games_per_pairing,
            seed,
            opening: Opening::Start,
        })
    }

    /// The same plan with its games starting with `opening`.
    pub fn with_opening(self, opening: Opening) -> Plan {
        Plan { opening, ..self }
    }

    /// The pairings `(a, b)` of entrant indices, in round-robin order; `(0, 0)` alone
    /// for self-play.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.entrants.len();
        if n == 1 {
            return vec![(0, 0)];
        }
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect()
    }

    /// Games in the whole run.
    pub fn total_games(&self) -> u64 {
        self.pairings().len() as u64 * self.games_per_pairing
    }

    /// The pairing, pair and seats of game `game`.
    pub fn seating(&self, game: u64) -> Seating {
        let pairing = game / self.games_per_pairing;
        let (a, b) = self.pairings()[pairing as usize];
        Seating {
            pairing,
            pair: game / 2,
            seats: if game % 2 == 0 { [a, b] } else { [b, a] },
        }
    }
}

/// Plays game `index` of `plan` from the initial position to the end: the pair's
/// opening first ([`Opening::play`]), then the agents. Chance outcomes come from the
/// pair's luck ([`seeds::PairLuck`]) by event identity, so both games of a pair get the
/// same outcome for the same event (common random numbers).
///
/// Fails if an agent cannot be built or returns an illegal move (a bug in that agent),
/// or if no random opening that leaves the game going can be drawn.
pub fn play_game<G: PlayableGame>(
    game: &G,
    plan: &Plan,
    index: u64,
) -> Result<(GameRow, TimingRow)> {
    let seating = plan.seating(index);
    let entrant = |seat: usize| &plan.entrants[seating.seats[seat]];
    let mut agents = [0, 1]
        .into_iter()
        .map(|seat| G::build_agent(&entrant(seat).spec, entrant(seat).label.clone()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut rngs = [0, 1].map(|seat| seeds::agent_rng(plan.seed, index, seat));
    let luck = seeds::PairLuck::new(plan.seed, seating.pair);

    let mut moves: Vec<String> = Vec::new();
    let mut state = plan
        .opening
        .play(game, plan.seed, seating.pair, &luck, &mut moves)?;
    let opening = moves.len() as u32;
    loop {
        let m = match state.turn() {
            Turn::Over => break,
            Turn::Chance => state.common_outcome(&luck),
            Turn::Seat(seat) => agents[seat].select_move(&state, &mut rngs[seat]),
        };
        moves.push(state.format_move(m));
        state.try_apply(m).map_err(|e| {
            anyhow!(
                "game {index}: illegal move {e} after {:?}",
                moves[..moves.len() - 1].join(" ")
            )
        })?;
    }

    // The State contract: `outcome` and `end_reason` are `Some` once the turn is Over.
    let outcome = state.outcome().expect("a finished game has an outcome");
    let (result0, winner) = match outcome {
        Outcome::Win(0) => (Result0::Win, Some(0)),
        Outcome::Win(_) => (Result0::Loss, Some(1)),
        Outcome::Draw => (Result0::Draw, None),
    };
    let stats = [agents[0].stats(), agents[1].stats()];
    let row = GameRow {
        game: index,
        pair: seating.pair,
        pairing: seating.pairing,
        agent0: entrant(0).label.clone(),
        agent1: entrant(1).label.clone(),
        side0: state.side(0).to_string(),
        side1: state.side(1).to_string(),
        result0,
        winner,
        end_reason: state
            .end_reason()
            .expect("a finished game has an end reason")
            .to_string(),
        plies: state.ply(),
        nodes0: stats[0].nodes,
        nodes1: stats[1].nodes,
        opening,
        moves: moves.join(" "),
    };
    let timing = TimingRow {
        game: index,
        time_us0: stats[0].time.as_micros() as u64,
        time_us1: stats[1].time.as_micros() as u64,
    };
    Ok((row, timing))
}

/// Plays every game of `plan` on `threads` workers and writes the rows in game-index
/// order as soon as each is next (a finished game waits only for lower indices). Returns
/// the game rows, in order.
pub fn run<G: PlayableGame>(
    game: &G,
    plan: &Plan,
    threads: usize,
    writer: &mut RunWriter,
) -> Result<Vec<GameRow>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let total = plan.total_games();
    let (sender, receiver) = mpsc::channel::<(u64, GameRow, TimingRow)>();

    std::thread::scope(|scope| {
        let collector = scope.spawn(move || -> Result<Vec<GameRow>> {
            let mut pending = BTreeMap::new();
            let mut rows = Vec::with_capacity(total as usize);
            for (index, row, timing) in receiver {
                pending.insert(index, (row, timing));
                while let Some((row, timing)) = pending.remove(&(rows.len() as u64)) {
                    writer.write(&row, &timing)?;
                    rows.push(row);
                }
            }
            Ok(rows)
        });
        let played = pool.install(|| {
            (0..total)
                .into_par_iter()
                .try_for_each_with(sender, |sender, index| -> Result<()> {
                    let (row, timing) = play_game(game, plan, index)?;
                    // A closed channel means the writer failed: stop, its error is reported.
                    sender
                        .send((index, row, timing))
                        .map_err(|_| anyhow!("the writer stopped"))
                })
        });
        let rows = collector
            .join()
            .map_err(|_| anyhow!("the writer thread panicked"))??;
        played?;
        Ok(rows)
    })
}
