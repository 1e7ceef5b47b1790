//! The tests every game's perft file declares the same way, written once:
//! [`perft_suite!`] declares them from what differs per game (its data file, the
//! account of a difference, the naive model's count, the ignored tests' reasons).
//!
//! The test binaries without a perft file include this module too, and leave the macro
//! unused.
#![allow(unused_macros, unused_imports)]

/// Declares a game's perft data file and its tests in the calling test binary:
///
/// - `DATA`, the text of `tests/data/<file>`, and `load()`, its lines for the game
///   `game` (see [`super::read`]; each line's source must be among `sources`);
/// - `engine_matches_data_file`: the engine's perft of every quick line (see
///   [`super::assert_engine_tier`]), with `explain` (a `Fn(&PerftLine<G>) -> String`)
///   accounting for a difference;
/// - `engine_matches_data_file_deep`, ignored for the reason `engine_deep`: the same for
///   the deep lines, one at a time;
/// - `naive_matches_data_file_deep`, ignored for the reason `naive_deep` (where given):
///   the naive model's count `naive` (a `Fn(&PerftLine<G>) -> Result<u64, String>`) of
///   every line, one at a time (see [`super::naive_counts::assert_each`]);
/// - `naive_fill`, ignored for the reason `fill`: writes the data file with every count
///   recomputed by `naive` (see [`super::naive_counts::fill_from_env`]); that is how a
///   file's `naive` counts are made.
macro_rules! perft_suite {
    (
        game: $game:ty,
        file: $file:literal,
        sources: [$($source:literal),+ $(,)?],
        explain: $explain:expr,
        naive: $naive:expr,
        engine_deep: $engine_deep:literal,
        $(naive_deep: $naive_deep:literal,)?
        fill: $fill:literal $(,)?
    ) => {
        /// The data file's text.
        const DATA: &str = include_str!(concat!("data/", $file));

        /// Parses the data file; panics with the line number on a malformed line.
        fn load() -> Vec<$crate::common::PerftLine<$game>> {
            $crate::common::read($file, DATA, &[$($source),+])
        }

        #[test]
        fn engine_matches_data_file() {
            $crate::common::assert_engine_tier(&load(), false, $explain);
        }

        #[test]
        #[ignore = $engine_deep]
        fn engine_matches_data_file_deep() {
            $crate::common::assert_engine_tier(&load(), true, $explain);
        }

        $(
            #[test]
            #[ignore = $naive_deep]
            fn naive_matches_data_file_deep() {
                $crate::common::naive_counts::assert_each(&load(), $naive);
            }
        )?

        /// Writes the data file with every count recomputed by the naive model (see
        /// `naive_counts::fill_from_env`).
        #[test]
        #[ignore = $fill]
        fn naive_fill() {
            $crate::common::naive_counts::fill_from_env(DATA, &load(), $naive);
        }
    };
}

pub(crate) use perft_suite;
