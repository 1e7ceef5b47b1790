//! The schedule of a tournament: its entrants, the seating of each game (pairing, seats
//! and deal) found by arithmetic on the game index, and how many worker threads a run
//! of it uses.

use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::bad_input::BadInput;
use crate::external::{self, Venue};
use crate::reporting::summary::find_anchor;
use crate::running::opening::{Opening, OpeningCheck};
use crate::shard::Shard;
use crate::spec::{AgentSpec, GameSpec};

/// One agent of a tournament.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// The label records and tables use: [`AgentSpec::label`], the agent's name with the
    /// parameters that differ from its defaults, with `#k` appended (k from 1) when the
    /// same spec is entered more than once (meta.csv keeps the full spec).
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
    /// The slice of the run to play (`--shard`); `None` plays every game.
    pub shard: Option<Shard>,
    /// How each pair's games start ([`Opening::Start`] unless
    /// [`Plan::with_opening`] says otherwise).
    pub opening: Opening,
    /// The soundness check of the random openings ([`Plan::with_opening_check`]);
    /// `None` keeps every random opening that leaves the game going.
    /// Boxed: a plan is moved and cloned whole, and most plans have none.
    pub opening_check: Option<Box<OpeningCheck>>,
    /// The run folder, where outside programs' standard error is logged
    /// ([`Plan::with_logs`]); `None` leaves it on this process's standard error. Not
    /// part of what determines the results.
    pub logs: Option<PathBuf>,
}

/// Where one game sits in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seating {
    /// Pairing index.
    pub pairing: u64,
    /// Pair index (`game / 2`).
    pub pair: u64,
    /// The deal: the index that picks the game's opening and chance luck
    /// ([`seeds::PairLuck`](crate::seeds::PairLuck), [`Opening::play`]). In a match it is the pair, so both
    /// games of a pair start alike; in self-play it is the game itself, so every game
    /// starts its own way.
    pub deal: u64,
    /// Entrant index at seat 0 and at seat 1.
    pub seats: [usize; 2],
}

/// The most worker threads `--threads` may ask for. Each worker plays one game at a
/// time; beyond the cores of the largest machines more workers only cost memory and
/// start-up time, and an operating system refuses to start some tens of thousands.
pub const MAX_THREADS: usize = 1024;

/// The worker threads for `requested` (`--threads`): 0 means one per available core;
/// more than [`MAX_THREADS`] is refused.
pub fn worker_threads(requested: usize) -> Result<usize, BadInput> {
    match requested {
        0 => Ok(std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))),
        n if n > MAX_THREADS => Err(BadInput::new(format!(
            "--threads {n} is too many: at most {MAX_THREADS} (0 means one per core)"
        ))),
        n => Ok(n),
    }
}

/// The workers a run starts: `threads`, but never more than the `games` it has to play
/// (and at least one).
pub fn workers_for(threads: usize, games: u64) -> usize {
    usize::try_from(games)
        .map_or(threads, |g| threads.min(g))
        .max(1)
}

