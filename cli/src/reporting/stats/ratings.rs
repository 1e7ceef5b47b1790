//! Ratings of every agent of a round robin by maximum likelihood (Bradley–Terry on the
//! logistic Elo scale).
//!
//! **Model.** Agent `i` has rating `r_i`; in a game against `j` its expected score is
//! `P_ij = 1 / (1 + 10^(-(r_i - r_j)/400))`. A game scores `s` = 1, 1/2 or 0 for `i`, and
//! contributes `s·ln P_ij + (1 - s)·ln(1 - P_ij)` to the log-likelihood: a draw counts as
//! half a win and half a loss. Only the games between two agents and the points scored
//! matter, so the fit takes one [`Encounter`] per pairing.
//!
//! **Prior.** Without it, an agent that won every game has an infinite rating. Each agent
//! therefore also plays [`PRIOR_DRAWS`] virtual game(s), drawn, against a virtual
//! opponent rated 0: the log-likelihood gains `prior · (ln σ(θ_i) + ln σ(-θ_i)) / 2` per
//! agent (`θ = r · ln 10 / 400`, `σ` the logistic function). That is worth one game
//! against a field of tens of games, keeps every rating finite and pulls ratings
//! slightly towards each other; with many games it is negligible.
//!
//! **Fit.** Newton's method on the (strictly concave) log-likelihood, each step halved
//! until the log-likelihood does not decrease, from all ratings 0, until the largest
//! change of a rating in a step is below [`TOLERANCE`] Elo (at most [`MAX_ITERATIONS`]
//! steps). With no prior (only used to check the model) the likelihood depends on
//! rating differences alone; a penalty on the squared sum of ratings then fixes the
//! level without changing any difference.
//!
//! **Anchor and intervals.** Ratings are reported relative to an anchor: mean zero, or a
//! named agent at 0. The covariance of the fitted ratings is the inverse of the observed
//! Fisher information (minus the Hessian of the log-likelihood at the optimum, prior
//! included), `Σ`; the anchored ratings are `A·r` with `A = I - 11ᵀ/n` (mean zero) or
//! `A = I - 1·e_kᵀ` (agent `k` at 0), whose covariance is `A·Σ·Aᵀ`. The 95% interval is
//! `r_i ± z·sqrt((AΣAᵀ)_ii)`; the anchor agent's is `[0, 0]`.

use super::Z95;

/// Virtual drawn games of each agent against a virtual 0-rated opponent.
pub const PRIOR_DRAWS: f64 = 1.0;

/// Convergence tolerance: the largest rating change of a Newton step, in Elo.
pub const TOLERANCE: f64 = 1e-6;

/// Newton steps at most (the fit converges in well under 20 in practice).
pub const MAX_ITERATIONS: u32 = 100;

/// Elo points per natural log-odds unit: `400 / ln 10`.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The games between two agents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encounter {
    /// Index of one agent.
    pub a: usize,
    /// Index of the other agent.
    pub b: usize,
    /// Games played between them.
    pub games: f64,
    /// Points agent `a` scored (win 1, draw 1/2).
    pub points_a: f64,
}

/// The fitted ratings, anchored.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Rating of each agent in Elo.
    pub elo: Vec<f64>,
    /// Lower end of each 95% interval.
    pub low: Vec<f64>,
    /// Upper end of each 95% interval.
    pub high: Vec<f64>,
    /// Newton steps taken.
    pub iterations: u32,
}

/// `ln σ(x) = -ln(1 + e^-x)`, computed without overflow.
fn ln_sigmoid(x: f64) -> f64 {
    -((-x).max(0.0) + (-x.abs()).exp().ln_1p())
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The problem in natural units.
struct Problem<'a> {
    agents: usize,
    encounters: &'a [Encounter],
    prior: f64,
    /// Weight of the penalty `-(Σθ)²/2` that fixes the level when there is no prior.
    ridge: f64,
}

impl Problem<'_> {
    fn log_likelihood(&self, theta: &[f64]) -> f64 {
        let games: f64 = self
            .encounters
            .iter()
            .map(|e| {
                let d = theta[e.a] - theta[e.b];
                e.points_a * ln_sigmoid(d) + (e.games - e.points_a) * ln_sigmoid(-d)
            })
            .sum();
        let prior: f64 = theta
            .iter()
            .map(|&t| self.prior * 0.5 * (ln_sigmoid(t) + ln_sigmoid(-t)))
            .sum();
        let level: f64 = theta.iter().sum();
        games + prior - self.ridge * level * level / 2.0
    }

    /// Gradient and minus the Hessian (the observed information) at `theta`.
    fn derivatives(&self, theta: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let n = self.agents;
        let mut gradient = vec![0.0; n];
        let mut information = vec![vec![self.ridge; n]; n];
        for e in self.encounters {
            let p = sigmoid(theta[e.a] - theta[e.b]);
            let g = e.points_a - e.games * p;
            gradient[e.a] += g;
            gradient[e.b] -= g;
            let w = e.games * p * (1.0 - p);
            information[e.a][e.a] += w;
            information[e.b][e.b] += w;
            information[e.a][e.b] -= w;
            information[e.b][e.a] -= w;
        }
        let level: f64 = theta.iter().sum();
        for i in 0..n {
            let p = sigmoid(theta[i]);
            gradient[i] += self.prior * (0.5 - p) - self.ridge * level;
            information[i][i] += self.prior * p * (1.0 - p);
        }
        (gradient, information)
    }
}

