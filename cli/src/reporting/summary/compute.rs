//! [`summarise`]: the statistics of a run's game rows, computed once into a [`Summary`].

use std::collections::{BTreeMap, BTreeSet};

use super::model::{
    AgentRating, Interval, PairingStats, RatingTable, ScopeStats, SeatResults, SprtResult, Summary,
    WinRate,
};
use crate::bad_input::BadInput;
use crate::record::GameRow;
use crate::reporting::stats::binomial::{binomial_test_half, wilson};
use crate::reporting::stats::elo::{elo_estimate, los, score_interval};
use crate::reporting::stats::lengths::LengthStats;
use crate::reporting::stats::pentanomial::Pentanomial;
use crate::reporting::stats::ratings::{fit, Encounter, PRIOR_DRAWS};
use crate::reporting::stats::sprt::Sprt;
use crate::reporting::stats::{EloEstimate, Wdl};
use crate::spec::AgentSpec;

/// The move by which the pie rule swaps sides.
const SWAP_MOVE: &str = "swap";

/// A's half points (0..=2) in the two games of each pair of a pairing, by pair index,
/// `[game 2p, game 2p+1]`; `None` for a game not (yet) played.
type PairHalves = BTreeMap<u64, [Option<usize>; 2]>;

/// Running tallies of a scope.
#[derive(Default)]
struct ScopeTally {
    seat0: Wdl,
    first_side: BTreeMap<String, Wdl>,
    swaps: u64,
    /// By [`LENGTH_UNITS`](super::model::LENGTH_UNITS).
    lengths: [Vec<u32>; 3],
    ends: BTreeMap<String, [u64; 3]>,
}

impl ScopeTally {
    fn add(&mut self, row: &GameRow) {
        let result0 = row.result0.score(0);
        self.seat0.add(result0);
        let swapped = row.moves.split(' ').any(|m| m == SWAP_MOVE);
        let first_side = if swapped { &row.side1 } else { &row.side0 };
        // After a swap seat 1 plays the first side.
        let side_result = if swapped { -result0 } else { result0 };
        self.first_side
            .entry(first_side.clone())
            .or_default()
            .add(side_result);
        self.swaps += u64::from(swapped);
        let lengths = [row.plies, row.turns, row.decisions0 + row.decisions1];
        for (all, length) in self.lengths.iter_mut().zip(lengths) {
            all.push(length);
        }
        let slot = match result0.signum() {
            1 => 0,
            -1 => 1,
            _ => 2,
        };
        self.ends.entry(row.end_reason.clone()).or_default()[slot] += 1;
    }

    fn finish(self, pairing: Option<(u64, String, String)>) -> ScopeStats {
        let games = self.seat0.games();
        ScopeStats {
            pairing,
            seat0: seat_results(self.seat0),
            first_side: self
                .first_side
                .into_iter()
                .map(|(side, w)| (side, seat_results(w)))
                .collect(),
            swaps: self.swaps,
            swap_rate: wilson(self.swaps, games).map(|(low, high)| Interval {
                value: self.swaps as f64 / games as f64,
                low,
                high,
            }),
            lengths: match &self.lengths {
                [plies, turns, decisions] => LengthStats::of(plies)
                    .zip(LengthStats::of(turns))
                    .zip(LengthStats::of(decisions))
                    .map(|((p, t), d)| [p, t, d]),
            },
            ends: self.ends,
        }
    }
}

/// The win rate over decisive games (Wilson interval, binomial test against 50%) and
/// the score with its interval of `w`.
pub(crate) fn seat_results(w: Wdl) -> SeatResults {
    let decisive = w.decisive();
    let win_rate = wilson(w.wins, decisive)
        .zip(binomial_test_half(w.wins, decisive))
        .map(|((low, high), p_value)| WinRate {
            rate: Interval {
                value: w.wins as f64 / decisive as f64,
                low,
                high,
            },
            p_value,
        });
    SeatResults {
        wdl: w,
        win_rate,
        score: score_interval(&w).map(|(value, low, high)| Interval { value, low, high }),
    }
}

/// The index in `labels` of the agent `name` names: its label, or an agent spec that
/// means the same agent as a label (so `ab:depth=6,hash=16` finds `ab:depth=6`, and
/// `ab:depth=6` finds the full spec an older run used as its label). Fails with
/// [`BadInput`] listing the labels.
pub fn find_anchor(labels: &[String], name: &str) -> Result<usize, BadInput> {
    let spec = |text: &str| AgentSpec::parse(text, false).ok();
    labels
        .iter()
        .position(|label| label == name)
        .or_else(|| {
            let wanted = spec(name)?;
            labels
                .iter()
                .position(|label| spec(label).as_ref() == Some(&wanted))
        })
        .ok_or_else(|| {
            BadInput::new(format!(
                "--anchor: unknown agent \"{name}\" (agents: {})",
                labels.join(", ")
            ))
        })
}

