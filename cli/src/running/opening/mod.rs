//! Openings of tournament games: how each deal's games start before the agents take
//! over, so that deterministic agents do not replay one game over and over. The deal
//! ([`crate::running::tournament::schedule::Seating::deal`]) is a match's pair, or in self-play the game
//! itself.
//!
//! - `--random-opening K`: K decisions drawn uniformly from the legal ones, from deal
//!   `d`'s opening stream ([`seeds::opening_rng`]); chance outcomes met on the way come
//!   from the deal's luck, as in the rest of the game, and do not count towards K. The
//!   opening ends at the first decision after the K-th, so chance outcomes right after
//!   the K-th decision are part of it. An opening that ends the game is drawn again,
//!   continuing the same stream, up to [`MAX_ATTEMPTS`] times. K is at most
//!   [`MAX_RANDOM_OPENING`].
//! - `--openings FILE`: one move list per line in the notation of `--moves` (chance
//!   outcomes written out), blank lines and lines starting with `#` ignored, and a
//!   line's text from a word starting with `#` on a comment (no move of any game's
//!   notation starts with `#`); deal `d`
//!   plays line `d mod (number of lines)`. Every line is checked before anything is
//!   written: each move legal, and the game not over at the end of the line. The file
//!   is a regular file of at most [`MAX_FILE_BYTES`], a line holds at most
//!   [`MAX_LINE_BYTES`] (its line break not counted) and a move at
//!   most [`MAX_MOVE_BYTES`]; an error quotes at most [`QUOTE_CHARS`] characters of a
//!   move.
//!
//! Pie rule: on a game configuration with one ([`Game::pie_swap_decision`]), the swap
//! decision belongs to the agents: whether to swap is the point of the rule, and an
//! opening that decided it (never swapping, as a random pick among moves other than the
//! swap would) would study another game. A random opening that reaches it hands it to
//! the agent to move (built for the game as for the rest of it; the decision counts as
//! that agent's, and a fault there forfeits the game), and draws its remaining decisions
//! from the position after it, continuing the deal's stream; the swap decision does not
//! count towards K. So on Invector with the pie rule `--random-opening 4` is a random
//! first stone, the agent's swap decision, then three random decisions. An opening that
//! ends the game after the swap decision is drawn again from there. A line of an
//! openings file cannot hold the swap decision (it is refused before anything is
//! written): a file names moves, and the agent's choice is not known in advance.
//!
//! Both games of a match's pair open alike, so the pair still compares the agents from
//! the same start with the seats swapped. The two options cannot be combined.
//!
//! `agon balance` draws its random openings on games without chance without
//! replacement instead ([`Opening::Distinct`], see [`distinct`]).
//!
//! **The soundness check** ([`check`]): given an [`OpeningCheck`], a random opening is
//! kept only if the checker judges the position after its last move sound; one that
//! fails is drawn again exactly as one that ends the game (from the same stream, so the
//! run stays the same at any thread count and on resume). On a game with a pie rule the
//! check judges the position after the whole opening, swap decision included: the
//! decisions after the swap are drawn again until it passes. A line of an openings file
//! is the user's choice and is not checked (`agon openings` writes checked ones).

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use agon_engine::{has_chance, Game, State, Turn};
use anyhow::Result;
use rand::RngCore;

use crate::bad_input::BadInput;
use crate::digest::Fnv1a;
use crate::input_file::InputFile;
use crate::position::play_notated_with;

mod check;
mod distinct;
use crate::games::PlayableGame;
use crate::seeds::{self, uniform_below, PairLuck};
pub use check::OpeningCheck;
pub use distinct::DistinctDraws;

/// Random openings drawn for one deal before giving up.
pub const MAX_ATTEMPTS: u32 = 100;

/// The most decisions `--random-opening` may ask for. An opening is meant to vary the
/// start of a game, not to play most of it: a thousand decisions is past the length of
/// a whole game of every game here, and it bounds the work of drawing one opening to
/// [`MAX_ATTEMPTS`] × 1000 decisions (plus chance outcomes), however large a K is typed.
pub const MAX_RANDOM_OPENING: u32 = 1000;