/// The inverse of a symmetric positive definite matrix (Gauss–Jordan with partial
/// pivoting).
fn invert(matrix: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = matrix.len();
    let mut a: Vec<Vec<f64>> = matrix.to_vec();
    let mut inverse: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        inverse.swap(col, pivot);
        let diagonal = a[col][col];
        for j in 0..n {
            a[col][j] /= diagonal;
            inverse[col][j] /= diagonal;
        }
        for row in 0..n {
            if row != col {
                let factor = a[row][col];
                if factor != 0.0 {
                    for j in 0..n {
                        a[row][j] -= factor * a[col][j];
                        inverse[row][j] -= factor * inverse[col][j];
                    }
                }
            }
        }
    }
    inverse
}

/// Fits the ratings of `agents` agents (indices `0..agents`) from their encounters,
/// with `prior_draws` virtual draws per agent (see the module docs; [`PRIOR_DRAWS`] in
/// the summary), anchored on agent `anchor` (rated 0) or, for `None`, on a mean of zero.
///
/// Every agent should play at least one game or have a prior; an agent without either
/// gets rating 0 relative to the level. Requires `agents ≥ 1`.
pub fn fit(
    agents: usize,
    encounters: &[Encounter],
    prior_draws: f64,
    anchor: Option<usize>,
) -> Ratings {
    let problem = Problem {
        agents,
        encounters,
        prior: prior_draws,
        ridge: if prior_draws > 0.0 { 0.0 } else { 1.0 },
    };
    let mut theta = vec![0.0; agents];
    let mut iterations = 0;
    let mut current = problem.log_likelihood(&theta);
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let (gradient, information) = problem.derivatives(&theta);
        let inverse = invert(&information);
        let step: Vec<f64> = inverse
            .iter()
            .map(|row| row.iter().zip(&gradient).map(|(a, g)| a * g).sum())
            .collect();
        // Halve the step until the log-likelihood does not decrease.
        let mut scale = 1.0;
        let mut candidate: Vec<f64>;
        loop {
            candidate = theta
                .iter()
                .zip(&step)
                .map(|(t, s)| t + scale * s)
                .collect();
            let value = problem.log_likelihood(&candidate);
            if value >= current || scale < 1e-12 {
                current = value.max(current);
                break;
            }
            scale /= 2.0;
        }
        let largest = step.iter().map(|s| (scale * s).abs()).fold(0.0, f64::max);
        theta = candidate;
        if largest * ELO_PER_NAT < TOLERANCE {
            break;
        }
    }
    let (_, information) = problem.derivatives(&theta);
    let covariance = invert(&information);
    // Row i of A: e_i minus the anchor's row (e_k, or 1/n everywhere).
    let weight = |j: usize| match anchor {
        Some(k) => f64::from(u8::from(j == k)),
        None => 1.0 / agents as f64,
    };
    let row = |i: usize| -> Vec<f64> {
        (0..agents)
            .map(|j| f64::from(u8::from(i == j)) - weight(j))
            .collect()
    };
    let level: f64 = (0..agents).map(|j| weight(j) * theta[j]).sum();
    let mut ratings = Ratings {
        elo: Vec::with_capacity(agents),
        low: Vec::with_capacity(agents),
        high: Vec::with_capacity(agents),
        iterations,
    };
    for i in 0..agents {
        let a = row(i);
        let variance: f64 = (0..agents)
            .map(|j| {
                (0..agents)
                    .map(|k| a[j] * covariance[j][k] * a[k])
                    .sum::<f64>()
            })
            .sum();
        let elo = (theta[i] - level) * ELO_PER_NAT;
        let margin = Z95 * variance.max(0.0).sqrt() * ELO_PER_NAT;
        ratings.elo.push(elo);
        ratings.low.push(elo - margin);
        ratings.high.push(elo + margin);
    }
    ratings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reporting::stats::elo_of_score;

    fn close(a: f64, b: f64, tolerance: f64) {
        assert!((a - b).abs() <= tolerance, "{a} is not {b} ± {tolerance}");
    }

    fn encounter(a: usize, b: usize, games: f64, points_a: f64) -> Encounter {
        Encounter {
            a,
            b,
            games,
            points_a,
        }
    }

    #[test]
    fn two_agents_without_prior_give_the_elo_of_the_score() {
        // 7 points of 10: difference elo(0.7) = 147.19, so ±73.60 about a mean of 0.
        // Information of the difference (natural units): 10·0.7·0.3 = 2.1, so its sd is
        // sqrt(1/2.1)·400/ln10 = 0.690066·173.7178 = 119.877 Elo; each mean-zero rating
        // is half the difference: sd 59.938, margin 1.959964·59.938 = 117.48.
        let r = fit(2, &[encounter(0, 1, 10.0, 7.0)], 0.0, None);
        let d = elo_of_score(0.7);
        close(r.elo[0], d / 2.0, 1e-6);
        close(r.elo[1], -d / 2.0, 1e-6);
        close(r.high[0] - r.elo[0], 117.48, 0.01);
        // Anchored on agent 1: agent 0 at 147.19 ± 1.959964·119.877 = ± 234.95.
        let r = fit(2, &[encounter(0, 1, 10.0, 7.0)], 0.0, Some(1));
        close(r.elo[0], d, 1e-6);
        assert_eq!((r.elo[1], r.low[1], r.high[1]), (0.0, 0.0, 0.0));
        close(r.high[0] - r.elo[0], 234.95, 0.01);
        assert!(r.iterations < 20, "{}", r.iterations);
    }

    #[test]
    fn three_agents_match_a_brute_force_grid_search() {
        // 0 vs 1: 6.5 of 10; 0 vs 2: 8 of 10; 1 vs 2: 5.5 of 10. No prior, so the
        // likelihood depends on differences only: fix r0 = 0 and search (r1, r2) on a
        // 1-Elo grid, then on a 0.01-Elo grid around the best point.
        let games = [
            encounter(0, 1, 10.0, 6.5),
            encounter(0, 2, 10.0, 8.0),
            encounter(1, 2, 10.0, 5.5),
        ];
        let log_likelihood = |r1: f64, r2: f64| {
            let r = [0.0, r1, r2];
            games
                .iter()
                .map(|e| {
                    let p = 1.0 / (1.0 + 10f64.powf(-(r[e.a] - r[e.b]) / 400.0));
                    e.points_a * p.ln() + (e.games - e.points_a) * (1.0 - p).ln()
                })
                .sum::<f64>()
        };
        let search = |centre: (f64, f64), half: i32, step: f64| {
            let mut best = (f64::NEG_INFINITY, centre);
            for i in -half..=half {
                for j in -half..=half {
                    let point = (centre.0 + i as f64 * step, centre.1 + j as f64 * step);
                    let value = log_likelihood(point.0, point.1);
                    if value > best.0 {
                        best = (value, point);
                    }
                }
            }
            best.1
        };
        let coarse = search((0.0, 0.0), 400, 1.0);
        let (r1, r2) = search(coarse, 100, 0.01);
        let r = fit(3, &games, 0.0, Some(0));
        close(r.elo[1], r1, 0.01);
        close(r.elo[2], r2, 0.01);
        // Mean zero shifts every rating by the same amount.
        let m = fit(3, &games, 0.0, None);
        let mean = (r1 + r2) / 3.0;
        close(m.elo[0], -mean, 0.01);
        close(m.elo[1], r1 - mean, 0.01);
        close(m.elo[2], r2 - mean, 0.01);
    }

    #[test]
    fn the_prior_keeps_a_perfect_score_finite() {
        // Agent 0 wins 4 of 4 against agent 1; one virtual draw each against 0. By
        // symmetry θ0 = t = -θ1, and t solves 4(1 - σ(2t)) + (1/2 - σ(t)) = 0, found here
        // by bisection.
        let f = |t: f64| 4.0 * (1.0 - sigmoid(2.0 * t)) + 0.5 - sigmoid(t);
        let (mut low, mut high) = (0.0, 10.0);
        for _ in 0..200 {
            let mid = (low + high) / 2.0;
            if f(mid) > 0.0 {
                low = mid;
            } else {
                high = mid;
            }
        }
        let t = low * ELO_PER_NAT;
        let r = fit(2, &[encounter(0, 1, 4.0, 4.0)], PRIOR_DRAWS, None);
        close(r.elo[0], t, 1e-6);
        close(r.elo[1], -t, 1e-6);
        assert!(r.high[0].is_finite() && r.low[1].is_finite());
    }
}
