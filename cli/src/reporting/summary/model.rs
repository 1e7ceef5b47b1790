//! The statistics of a run, computed once by [`super::summarise`] and rendered by
//! [`super::summary_csv`] (summary.csv), [`super::table()`] (the printed report) and the
//! charts of `agon report`: every estimate, interval and test result is a field here, so
//! the outputs cannot disagree on a number.

use std::collections::BTreeMap;

use crate::reporting::stats::lengths::LengthStats;
use crate::reporting::stats::pentanomial::Pentanomial;
use crate::reporting::stats::sprt::{Decision, Sprt};
use crate::reporting::stats::{EloEstimate, Wdl};

/// Everything the summary reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// One entry per pairing, in pairing order.
    pub pairings: Vec<PairingStats>,
    /// The SPRT of a two-agent run, when asked for.
    pub sprt: Option<SprtResult>,
    /// Ratings of every agent; `None` with fewer than two agents.
    pub ratings: Option<RatingTable>,
    /// First-move advantage, lengths and end reasons: all games, then each pairing.
    pub scopes: Vec<ScopeStats>,
    /// Whether the game has a pie rule, so that the swap rate means something: true when
    /// a game of the run swapped, or when [`Summary::with_pie_rule`] says so.
    pub pie_rule: bool,
}

/// Agent A's results against agent B in one pairing.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingStats {
    /// Pairing index.
    pub index: u64,
    /// Agent A (seat 0 in the pairing's even games).
    pub agent_a: String,
    /// Agent B.
    pub agent_b: String,
    /// A's results per game.
    pub a: Wdl,
    /// A's Elo difference over B from the per-game results, with its 95% interval;
    /// `None` without games.
    pub elo: Option<EloEstimate>,
    /// The likelihood that A is the stronger; `None` without decisive games.
    pub los: Option<f64>,
    /// A's results per complete pair.
    pub pairs: Pentanomial,
    /// A's Elo difference from the pairs, with its 95% interval; `None` in self-play
    /// (see [`PairingStats::self_play`]) and without complete pairs.
    pub elo_pairs: Option<EloEstimate>,
    /// How many of the pairing's games differ from one another (by move list).
    pub distinct: u64,
}

impl PairingStats {
    /// Whether the pairing is an agent against itself: then the two games of a pair are
    /// separate games (they need not share luck or opening), and pair statistics do not
    /// apply.
    pub fn self_play(&self) -> bool {
        self.agent_a == self.agent_b
    }

    /// Whether fewer than [`DISTINCT_SHARE`] of the games are distinct.
    pub fn repeats(&self) -> bool {
        let games = self.a.games();
        self.distinct * DISTINCT_SHARE[1] < games * DISTINCT_SHARE[0]
    }
}

/// The share of distinct games (numerator, denominator) below which a pairing is
/// warned about: 90%, so that a few transpositions of short games pass but agents
/// replaying a handful of games do not.
pub const DISTINCT_SHARE: [u64; 2] = [9, 10];

/// The SPRT's verdict on the run's only pairing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtResult {
    /// The test.
    pub sprt: Sprt,
    /// Log-likelihood ratio of H1 against H0 over the complete pairs.
    pub llr: f64,
    /// What it decides.
    pub decision: Decision,
}

/// The Bradley–Terry ratings of every agent.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingTable {
    /// The agent rated 0, or `None` for a mean of zero.
    pub anchor: Option<String>,
    /// One entry per agent, in order of first appearance (the order given).
    pub agents: Vec<AgentRating>,
}

/// One agent's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentRating {
    /// The agent's label.
    pub label: String,
    /// Games it played against other agents.
    pub games: u64,
    /// Its score over those games.
    pub score: Option<f64>,
    /// Rating in Elo with its 95% interval.
    pub elo: EloEstimate,
}

/// The units game lengths are given in, in the order of summary.csv's `length` rows
/// (their `subject`): `plies` (decisions and chance outcomes, the opening's included),
/// `turns` (as the game's rules count them, the unit of its turn cap; the opening's
/// included) and `decisions` (the agents' decisions, both seats', the opening's left
/// out): games.csv's `plies`, `turns` and `decisions0 + decisions1`.
pub const LENGTH_UNITS: [&str; 3] = ["plies", "turns", "decisions"];

/// A proportion with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

/// The win rate over decisive games, with its Wilson interval and the exact binomial
/// test against 50%.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinRate {
    /// Wins over decisive games, with the Wilson interval.
    pub rate: Interval,
    /// The two-sided p-value of the rate against 50%.
    pub p_value: f64,
}

/// The results of one seat or side and what they measure.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeatResults {
    /// Wins, draws and losses.
    pub wdl: Wdl,
    /// The win rate; `None` without decisive games.
    pub win_rate: Option<WinRate>,
    /// The score with its 95% interval; `None` without games.
    pub score: Option<Interval>,
}

/// First-move advantage, lengths and end reasons of a set of games.
#[derive(Clone, Debug, PartialEq)]
pub struct ScopeStats {
    /// The pairing (index, agent A, agent B), or `None` for all games.
    pub pairing: Option<(u64, String, String)>,
    /// Seat 0's results.
    pub seat0: SeatResults,
    /// The first side's results, by the first side's name.
    pub first_side: BTreeMap<String, SeatResults>,
    /// Games with a pie-rule swap.
    pub swaps: u64,
    /// The share of games with a swap and its Wilson interval; `None` without games.
    /// It means something only where [`Summary::pie_rule`] holds.
    pub swap_rate: Option<Interval>,
    /// Game lengths in each of [`LENGTH_UNITS`], in that order; `None` without games.
    pub lengths: Option<[LengthStats; 3]>,
    /// By end reason: games won by seat 0, won by seat 1, drawn.
    pub ends: BTreeMap<String, [u64; 3]>,
}

impl Summary {
    /// This summary for a game that does (`true`) or does not offer a pie rule; a run in
    /// which some game swapped keeps its swap rows either way.
    pub fn with_pie_rule(self, offered: bool) -> Summary {
        Summary {
            pie_rule: self.pie_rule || offered,
            ..self
        }
    }

    /// Lines to print on standard error, each starting with `warning:`: a pairing whose
    /// games are less than 90% distinct ([`DISTINCT_SHARE`]) measured the same few games
    /// many times over, so its intervals are far too narrow; the remedy is to vary the
    /// start of the games.
    pub fn warnings(&self) -> Vec<String> {
        self.pairings
            .iter()
            .filter(|p| p.repeats())
            .map(|p| {
                format!(
                    "warning: pairing {} ({} vs {}): {} distinct game{} (by move list) in \
                     {}, so its results count the same games again; vary the start with \
                     --random-opening K or --openings FILE",
                    p.index,
                    p.agent_a,
                    p.agent_b,
                    p.distinct,
                    if p.distinct == 1 { "" } else { "s" },
                    p.a.games()
                )
            })
            .collect()
    }
}
