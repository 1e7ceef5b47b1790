//! The measurements of a study, from its runs' game rows: per rung its self-play
//! ([`SelfPlay`]), and from the second rung on its step from the previous rung
//! ([`Step`]). Every rate, interval and test is the run summary's own
//! ([`crate::reporting::summary::summarise`], which [`crate::reporting::stats`] computes), so a study and
//! `agon report` on one of its runs never disagree on a number; what is new here is the
//! shape of the game and its short games ([`Replay`], by replaying the moves), the sums
//! across a summary's parts, and the differences between two self-plays ([`Difference`]:
//! of one arm's two strongest rungs, [`change_top`], and of an arm against the base arm
//! at one rung, [`Comparison`]). results/README.md defines each statistic.
//!
//! **Short games.** A decisive game is *short* when it ends within [`SHORT_DECISIONS`]
//! agent decisions of the opening's last move: then the opening, not the agents, decided
//! it. The first-move figures are given with and without them; every difference here is
//! taken on the figures without them (equal to the plain ones where no game is short).

use std::collections::BTreeMap;

use agon_engine::{Game, State, Turn};
use anyhow::Result;
use statrs::function::erf::erfc;

use crate::position::play_notated;
use crate::record::{GameRow, Result0};
use crate::reporting::stats::binomial::wilson;
use crate::reporting::stats::elo::score_and_variance;
use crate::reporting::stats::lengths::LengthStats;
use crate::reporting::stats::{score_of_elo, EloEstimate, Wdl, Z95};
use crate::reporting::summary::{seat_results, summarise, Interval, SeatResults, Summary};

/// The end reason of a game stopped by its length cap.
const CAP: &str = agon_engine::EndReason::Cap.word();

/// The decision nodes of a set of games: every position at which a seat chose a move
/// (the opening's random decisions included, chance outcomes not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// Decision nodes.
    pub decisions: u64,
    /// Legal moves summed over the decision nodes.
    pub legal: u64,
    /// Decision nodes with more than one legal move.
    pub choices: u64,
}

/// The agent decisions after the opening's last move within which a decisive game is
/// *short*: decided by its opening (a move that shuts a side in, a blunder the agents
/// can only finish). Two: one decision of each seat, or one whole turn of a game whose
/// turn is two decisions (APV's move and order).
pub const SHORT_DECISIONS: u64 = 2;

/// What replaying a run's games finds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// The decision nodes of all the games.
    pub shape: Shape,
    /// Game by game (in the order of the rows), whether it is short: decisive, with at
    /// most [`SHORT_DECISIONS`] decision nodes after its first `opening` plies. Chance
    /// outcomes are not decisions; a pie rule's swap decision inside the opening is part
    /// of the opening (it is among the `opening` plies). A game without an opening
    /// (`opening` 0) counts them from its start.
    pub short: Vec<bool>,
}

impl Replay {
    /// Replays each of `rows`' move lists from `game`'s start; fails on a move that is
    /// not legal, naming its game and place.
    pub fn of<G: Game>(game: &G, rows: &[GameRow]) -> Result<Replay> {
        let mut replay = Replay::default();
        let mut legal = Vec::new();
        for row in rows {
            let shape = &mut replay.shape;
            let mut after_opening = 0;
            let mut state = game.initial_state();
            for (i, text) in row.moves.split_whitespace().enumerate() {
                if let Turn::Seat(_) = state.turn() {
                    legal.clear();
                    state.legal_moves(&mut legal);
                    shape.decisions += 1;
                    shape.legal += legal.len() as u64;
                    shape.choices += u64::from(legal.len() > 1);
                    after_opening += u64::from(i >= row.opening as usize);
                }
                play_notated(
                    &mut state,
                    text,
                    &format!("game {}: move {}", row.game, i + 1),
                )?;
            }
            replay
                .short
                .push(row.result0 != Result0::Draw && after_opening <= SHORT_DECISIONS);
        }
        Ok(replay)
    }
}

impl Shape {
    /// Mean legal moves per decision node; `None` without one.
    pub fn branching_mean(&self) -> Option<f64> {
        (self.decisions > 0).then(|| self.legal as f64 / self.decisions as f64)
    }

    /// The share of decision nodes with more than one legal move; `None` without one.
    pub fn decision_share(&self) -> Option<f64> {
        (self.decisions > 0).then(|| self.choices as f64 / self.decisions as f64)
    }
}

