//! Openings of tournament games: how each pair's two games start before the agents take
//! over, so that deterministic agents do not replay one game over and over.
//!
//! - `--random-opening K`: K decisions drawn uniformly from the legal ones (never a
//!   pie-rule swap, see [`agon_engine::State::is_pie_swap`]), from pair `p`'s opening
//!   stream ([`seeds::opening_rng`]); chance outcomes met on the way come from the
//!   pair's luck, as in the rest of the game, and do not count towards K. The opening
//!   ends at the first decision after the K-th, so chance outcomes right after the K-th
//!   decision are part of it. An opening that ends the game is drawn again, continuing
//!   the same stream, up to [`MAX_ATTEMPTS`] times.
//! - `--openings FILE`: one move list per line in the notation of `--moves` (chance
//!   outcomes written out), blank lines and lines starting with `#` ignored; pair `p`
//!   plays line `p mod (number of lines)`. Every line is checked before anything is
//!   written: each move legal, and the game not over at the end of the line.
//!
//! Both games of a pair open alike, so the pair still compares the agents from the same
//! start with the seats swapped. The two options cannot be combined.

use std::path::{Path, PathBuf};

use agon_engine::{Game, State, Turn};
use anyhow::Result;

use crate::args::BadInput;
use crate::position::legal_here;
use crate::seeds::{self, uniform_below, PairLuck};

/// Random openings drawn for one pair before giving up.
pub const MAX_ATTEMPTS: u32 = 100;

/// How each game starts.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Opening {
    /// From the initial position.
    #[default]
    Start,
    /// This many uniformly random decisions (at least 1).
    Random(u32),
    /// A line of an openings file.
    Book(Book),
}

/// An openings file, read but not yet checked against a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    /// The path as given on the command line.
    pub path: PathBuf,
    /// FNV-1a 64-bit hash of the file's bytes, 16 lower-case hex digits: a changed file
    /// is a different run.
    pub hash: String,
    /// The opening lines: (line number from 1, the move list).
    pub lines: Vec<(usize, String)>,
}

impl Opening {
    /// The opening asked for by `--random-opening` and `--openings` (clap refuses the
    /// two together). `--random-opening 0` is the same as none. Reads the file; fails if
    /// it cannot be read, is not text or holds no opening.
    pub fn from_args(random: u32, file: Option<&Path>) -> Result<Opening, BadInput> {
        match file {
            Some(path) => Book::read(path).map(Opening::Book),
            None if random > 0 => Ok(Opening::Random(random)),
            None => Ok(Opening::Start),
        }
    }

    /// Checks an openings file against `game`: every line's moves are legal in turn
    /// and leave the game going. Nothing to check for the other kinds.
    pub fn check<G: Game>(&self, game: &G) -> Result<(), BadInput> {
        if let Opening::Book(book) = self {
            for (number, line) in &book.lines {
                book.replay(game, *number, line)?;
            }
        }
        Ok(())
    }

    /// Plays the opening of pair `pair` from `game`'s initial position, appending its
    /// moves in notation to `moves`; returns the position after it. `luck` is the pair's
    /// luck (for chance outcomes of a random opening).
    pub fn play<G: Game>(
        &self,
        game: &G,
        seed: u64,
        pair: u64,
        luck: &PairLuck,
        moves: &mut Vec<String>,
    ) -> Result<G::State> {
        match self {
            Opening::Start => Ok(game.initial_state()),
            Opening::Random(k) => random_opening(game, *k, seed, pair, luck, moves),
            Opening::Book(book) => {
                let (number, line) = &book.lines[(pair % book.lines.len() as u64) as usize];
                let state = book.replay(game, *number, line)?;
                moves.extend(line.split_whitespace().map(str::to_string));
                Ok(state)
            }
        }
    }
}

impl Book {
    /// Reads an openings file.
    fn read(path: &Path) -> Result<Book, BadInput> {
        let shown = path.display();
        let bytes = std::fs::read(path)
            .map_err(|e| BadInput::new(format!("cannot read openings file {shown}: {e}")))?;
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| BadInput::new(format!("openings file {shown} is not UTF-8 text")))?;
        let lines: Vec<(usize, String)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split_whitespace().collect::<Vec<_>>().join(" ")))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if lines.is_empty() {
            return Err(BadInput::new(format!(
                "openings file {shown} holds no opening (one move list per line; blank \
                 lines and lines starting with # are ignored)"
            )));
        }
        Ok(Book {
            path: path.to_path_buf(),
            hash: format!("{:016x}", fnv1a(&bytes)),
            lines,
        })
    }

    /// The position after line `number` (its text `line`), or why it is not an opening.
    fn replay<G: Game>(&self, game: &G, number: usize, line: &str) -> Result<G::State, BadInput> {
        let at = format!("openings file {}: line {number}", self.path.display());
        let mut state = game.initial_state();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        for (i, text) in tokens.iter().enumerate() {
            let at = format!("{at}: move {} of {}, {text:?}", i + 1, tokens.len());
            if state.turn() == Turn::Over {
                return Err(BadInput::new(format!("{at}: the game is already over")));
            }
            let result = state
                .parse_move(text)
                .and_then(|m| state.try_apply(m).map(drop));
            if let Err(e) = result {
                return Err(BadInput::new(format!(
                    "{at}: {} (legal here: {})",
                    e.reason,
                    legal_here(&state).join(" ")
                )));
            }
        }
        if state.turn() == Turn::Over {
            return Err(BadInput::new(format!(
                "{at}: the opening ends the game, leaving the agents nothing to play"
            )));
        }
        Ok(state)
    }
}

/// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3): a stable
/// fingerprint of a file's contents, not a cryptographic hash.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Draws pair `pair`'s random opening of `k` decisions (see the module documentation).
fn random_opening<G: Game>(
    game: &G,
    k: u32,
    seed: u64,
    pair: u64,
    luck: &PairLuck,
    moves: &mut Vec<String>,
) -> Result<G::State> {
    let mut rng = seeds::opening_rng(seed, pair);
    let mut legal = Vec::new();
    for _ in 0..MAX_ATTEMPTS {
        let mut state = game.initial_state();
        let mut line = Vec::new();
        let mut decisions = 0;
        // Until the K-th decision is made and a decision is due again, or the game ends
        // (or only a swap is left to decide, which fails the attempt likewise).
        let going_on = loop {
            let m = match state.turn() {
                Turn::Over => break false,
                Turn::Seat(_) if decisions == k => break true,
                Turn::Chance => state.common_outcome(luck),
                Turn::Seat(_) => {
                    legal.clear();
                    state.legal_moves(&mut legal);
                    legal.retain(|&m| !state.is_pie_swap(m));
                    if legal.is_empty() {
                        break false;
                    }
                    decisions += 1;
                    legal[uniform_below(&mut rng, legal.len() as u64) as usize]
                }
            };
            line.push(state.format_move(m));
            state.apply(m);
        };
        if going_on {
            moves.extend(line);
            return Ok(state);
        }
    }
    Err(BadInput::new(format!(
        "--random-opening {k}: {MAX_ATTEMPTS} random openings of pair {pair} all ended the \
         game; choose a smaller K"
    ))
    .into())
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::Connect4;
    use agon_engine::games::invector::Invector;
    use agon_engine::games::pig::Pig;

    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the FNV reference test suite (Noll, "FNV hash" test vectors):
        // FNV-1a 64 of "" is the offset basis, of "a" is af63dc4c8601ec8c, of "foobar"
        // is 85944171f73967e8.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn random_openings_are_k_decisions_and_chance_is_not_counted() {
        let game = Pig::default();
        for pair in 0..20 {
            let luck = PairLuck::new(5, pair);
            let mut moves = Vec::new();
            let state = Opening::Random(3)
                .play(&game, 5, pair, &luck, &mut moves)
                .unwrap();
            let decisions = moves
                .iter()
                .filter(|m| *m == "roll" || *m == "hold")
                .count();
            assert_eq!(decisions, 3, "{moves:?}");
            assert!(matches!(state.turn(), Turn::Seat(_)), "{moves:?}");
            assert_eq!(state.ply() as usize, moves.len());
            // The same pair draws the same opening again.
            let mut again = Vec::new();
            Opening::Random(3)
                .play(&game, 5, pair, &luck, &mut again)
                .unwrap();
            assert_eq!(again, moves);
        }
    }

    #[test]
    fn random_openings_never_swap() {
        // Invector with the pie rule: the second decision may be `swap`; a two-decision
        // opening over many pairs never picks it.
        let game = Invector::new(5, 4, true).unwrap();
        for pair in 0..200 {
            let luck = PairLuck::new(1, pair);
            let mut moves = Vec::new();
            Opening::Random(2)
                .play(&game, 1, pair, &luck, &mut moves)
                .unwrap();
            assert_eq!(moves.len(), 2);
            assert_ne!(moves[1], "swap");
        }
    }

    /// The moves of the first attempt of pair `pair`'s random opening of `k` decisions
    /// of a deterministic game (the first `k` draws of its stream), and whether it ended
    /// the game.
    fn first_attempt<G: Game>(game: &G, k: u32, seed: u64, pair: u64) -> (Vec<String>, bool) {
        let mut rng = seeds::opening_rng(seed, pair);
        let mut state = game.initial_state();
        let mut moves = Vec::new();
        for _ in 0..k {
            if state.turn() == Turn::Over {
                break;
            }
            let mut legal = Vec::new();
            state.legal_moves(&mut legal);
            let m = legal[uniform_below(&mut rng, legal.len() as u64) as usize];
            moves.push(state.format_move(m));
            state.apply(m);
        }
        (moves, state.turn() == Turn::Over)
    }

    #[test]
    fn an_opening_that_ends_the_game_is_drawn_again() {
        // Connect Four after 25 random decisions: many random lines have four in a row
        // by then. Such a first attempt is drawn again from the same stream, so every
        // pair gets a game that goes on; a pair whose first attempt went on keeps it.
        let game = Connect4;
        let mut redrawn = 0;
        for pair in 0..40 {
            let luck = PairLuck::new(3, pair);
            let mut moves = Vec::new();
            let state = Opening::Random(25)
                .play(&game, 3, pair, &luck, &mut moves)
                .unwrap();
            assert_ne!(state.turn(), Turn::Over);
            assert_eq!(moves.len(), 25);
            let (first, ended) = first_attempt(&game, 25, 3, pair);
            if ended {
                redrawn += 1;
                assert_ne!(moves, first, "pair {pair}");
            } else {
                assert_eq!(moves, first, "pair {pair}");
            }
        }
        assert!((1..40).contains(&redrawn), "{redrawn} of 40 pairs redrawn");
    }

    #[test]
    fn an_opening_that_cannot_avoid_the_end_fails_clearly() {
        // 42 decisions fill Connect Four's board, which ends the game every time.
        let luck = PairLuck::new(1, 0);
        let err = Opening::Random(42)
            .play(&Connect4, 1, 0, &luck, &mut Vec::new())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--random-opening 42: 100 random openings of pair 0 all ended the game; \
             choose a smaller K"
        );
    }
}