/// The largest openings file read: 64 MiB, a million lines of 64 moves; a larger file is
/// refused before it is read ([`crate::input_file`]). Reading and checking a file this
/// large takes seconds and memory of about its moves' text plus 8 bytes a line.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The longest line of an openings file: 64 KiB, thousands of moves.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// The longest move text in an openings file: 64 bytes, several times the longest
/// move of any game's notation.
pub const MAX_MOVE_BYTES: usize = 64;

/// Characters of a move text that an error message quotes (then `...`).
pub const QUOTE_CHARS: usize = 24;

/// The agent to move's decision at a position of type `S` (a pie-rule swap decision
/// inside an opening), given the moves from the game's start to it, or `None` if that
/// agent faulted.
pub type AgentDecision<'a, S> = dyn FnMut(&S, &[String]) -> Option<<S as State>::Move> + 'a;

/// How each game starts.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Opening {
    /// From the initial position.
    #[default]
    Start,
    /// This many uniformly random decisions (at least 1).
    Random(u32),
    /// As many random decisions, each deal's unlike every other's until all have been
    /// dealt (a game without chance only; see [`distinct`]).
    Distinct(DistinctDraws),
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
    /// The openings, shared by every clone (a run's plan is cloned for its workers).
    lines: Arc<Lines>,
}

impl Opening {
    /// The opening asked for by `--random-opening` and `--openings` (clap refuses the
    /// two together). `--random-opening 0` is the same as none. Reads the file; fails if
    /// it cannot be read, is too large, is not text or holds no opening, and on a K
    /// above [`MAX_RANDOM_OPENING`].
    pub fn from_args(random: u32, file: Option<&Path>) -> Result<Opening, BadInput> {
        match file {
            Some(path) => Book::read(path).map(Opening::Book),
            None if random > MAX_RANDOM_OPENING => Err(BadInput::new(format!(
                "--random-opening {random} is too long: at most {MAX_RANDOM_OPENING} \
                 decisions (an opening varies the start of a game)"
            ))),
            None if random > 0 => Ok(Opening::Random(random)),
            None => Ok(Opening::Start),
        }
    }

    /// Checks the opening against `game`: every line of an openings file is legal in
    /// turn, stops before a pie-rule swap decision and leaves the game going; openings
    /// drawn without replacement need a game without chance. Any random opening fits.
    pub fn check<G: Game>(&self, game: &G) -> Result<(), BadInput> {
        match self {
            Opening::Start | Opening::Random(_) => Ok(()),
            Opening::Distinct(draws) if has_chance::<G::State>() => Err(BadInput::new(format!(
                "random openings of {} decisions drawn without replacement need a game \
                 without chance, and {} has chance",
                draws.k(),
                G::NAME
            ))),
            Opening::Distinct(_) => Ok(()),
            Opening::Book(book) => (0..book.len()).try_for_each(|i| {
                let (number, line) = book.line(i);
                book.replay(game, number, line).map(drop)
            }),
        }
    }

