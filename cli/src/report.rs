//! The summary of a run, computed from its games.csv rows alone: [`summarise`] gives a
//! [`Summary`], whose [`Summary::rows`] are summary.csv and whose [`table`] is the printed
//! report. Because nothing but the game rows goes in, a run's summary can be recomputed
//! from its folder at any time (`agon report DIR`), and it does not depend on the order
//! in which the games were played.
//!
//! What is counted (the formulas are in [`crate::stats`]):
//! - per pairing, from agent A's view (A is the pairing's seat 0 in its even games, see
//!   [`crate::tournament`]): W/D/L, score, Elo with per-game and per-pair 95% intervals,
//!   likelihood of superiority, pentanomial pair counts;
//! - with two or more agents, Bradley–Terry ratings of every agent;
//! - over all games and per pairing: the first-move advantage by seat and by side, the
//!   pie-rule swap rate, game lengths and end reasons;
//! - for a two-agent run given an [`Sprt`], its log-likelihood ratio and decision;
//! - per pairing, how many of its games are distinct (by move list): agents without
//!   randomness replay the same games, and [`Summary::warnings`] says so.
//!
//! **What does not apply stays empty.** In self-play (agent A and agent B are the same
//! label) the two games of a pair are separate games, so the pair statistics (pentanomial
//! counts, Elo by pairs) have empty values in summary.csv and are hidden from the table,
//! with a line saying why. Without a pie rule (see [`Summary::with_pie_rule`]) the swap
//! rows are empty and the swap column is hidden.
//!
//! **Pairs.** Games `2p` and `2p+1` (column `pair` = p) form pair `p`. A pair with only
//! one of its games present (possible only in a stopped run) is left out of the
//! pentanomial counts, but its game counts everywhere else.
//!
//! **Sides and the pie rule.** Seat 0 makes the first decision of every game. Columns
//! `side0`/`side1` give the sides the seats played at the *end*; after a pie-rule swap
//! (a move written `swap` in `moves`) the seats have exchanged sides, so seat 0 started
//! as `side1`. The *first side* of a game is the side seat 0 started as (`side0`, or
//! `side1` when the game has a `swap` move), i.e. the side that made the first move,
//! whoever ended up playing it; the `side` statistics are that side's results. The swap
//! rate is the share of games with a `swap` move.

use std::collections::{BTreeMap, BTreeSet};

use crate::args::BadInput;
use crate::record::{GameRow, SummaryRow};
use crate::spec::AgentSpec;
use crate::stats::binomial::{binomial_test_half, wilson};
use crate::stats::elo::{elo_estimate, los, score_interval};
use crate::stats::lengths::LengthStats;
use crate::stats::pentanomial::Pentanomial;
use crate::stats::ratings::{fit, Encounter, PRIOR_DRAWS};
use crate::stats::sprt::{Decision, Sprt};
use crate::stats::{format_elo, format_p_value, format_rate, EloEstimate, Wdl};

/// The move by which the pie rule swaps sides.
const SWAP_MOVE: &str = "swap";

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
    /// A's results per complete pair.
    pub pairs: Pentanomial,
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

/// First-move advantage, lengths and end reasons of a set of games.
#[derive(Clone, Debug, PartialEq)]
pub struct ScopeStats {
    /// The pairing (index, agent A, agent B), or `None` for all games.
    pub pairing: Option<(u64, String, String)>,
    /// Seat 0's results.
    pub seat0: Wdl,
    /// The first side's results, by the first side's name.
    pub first_side: BTreeMap<String, Wdl>,
    /// Games with a pie-rule swap.
    pub swaps: u64,
    /// Game lengths in each of [`LENGTH_UNITS`], in that order; `None` without games.
    pub lengths: Option<[LengthStats; 3]>,
    /// By end reason: games won by seat 0, won by seat 1, drawn.
    pub ends: BTreeMap<String, [u64; 3]>,
}

