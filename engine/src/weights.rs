//! Evaluator weights as data: every term of a game's evaluator is a named integer
//! weight with a default and a range, so that weights can be read from a file, tuned
//! from games ([`Tunable`]) and listed.
//!
//! A game declares its weights once, next to its evaluator, with [`declare_weights!`](crate::declare_weights):
//! a struct whose fields are the weights (an `i32`, or an array `[i32; N]` of weights
//! that share a meaning, such as a penalty per number of liberties). Outside the struct
//! weights are *flat*: a list of integers in declaration order, an array flattened to
//! `name_1`, `name_2`, ... ([`flat_names`]), which is what weight files and the tuner
//! read and write.
//!
//! A game's evaluator is then a [`WeightedEval`] of its [`Terms`]: the game writes how
//! its win score and any tables follow from the weights, and its knowledge of
//! positions; the evaluator around them, the same for every game, is written once here.

use std::fmt;

use crate::eval::Evaluator;
use crate::game::{Seat, State};

/// One declared weight (or array of weights) of an evaluator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightSpec {
    /// The field's name; an array's elements are `name_1` ... `name_len`.
    pub name: &'static str,
    /// 1 for a single weight, N for an array of N.
    pub len: usize,
    /// Smallest accepted value of each element.
    pub min: i32,
    /// Largest accepted value of each element.
    pub max: i32,
    /// One line of help.
    pub help: &'static str,
}

/// A struct of named integer weights, declared with [`declare_weights!`](crate::declare_weights).
///
/// Contract: [`Weights::flat`] lists [`Weights::SPECS`]' elements in order
/// (`flat_names(SPECS)` names them) and [`Weights::from_flat`] inverts it.
pub trait Weights: Clone + fmt::Debug + Default + PartialEq + Send + Sync + 'static {
    /// The declared weights, in order.
    const SPECS: &'static [WeightSpec];

    /// The weights in declaration order, arrays flattened.
    fn flat(&self) -> Vec<i32>;

    /// The weights from `flat` (declaration order, arrays flattened), or why not: the
    /// wrong number of values, or a value outside its declared range.
    fn from_flat(flat: &[i32]) -> Result<Self, WeightsError>;
}

/// An evaluator whose knowledge is a [`Weights`] struct: built from weights, and able
/// to say which it uses. `Default` is the evaluator with the declared defaults.
pub trait Tunable<S: State>: Evaluator<S> + Default {
    /// The evaluator's weights.
    type Weights: Weights;

    /// The evaluator scoring with `weights`. Its [`Evaluator::bounds`] are derived from
    /// them, so that every heuristic value stays strictly inside whatever the weights.
    fn with_weights(weights: Self::Weights) -> Self;

    /// The weights it scores with.
    fn weights(&self) -> &Self::Weights;
}

/// What a game supplies to make [`WeightedEval`] its evaluator: its weights, what it
/// precomputes from them (the implementing type itself: a unit struct for a game that
/// precomputes nothing), the win score they imply, and its knowledge of positions.
///
/// The skeleton every weighted evaluator shares (holding the weights, the win score and
/// the tables; `Default`, [`Tunable`], `Clone`, `Debug`, `PartialEq`; the symmetric
/// bounds) is [`WeightedEval`]'s, written once. The hooks take the whole evaluator, so
/// that the game's code reads its weights, tables and win score through it.
///
/// Contract: [`Terms::win`] is above every heuristic value the weights allow (or the
/// heuristic clamps its values strictly inside it), so that [`WeightedEval`]'s bounds
/// `(-win, win)` keep [`Evaluator`]'s contract whatever the weights.
pub trait Terms: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The game's positions.
    type State: State;
    /// The game's declared weights.
    type Weights: Weights;

    /// What the game precomputes from `weights` (tables by piece, place or count).
    fn from_weights(weights: &Self::Weights) -> Self;

    /// The score of a won game under `weights` (with `self` precomputed from them).
    fn win(&self, weights: &Self::Weights) -> i32;

    /// [`Evaluator::heuristic`]: the value of the unfinished `state` for `seat`.
    fn heuristic(eval: &WeightedEval<Self>, state: &Self::State, seat: Seat) -> i32;

    /// [`Evaluator::is_noisy`]; the default calls no move noisy.
    fn is_noisy(
        eval: &WeightedEval<Self>,
        state: &Self::State,
        m: <Self::State as State>::Move,
    ) -> bool {
        let _ = (eval, state, m);
        false
    }

    /// [`Evaluator::may_have_noisy_moves`]: `false` promises that [`Terms::is_noisy`]
    /// is `false` for every move of `state`; the default promises nothing.
    fn may_have_noisy_moves(eval: &WeightedEval<Self>, state: &Self::State) -> bool {
        let _ = (eval, state);
        true
    }

    /// [`Evaluator::move_hint`]; the default rates every move alike.
    fn move_hint(
        eval: &WeightedEval<Self>,
        state: &Self::State,
        m: <Self::State as State>::Move,
    ) -> u8 {
        let _ = (eval, state, m);
        0
    }

    /// [`Evaluator::opponent_wins_next`]; the default never knows.
    fn opponent_wins_next(
        eval: &WeightedEval<Self>,
        state: &Self::State,
        m: <Self::State as State>::Move,
    ) -> bool {
        let _ = (eval, state, m);
        false
    }
}