/// The summary of a run's game rows (any order).
///
/// `anchor` names the agent rated 0 (`None`: mean zero); `sprt` adds the test's verdict
/// for a run of one pairing. Fails with [`BadInput`] for an anchor that is not one of
/// the agents (listing them) and for an SPRT on a run of more than one pairing.
pub fn summarise(
    games: &[GameRow],
    anchor: Option<&str>,
    sprt: Option<&Sprt>,
) -> Result<Summary, BadInput> {
    let mut sorted: Vec<&GameRow> = games.iter().collect();
    sorted.sort_by_key(|r| r.game);

    // Agents in order of first appearance: the order given on the command line.
    let mut agents: Vec<String> = Vec::new();
    for row in &sorted {
        for label in [&row.agent0, &row.agent1] {
            if !agents.contains(label) {
                agents.push(label.clone());
            }
        }
    }
    let anchor_index = anchor.map(|name| find_anchor(&agents, name)).transpose()?;

    // Per pairing: A's per-game results, the halves of each pair, its move lists, the
    // scope tallies.
    let mut pairings: BTreeMap<u64, (PairingStats, PairHalves)> = BTreeMap::new();
    let mut move_lists: BTreeMap<u64, BTreeSet<&str>> = BTreeMap::new();
    let mut scopes: BTreeMap<u64, ScopeTally> = BTreeMap::new();
    let mut all = ScopeTally::default();
    for row in &sorted {
        let a_seat = row.a_seat();
        let (agent_a, agent_b) = if a_seat == 0 {
            (&row.agent0, &row.agent1)
        } else {
            (&row.agent1, &row.agent0)
        };
        let (stats, halves) = pairings.entry(row.pairing).or_insert_with(|| {
            (
                PairingStats {
                    index: row.pairing,
                    agent_a: agent_a.clone(),
                    agent_b: agent_b.clone(),
                    a: Wdl::default(),
                    elo: None,
                    los: None,
                    pairs: Pentanomial::default(),
                    elo_pairs: None,
                    distinct: 0,
                },
                BTreeMap::new(),
            )
        });
        move_lists
            .entry(row.pairing)
            .or_default()
            .insert(row.moves.as_str());
        let result_a = row.result0.score(a_seat);
        stats.a.add(result_a);
        halves.entry(row.pair).or_default()[a_seat] = Some(row.a_half_points());
        scopes.entry(row.pairing).or_default().add(row);
        all.add(row);
    }
    let pairings: Vec<PairingStats> = pairings
        .into_values()
        .map(|(mut stats, halves)| {
            stats.distinct = move_lists.get(&stats.index).map_or(0, |m| m.len() as u64);
            for half in halves.values() {
                if let [Some(first), Some(second)] = half {
                    stats.pairs.add(first + second);
                }
            }
            stats.elo = elo_estimate(&stats.a);
            stats.los = los(&stats.a);
            stats.elo_pairs = if stats.self_play() {
                None
            } else {
                stats.pairs.elo_estimate()
            };
            stats
        })
        .collect();

    let sprt = match sprt {
        None => None,
        Some(sprt) => {
            if pairings.len() != 1 {
                return Err(BadInput::new(format!(
                    "--sprt needs a run of two agents (one pairing), this one has {} pairings",
                    pairings.len()
                )));
            }
            let llr = sprt.llr(&pairings[0].pairs);
            Some(SprtResult {
                sprt: *sprt,
                llr,
                decision: sprt.decision(llr),
            })
        }
    };

    let ratings = (agents.len() >= 2).then(|| {
        let index = |label: &str| agents.iter().position(|a| a == label).unwrap_or(0);
        let mut encounters = Vec::new();
        let mut games = vec![0u64; agents.len()];
        let mut points = vec![0.0; agents.len()];
        for p in &pairings {
            let (a, b) = (index(&p.agent_a), index(&p.agent_b));
            if a == b {
                continue; // self-play says nothing about ratings
            }
            let n = p.a.games();
            let points_a = p.a.wins as f64 + p.a.draws as f64 / 2.0;
            games[a] += n;
            games[b] += n;
            points[a] += points_a;
            points[b] += n as f64 - points_a;
            encounters.push(Encounter {
                a,
                b,
                games: n as f64,
                points_a,
            });
        }
        let fitted = fit(agents.len(), &encounters, PRIOR_DRAWS, anchor_index);
        RatingTable {
            anchor: anchor_index.map(|k| agents[k].clone()),
            agents: agents
                .iter()
                .enumerate()
                .map(|(i, label)| AgentRating {
                    label: label.clone(),
                    games: games[i],
                    score: (games[i] > 0).then(|| points[i] / games[i] as f64),
                    elo: EloEstimate {
                        elo: fitted.elo[i],
                        low: fitted.low[i],
                        high: fitted.high[i],
                    },
                })
                .collect(),
        }
    });

    let pie_rule = all.swaps > 0;
    let mut scope_stats = vec![all.finish(None)];
    for p in &pairings {
        let tally = scopes.remove(&p.index).unwrap_or_default();
        scope_stats.push(tally.finish(Some((p.index, p.agent_a.clone(), p.agent_b.clone()))));
    }
    Ok(Summary {
        pairings,
        sprt,
        ratings,
        scopes: scope_stats,
        pie_rule,
    })
}