    /// Plays the opening of deal `deal` from `game`'s initial position, appending its
    /// moves in notation to `moves`; returns the position after it. Chance outcomes of a
    /// random opening come from the deal's luck, `PairLuck(seed, deal)`, as in the rest
    /// of the game. `swap` is asked for the pie-rule
    /// swap decision when a random opening reaches it (see the module docs): the agent
    /// to move's decision, or `None` if that agent faulted, which ends the opening at
    /// the swap decision. `check`, if any, judges every random opening drawn, and one
    /// that fails is drawn again (see the module docs).
    pub fn play<G: PlayableGame>(
        &self,
        game: &G,
        seed: u64,
        deal: u64,
        moves: &mut Vec<String>,
        swap: &mut AgentDecision<'_, G::State>,
        check: Option<&OpeningCheck>,
    ) -> Result<G::State> {
        let (k, dealer) = match self {
            Opening::Start => return Ok(game.initial_state()),
            Opening::Book(book) => {
                let (number, line) = book.line((deal % book.len() as u64) as usize);
                let state = book.replay(game, number, line)?;
                moves.extend(line.split_whitespace().map(str::to_string));
                return Ok(state);
            }
            Opening::Random(k) => (*k, None),
            Opening::Distinct(draws) => (draws.k(), Some(draws)),
        };
        // The decisions before a pie-rule swap decision (all K without one) are dealt
        // without replacement or drawn from the deal's stream; the rest, after the
        // agent's swap decision, continue that stream.
        let before_swap = game.pie_swap_decision().map_or(k, |at| k.min(at));
        let mut rng = seeds::opening_rng(seed, deal);
        let luck = &PairLuck::new(seed, deal);
        let mut sound = |state: &G::State| match check {
            Some(check) => Ok(check.judge::<G>(state)?.sound),
            None => Ok(true),
        };
        let mut always = |_: &G::State| Ok(true);
        // Only the position after the whole opening is judged.
        let keep_prefix: &mut Keep<'_, G::State> = if before_swap == k {
            &mut sound
        } else {
            &mut always
        };
        let start = match dealer {
            Some(draws) => {
                let line = draws.line(game, before_swap, seed, deal, keep_prefix)?;
                let state = DistinctDraws::replay(game, &line);
                moves.extend(line);
                Some(state)
            }
            None => draw_decisions(
                &game.initial_state(),
                before_swap,
                &mut rng,
                luck,
                moves,
                keep_prefix,
            )?,
        };
        let rest = k - before_swap;
        let opened = match start {
            Some(state) => past_the_swap(state, rest, &mut rng, luck, moves, swap, &mut sound)?,
            None => None,
        };
        opened.ok_or_else(|| {
            let why = match check {
                Some(check) => format!(
                    "ended the game or failed the opening check ({}); choose a smaller K, \
                     a wider --opening-window or --opening-check none",
                    check.describe()
                ),
                None => "ended the game; choose a smaller K".into(),
            };
            BadInput::new(format!(
                "--random-opening {k}: {MAX_ATTEMPTS} random openings of deal {deal} all {why}"
            ))
            .into()
        })
    }

    /// Plays the opening of deal 0 under `seed` as [`Opening::play`] does (judged by
    /// `check`), with no agent to make a pie-rule swap decision (the probe's opening
    /// stops there), and throws it away: an opening no game could start with (K random
    /// decisions that always end the game, a check that refuses every draw) is refused
    /// so before anything is written, instead of at the run's first game. The draws are
    /// those the run makes (drawn without replacement, the first deal's opening is the
    /// one the run deals), so probing changes no game.
    pub fn probe<G: PlayableGame>(
        &self,
        game: &G,
        seed: u64,
        check: Option<&OpeningCheck>,
    ) -> Result<()> {
        let mut no_agent = |_: &G::State, _: &[String]| None;
        self.play(game, seed, 0, &mut Vec::new(), &mut no_agent, check)
            .map(drop)
    }
}

impl Book {
    /// Reads an openings file ([`InputFile`]: a regular file of at most
    /// [`MAX_FILE_BYTES`]) line by line, lines of at most [`MAX_LINE_BYTES`]. Only the
    /// move lists are kept, in one string, so the memory a book holds is about its
    /// moves' text plus 8 bytes a line, whatever its comments and blank lines.
    fn read(path: &Path) -> Result<Book, BadInput> {
        let shown = path.display().to_string();
        let mut file = InputFile::open(path, "openings file", &shown, MAX_FILE_BYTES)?;
        let mut hash = Fnv1a::default();
        let mut lines = Lines::default();
        let mut line = Vec::new();
        for number in 1usize.. {
            let read = next_line(file.reader(), &mut line).map_err(|e| file.error(&e))?;
            let Some(length) = read else { break };
            if length > MAX_LINE_BYTES {
                return Err(BadInput::new(format!(
                    "openings file {shown}: line {number} is {length} bytes long, more \
                     than the {} KiB a line may hold",
                    MAX_LINE_BYTES >> 10
                )));
            }
            hash.update(&line);
            let text = std::str::from_utf8(&line).map_err(|_| file.not_text())?;
            lines.push(number, text.trim_end_matches(['\n', '\r']));
        }
        if lines.is_empty() {
            return Err(BadInput::new(format!(
                "openings file {shown} holds no opening (one move list per line; blank \
                 lines and lines starting with # are ignored)"
            )));
        }
        Ok(Book {
            path: path.to_path_buf(),
            hash: format!("{:016x}", hash.finish()),
            lines: Arc::new(lines),
        })
    }