/// What a rung's self-play measures.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlay {
    /// Games played.
    pub games: u64,
    /// Games that differ from one another (by move list).
    pub distinct: u64,
    /// Seat 0's results: win rate over decisive games, exact test, score.
    pub seat0: SeatResults,
    /// On a game with a pie rule, the results of the side that moved first, whoever
    /// ended up playing it; `None` without the rule.
    pub first_side: Option<SeatResults>,
    /// On a game with a pie rule, the share of games with a swap; `None` without.
    pub swap_rate: Option<Interval>,
    /// Games drawn, and of them those stopped by the length cap.
    pub draws: u64,
    /// Games drawn by the length cap.
    pub cap_draws: u64,
    /// Games by end reason.
    pub ends: BTreeMap<String, u64>,
    /// Length in turns; `None` without games.
    pub turns: Option<LengthStats>,
    /// The decision nodes met.
    pub shape: Shape,
    /// Short games (see [`Replay::short`]): decisive games the opening decided.
    pub short: u64,
    /// Whether some game had an opening; without one, short games are counted from the
    /// start.
    pub opened: bool,
    /// Seat 0's results over the games that are not short.
    pub seat0_without_short: SeatResults,
    /// On a game with a pie rule, the first side's results over the games that are not
    /// short; `None` without the rule.
    pub first_side_without_short: Option<SeatResults>,
}

/// The first side's results, its sides' records summed (a summary keeps them by the
/// side's name); `None` unless `pie`.
fn first_side(summary: &Summary, pie: bool) -> Option<SeatResults> {
    pie.then(|| {
        let mut total = Wdl::default();
        for side in summary.scopes[0].first_side.values() {
            total.wins += side.wdl.wins;
            total.draws += side.wdl.draws;
            total.losses += side.wdl.losses;
        }
        seat_results(total)
    })
}

/// `count` of `total` as a share with its Wilson interval; `None` when `total` is 0.
fn proportion(count: u64, total: u64) -> Option<Interval> {
    wilson(count, total).map(|(low, high)| Interval {
        value: count as f64 / total as f64,
        low,
        high,
    })
}

impl SelfPlay {
    /// The measurements of a self-play run's `rows`, whose game offers a pie rule when
    /// `pie`; `replay` is [`Replay::of`] the same rows (panics if it has another number
    /// of games).
    pub fn of(rows: &[GameRow], pie: bool, replay: &Replay) -> Result<SelfPlay> {
        assert_eq!(replay.short.len(), rows.len(), "a replay of other rows");
        let summary = summarise(rows, None, None)?.with_pie_rule(pie);
        let all = &summary.scopes[0];
        let kept: Vec<GameRow> = rows
            .iter()
            .zip(&replay.short)
            .filter(|(_, &short)| !short)
            .map(|(row, _)| row.clone())
            .collect();
        let without = summarise(&kept, None, None)?;
        Ok(SelfPlay {
            games: all.seat0.wdl.games(),
            distinct: summary.pairings.first().map_or(0, |p| p.distinct),
            seat0: all.seat0,
            first_side: first_side(&summary, pie),
            swap_rate: if pie { all.swap_rate } else { None },
            draws: all.seat0.wdl.draws,
            cap_draws: all.ends.get(CAP).map_or(0, |e| e[2]),
            ends: all
                .ends
                .iter()
                .map(|(reason, e)| (reason.clone(), e.iter().sum()))
                .collect(),
            turns: all.lengths.map(|l| l[1]),
            shape: replay.shape,
            short: (rows.len() - kept.len()) as u64,
            opened: rows.iter().any(|r| r.opening > 0),
            seat0_without_short: without.scopes[0].seat0,
            first_side_without_short: first_side(&without, pie),
        })
    }

    /// A share of the games with its Wilson interval; `None` without games.
    pub fn share(&self, count: u64) -> Option<Interval> {
        proportion(count, self.games)
    }

    /// The short games' share of the decisive games, with its Wilson interval; `None`
    /// without decisive games.
    pub fn short_decisive_rate(&self) -> Option<Interval> {
        proportion(self.short, self.seat0.wdl.decisive())
    }

    /// The half-width of seat 0's win-rate interval (the larger side of the Wilson
    /// interval); `None` without decisive games.
    pub fn seat0_half_width(&self) -> Option<f64> {
        self.seat0.win_rate.map(|w| half_width(&w.rate))
    }

    /// The self-play games that would narrow seat 0's win-rate interval to ±2 points
    /// (see [`games_for_half_width`]); `None` without decisive games.
    pub fn games_for_two_points(&self) -> Option<u64> {
        let rate = self.seat0.win_rate?.rate.value;
        let decisive = self.seat0.wdl.decisive() as f64 / self.games as f64;
        Some(games_for_half_width(rate, decisive, TARGET_HALF_WIDTH))
    }
}