/// The evaluator of a game's [`Terms`]: its weights, what the game precomputes from
/// them, and the win score they imply, all fixed when it is built
/// ([`Tunable::with_weights`]). Every game's evaluator is one (`ApvEval` is
/// `WeightedEval<ApvTerms>`). Its bounds are `(-win, win)`.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightedEval<T: Terms> {
    weights: T::Weights,
    terms: T,
    win: i32,
}

impl<T: Terms> WeightedEval<T> {
    /// The weights it scores with.
    #[inline]
    pub fn weights(&self) -> &T::Weights {
        &self.weights
    }

    /// What the game precomputed from the weights.
    #[inline]
    pub fn terms(&self) -> &T {
        &self.terms
    }

    /// The score of a won game; every heuristic value lies strictly inside `(-win, win)`.
    #[inline]
    pub fn win(&self) -> i32 {
        self.win
    }
}

impl<T: Terms> Default for WeightedEval<T> {
    fn default() -> Self {
        Self::with_weights(T::Weights::default())
    }
}

impl<T: Terms> Tunable<T::State> for WeightedEval<T> {
    type Weights = T::Weights;

    fn with_weights(weights: T::Weights) -> Self {
        let terms = T::from_weights(&weights);
        let win = terms.win(&weights);
        WeightedEval {
            weights,
            terms,
            win,
        }
    }

    fn weights(&self) -> &T::Weights {
        &self.weights
    }
}

impl<T: Terms> Evaluator<T::State> for WeightedEval<T> {
    #[inline]
    fn heuristic(&self, state: &T::State, seat: Seat) -> i32 {
        T::heuristic(self, state, seat)
    }

    #[inline]
    fn bounds(&self) -> (i32, i32) {
        (-self.win, self.win)
    }

    #[inline]
    fn is_noisy(&self, state: &T::State, m: <T::State as State>::Move) -> bool {
        T::is_noisy(self, state, m)
    }

    #[inline]
    fn may_have_noisy_moves(&self, state: &T::State) -> bool {
        T::may_have_noisy_moves(self, state)
    }

    #[inline]
    fn move_hint(&self, state: &T::State, m: <T::State as State>::Move) -> u8 {
        T::move_hint(self, state, m)
    }

    #[inline]
    fn opponent_wins_next(&self, state: &T::State, m: <T::State as State>::Move) -> bool {
        T::opponent_wins_next(self, state, m)
    }
}

/// Why a list of weights was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Not one value per declared element.
    #[error("expected {expected} weights, got {got}")]
    Count {
        /// How many the declaration has.
        expected: usize,
        /// How many were given.
        got: usize,
    },
    /// A value outside its declared range.
    #[error("weight {name} = {value} is out of range (valid: {min}..{max})")]
    OutOfRange {
        /// The flat name (`danger_2`).
        name: String,
        /// The value given.
        value: i32,
        /// Smallest accepted.
        min: i32,
        /// Largest accepted.
        max: i32,
    },
}

