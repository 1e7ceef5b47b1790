//! Pig solved the textbook way, as Neller and Presser write it, for tests that check
//! agents against the optimal policy: `p(i, j, k)` is the chance that the player to
//! decide, with `i` banked, the opponent `j` and a turn total of `k` (`i + k < target`),
//! wins. Rolling: a 1 hands the opponent the turn at `(j, i, 0)`, any other face `f`
//! adds `f` (and wins outright once holding would); holding hands the opponent the turn
//! at `(j, i + k, 0)`. Iterated in plain sweeps over the arrays until no entry moves by
//! 1e-14; no horizon (the engine's decision horizon changes the values by far less than
//! any test's margin).

/// The solved equations of Pig to `target` with a `die`-faced die.
pub struct PigEquations {
    target: usize,
    die: usize,
    p: Vec<f64>,
}

impl PigEquations {
    pub fn solve(target: u32, die: u32) -> Self {
        let (target, die) = (target as usize, die as usize);
        let mut eq = PigEquations {
            target,
            die,
            p: vec![0.0; target * target * target],
        };
        loop {
            let mut change: f64 = 0.0;
            for i in 0..target {
                for j in 0..target {
                    for k in 0..target - i {
                        let (roll, hold) = (eq.roll(i, j, k), eq.hold(i, j, k));
                        let new = roll.max(hold);
                        let old = &mut eq.p[(i * target + j) * target + k];
                        change = change.max((new - *old).abs());
                        *old = new;
                    }
                }
            }
            if change < 1e-14 {
                return eq;
            }
        }
    }

    /// The target score.
    pub fn target(&self) -> usize {
        self.target
    }

    /// `p` at a decision with `i + k < target`.
    pub fn p(&self, i: usize, j: usize, k: usize) -> f64 {
        self.p[(i * self.target + j) * self.target + k]
    }

    /// Every `p`, in no particular order.
    pub fn all(&self) -> &[f64] {
        &self.p
    }

    /// The chance of winning by holding.
    pub fn hold(&self, i: usize, j: usize, k: usize) -> f64 {
        1.0 - self.p(j, i + k, 0)
    }

    /// The chance of winning by rolling (the mean over the die's faces).
    pub fn roll(&self, i: usize, j: usize, k: usize) -> f64 {
        let mut sum = 1.0 - self.p(j, i, 0);
        for f in 2..=self.die {
            sum += if i + k + f >= self.target {
                1.0
            } else {
                self.p(i, j, k + f)
            };
        }
        sum / self.die as f64
    }
}
