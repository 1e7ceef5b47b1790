//! # agon-engine: the rules
//!
//! The generic game API ([`Game`], [`State`], [`Turn`], [`Evaluator`]) and the games
//! that implement it. The engine knows nothing of search, threads, files or the command
//! line; everything here is deterministic and allocation-free on the hot path (moves go
//! into caller-owned buffers).
//!
//! ```
//! use agon_engine::games::invector::Invector;
//! use agon_engine::{Game, State, Turn};
//!
//! let game = Invector::new(5, 4, true).unwrap();
//! let mut state = game.initial_state();
//! let mut moves = Vec::new();
//! state.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 31); // every first move is a capture
//! let m = state.parse_move("c3xd3").unwrap();
//! state.apply(m);
//! assert_eq!(state.turn(), Turn::Seat(1));
//! ```

pub mod actions;
pub mod bits;
pub mod encoding;
pub mod eval;
pub mod game;
pub mod games;
pub mod luck;
pub mod network;
pub mod params;
pub mod perft;
pub mod picture;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod weights;
pub mod zobrist;

pub use actions::{move_with_id, ActionSpace, DenseActions};
pub use encoding::{Encode, Encoding, FeatureChanges, Plane, Scalar};
pub use eval::Evaluator;
pub use game::{
    has_chance, illegal_move, opponent, play_moves, sample_outcome, ChanceKind, Deterministic, End,
    EndReason, FastPlayout, Game, LengthCap, Move, MoveError, NoChance, NullMove, Outcome, PieRule,
    Seat, State, Symmetries, Symmetry, Turn, WithChance,
};
pub use luck::{EventId, Luck};
pub use params::{ConfigError, ParamKind, ParamSpec, ParamValue, Params};
pub use weights::{Terms, Tunable, WeightSpec, WeightedEval, Weights, WeightsError};