/// A's half points (0..=2) in the two games of each pair of a pairing, by pair index,
/// `[game 2p, game 2p+1]`; `None` for a game not (yet) played.
type PairHalves = BTreeMap<u64, [Option<usize>; 2]>;

/// Running tallies of a scope.
#[derive(Default)]
struct ScopeTally {
    seat0: Wdl,
    first_side: BTreeMap<String, Wdl>,
    swaps: u64,
    /// By [`LENGTH_UNITS`].
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
        ScopeStats {
            pairing,
            seat0: self.seat0,
            first_side: self.first_side,
            swaps: self.swaps,
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
                    pairs: Pentanomial::default(),
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

/// A value and its interval as CSV fields.
fn with_interval(value: String, interval: Option<(String, String)>) -> [String; 3] {
    let (low, high) = interval.unwrap_or_default();
    [value, low, high]
}

/// A length statistic as printed: two decimals.
fn format_plies(x: f64) -> String {
    format!("{x:.2}")
}

/// The win rate over decisive games, its Wilson interval and the binomial p-value.
fn win_rate(w: &Wdl) -> Option<(f64, f64, f64, f64)> {
    let decisive = w.decisive();
    let (low, high) = wilson(w.wins, decisive)?;
    let p = binomial_test_half(w.wins, decisive)?;
    Some((w.wins as f64 / decisive as f64, low, high, p))
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

    /// The rows of summary.csv (see results/README.md for every section and statistic).
    pub fn rows(&self) -> Vec<SummaryRow> {
        let mut rows = Vec::new();
        let mut push = |section: &str,
                        pairing: Option<&(u64, String, String)>,
                        subject: &str,
                        statistic: &str,
                        [value, low, high]: [String; 3]| {
            let (index, a, b) = match pairing {
                Some((i, a, b)) => (i.to_string(), a.clone(), b.clone()),
                None => Default::default(),
            };
            rows.push(SummaryRow {
                section: section.into(),
                pairing: index,
                agent_a: a,
                agent_b: b,
                subject: subject.into(),
                statistic: statistic.into(),
                value,
                low,
                high,
            });
        };
        let plain = |value: String| [value, String::new(), String::new()];
        let elo_fields = |e: Option<EloEstimate>| match e {
            Some(e) => [format_elo(e.elo), format_elo(e.low), format_elo(e.high)],
            None => Default::default(),
        };

        for p in &self.pairings {
            let key = (p.index, p.agent_a.clone(), p.agent_b.clone());
            let mut put = |statistic: &str, fields: [String; 3]| {
                push("pairing", Some(&key), "", statistic, fields)
            };
            put("games", plain(p.a.games().to_string()));
            put("distinct_games", plain(p.distinct.to_string()));
            put("wins", plain(p.a.wins.to_string()));
            put("draws", plain(p.a.draws.to_string()));
            put("losses", plain(p.a.losses.to_string()));
            put(
                "score",
                plain(p.a.score().map(format_rate).unwrap_or_default()),
            );
            put("elo", elo_fields(elo_estimate(&p.a)));
            put("los", plain(los(&p.a).map(format_rate).unwrap_or_default()));
            // In self-play the pair rows stay, with empty values (they do not apply).
            let pairs = (!p.self_play()).then_some(&p.pairs);
            put(
                "pairs",
                plain(pairs.map(|q| q.pairs().to_string()).unwrap_or_default()),
            );
            for (k, name) in ["pairs_ll", "pairs_ld", "pairs_dd", "pairs_wd", "pairs_ww"]
                .iter()
                .enumerate()
            {
                put(
                    name,
                    plain(pairs.map(|q| q.counts[k].to_string()).unwrap_or_default()),
                );
            }
            put(
                "elo_pairs",
                elo_fields(pairs.and_then(Pentanomial::elo_estimate)),
            );
        }

        if let (Some(s), Some(p)) = (&self.sprt, self.pairings.first()) {
            let key = (p.index, p.agent_a.clone(), p.agent_b.clone());
            let mut put = |statistic: &str, fields: [String; 3]| {
                push("sprt", Some(&key), "", statistic, fields)
            };
            put("elo0", plain(s.sprt.elo0.to_string()));
            put("elo1", plain(s.sprt.elo1.to_string()));
            put("alpha", plain(s.sprt.alpha.to_string()));
            put("beta", plain(s.sprt.beta.to_string()));
            put(
                "llr",
                [
                    format_rate(s.llr),
                    format_rate(s.sprt.lower_bound()),
                    format_rate(s.sprt.upper_bound()),
                ],
            );
            put("decision", plain(s.decision.word().into()));
        }

        if let Some(r) = &self.ratings {
            push(
                "rating",
                None,
                "",
                "anchor",
                plain(r.anchor.clone().unwrap_or_else(|| "mean".into())),
            );
            for a in &r.agents {
                push(
                    "rating",
                    None,
                    &a.label,
                    "games",
                    plain(a.games.to_string()),
                );
                push(
                    "rating",
                    None,
                    &a.label,
                    "score",
                    plain(a.score.map(format_rate).unwrap_or_default()),
                );
                push("rating", None, &a.label, "elo", elo_fields(Some(a.elo)));
            }
        }

        for scope in &self.scopes {
            let key = scope.pairing.as_ref();
            let mut record = |section: &str, subject: &str, w: &Wdl| {
                push(section, key, subject, "wins", plain(w.wins.to_string()));
                push(section, key, subject, "draws", plain(w.draws.to_string()));
                push(section, key, subject, "losses", plain(w.losses.to_string()));
                let rate = win_rate(w);
                push(
                    section,
                    key,
                    subject,
                    "win_rate",
                    match rate {
                        Some((r, low, high, _)) => {
                            [format_rate(r), format_rate(low), format_rate(high)]
                        }
                        None => Default::default(),
                    },
                );
                push(
                    section,
                    key,
                    subject,
                    "p_value",
                    plain(rate.map(|r| format_p_value(r.3)).unwrap_or_default()),
                );
                push(
                    section,
                    key,
                    subject,
                    "score",
                    match score_interval(w) {
                        Some((s, low, high)) => {
                            [format_rate(s), format_rate(low), format_rate(high)]
                        }
                        None => Default::default(),
                    },
                );
            };
            record("seat", "0", &scope.seat0);
            for (side, w) in &scope.first_side {
                record("side", side, w);
            }
            // Without a pie rule the swap rows stay, with empty values (they do not apply).
            let games = if self.pie_rule {
                scope.seat0.games()
            } else {
                0
            };
            push(
                "swap",
                key,
                "",
                "swaps",
                plain(if self.pie_rule {
                    scope.swaps.to_string()
                } else {
                    String::new()
                }),
            );
            push(
                "swap",
                key,
                "",
                "swap_rate",
                with_interval(
                    if games > 0 {
                        format_rate(scope.swaps as f64 / games as f64)
                    } else {
                        String::new()
                    },
                    wilson(scope.swaps, games).map(|(l, h)| (format_rate(l), format_rate(h))),
                ),
            );
            for (unit, l) in LENGTH_UNITS.iter().zip(scope.lengths.iter().flatten()) {
                let mut put = |statistic: &str, value: String| {
                    push("length", key, unit, statistic, plain(value))
                };
                put("games", l.games.to_string());
                put("mean", format_plies(l.mean));
                put("sd", l.sd.map(format_plies).unwrap_or_default());
                put("min", l.min.to_string());
                put("q1", format_plies(l.q1));
                put("median", format_plies(l.median));
                put("q3", format_plies(l.q3));
                put("max", l.max.to_string());
            }
            for (reason, [won0, won1, drawn]) in &scope.ends {
                push("end", key, reason, "seat0_wins", plain(won0.to_string()));
                push("end", key, reason, "seat1_wins", plain(won1.to_string()));
                push("end", key, reason, "draws", plain(drawn.to_string()));
            }
        }
        rows
    }
}

/// Lays out `cells` (the first row the header) in columns two spaces apart; the first
/// `left` columns are left-aligned, the others (numbers) right-aligned.
pub(crate) fn grid(cells: &[Vec<String>], left: usize) -> String {
    let columns = cells.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            cells
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in cells {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c < left {
                    format!("{cell:<w$}", w = widths[c])
                } else {
                    format!("{cell:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A header row of `names`.
pub(crate) fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|h| h.to_string()).collect()
}

/// `value [low, high]`, or `-` when undefined.
fn interval_cell(value: Option<(String, String, String)>) -> String {
    match value {
        Some((v, low, high)) => format!("{v} [{low}, {high}]"),
        None => "-".into(),
    }
}

fn elo_cell(e: Option<EloEstimate>) -> String {
    interval_cell(e.map(|e| (format_elo(e.elo), format_elo(e.low), format_elo(e.high))))
}

fn wdl_cell(w: &Wdl) -> String {
    format!("{}-{}-{}", w.wins, w.draws, w.losses)
}

fn scope_name(scope: &ScopeStats) -> String {
    match &scope.pairing {
        Some((i, _, _)) => format!("pairing {i}"),
        None => "all games".into(),
    }
}

/// The summary as a text report: sections for pairings, the SPRT, ratings, the
/// first-move advantage, game lengths and end reasons, each a titled, aligned table.
pub fn table(summary: &Summary) -> String {
    let mut sections = Vec::new();

    // Pair columns only where some pairing has pairs that mean something.
    let pair_columns =
        summary.pairings.is_empty() || summary.pairings.iter().any(|p| !p.self_play());
    let mut names = vec![
        "#",
        "agent A",
        "agent B",
        "games",
        "distinct",
        "W-D-L",
        "score",
        "Elo A-B [95%]",
        "LOS",
    ];
    if pair_columns {
        names.extend(["pairs LL-LD-DD-WD-WW", "Elo by pairs [95%]"]);
    }
    let mut cells = vec![header(&names)];
    let mut notes = String::new();
    for p in &summary.pairings {
        let mut line = vec![
            p.index.to_string(),
            p.agent_a.clone(),
            p.agent_b.clone(),
            p.a.games().to_string(),
            p.distinct.to_string(),
            wdl_cell(&p.a),
            p.a.score().map(format_rate).unwrap_or_else(|| "-".into()),
            elo_cell(elo_estimate(&p.a)),
            los(&p.a).map(format_rate).unwrap_or_else(|| "-".into()),
        ];
        if p.self_play() {
            notes.push_str(&format!(
                "pairing {}: self-play, so each game stands alone (a pair does not share its \
                 start and luck): pair statistics do not apply\n",
                p.index
            ));
            if pair_columns {
                line.extend([String::new(), String::new()]);
            }
        } else {
            let c = p.pairs.counts;
            line.push(format!("{}-{}-{}-{}-{}", c[0], c[1], c[2], c[3], c[4]));
            line.push(elo_cell(p.pairs.elo_estimate()));
        }
        cells.push(line);
    }
    sections.push(format!(
        "pairings (A against B; A is seat 0 in even games; distinct: games with their own \
         move list{})\n{}{notes}",
        if pair_columns {
            "; DD counts WL pairs too"
        } else {
            ""
        },
        grid(&cells, 3)
    ));

    if let Some(s) = &summary.sprt {
        sections.push(format!(
            "SPRT elo0 {}, elo1 {}, alpha {}, beta {}: LLR {:.2} after {} pairs (bounds {:.2}, \
             {:.2}): {}\n",
            s.sprt.elo0,
            s.sprt.elo1,
            s.sprt.alpha,
            s.sprt.beta,
            s.llr,
            summary.pairings.first().map_or(0, |p| p.pairs.pairs()),
            s.sprt.lower_bound(),
            s.sprt.upper_bound(),
            match s.decision {
                Decision::AcceptH0 => "H0 accepted",
                Decision::AcceptH1 => "H1 accepted",
                Decision::Continue => "continue",
            }
        ));
    }

    if let Some(r) = &summary.ratings {
        let mut cells = vec![header(&["agent", "games", "score", "Elo [95%]"])];
        for a in &r.agents {
            cells.push(vec![
                a.label.clone(),
                a.games.to_string(),
                a.score.map(format_rate).unwrap_or_else(|| "-".into()),
                elo_cell(Some(a.elo)),
            ]);
        }
        let anchor = match &r.anchor {
            Some(name) => format!("{name} at 0"),
            None => "mean 0".into(),
        };
        sections.push(format!(
            "ratings (Bradley-Terry, {anchor}, one virtual draw each against a 0-rated agent)\n{}",
            grid(&cells, 1)
        ));
    }

    let mut names = vec![
        "scope",
        "by",
        "W-D-L",
        "win rate [95%]",
        "p (50%)",
        "score [95%]",
    ];
    if summary.pie_rule {
        names.push("swap rate [95%]");
    }
    let mut cells = vec![header(&names)];
    for scope in &summary.scopes {
        let games = scope.seat0.games();
        let swap = interval_cell(wilson(scope.swaps, games).map(|(l, h)| {
            (
                format_rate(scope.swaps as f64 / games as f64),
                format_rate(l),
                format_rate(h),
            )
        }));
        let mut line = |by: String, w: &Wdl, swap: String| {
            let rate = win_rate(w);
            let mut line = vec![
                scope_name(scope),
                by,
                wdl_cell(w),
                interval_cell(
                    rate.map(|(r, l, h, _)| (format_rate(r), format_rate(l), format_rate(h))),
                ),
                rate.map(|r| format_p_value(r.3))
                    .unwrap_or_else(|| "-".into()),
                interval_cell(
                    score_interval(w)
                        .map(|(s, l, h)| (format_rate(s), format_rate(l), format_rate(h))),
                ),
            ];
            if summary.pie_rule {
                line.push(swap);
            }
            cells.push(line);
        };
        line("seat 0".into(), &scope.seat0, String::new());
        for (side, w) in &scope.first_side {
            line(format!("side {side}"), w, swap.clone());
        }
    }
    sections.push(format!(
        "first-move advantage (seat 0 moves first; side: the side that moved first)\n{}\
         win rate: wins over decisive games; p (50%): the chance of a win rate at least this \
         far from 50% if both were equally likely to win (exact binomial test, two-sided)\n",
        grid(&cells, 2)
    ));

    let mut cells = vec![header(&[
        "scope", "in", "games", "mean", "sd", "min", "q1", "median", "q3", "max",
    ])];
    for scope in &summary.scopes {
        // Plies and turns; decisions are in summary.csv.
        for (unit, l) in LENGTH_UNITS
            .iter()
            .zip(scope.lengths.iter().flatten())
            .take(2)
        {
            cells.push(vec![
                scope_name(scope),
                unit.to_string(),
                l.games.to_string(),
                format_plies(l.mean),
                l.sd.map(format_plies).unwrap_or_else(|| "-".into()),
                l.min.to_string(),
                format_plies(l.q1),
                format_plies(l.median),
                format_plies(l.q3),
                l.max.to_string(),
            ]);
        }
    }
    sections.push(format!(
        "game length in plies and in turns (as the game's rules count them)\n{}",
        grid(&cells, 2)
    ));

    let mut cells = vec![header(&[
        "scope",
        "end reason",
        "seat 0 won",
        "seat 1 won",
        "drawn",
    ])];
    for scope in &summary.scopes {
        for (reason, counts) in &scope.ends {
            let mut row = vec![scope_name(scope), reason.clone()];
            row.extend(counts.iter().map(u64::to_string));
            cells.push(row);
        }
    }
    sections.push(format!("end reasons\n{}", grid(&cells, 2)));

    sections.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Result0;

    fn row(game: u64, pairing: u64, agents: [&str; 2], result0: Result0) -> GameRow {
        GameRow::example(game, pairing, agents, result0, 10 + game as u32)
    }

    fn value<'a>(rows: &'a [SummaryRow], section: &str, pairing: &str, statistic: &str) -> &'a str {
        &rows
            .iter()
            .find(|r| r.section == section && r.pairing == pairing && r.statistic == statistic)
            .unwrap_or_else(|| panic!("no {section} {pairing} {statistic}"))
            .value
    }

    #[test]
    fn pairing_rows_are_from_agent_a_and_seat_rows_from_seat_0() {
        use Result0::*;
        // Pairing 0, A = x: game 0 x(seat 0) wins, game 1 x(seat 1) wins (seat 0 lost),
        // game 2 x(seat 0) loses, game 3 draw.
        let games = [
            row(0, 0, ["x", "y"], Win),
            row(1, 0, ["y", "x"], Loss),
            row(2, 0, ["x", "y"], Loss),
            row(3, 0, ["y", "x"], Draw),
        ];
        let summary = summarise(&games, None, None).unwrap();
        let p = &summary.pairings[0];
        assert_eq!((p.agent_a.as_str(), p.agent_b.as_str()), ("x", "y"));
        assert_eq!((p.a.wins, p.a.draws, p.a.losses), (2, 1, 1));
        // Pairs: pair 0 = WW (4 half points), pair 1 = LD (1).
        assert_eq!(p.pairs.counts, [0, 1, 0, 0, 1]);
        let rows = summary.rows();
        assert_eq!(value(&rows, "pairing", "0", "score"), "0.6250");
        // Seat 0: 1 win, 1 draw, 2 losses; decisive 1/3.
        assert_eq!(value(&rows, "seat", "", "wins"), "1");
        assert_eq!(value(&rows, "seat", "", "losses"), "2");
        assert_eq!(value(&rows, "seat", "", "win_rate"), "0.3333");
        // Exact test of 1 of 3: 2·(1 + 3)/8 = 1 → 1.0000.
        assert_eq!(value(&rows, "seat", "", "p_value"), "1.0000");
        assert_eq!(value(&rows, "length", "0", "median"), "11.50");
        assert_eq!(value(&rows, "rating", "", "anchor"), "mean");
    }

    #[test]
    fn swaps_change_the_first_side_and_incomplete_pairs_are_left_out() {
        use Result0::*;
        let mut swapped = row(1, 0, ["y", "x"], Win);
        // Seat 0 started black, seat 1 swapped: seat 0 ends as white and wins, so the
        // first side (black, played by seat 1 at the end) lost.
        swapped.moves = "a1 swap b2".into();
        swapped.side0 = "white".into();
        swapped.side1 = "black".into();
        let games = [
            row(0, 0, ["x", "y"], Win),
            swapped,
            row(2, 0, ["x", "y"], Draw),
        ];
        let summary = summarise(&games, None, None).unwrap();
        let all = &summary.scopes[0];
        assert_eq!(all.swaps, 1);
        let black = all.first_side["black"];
        assert_eq!((black.wins, black.draws, black.losses), (1, 1, 1));
        assert_eq!((all.seat0.wins, all.seat0.draws), (2, 1));
        // Pair 1 has only game 2: left out. Pair 0: x won game 0, lost game 1 → WL.
        assert_eq!(summary.pairings[0].pairs.counts, [0, 0, 1, 0, 0]);
    }

    #[test]
    fn no_games_give_an_empty_summary_without_a_panic() {
        let summary = summarise(&[], None, None).unwrap();
        assert!(summary.pairings.is_empty() && summary.ratings.is_none());
        let rows = summary.rows();
        assert_eq!(value(&rows, "seat", "", "wins"), "0");
        assert_eq!(value(&rows, "seat", "", "win_rate"), "");
        assert_eq!(value(&rows, "swap", "", "swap_rate"), "");
        assert!(table(&summary).starts_with("pairings "));
    }

    #[test]
    fn lengths_are_given_in_plies_turns_and_decisions_each_naming_its_unit() {
        use Result0::*;
        // Two Pig-like games: many plies (dice included), fewer decisions, fewer turns.
        let mut games = [row(0, 0, ["x", "y"], Win), row(1, 0, ["y", "x"], Loss)];
        for (g, (plies, turns, d0, d1)) in games.iter_mut().zip([(16, 7, 7, 4), (7, 3, 4, 1)]) {
            (g.plies, g.turns, g.decisions0, g.decisions1) = (plies, turns, d0, d1);
        }
        let summary = summarise(&games, None, None).unwrap();
        let lengths: Vec<String> = summary
            .rows()
            .iter()
            .filter(|r| r.section == "length" && r.pairing.is_empty())
            .filter(|r| ["min", "max"].contains(&r.statistic.as_str()))
            .map(|r| format!("{} {} {}", r.subject, r.statistic, r.value))
            .collect();
        assert_eq!(
            lengths,
            [
                "plies min 7",
                "plies max 16",
                "turns min 3",
                "turns max 7",
                "decisions min 5",
                "decisions max 11"
            ]
        );
        let printed = table(&summary);
        let at = printed.find("game length in plies").unwrap();
        let section: Vec<&str> = printed[at..].lines().take(4).collect();
        assert_eq!(
            section[1..],
            [
                "scope      in     games   mean    sd  min    q1  median     q3  max",
                "all games  plies      2  11.50  6.36    7  9.25   11.50  13.75   16",
                "all games  turns      2   5.00  2.83    3  4.00    5.00   6.00    7",
            ]
        );
    }

    #[test]
    fn an_anchor_spec_finds_the_short_label_of_the_same_agent() {
        let labels = ["ab:depth=6".to_string(), "random".to_string()];
        assert_eq!(find_anchor(&labels, "ab:depth=6,hash=16,threads=1"), Ok(0));
        assert_eq!(find_anchor(&labels, "random"), Ok(1));
        // An older run's labels were full specs; a short spec still finds them.
        let old = ["ab:depth=6,hash=16,threads=1".to_string()];
        assert_eq!(find_anchor(&old, "ab:depth=6"), Ok(0));
    }

    #[test]
    fn anchor_and_sprt_are_checked() {
        use Result0::*;
        let games = [
            row(0, 0, ["x", "y"], Win),
            row(1, 0, ["y", "x"], Loss),
            row(2, 1, ["x", "z"], Draw),
            row(3, 1, ["z", "x"], Draw),
        ];
        assert_eq!(
            summarise(&games, Some("w"), None).unwrap_err().0,
            "--anchor: unknown agent \"w\" (agents: x, y, z)"
        );
        let anchored = summarise(&games, Some("y"), None).unwrap();
        let ratings = anchored.ratings.unwrap();
        assert_eq!(ratings.anchor.as_deref(), Some("y"));
        assert_eq!(ratings.agents[1].elo.elo, 0.0);
        assert!(ratings.agents[0].elo.elo > 0.0);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert_eq!(
            summarise(&games, None, Some(&sprt)).unwrap_err().0,
            "--sprt needs a run of two agents (one pairing), this one has 2 pairings"
        );
        let two = summarise(&games[..2], None, Some(&sprt)).unwrap();
        let verdict = two.sprt.unwrap();
        assert!(verdict.llr > 0.0);
        assert_eq!(verdict.decision, Decision::Continue);
        assert!(table(&two).contains("SPRT elo0 0, elo1 5, alpha 0.05, beta 0.05: LLR "));
    }

    /// Pairing 0 of `agents` with `moves` as the move lists of its games, seat 0 winning
    /// every game.
    fn games_with_moves(agents: [&str; 2], moves: &[&str]) -> Vec<GameRow> {
        (0..moves.len() as u64)
            .map(|g| {
                let seats = if g % 2 == 0 {
                    agents
                } else {
                    [agents[1], agents[0]]
                };
                let mut row = row(g, 0, seats, Result0::Win);
                row.moves = moves[g as usize].into();
                row
            })
            .collect()
    }

    #[test]
    fn distinct_games_are_counted_and_repeats_warned_about() {
        // 10 games, 9 distinct: 90% passes.
        let nine = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "i"];
        let summary = summarise(&games_with_moves(["x", "y"], &nine), None, None).unwrap();
        assert_eq!(summary.pairings[0].distinct, 9);
        assert_eq!(
            value(&summary.rows(), "pairing", "0", "distinct_games"),
            "9"
        );
        assert!(summary.warnings().is_empty());
        // 10 games, 8 distinct: below 90%.
        let eight = ["a", "b", "c", "d", "e", "f", "g", "h", "h", "h"];
        let summary = summarise(&games_with_moves(["x", "y"], &eight), None, None).unwrap();
        assert_eq!(
            summary.warnings(),
            [
                "warning: pairing 0 (x vs y): 8 distinct games (by move list) in 10, so its \
              results count the same games again; vary the start with --random-opening K or \
              --openings FILE"
            ]
        );
        let text = table(&summary);
        assert!(text.contains("games  distinct"), "{text}");
        assert!(
            text.contains("\n0  x        y           10         8  "),
            "{text}"
        );
    }

    #[test]
    fn self_play_leaves_pair_statistics_empty_and_says_why() {
        let moves = ["a", "b", "c", "d"];
        let summary = summarise(&games_with_moves(["x", "x"], &moves), None, None).unwrap();
        let rows = summary.rows();
        for statistic in [
            "pairs", "pairs_ll", "pairs_ld", "pairs_dd", "pairs_wd", "pairs_ww",
        ] {
            assert_eq!(value(&rows, "pairing", "0", statistic), "", "{statistic}");
        }
        let elo_pairs = rows.iter().find(|r| r.statistic == "elo_pairs").unwrap();
        assert_eq!([&elo_pairs.low, &elo_pairs.high], ["", ""]);
        let text = table(&summary);
        assert!(!text.contains("pairs LL-LD-DD-WD-WW"), "{text}");
        assert!(!text.contains("Elo by pairs"), "{text}");
        assert!(
            text.contains(
                "pairing 0: self-play, so each game stands alone (a pair does not share its \
                 start and luck): pair statistics do not apply\n"
            ),
            "{text}"
        );
        // Beside a pairing of two agents, the self-play row leaves the pair cells blank.
        let mut mixed = games_with_moves(["x", "x"], &moves);
        for mut row in games_with_moves(["x", "y"], &moves) {
            row.game += 4;
            row.pair += 2;
            row.pairing = 1;
            mixed.push(row);
        }
        let summary = summarise(&mixed, None, None).unwrap();
        assert_eq!(value(&summary.rows(), "pairing", "1", "pairs"), "2");
        let text = table(&summary);
        assert!(text.contains("pairs LL-LD-DD-WD-WW"), "{text}");
        assert!(text.contains("pairing 0: self-play"), "{text}");
        assert!(!text.contains("pairing 1: self-play"), "{text}");
    }

    #[test]
    fn swap_rows_are_empty_without_a_pie_rule_and_p_is_explained() {
        let games = games_with_moves(["x", "y"], &["a", "b"]);
        let summary = summarise(&games, None, None).unwrap();
        assert!(!summary.pie_rule);
        let rows = summary.rows();
        assert_eq!(value(&rows, "swap", "", "swaps"), "");
        let rate = rows.iter().find(|r| r.statistic == "swap_rate").unwrap();
        assert_eq!([&rate.value, &rate.low, &rate.high], ["", "", ""]);
        let text = table(&summary);
        assert!(!text.contains("swap rate"), "{text}");
        assert!(
            text.contains(
                "p (50%): the chance of a win rate at least this far from 50% if both were \
                 equally likely to win (exact binomial test, two-sided)"
            ),
            "{text}"
        );
        // With a pie rule, no swap is a swap rate of 0.
        let summary = summary.with_pie_rule(true);
        assert_eq!(value(&summary.rows(), "swap", "", "swaps"), "0");
        assert_eq!(value(&summary.rows(), "swap", "", "swap_rate"), "0.0000");
        assert!(table(&summary).contains("swap rate [95%]"));
    }
}