    /// How many openings the book holds.
    fn len(&self) -> usize {
        self.lines.ends.len()
    }

    /// Opening `i` (from 0): its line number in the file (from 1) and its move list.
    fn line(&self, i: usize) -> (usize, &str) {
        let (number, end) = self.lines.ends[i];
        let start = match i {
            0 => 0,
            _ => self.lines.ends[i - 1].1 as usize,
        };
        (number as usize, &self.lines.text[start..end as usize])
    }

    /// The position after line `number` (its text `line`), or why it is not an opening.
    /// The place named in an error is written only when there is one.
    fn replay<G: Game>(&self, game: &G, number: usize, line: &str) -> Result<G::State, BadInput> {
        let at = || format!("openings file {}: line {number}", self.path.display());
        let move_at = |i: usize, text: &str| {
            let count = line.split_whitespace().count();
            format!("{}: move {} of {count}, {}", at(), i + 1, quote(text))
        };
        let mut state = game.initial_state();
        let mut decisions = 0;
        for (i, text) in line.split_whitespace().enumerate() {
            if text.len() > MAX_MOVE_BYTES {
                return Err(BadInput::new(format!(
                    "{}: {} bytes long, more than any move ({MAX_MOVE_BYTES} at most)",
                    move_at(i, text),
                    text.len()
                )));
            }
            if state.turn() == Turn::Over {
                return Err(BadInput::new(format!(
                    "{}: the game is already over",
                    move_at(i, text)
                )));
            }
            if let Turn::Seat(_) = state.turn() {
                if game.pie_swap_decision() == Some(decisions) {
                    return Err(BadInput::new(format!(
                        "{}: plays the pie-rule swap decision (decision {}), which belongs \
                         to the agents; a line may hold at most {decisions} decisions here",
                        move_at(i, text),
                        decisions + 1
                    )));
                }
                decisions += 1;
            }
            play_notated_with(&mut state, text, || move_at(i, text))?;
        }
        if state.turn() == Turn::Over {
            return Err(BadInput::new(format!(
                "{}: the opening ends the game, leaving the agents nothing to play",
                at()
            )));
        }
        Ok(state)
    }
}

/// The openings of a book: every move list in one string, and where each ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Lines {
    /// The move lists one after another, each with its moves separated by one space.
    text: String,
    /// Per opening: its line number in the file and the end of its move list in `text`
    /// (where the next begins). Both fit: a file holds at most [`MAX_FILE_BYTES`].
    ends: Vec<(u32, u32)>,
}

impl Lines {
    /// Adds line `number` of the file, `line` (without its line break), if it holds a
    /// move: its words up to the first starting with `#`.
    fn push(&mut self, number: usize, line: &str) {
        let start = self.text.len();
        let moves = line
            .split_whitespace()
            .take_while(|token| !token.starts_with('#'));
        for (i, text) in moves.enumerate() {
            if i > 0 {
                self.text.push(' ');
            }
            self.text.push_str(text);
        }
        if self.text.len() > start {
            let fits = |n: usize| u32::try_from(n).expect("a book holds at most 64 MiB");
            self.ends.push((fits(number), fits(self.text.len())));
        }
    }

    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// Reads the next line of `reader` into `line` (its line break included, as read) and
/// returns its whole length without the break, or `None` at the end. Of a line longer
/// than [`MAX_LINE_BYTES`] only its start is kept (enough to tell it is too long): the
/// rest is counted, not held.
fn next_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<Option<usize>> {
    line.clear();
    let mut length = 0;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok((length > 0).then_some(length));
        }
        let (taken, ended) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        let room = (MAX_LINE_BYTES + 1).saturating_sub(line.len());
        line.extend_from_slice(&buffer[..taken.min(room)]);
        length += taken - usize::from(ended);
        reader.consume(taken);
        if ended {
            return Ok(Some(length));
        }
    }
}