/// The flat names of `specs`: a single weight by its name, an array's elements as
/// `name_1` ... `name_N`.
pub fn flat_names(specs: &[WeightSpec]) -> Vec<String> {
    specs
        .iter()
        .flat_map(|spec| {
            (1..=spec.len).map(move |i| {
                if spec.len == 1 {
                    spec.name.to_string()
                } else {
                    format!("{}_{i}", spec.name)
                }
            })
        })
        .collect()
}

/// The declaration of each flat element of `specs`, in order: an array's spec once per
/// element (names aside, an element is described by its array's spec).
pub fn flat_specs(specs: &[WeightSpec]) -> impl Iterator<Item = &WeightSpec> {
    specs
        .iter()
        .flat_map(|spec| std::iter::repeat(spec).take(spec.len))
}

/// The declared range of each flat element of `specs`, in order.
pub fn flat_ranges(specs: &[WeightSpec]) -> Vec<(i32, i32)> {
    flat_specs(specs).map(|spec| (spec.min, spec.max)).collect()
}

/// Checks `flat` against `specs`: one value per element, each in its range.
pub fn check_flat(specs: &[WeightSpec], flat: &[i32]) -> Result<(), WeightsError> {
    let ranges = flat_ranges(specs);
    if flat.len() != ranges.len() {
        return Err(WeightsError::Count {
            expected: ranges.len(),
            got: flat.len(),
        });
    }
    let names = flat_names(specs);
    for ((&value, (min, max)), name) in flat.iter().zip(ranges).zip(names) {
        if !(min..=max).contains(&value) {
            return Err(WeightsError::OutOfRange {
                name,
                value,
                min,
                max,
            });
        }
    }
    Ok(())
}

/// One field of a [`declare_weights!`](crate::declare_weights) struct: an `i32` or an array of them.
pub trait WeightField: Sized {
    /// How many flat weights the field holds.
    const LEN: usize;
    /// Appends the field's weights to `out`.
    fn push_to(&self, out: &mut Vec<i32>);
    /// The field from the next [`WeightField::LEN`] values of `values` (which the
    /// caller checked are there).
    fn take_from(values: &mut impl Iterator<Item = i32>) -> Self;
}

impl WeightField for i32 {
    const LEN: usize = 1;
    fn push_to(&self, out: &mut Vec<i32>) {
        out.push(*self);
    }
    fn take_from(values: &mut impl Iterator<Item = i32>) -> Self {
        values.next().expect("the caller checked the count")
    }
}

impl<const N: usize> WeightField for [i32; N] {
    const LEN: usize = N;
    fn push_to(&self, out: &mut Vec<i32>) {
        out.extend_from_slice(self);
    }
    fn take_from(values: &mut impl Iterator<Item = i32>) -> Self {
        std::array::from_fn(|_| values.next().expect("the caller checked the count"))
    }
}