/// The half-width of an interval: the larger of its two sides (a Wilson interval is not
/// symmetric about its estimate).
pub fn half_width(i: &Interval) -> f64 {
    (i.value - i.low).max(i.high - i.value)
}

/// The half-width a study aims at for seat 0's win rate: ±2 points.
pub const TARGET_HALF_WIDTH: f64 = 0.02;

/// Games (decisive and not) for a 95% normal interval of half-width `half` on a win
/// rate `rate` over decisive games, decisive games being a share `decisive` of all:
/// `ceil(z² · r(1-r) / half² / decisive)`, with `r(1-r)` at least `1/4 · 1/100` so that a
/// rate of 0 or 1 observed in few games does not promise an interval from nothing.
pub fn games_for_half_width(rate: f64, decisive: f64, half: f64) -> u64 {
    let variance = (rate * (1.0 - rate)).max(0.0025);
    let decisive_games = Z95 * Z95 * variance / (half * half);
    (decisive_games / decisive.max(f64::MIN_POSITIVE)).ceil() as u64
}

/// What a step (a rung, agent A, against the previous rung) measures.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Games played.
    pub games: u64,
    /// The stronger rung's results per game.
    pub wdl: Wdl,
    /// Its score over the complete pairs with the pair-based 95% interval; `None`
    /// without a complete pair.
    pub score: Option<Interval>,
    /// The same as an Elo difference.
    pub elo: Option<EloEstimate>,
    /// Short games (see [`Replay::short`]).
    pub short: u64,
}

impl Step {
    /// The measurements of a step run's `rows`; `replay` is [`Replay::of`] the same
    /// rows (panics if it has another number of games).
    pub fn of(rows: &[GameRow], replay: &Replay) -> Result<Step> {
        assert_eq!(replay.short.len(), rows.len(), "a replay of other rows");
        let summary = summarise(rows, None, None)?;
        let short = replay.short.iter().filter(|&&s| s).count() as u64;
        let Some(pairing) = summary.pairings.first() else {
            return Ok(Step {
                games: 0,
                wdl: Wdl::default(),
                score: None,
                elo: None,
                short,
            });
        };
        let elo = pairing.elo_pairs;
        // The pair-based interval of the score is the Elo interval's ends mapped back.
        let score = pairing.pairs.score().zip(elo).map(|(value, e)| Interval {
            value,
            low: score_of_elo(e.low),
            high: score_of_elo(e.high),
        });
        Ok(Step {
            games: pairing.a.games(),
            wdl: pairing.a,
            score,
            elo,
            short,
        })
    }

    /// The weaker rung's wins over all games, with the Wilson interval; `None` without
    /// games.
    pub fn upset_rate(&self) -> Option<Interval> {
        proportion(self.wdl.losses, self.games)
    }

    /// The short games' share of the decisive games, with its Wilson interval; `None`
    /// without decisive games.
    pub fn short_decisive_rate(&self) -> Option<Interval> {
        proportion(self.short, self.wdl.decisive())
    }
}

/// A rung's measurements in one arm.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// The rung's name (`L<k>` or `A<i>`) and number.
    pub rung: String,
    /// balance.csv's `level`.
    pub number: usize,
    /// The agent's label, as its run's rows name it.
    pub agent: String,
    /// Its self-play.
    pub self_play: SelfPlay,
    /// Its step from the previous rung (`None` for the first rung): the previous
    /// rung's label, and what the step measures.
    pub step: Option<(String, Step)>,
}

/// An arm's measurements, rung by rung.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmMeasures {
    /// The arm's canonical game spec.
    pub variant: String,
    /// Whether the game offers a pie rule.
    pub pie: bool,
    /// The rungs, weakest first.
    pub levels: Vec<Level>,
}

/// The difference `b − a` of two independent estimates, with its 95% interval and
/// two-sided p-value by the normal approximation: `se = √(var_a + var_b)`, the interval
/// `(b − a) ± z·se` and `p = P(|N(0, se²)| ≥ |b − a|) = erfc(|b − a| / (se·√2))`, so
/// that `p < 0.05` exactly when the interval leaves out 0.
///
/// Each variance is that of its record with one win and one loss added (the adjustment
/// of Agresti and Caffo for a difference of proportions), while the difference itself
/// is that of the figures as observed. Without it a record at 0% or 100% (one decisive
/// game, or all won) would have no variance, and one game against hundreds could look
/// far beyond chance; with many games the two agree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// `b − a`.
    pub value: f64,
    /// The half-width of the interval, `z·se`.
    pub margin: f64,
    /// The two-sided p-value of `b − a = 0`.
    pub p_value: f64,
}