/// `text` in quotes as `{:?}` writes it, cut to its first [`QUOTE_CHARS`] characters
/// (then `...`), so an error about a huge token stays short.
fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((end, _)) => format!("{:?}...", &text[..end]),
        None => format!("{text:?}"),
    }
}

/// Whether to keep a random opening that leaves the game at this position (the
/// soundness check, or always); fails if the check cannot be run.
type Keep<'a, S> = dyn FnMut(&S) -> Result<bool, BadInput> + 'a;

/// The rest of an opening at `state`, which has `rest` of its decisions still to draw:
/// none, or the agent's pie-rule swap decision (`swap`; a fault ends the opening there)
/// and then `rest` random decisions from the position after it, kept as `keep` says
/// (see [`draw_decisions`]; `None` if every draw ended the game or was not kept).
fn past_the_swap<S: State>(
    state: S,
    rest: u32,
    rng: &mut impl RngCore,
    luck: &PairLuck,
    moves: &mut Vec<String>,
    swap: &mut AgentDecision<'_, S>,
    keep: &mut Keep<'_, S>,
) -> Result<Option<S>, BadInput> {
    if rest == 0 {
        return Ok(Some(state));
    }
    let Some(decided) = swap(&state, moves) else {
        return Ok(Some(state));
    };
    let mut state = state;
    moves.push(state.format_move(decided));
    state.apply(decided);
    if state.turn() == Turn::Over {
        return Ok(Some(state));
    }
    draw_decisions(&state, rest, rng, luck, moves, keep)
}

