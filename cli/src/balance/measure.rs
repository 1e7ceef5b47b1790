//! The measurements of a study, from its runs' game rows: per rung its self-play
//! ([`SelfPlay`]), and from the second rung on its step from the previous rung
//! ([`Step`]). Every rate, interval and test is the run summary's own
//! ([`crate::report::summarise`], which [`crate::stats`] computes), so a study and
//! `agon report` on one of its runs never disagree on a number; what is new here is the
//! shape of the game ([`Shape`], by replaying the moves) and the sums across a summary's
//! parts. results/README.md defines each statistic.

use std::collections::BTreeMap;

use agon_engine::{Game, State, Turn};
use anyhow::Result;

use crate::position::play_notated;
use crate::record::GameRow;
use crate::report::{seat_results, summarise, Interval, SeatResults};
use crate::stats::binomial::wilson;
use crate::stats::lengths::LengthStats;
use crate::stats::{score_of_elo, EloEstimate, Wdl, Z95};

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

impl Shape {
    /// The shape of `rows`' games, replaying each move list from `game`'s start.
    pub fn of<G: Game>(game: &G, rows: &[GameRow]) -> Result<Shape> {
        let mut shape = Shape::default();
        let mut legal = Vec::new();
        for row in rows {
            let mut state = game.initial_state();
            for (i, text) in row.moves.split_whitespace().enumerate() {
                if let Turn::Seat(_) = state.turn() {
                    legal.clear();
                    state.legal_moves(&mut legal);
                    shape.decisions += 1;
                    shape.legal += legal.len() as u64;
                    shape.choices += u64::from(legal.len() > 1);
                }
                play_notated(
                    &mut state,
                    text,
                    &format!("game {}: move {}", row.game, i + 1),
                )?;
            }
        }
        Ok(shape)
    }

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
}

impl SelfPlay {
    /// The measurements of a self-play run's `rows`, whose game offers a pie rule when
    /// `pie`; `shape` is [`Shape::of`] the same rows.
    pub fn of(rows: &[GameRow], pie: bool, shape: Shape) -> Result<SelfPlay> {
        let summary = summarise(rows, None, None)?.with_pie_rule(pie);
        let all = &summary.scopes[0];
        let first_side = pie.then(|| {
            let mut total = Wdl::default();
            for side in all.first_side.values() {
                total.wins += side.wdl.wins;
                total.draws += side.wdl.draws;
                total.losses += side.wdl.losses;
            }
            seat_results(total)
        });
        Ok(SelfPlay {
            games: all.seat0.wdl.games(),
            distinct: summary.pairings.first().map_or(0, |p| p.distinct),
            seat0: all.seat0,
            first_side,
            swap_rate: if pie { all.swap_rate } else { None },
            draws: all.seat0.wdl.draws,
            cap_draws: all.ends.get(CAP).map_or(0, |e| e[2]),
            ends: all
                .ends
                .iter()
                .map(|(reason, e)| (reason.clone(), e.iter().sum()))
                .collect(),
            turns: all.lengths.map(|l| l[1]),
            shape,
        })
    }

    /// A share of the games with its Wilson interval; `None` without games.
    pub fn share(&self, count: u64) -> Option<Interval> {
        wilson(count, self.games).map(|(low, high)| Interval {
            value: count as f64 / self.games as f64,
            low,
            high,
        })
    }

    /// The half-width of seat 0's win-rate interval (the larger side of the Wilson
    /// interval); `None` without decisive games.
    pub fn seat0_half_width(&self) -> Option<f64> {
        self.seat0
            .win_rate
            .map(|w| (w.rate.value - w.rate.low).max(w.rate.high - w.rate.value))
    }

    /// The self-play games that would narrow seat 0's win-rate interval to ±2 points
    /// (see [`games_for_half_width`]); `None` without decisive games.
    pub fn games_for_two_points(&self) -> Option<u64> {
        let rate = self.seat0.win_rate?.rate.value;
        let decisive = self.seat0.wdl.decisive() as f64 / self.games as f64;
        Some(games_for_half_width(rate, decisive, TARGET_HALF_WIDTH))
    }
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
}

impl Step {
    /// The measurements of a step run's `rows`.
    pub fn of(rows: &[GameRow]) -> Result<Step> {
        let summary = summarise(rows, None, None)?;
        let Some(pairing) = summary.pairings.first() else {
            return Ok(Step {
                games: 0,
                wdl: Wdl::default(),
                score: None,
                elo: None,
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
        })
    }

    /// The weaker rung's wins over all games, with the Wilson interval; `None` without
    /// games.
    pub fn upset_rate(&self) -> Option<Interval> {
        wilson(self.wdl.losses, self.games).map(|(low, high)| Interval {
            value: self.wdl.losses as f64 / self.games as f64,
            low,
            high,
        })
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
        let m = SelfPlay::of(&rows, false, Shape::default()).unwrap();
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
        let m = SelfPlay::of(&rows, true, Shape::default()).unwrap();
        let first = m.first_side.unwrap().wdl;
        assert_eq!((first.wins, first.losses), (2, 2));
        close(m.swap_rate.unwrap().value, 0.25);
        let seat0 = m.seat0.wdl;
        assert_eq!((seat0.wins, seat0.losses), (3, 1));
    }

    #[test]
    fn the_shape_counts_decision_nodes_by_replaying_the_moves() {
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
        let shape = Shape::of(&game, &rows).unwrap();
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
        let error = Shape::of(&game, &bad).unwrap_err().to_string();
        assert!(error.starts_with("game 0: move 2: "), "{error}");
    }

    #[test]
    fn a_step_scores_the_stronger_rung_by_pairs_and_counts_upsets() {
        let step = Step::of(&example_step_rows("s")).unwrap();
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