/// Declares a struct of evaluator weights and its [`Weights`] implementation: each
/// field with a one-line doc comment (its help), a type (`i32` or `[i32; N]`), a
/// default and an inclusive range, as `name: i32 = 40, 0..=500;`.
#[macro_export]
macro_rules! declare_weights {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                #[doc = $help:literal]
                $field:ident : $ty:ty = $default:expr, $min:literal ..= $max:literal;
            )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis struct $name {
            $(
                #[doc = $help]
                pub $field: $ty,
            )+
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default,)+ }
            }
        }

        impl $crate::weights::Weights for $name {
            const SPECS: &'static [$crate::weights::WeightSpec] = &[$(
                $crate::weights::WeightSpec {
                    name: stringify!($field),
                    len: <$ty as $crate::weights::WeightField>::LEN,
                    min: $min,
                    max: $max,
                    help: $help.trim_ascii(),
                },
            )+];

            fn flat(&self) -> Vec<i32> {
                let mut out = Vec::new();
                $($crate::weights::WeightField::push_to(&self.$field, &mut out);)+
                out
            }

            fn from_flat(flat: &[i32]) -> Result<Self, $crate::weights::WeightsError> {
                $crate::weights::check_flat(Self::SPECS, flat)?;
                let mut values = flat.iter().copied();
                Ok($name {
                    $($field: <$ty as $crate::weights::WeightField>::take_from(&mut values),)+
                })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::testing::coin_nim::{CoinNim, CoinNimMove, CoinNimState};

    declare_weights! {
        /// Weights of a made-up evaluator.
        struct Sample {
            /// a single weight
            one: i32 = 5, -10..=10;
            /// an array of three
            three: [i32; 3] = [1, 2, 3], 0..=9;
        }
    }

    /// Terms over Coin Nim that precompute twice `one` and win above it.
    #[derive(Clone, Debug, PartialEq)]
    struct Doubled(i32);

    impl Terms for Doubled {
        type State = CoinNimState;
        type Weights = Sample;
        fn from_weights(weights: &Sample) -> Self {
            Doubled(2 * weights.one)
        }
        fn win(&self, weights: &Sample) -> i32 {
            100.max(self.0 + weights.three[0] + 1)
        }
        fn heuristic(eval: &WeightedEval<Self>, state: &CoinNimState, seat: Seat) -> i32 {
            let sign = if seat == 0 { 1 } else { -1 };
            sign * (eval.terms().0 + i32::from(state.pile()))
        }
        fn move_hint(eval: &WeightedEval<Self>, _: &CoinNimState, _: CoinNimMove) -> u8 {
            eval.weights().three[2] as u8
        }
    }

    #[test]
    fn the_skeleton_builds_the_terms_and_win_from_the_weights_and_forwards_the_rest() {
        let default = WeightedEval::<Doubled>::default();
        assert_eq!(default.weights(), &Sample::default());
        assert_eq!(default.terms(), &Doubled(10));
        assert_eq!((default.win(), default.bounds()), (100, (-100, 100)));
        let start = CoinNim::default().initial_state();
        assert_eq!(default.evaluate(&start, 0), 17);
        assert_eq!(default.evaluate(&start, 1), -17);
        assert_eq!(default.move_hint(&start, CoinNimMove::Take(1)), 3);
        assert!(!default.is_noisy(&start, CoinNimMove::Take(1)));
        assert!(!default.opponent_wins_next(&start, CoinNimMove::Take(1)));

        let weights = Sample {
            one: 60,
            three: [9, 0, 4],
        };
        let tuned = WeightedEval::<Doubled>::with_weights(weights);
        assert_eq!(Tunable::weights(&tuned), &weights);
        assert_eq!(tuned.terms(), &Doubled(120));
        assert_eq!(tuned.bounds(), (-130, 130));
        assert_eq!(tuned.clone(), tuned);
        assert_ne!(tuned, default);
        assert_eq!(
            format!("{default:?}"),
            "WeightedEval { weights: Sample { one: 5, three: [1, 2, 3] }, terms: Doubled(10), \
             win: 100 }"
        );
    }

    #[test]
    fn arrays_flatten_to_numbered_names_in_declaration_order() {
        assert_eq!(
            flat_names(Sample::SPECS),
            ["one", "three_1", "three_2", "three_3"]
        );
        assert_eq!(Sample::default().flat(), [5, 1, 2, 3]);
        assert_eq!(Sample::SPECS[1].help, "an array of three");
        assert_eq!(flat_ranges(Sample::SPECS)[3], (0, 9));
    }

    #[test]
    fn from_flat_inverts_flat_and_checks_count_and_ranges() {
        let w = Sample::from_flat(&[-10, 9, 0, 4]).unwrap();
        assert_eq!(w.one, -10);
        assert_eq!(w.three, [9, 0, 4]);
        assert_eq!(Sample::from_flat(&w.flat()).unwrap(), w);
        assert_eq!(
            Sample::from_flat(&[1, 2, 3]).unwrap_err().to_string(),
            "expected 4 weights, got 3"
        );
        assert_eq!(
            Sample::from_flat(&[1, 2, 10, 3]).unwrap_err().to_string(),
            "weight three_2 = 10 is out of range (valid: 0..9)"
        );
    }
}