/// Plays `k` uniformly random decisions from `from` (chance outcomes on the way from
/// `luck`), up to the next decision after the `k`-th, and appends their moves to
/// `moves`; a draw that ends the game, or that `keep` refuses, is drawn again,
/// continuing `rng`, up to [`MAX_ATTEMPTS`] times (then `None`).
fn draw_decisions<S: State>(
    from: &S,
    k: u32,
    rng: &mut impl RngCore,
    luck: &PairLuck,
    moves: &mut Vec<String>,
    keep: &mut Keep<'_, S>,
) -> Result<Option<S>, BadInput> {
    let mut legal = Vec::new();
    for _ in 0..MAX_ATTEMPTS {
        let mut state = from.clone();
        let mut line = Vec::new();
        let mut decisions = 0;
        let going_on = loop {
            let m = match state.turn() {
                Turn::Over => break false,
                Turn::Seat(_) if decisions == k => break true,
                Turn::Chance => state.common_outcome(luck),
                Turn::Seat(_) => {
                    legal.clear();
                    state.legal_moves(&mut legal);
                    decisions += 1;
                    legal[uniform_below(rng, legal.len() as u64) as usize]
                }
            };
            line.push(state.format_move(m));
            state.apply(m);
        };
        if going_on && keep(&state)? {
            moves.extend(line);
            return Ok(Some(state));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::Connect4;
    use agon_engine::games::invector::Invector;
    use agon_engine::games::pig::Pig;

    use super::*;
    use crate::digest::fnv1a;
    use crate::position::legal_here;

    #[test]
    fn random_openings_are_k_decisions_and_chance_is_not_counted() {
        let game = Pig::default();
        for pair in 0..20 {
            let mut moves = Vec::new();
            let state = Opening::Random(3)
                .play(&game, 5, pair, &mut moves, &mut no_swap, None)
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
                .play(&game, 5, pair, &mut again, &mut no_swap, None)
                .unwrap();
            assert_eq!(again, moves);
        }
    }

    /// A `swap` argument for games that never reach a pie-rule swap decision.
    fn no_swap<S: State>(_: &S, _: &[String]) -> Option<S::Move> {
        unreachable!("no swap decision is reached here")
    }

    #[test]
    fn random_openings_leave_the_pie_swap_decision_to_the_agent() {
        // Invector with the pie rule offers White the swap at the second decision. A
        // one-decision opening stops there; a longer one asks `swap` there (once, at
        // the swap decision), then draws the rest from the position after the answer,
        // which is not one of the K.
        let game = Invector::new(5, 4, true).unwrap();
        for deal in 0..50 {
            let mut moves = Vec::new();
            let state = Opening::Random(1)
                .play(&game, 1, deal, &mut moves, &mut no_swap, None)
                .unwrap();
            assert_eq!(moves.len(), 1);
            assert!(legal_here(&state).contains(&"swap".to_string()));

            for answer in ["swap", "first"] {
                let mut asked = 0;
                let mut decide = |at: &<Invector as Game>::State, _: &[String]| {
                    asked += 1;
                    assert!(legal_here(at).contains(&"swap".to_string()));
                    let mut legal = Vec::new();
                    at.legal_moves(&mut legal);
                    Some(if answer == "swap" {
                        at.parse_move("swap").unwrap()
                    } else {
                        legal[0]
                    })
                };
                let mut longer = Vec::new();
                Opening::Random(4)
                    .play(&game, 1, deal, &mut longer, &mut decide, None)
                    .unwrap();
                assert_eq!(asked, 1);
                // The same first stone, then the answer, then three random decisions
                // (Invector has no chance, so every ply is a decision).
                assert_eq!(longer.len(), 5, "{longer:?}");
                assert_eq!(longer[0], moves[0]);
                assert_eq!(longer[1] == "swap", answer == "swap", "{longer:?}");
                assert!(!longer[2..].contains(&"swap".to_string()));
            }
        }
        // An agent's fault at the swap decision ends the opening there.
        let mut moves = Vec::new();
        let state = Opening::Random(4)
            .play(&game, 1, 0, &mut moves, &mut |_, _| None, None)
            .unwrap();
        assert_eq!(moves.len(), 1);
        assert!(legal_here(&state).contains(&"swap".to_string()));
        assert_eq!(Opening::Random(4).check(&game), Ok(()));
    }

    #[test]
    fn a_huge_random_opening_is_refused_at_once() {
        assert_eq!(
            Opening::from_args(MAX_RANDOM_OPENING, None),
            Ok(Opening::Random(MAX_RANDOM_OPENING))
        );
        assert_eq!(
            Opening::from_args(u32::MAX, None),
            Err(BadInput::new(
                "--random-opening 4294967295 is too long: at most 1000 decisions (an \
                 opening varies the start of a game)"
            ))
        );
    }

    #[test]
    fn a_book_keeps_its_move_lists_with_their_line_numbers_and_clones_share_them() {
        let dir = std::env::temp_dir().join(format!("agon-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.txt");
        let file = "# a book\n\nd  c # two moves\r\n   \n#e\na\tb  c\r\nf";
        std::fs::write(&path, file).unwrap();
        let Ok(Opening::Book(book)) = Opening::from_args(0, Some(&path)) else {
            panic!("the book reads")
        };
        assert_eq!(book.len(), 3);
        assert_eq!(
            (0..3).map(|i| book.line(i)).collect::<Vec<_>>(),
            [(3, "d c"), (6, "a b c"), (7, "f")]
        );
        assert_eq!(book.lines.text, "d ca b cf");
        assert_eq!(book.hash, format!("{:016x}", fnv1a(file.as_bytes())));
        // A run's plan is cloned for its workers: the openings are not copied.
        let copy = book.clone();
        assert!(Arc::ptr_eq(&copy.lines, &book.lines));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn quotes_of_moves_are_cut_short() {
        assert_eq!(quote("c3-c4"), "\"c3-c4\"");
        assert_eq!(quote(&"x".repeat(24)), format!("{:?}", "x".repeat(24)));
        assert_eq!(
            quote(&"é".repeat(10_000)),
            format!("{:?}...", "é".repeat(24))
        );
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
            let mut moves = Vec::new();
            let state = Opening::Random(25)
                .play(&game, 3, pair, &mut moves, &mut no_swap, None)
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
        let err = Opening::Random(42)
            .play(&Connect4, 1, 0, &mut Vec::new(), &mut no_swap, None)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--random-opening 42: 100 random openings of deal 0 all ended the game; \
             choose a smaller K"
        );
    }
}