impl Plan {
    /// A plan from parsed specs (without `human`: [`AgentSpec::parse`] refuses it here);
    /// fails on an odd or zero `games_per_pairing`, on no agents, and on a run whose
    /// number of games (pairings × `games_per_pairing`) does not fit a `u64`.
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
        let pairings = pairing_count(agents.len());
        let fits = u64::try_from(pairings)
            .ok()
            .and_then(|p| p.checked_mul(games_per_pairing));
        if fits.is_none() {
            return Err(BadInput::new(format!(
                "--games {games_per_pairing} with {} agents ({pairings} pairings) makes more \
                 than {} games in all; at most {} games per pairing",
                agents.len(),
                u64::MAX,
                // The largest even count that fits.
                (u128::from(u64::MAX) / pairings) as u64 & !1
            )));
        }
        let texts: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
        let entrants = agents
            .into_iter()
            .enumerate()
            .map(|(i, spec)| {
                let text = &texts[i];
                let label = if texts.iter().filter(|t| *t == text).count() > 1 {
                    let k = texts[..=i].iter().filter(|t| *t == text).count();
                    format!("{}#{k}", spec.label())
                } else {
                    spec.label()
                };
                Entrant { label, spec }
            })
            .collect();
        Ok(Plan {
            game,
            entrants,
            games_per_pairing,
            seed,
            shard: None,
            opening: Opening::Start,
            opening_check: None,
            logs: None,
        })
    }

    /// This plan restricted to `shard`; fails when the run has fewer pairs than shards.
    pub fn with_shard(self, shard: Shard) -> Result<Plan, BadInput> {
        shard.check(self.total_games())?;
        Ok(Plan {
            shard: Some(shard),
            ..self
        })
    }

    /// The game indices this plan plays: every game, or its shard's slice.
    pub fn game_range(&self) -> Range<u64> {
        let total = self.total_games();
        self.shard.map_or(0..total, |s| s.games(total))
    }

    /// The same plan with its games starting with `opening`.
    pub fn with_opening(self, opening: Opening) -> Plan {
        Plan { opening, ..self }
    }

    /// The same plan with its random openings judged by `check` (a check on a plan
    /// without random openings changes nothing; the caller records it only where it
    /// applies, [`Plan::applied_check`]).
    pub fn with_opening_check(self, check: Option<OpeningCheck>) -> Plan {
        Plan {
            opening_check: check.map(Box::new),
            ..self
        }
    }

    /// The opening check as it applies to this plan's openings: the check, on random
    /// openings; `None` otherwise.
    pub fn applied_check(&self) -> Option<&OpeningCheck> {
        match self.opening {
            Opening::Random(_) | Opening::Distinct(_) => self.opening_check.as_deref(),
            Opening::Start | Opening::Book(_) => None,
        }
    }

    /// The same plan with outside programs' standard error logged in the run folder
    /// `dir` ([`external::log_file`]).
    pub fn with_logs(self, dir: &Path) -> Plan {
        Plan {
            logs: Some(dir.to_path_buf()),
            ..self
        }
    }

    /// Where the agent `label` plays at `seat`: this plan's game, and its log file if
    /// the plan has a run folder.
    pub fn venue(&self, seat: usize, label: &str) -> Venue<'_> {
        Venue {
            game: &self.game,
            log: self
                .logs
                .as_deref()
                .map(|dir| external::log_file(dir, label, seat)),
        }
    }

    /// Pairings in the run: `n (n - 1) / 2` for `n` agents, 1 for self-play
    /// ([`Plan::new`] checked that it fits).
    pub fn pairing_count(&self) -> u64 {
        pairing_count(self.entrants.len()) as u64
    }

    /// Whether the run is self-play (one agent): then every game has its own deal.
    pub fn is_self_play(&self) -> bool {
        self.entrants.len() == 1
    }

    /// The label of the entrant `name` names (`--anchor`: a label, or a spec of the same
    /// agent, see [`find_anchor`]); fails with [`BadInput`] listing the labels.
    pub fn anchor_label(&self, name: &str) -> Result<String, BadInput> {
        let labels: Vec<String> = self.entrants.iter().map(|e| e.label.clone()).collect();
        let i = find_anchor(&labels, name)?;
        Ok(labels[i].clone())
    }

    /// Games in the whole run ([`Plan::new`] checked that the count fits).
    pub fn total_games(&self) -> u64 {
        self.pairing_count() * self.games_per_pairing
    }

    /// The pairing, pair, deal and seats of game `game`.
    pub fn seating(&self, game: u64) -> Seating {
        let pairing = game / self.games_per_pairing;
        let (a, b) = pairing_at(self.entrants.len(), pairing);
        let pair = game / 2;
        Seating {
            pairing,
            pair,
            deal: if self.is_self_play() { game } else { pair },
            seats: if game % 2 == 0 { [a, b] } else { [b, a] },
        }
    }
}

/// Pairings of `n` agents (`n ≥ 1`): `n (n - 1) / 2`, or 1 for self-play; a `u128`,
/// which holds it for any `n` a `usize` can.
pub(super) fn pairing_count(n: usize) -> u128 {
    let n = n as u128;
    if n == 1 {
        1
    } else {
        n * (n - 1) / 2
    }
}

/// The entrants `(a, b)`, `a < b`, of pairing `k` in round-robin order
/// `(0,1), (0,2), ..., (0,n-1), (1,2), ...` of `n` agents; `(0, 0)` for self-play.
/// Walks the rows of the order (`n - 1 - a` pairings start with `a`), so it needs no
/// list; `k` must be below [`pairing_count`]`(n)`.
pub(super) fn pairing_at(n: usize, k: u64) -> (usize, usize) {
    if n == 1 {
        return (0, 0);
    }
    let mut rest = k;
    for a in 0..n - 1 {
        let row = (n - 1 - a) as u64;
        if rest < row {
            return (a, a + 1 + rest as usize);
        }
        rest -= row;
    }
    unreachable!("pairing {k} is beyond the {} pairings", pairing_count(n))
}
