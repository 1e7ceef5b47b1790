//! `agon perft`: path counts from a position, the standard check of a move generator.
//!
//! Prints `perft <d> <nodes>` for d = 1..=D on standard output and `nps <n>` (paths
//! counted per second over all depths) on standard error. With `--divide`, prints
//! `<move> <count>` for each first move at depth D, then `perft <D> <total>`.

use std::io::Write;
use std::time::Instant;

use agon_engine::perft::{divide, perft};
use agon_engine::State;
use anyhow::Result;

use crate::commands::analyse::nodes_per_second;
use crate::games::{GameCommand, PlayableGame};
use crate::position::replay;
use crate::spec::GameSpec;

/// `agon perft` for the game of a spec.
pub struct PerftCommand<'a> {
    /// Moves from the initial position, in notation (chance outcomes included).
    pub moves: String,
    /// Deepest depth.
    pub depth: u32,
    /// Whether to split the deepest count by first move.
    pub divide: bool,
    /// Where the counts are printed.
    pub out: &'a mut dyn Write,
    /// Where the speed is printed.
    pub err: &'a mut dyn Write,
}

impl GameCommand for PerftCommand<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
        let mut state = game.initial_state();
        replay(&mut state, &self.moves)?;
        run_perft(&state, self.depth, self.divide, self.out, self.err)
    }
}

/// Counts and prints as described in the module docs.
pub fn run_perft<S: State>(
    state: &S,
    depth: u32,
    split: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<()> {
    let start = Instant::now();
    let mut counted = 0u64;
    if split {
        for (m, n) in divide(state, depth) {
            writeln!(out, "{} {n}", state.format_move(m))?;
            counted += n;
        }
        writeln!(out, "perft {depth} {counted}")?;
    } else {
        for d in 1..=depth {
            let n = perft(state, d);
            writeln!(out, "perft {d} {n}")?;
            out.flush()?;
            counted += n;
        }
    }
    out.flush()?;
    writeln!(err, "nps {}", nodes_per_second(counted, start.elapsed()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use agon_engine::testing::coin_nim::CoinNim;

    use super::*;

    fn run(moves: &str, depth: u32, split: bool) -> String {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let command = PerftCommand {
            moves: moves.into(),
            depth,
            divide: split,
            out: &mut out,
            err: &mut err,
        };
        let spec = GameSpec {
            name: "coin-nim",
            params: Default::default(),
        };
        command.run(CoinNim { stones: 3, cap: 10 }, &spec).unwrap();
        assert!(String::from_utf8(err).unwrap().starts_with("nps "));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn counts_match_the_engine_and_moves_include_chance() {
        // By hand in the engine's perft tests: 2, 4, 6 paths of 1, 2, 3 plies.
        assert_eq!(run("", 3, false), "perft 1 2\nperft 2 4\nperft 3 6\n");
        assert_eq!(run("", 3, true), "take1 4\ntake2 2\nperft 3 6\n");
        // After take1 and heads, seat 0 faces a pile of 2 again: take1|take2.
        assert_eq!(run("take1 heads", 1, false), "perft 1 2\n");
    }
}