/// A record with one win and one loss added (see [`Difference`]).
fn with_win_and_loss(w: Wdl) -> Wdl {
    Wdl {
        wins: w.wins + 1,
        draws: w.draws,
        losses: w.losses + 1,
    }
}

impl Difference {
    /// From the two estimates, each with the variance of the estimate (positive: both
    /// come from records with a win and a loss added).
    fn of((a, var_a): (f64, f64), (b, var_b): (f64, f64)) -> Difference {
        let value = b - a;
        let se = (var_a + var_b).sqrt();
        Difference {
            value,
            margin: Z95 * se,
            p_value: erfc(value.abs() / (se * std::f64::consts::SQRT_2)),
        }
    }

    /// Of two win rates over decisive games, `r = W / (W + L)`, with variance
    /// `r'(1 − r') / (W + L + 2)`, `r' = (W + 1) / (W + L + 2)`; `None` unless both have
    /// a decisive game.
    pub fn of_win_rates(a: &SeatResults, b: &SeatResults) -> Option<Difference> {
        let part = |s: &SeatResults| {
            let r = s.win_rate?.rate.value;
            let added = with_win_and_loss(s.wdl);
            let n = added.decisive() as f64;
            let r_added = added.wins as f64 / n;
            Some((r, r_added * (1.0 - r_added) / n))
        };
        Some(Difference::of(part(a)?, part(b)?))
    }

    /// Of two mean scores, `p = (W + D/2) / N`, with variance `σ'² / (N + 2)`, `σ'²` the
    /// per-game variance of the score interval ([`score_and_variance`]) of the record
    /// `W + 1, D, L + 1`; `None` unless both have games.
    pub fn of_scores(a: &SeatResults, b: &SeatResults) -> Option<Difference> {
        let part = |s: &SeatResults| {
            let p = s.wdl.score()?;
            let added = with_win_and_loss(s.wdl);
            let (_, variance) = score_and_variance(&added)?;
            Some((p, variance / added.games() as f64))
        };
        Some(Difference::of(part(a)?, part(b)?))
    }

    /// The difference with its interval's ends.
    pub fn interval(&self) -> Interval {
        Interval {
            value: self.value,
            low: self.value - self.margin,
            high: self.value + self.margin,
        }
    }
}

/// The change of seat 0's win rate (without short games) from the second strongest rung
/// to the strongest, top minus the one below; `None` with fewer than two rungs or
/// without a decisive game at either.
pub fn change_top(arm: &ArmMeasures) -> Option<Difference> {
    let [.., below, top] = arm.levels.as_slice() else {
        return None;
    };
    Difference::of_win_rates(
        &below.self_play.seat0_without_short,
        &top.self_play.seat0_without_short,
    )
}

/// A rung of an arm against the same rung of the base arm: the arm's figure minus the
/// base's, both without short games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// Of seat 0's win rates over decisive games.
    pub win_rate: Option<Difference>,
    /// Of seat 0's scores.
    pub score: Option<Difference>,
}

/// Each rung of `arm` that `base` also has (by level number), with its comparison to
/// the base's, weakest first.
pub fn compare<'a>(base: &ArmMeasures, arm: &'a ArmMeasures) -> Vec<(&'a Level, Comparison)> {
    arm.levels
        .iter()
        .filter_map(|level| {
            let b = base.levels.iter().find(|b| b.number == level.number)?;
            let (b, a) = (
                &b.self_play.seat0_without_short,
                &level.self_play.seat0_without_short,
            );
            let comparison = Comparison {
                win_rate: Difference::of_win_rates(b, a),
                score: Difference::of_scores(b, a),
            };
            Some((level, comparison))
        })
        .collect()
}

#[cfg(test)]
impl Replay {
    /// A replay of `rows` that found no decision node and no short game, for tests of
    /// what does not depend on them.
    pub(super) fn none(rows: &[GameRow]) -> Replay {
        Replay {
            shape: Shape::default(),
            short: vec![false; rows.len()],
        }
    }
}

/// For tests: a rung whose self-play seat 0 won `wins`, drew `draws` and lost `losses`,
/// the first `short` of its wins short; its agent is `x<number>`, and every game has an
/// opening.
#[cfg(test)]
pub(super) fn example_level(
    rung: &str,
    number: usize,
    [wins, draws, losses, short]: [usize; 4],
) -> Level {
    let rows: Vec<GameRow> = (0..wins + draws + losses)
        .map(|g| {
            let result = if g < wins {
                Result0::Win
            } else if g < wins + draws {
                Result0::Draw
            } else {
                Result0::Loss
            };
            let mut row = GameRow::example(g as u64, 0, ["x", "x"], result, 9);
            row.moves = format!("m{g}");
            row.opening = 1;
            row
        })
        .collect();
    let mut replay = Replay::none(&rows);
    replay.short[..short].fill(true);
    Level {
        rung: rung.into(),
        number,
        agent: format!("x{number}"),
        self_play: SelfPlay::of(&rows, false, &replay).unwrap(),
        step: None,
    }
}

/// The games of a step for tests: A = `strong` (seat 0 in even games) against "w", in
/// three pairs: (W, W) = WW, (A loses, A wins) = WL, (draw, A wins) = WD.
#[cfg(test)]
pub(super) fn example_step_rows(strong: &str) -> Vec<GameRow> {
    use crate::record::Result0::{Draw, Loss, Win};
    [
        ([strong, "w"], Win),
        (["w", strong], Loss),
        ([strong, "w"], Loss),
        (["w", strong], Loss),
        ([strong, "w"], Draw),
        (["w", strong], Loss),
    ]
    .iter()
    .enumerate()
    .map(|(g, &(agents, r))| GameRow::example(g as u64, 0, agents, r, 5))
    .collect()
}

#[cfg(test)]
mod tests {
    use agon_engine::testing::coin_nim::CoinNim;

    use super::*;
    use crate::record::Result0;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-6, "{a} is not {b}");
    }

    /// Self-play rows of agent `x` with these results, end reasons, turns and moves.
    fn self_play(games: &[(Result0, &str, u32, &str)]) -> Vec<GameRow> {
        games
            .iter()
            .enumerate()
            .map(|(g, &(result0, end, turns, moves))| {
                let mut row = GameRow::example(g as u64, 0, ["x", "x"], result0, turns);
                row.winner = match result0 {
                    Result0::Win => Some(0),
                    Result0::Loss => Some(1),
                    Result0::Draw => None,
                };
                row.end_reason = end.into();
                row.turns = turns;
                row.moves = moves.into();
                row
            })
            .collect()
    }

    #[test]
    fn self_play_statistics_by_hand() {
        use Result0::*;
        // 8 games: seat 0 wins 5, loses 1, draws 2 (one by the cap); 7 distinct lists.
        let rows = self_play(&[
            (Win, "line", 10, "a"),
            (Win, "line", 12, "b"),
            (Win, "line", 8, "c"),
            (Win, "line", 20, "d"),
            (Win, "line", 14, "e"),
            (Loss, "line", 9, "f"),
            (Draw, "full", 30, "g"),
            (Draw, "cap", 40, "g"),
        ]);
        let m = SelfPlay::of(&rows, false, &Replay::none(&rows)).unwrap();
        assert_eq!((m.games, m.distinct, m.draws, m.cap_draws), (8, 7, 2, 1));
        // Win rate 5/6 over decisive games; Wilson: p = 0.833333, z² = 3.841459,
        // 1 + z²/6 = 1.640243, centre (0.833333 + 0.320122)/1.640243 = 0.703218,
        // half 1.959964/1.640243 · sqrt(0.023148 + 0.026676) = 1.194922 · 0.223213
        // = 0.266722 → [0.436496, 0.969940]; exact p = 2·(1 + 6)/64 = 0.21875.
        let w = m.seat0.win_rate.unwrap();
        close(w.rate.value, 5.0 / 6.0);
        assert!((w.rate.low - 0.436496).abs() < 1e-5, "{}", w.rate.low);
        assert!((w.rate.high - 0.969940).abs() < 1e-5, "{}", w.rate.high);
        close(w.p_value, 0.21875);
        // Score (5 + 1)/8 = 0.75.
        close(m.seat0.score.unwrap().value, 0.75);
        assert_eq!(m.ends["line"], 6);
        assert_eq!((m.ends["full"], m.ends["cap"]), (1, 1));
        // Turns sorted 8 9 10 12 14 20 30 40: mean 143/8, median (12 + 14)/2,
        // q1 at h = 1.75: 9 + 0.75 = 9.75, q3 at h = 5.25: 20 + 0.25·10 = 22.5.
        let t = m.turns.unwrap();
        close(t.mean, 17.875);
        assert_eq!((t.median, t.q1, t.q3), (13.0, 9.75, 22.5));
        assert!(m.first_side.is_none() && m.swap_rate.is_none());
        // ±2 points at a rate of 5/6 with 6 of 8 games decisive:
        // 3.841459 · 0.138889 / 0.0004 = 1333.84 decisive games, / 0.75 = 1778.5 → 1779.
        assert_eq!(m.games_for_two_points(), Some(1779));
    }

    #[test]
    fn the_first_side_and_the_swap_rate_of_a_pie_game() {
        use Result0::*;
        // Seat 0 starts as black. Game 1 swaps: seat 0 ends white, and seat 0's win is
        // a loss of the first side (black, played by seat 1 at the end).
        let mut rows = self_play(&[
            (Win, "line", 5, "a1"),
            (Win, "line", 5, "a1 swap"),
            (Loss, "line", 5, "b1"),
            (Win, "line", 5, "c1"),
        ]);
        for row in &mut rows {
            (row.side0, row.side1) = ("black".into(), "white".into());
        }
        (rows[1].side0, rows[1].side1) = ("white".into(), "black".into());
        let mut replay = Replay::none(&rows);
        // Game 2 (a loss of seat 0 and of the first side) was decided by its opening.
        replay.short[2] = true;
        let m = SelfPlay::of(&rows, true, &replay).unwrap();
        let first = m.first_side.unwrap().wdl;
        assert_eq!((first.wins, first.losses), (2, 2));
        let first = m.first_side_without_short.unwrap().wdl;
        assert_eq!((first.wins, first.losses), (2, 1));
        close(m.swap_rate.unwrap().value, 0.25);
        let seat0 = m.seat0.wdl;
        assert_eq!((seat0.wins, seat0.losses), (3, 1));
    }

    #[test]
    fn the_replay_counts_decision_nodes_by_replaying_the_moves() {
        // Coin Nim with 3 stones: take1 (3 left: take1 or take2), tails (chance, not a
        // decision), take1 (2 left: 2 legal), tails, take1 (1 left: only take1, which
        // wins). Decision nodes 3, legal moves 2 + 2 + 1 = 5, with a choice at 2.
        let game = CoinNim { stones: 3, cap: 10 };
        let rows = self_play(&[(
            Result0::Win,
            "last-stone",
            3,
            "take1 tails take1 tails take1",
        )]);
        let Replay { shape, short } = Replay::of(&game, &rows).unwrap();
        // Three decisions and no opening: not short.
        assert_eq!(short, [false]);
        assert_eq!(
            shape,
            Shape {
                decisions: 3,
                legal: 5,
                choices: 2
            }
        );
        close(shape.branching_mean().unwrap(), 5.0 / 3.0);
        close(shape.decision_share().unwrap(), 2.0 / 3.0);
        assert_eq!(Shape::default().branching_mean(), None);
        // A move that is not legal is named with its game and place.
        let bad = self_play(&[(Result0::Win, "last-stone", 1, "take1 take1")]);
        let error = Replay::of(&game, &bad).unwrap_err().to_string();
        assert!(error.starts_with("game 0: move 2: "), "{error}");
    }

    #[test]
    fn a_decisive_game_is_short_within_two_decisions_of_the_opening() {
        // Coin Nim with 5 stones: take2, heads (the same seat again), take2, heads,
        // take1 wins; 5 plies, 3 of them decisions.
        let game = CoinNim { stones: 5, cap: 10 };
        let line = "take2 heads take2 heads take1";
        let mut rows = self_play(&[
            (Result0::Win, "last-stone", 1, line),
            (Result0::Win, "last-stone", 1, line),
            (Result0::Win, "last-stone", 1, line),
            // Coin Nim with a cap of 2 decisions: take1, tails, take1 is a draw.
            (Result0::Draw, "cap", 1, "take1 tails take1"),
        ]);
        // Game 0 has no opening: 3 decisions after it, not short. Game 1's opening is
        // its first 2 plies (take2 heads): take2, heads, take1 follow, 2 decisions and
        // a chance outcome, so it is short. Game 2's is its first ply: heads, take2,
        // heads, take1 follow, again 2 decisions (the chance outcomes do not count).
        rows[1].opening = 2;
        rows[2].opening = 1;
        rows[3].opening = 1;
        let short = Replay::of(&game, &rows[..3]).unwrap().short;
        assert_eq!(short, [false, true, true]);
        // A draw is never short, however few decisions follow its opening.
        let capped = CoinNim { stones: 5, cap: 2 };
        assert_eq!(Replay::of(&capped, &rows[3..]).unwrap().short, [false]);
    }

    #[test]
    fn the_first_move_figures_without_short_games_by_hand() {
        use Result0::*;
        // 10 games: seat 0 wins 6 (games 0 and 1 short), loses 3 (game 6 short), draws 1.
        let rows = self_play(&[
            (Win, "line", 5, "a"),
            (Win, "line", 5, "b"),
            (Win, "line", 5, "c"),
            (Win, "line", 5, "d"),
            (Win, "line", 5, "e"),
            (Win, "line", 5, "f"),
            (Loss, "line", 5, "g"),
            (Loss, "line", 5, "h"),
            (Loss, "line", 5, "i"),
            (Draw, "full", 5, "j"),
        ]);
        let mut replay = Replay::none(&rows);
        for g in [0, 1, 6] {
            replay.short[g] = true;
        }
        let m = SelfPlay::of(&rows, false, &replay).unwrap();
        assert_eq!(m.short, 3);
        // 3 short of 9 decisive: Wilson [0.1206, 0.6458].
        let rate = m.short_decisive_rate().unwrap();
        close(rate.value, 1.0 / 3.0);
        assert!((rate.low - 0.120584).abs() < 1e-5, "{}", rate.low);
        assert!((rate.high - 0.645798).abs() < 1e-5, "{}", rate.high);
        // The figures of all games are untouched: 6 of 9.
        close(m.seat0.win_rate.unwrap().rate.value, 6.0 / 9.0);
        // Without the short games: W 4, D 1, L 2. Win rate 4/6, Wilson
        // [0.299993, 0.903229]; exact p 2·(1 + 6 + 15)/64 = 0.6875; score 4.5/7 =
        // 0.642857 with σ² = (4·0.127551 + 0.020408 + 2·0.413265)/7 = 0.195335,
        // ± 1.959964·sqrt(0.195335/7) = ± 0.326184.
        let without = m.seat0_without_short;
        assert_eq!(
            (without.wdl.wins, without.wdl.draws, without.wdl.losses),
            (4, 1, 2)
        );
        let w = without.win_rate.unwrap();
        close(w.rate.value, 4.0 / 6.0);
        assert!((w.rate.low - 0.299993).abs() < 1e-5, "{}", w.rate.low);
        assert!((w.rate.high - 0.903229).abs() < 1e-5, "{}", w.rate.high);
        close(w.p_value, 0.6875);
        let score = without.score.unwrap();
        close(score.value, 4.5 / 7.0);
        assert!((score.low - 0.316673).abs() < 1e-5, "{}", score.low);
        assert!((score.high - 0.969041).abs() < 1e-5, "{}", score.high);
        assert!(m.first_side_without_short.is_none());
    }

    /// A seat's results from its wins, draws and losses.
    fn record(wins: u64, draws: u64, losses: u64) -> SeatResults {
        seat_results(Wdl {
            wins,
            draws,
            losses,
        })
    }

    #[test]
    fn differences_of_two_rates_and_of_two_scores_by_hand() {
        // Win rates 10/20 and 19/20: d = 0.45. With a win and a loss added, 11/22 = 0.5
        // and 20/22 = 0.909091: se = sqrt(0.25/22 + 0.082645/22) = 0.122964, margin
        // 1.959964·se = 0.241006, p = erfc(0.45/(se·√2)) = 0.000253.
        let d = Difference::of_win_rates(&record(10, 0, 10), &record(19, 3, 1)).unwrap();
        close(d.value, 0.45);
        close(d.margin, 0.241006);
        assert!((d.p_value - 0.000253).abs() < 1e-6, "{}", d.p_value);
        let i = d.interval();
        close(i.low, 0.45 - 0.241006);
        close(i.high, 0.45 + 0.241006);
        // Scores: 3-2-5 is 0.4 and 6-0-4 is 0.6, d = 0.2. With a win and a loss added,
        // 4-2-6 scores q = 5/12 with σ'² = (4·0.340278 + 2·0.006944 + 6·0.173611)/12
        // = 0.201389, and 7-0-5 scores 7/12 with σ'² = (7·0.173611 + 5·0.340278)/12 =
        // 0.243056: se = sqrt(0.201389/12 + 0.243056/12) = 0.192450, margin 0.377195,
        // p = erfc(0.2/(se·√2)) = 0.298698.
        let d = Difference::of_scores(&record(3, 2, 5), &record(6, 0, 4)).unwrap();
        close(d.value, 0.2);
        close(d.margin, 0.377195);
        close(d.p_value, 0.298698);
        // b − a: the other way round, the sign turns and nothing else.
        let back = Difference::of_scores(&record(6, 0, 4), &record(3, 2, 5)).unwrap();
        assert_eq!(
            (back.value, back.margin, back.p_value),
            (-d.value, d.margin, d.p_value)
        );
        // One decisive game each: 2/3 and 1/3 after adding, se = sqrt(2 · (2/9)/3) =
        // 0.384900, so even a win against a loss has an interval, ± 0.754390.
        let same = Difference::of_win_rates(&record(1, 0, 0), &record(1, 0, 0)).unwrap();
        assert_eq!((same.value, same.p_value), (0.0, 1.0));
        close(same.margin, 0.754390);
        let apart = Difference::of_win_rates(&record(1, 0, 0), &record(0, 0, 1)).unwrap();
        close(apart.value, -1.0);
        close(apart.margin, 0.754390);
        // One decisive game against many: 0 of 1 against 116 of 235 is -0.493617, its
        // variance that of 1/3 in 3 games (0.074074), not 0: p = 0.071720, within chance.
        let one = Difference::of_win_rates(&record(116, 0, 119), &record(0, 0, 1)).unwrap();
        assert!((one.p_value - 0.071720).abs() < 1e-6, "{}", one.p_value);
        // Without a decisive game at one end, no difference of win rates.
        assert_eq!(
            Difference::of_win_rates(&record(0, 2, 0), &record(1, 0, 0)),
            None
        );
    }

    #[test]
    fn the_change_at_the_top_and_the_comparison_with_the_base_arm() {
        let arm = |variant: &str, levels| ArmMeasures {
            variant: variant.into(),
            pie: false,
            levels,
        };
        // The top two rungs: 10 of 20 at L2, then 19 of 20 at L3 (the first rung is
        // left out): +0.45 ± 0.241006, as the test of differences.
        let base = arm(
            "g:k=1",
            vec![
                example_level("L1", 1, [0, 4, 0, 0]),
                example_level("L2", 2, [10, 0, 10, 0]),
                example_level("L3", 3, [19, 3, 1, 0]),
            ],
        );
        let change = change_top(&base).unwrap();
        close(change.value, 0.45);
        close(change.margin, 0.241006);
        // One rung, or no decisive game at one of the two: no change.
        assert_eq!(
            change_top(&arm("g", vec![example_level("L1", 1, [1, 0, 1, 0])])),
            None
        );
        let drawn = arm(
            "g",
            vec![
                example_level("L1", 1, [0, 2, 0, 0]),
                example_level("L2", 2, [1, 0, 0, 0]),
            ],
        );
        assert_eq!(change_top(&drawn), None);
        // A variant without L1, and with 5 short wins at L3 left out: 19 of 20 there
        // too, against the base's 19 of 20: no difference. At L2, 13 of 20 against 10
        // of 20: +0.15, se = sqrt(0.25/22 + (14/22)(8/22)/22).
        let variant = arm(
            "g:k=2",
            vec![
                example_level("L2", 2, [13, 0, 7, 0]),
                example_level("L3", 3, [24, 3, 1, 5]),
            ],
        );
        let compared = compare(&base, &variant);
        assert_eq!(compared.len(), 2);
        assert_eq!(
            (compared[0].0.rung.as_str(), compared[1].0.rung.as_str()),
            ("L2", "L3")
        );
        let l2 = compared[0].1.win_rate.unwrap();
        close(l2.value, 0.15);
        close(
            l2.margin,
            Z95 * (0.25 / 22.0 + 14.0 * 8.0 / 22f64.powi(3)).sqrt(),
        );
        let l3 = compared[1].1;
        assert_eq!(l3.win_rate.unwrap().value, 0.0);
        assert_eq!(l3.score.unwrap().value, 0.0);
        // L2's scores: 0.65 against 0.5.
        close(compared[0].1.score.unwrap().value, 0.15);
    }

    #[test]
    fn a_step_scores_the_stronger_rung_by_pairs_and_counts_upsets() {
        let rows = example_step_rows("s");
        let mut replay = Replay::none(&rows);
        // Game 0 (a win of A) was short: 1 of 5 decisive games.
        replay.short[0] = true;
        let step = Step::of(&rows, &replay).unwrap();
        close(step.short_decisive_rate().unwrap().value, 0.2);
        assert_eq!(step.games, 6);
        // A: 4 wins, 1 draw, 1 loss; one upset in 6 games.
        assert_eq!((step.wdl.wins, step.wdl.draws, step.wdl.losses), (4, 1, 1));
        close(step.upset_rate().unwrap().value, 1.0 / 6.0);
        // Pair scores 1, 0.5, 0.75: p = 0.75, σ² = (0.0625 + 0.0625 + 0)/3 = 0.041667,
        // se = sqrt(0.041667/3) = 0.117851, z·se = 0.230984 → [0.519016, 0.980984].
        let score = step.score.unwrap();
        close(score.value, 0.75);
        assert!((score.low - 0.519016).abs() < 1e-5, "{}", score.low);
        assert!((score.high - 0.980984).abs() < 1e-5, "{}", score.high);
    }
}
