//! The rows of a run's CSV files: games.csv ([`GameRow`]), timings.csv ([`TimingRow`])
//! and summary.csv ([`SummaryRow`]), their headers, and the digest that ties a game row
//! to its run ([`row_digest`]).

use serde::{Deserialize, Serialize};

use crate::digest::fnv1a;

/// The header line of games.csv (without its line end): [`GameRow`]'s fields in order.
/// A unit test checks that serde writes exactly this header.
pub const GAMES_HEADER: &str = "game,pair,pairing,agent0,agent1,side0,side1,result0,winner,\
                                end_reason,plies,turns,decisions0,decisions1,nodes0,nodes1,opening,\
                                moves,note,digest";
/// The header line of a games.csv of [`OLDER_FORMAT`](super::OLDER_FORMAT).
pub(super) const OLDER_GAMES_HEADER: &str = "game,pair,pairing,agent0,agent1,side0,side1,result0,\
                                      winner,end_reason,plies,nodes0,nodes1,opening,moves,note";
/// The header line of timings.csv (without its line end): [`TimingRow`]'s fields.
pub const TIMINGS_HEADER: &str = "game,time_us0,time_us1";

/// The end reason of a game lost by a fault of an agent (an outside program's error, a
/// panic, an illegal move): the game did not end by its rules.
pub const FORFEIT: &str = "forfeit";

/// The result of a game for seat 0, written `1`, `0.5` or `0`.
///
/// Its `Default` (a draw) exists only so that [`GameRow`] can fill the columns an older
/// games.csv lacks; every format has had `result0`, so it is never read as a default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Result0 {
    /// Seat 0 won.
    #[serde(rename = "1")]
    Win,
    /// Draw.
    #[serde(rename = "0.5")]
    #[default]
    Draw,
    /// Seat 0 lost.
    #[serde(rename = "0")]
    Loss,
}

impl Result0 {
    /// The result for `seat` as +1, 0 or -1.
    pub fn score(self, seat: usize) -> i32 {
        let s0 = match self {
            Result0::Win => 1,
            Result0::Draw => 0,
            Result0::Loss => -1,
        };
        if seat == 0 {
            s0
        } else {
            -s0
        }
    }
}

/// One row of games.csv: everything about a game that is reproducible.
///
/// Read by column name; a column missing from the file takes its `Default` value. Only
/// the reader of an older format ([`read_older_games`](super::read_older_games)) can meet a missing column: the
/// reader of this format requires the exact header and each row written back byte for
/// byte.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameRow {
    /// Game index in the run, from 0.
    pub game: u64,
    /// Pair index: games `2p` and `2p+1` start alike with seats swapped.
    pub pair: u64,
    /// Pairing index (which two agents), from 0, in round-robin order.
    pub pairing: u64,
    /// Label of seat 0's agent (its canonical spec, `#k` added if repeated).
    pub agent0: String,
    /// Label of seat 1's agent.
    pub agent1: String,
    /// Side or colour seat 0 played at the end of the game.
    pub side0: String,
    /// Side or colour seat 1 played at the end of the game.
    pub side1: String,
    /// Result for seat 0.
    pub result0: Result0,
    /// Winning seat; empty for a draw.
    pub winner: Option<u8>,
    /// Why the game ended (the game's own word, e.g. `elimination`, or [`FORFEIT`]).
    pub end_reason: String,
    /// Plies played (decisions and chance outcomes).
    pub plies: u32,
    /// Turns played, as the game's rules define a turn ([`agon_engine::State::turns`]):
    /// the unit of the game's turn cap, the opening's turns included.
    pub turns: u32,
    /// Decisions seat 0's agent made (the moves it chose, not the opening's nor chance
    /// outcomes): the moves its `nodes0` and thinking time were spent on.
    pub decisions0: u32,
    /// Decisions seat 1's agent made.
    pub decisions1: u32,
    /// Search nodes of seat 0's agent over the game.
    pub nodes0: u64,
    /// Search nodes of seat 1's agent over the game.
    pub nodes1: u64,
    /// How many of the first plies of `moves` were the opening (`--random-opening` or
    /// `--openings`) rather than the agents' play; 0 without one.
    pub opening: u32,
    /// Every move in notation, chance outcomes included, separated by spaces.
    pub moves: String,
    /// Why a game ended abnormally, on one line: for a `forfeit`, the seat, its agent and
    /// what it did (panicked, with the panic's place and message, or played an illegal
    /// move). Empty for a game that ended by the rules.
    pub note: String,
    /// FNV-1a digest of every other field of the row and the run's identity (see
    /// [`row_digest`]), 16 hex digits, set by [`RunWriter::write`](super::RunWriter::write); the last column, so
    /// that it covers every column before it.
    pub digest: String,
}

impl GameRow {
    /// The seat of its pairing's agent A: seat 0 in even games, seat 1 in odd ones.
    pub fn a_seat(&self) -> usize {
        (self.game % 2) as usize
    }

    /// Agent A's half points in this game: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn a_half_points(&self) -> usize {
        (self.result0.score(self.a_seat()) + 1) as usize
    }
}

/// One row of timings.csv: thinking time, which is never reproducible.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimingRow {
    /// Game index (as in games.csv).
    pub game: u64,
    /// Thinking time of seat 0's agent over the game, in microseconds.
    pub time_us0: u64,
    /// Thinking time of seat 1's agent over the game, in microseconds.
    pub time_us1: u64,
}

/// One row of summary.csv, in long ("tidy") form: one statistic per row, with its 95%
/// interval where it has one. `section` says what is counted and `statistic` which
/// number; results/README.md lists every (section, statistic) pair. Numbers are
/// pre-formatted text so that the file is the same byte for byte wherever it is
/// computed; an empty field means "not defined" or "does not apply".
///
/// `value`, `low` and `high` hold only numbers (integers, decimals, `inf`, `-inf`, or
/// empty), so that a reader (pandas) types them as numbers; the two statistics that are
/// words (the SPRT's `decision` and the ratings' `anchor`) have an empty `value` and
/// their word in `text`, which is empty on every other row. A summary.csv written
/// before `text` existed has no such column and those words in `value`; nothing in
/// agon reads summary.csv back (it is recomputed from games.csv), so such a file is
/// only ever replaced whole.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// `pairing`, `sprt`, `rating`, `seat`, `side`, `swap`, `length` or `end`.
    pub section: String,
    /// Pairing index; empty for a row over all games or all agents.
    pub pairing: String,
    /// Agent A of the pairing (seat 0 in the pairing's even games); empty with `pairing`.
    pub agent_a: String,
    /// Agent B of the pairing; empty with `pairing`.
    pub agent_b: String,
    /// What the row is about within its section: an agent (`rating`), a seat (`seat`),
    /// a side (`side`), an end reason (`end`); empty otherwise.
    pub subject: String,
    /// Name of the statistic.
    pub statistic: String,
    /// Its value.
    pub value: String,
    /// Lower end of its 95% interval (or the SPRT's lower bound); empty if none.
    pub low: String,
    /// Upper end of its 95% interval (or the SPRT's upper bound); empty if none.
    pub high: String,
    /// The statistic's word where it is not a number (`decision`: `H0`, `H1` or
    /// `continue`; `anchor`: the label of the agent rated 0, or `mean`); empty otherwise.
    pub text: String,
}

/// The digest of a games.csv row: FNV-1a (64 bits, 16 lower-case hex digits) of `key`
/// ([`RunMeta::digest_key`](super::RunMeta::digest_key)) followed by the row as written, without its line end and
/// its digest field. It is computed from the serialised row, so every column before the
/// digest is covered, whatever columns the row has.
///
/// It guards against accidents (a row edited by hand or by a script after a stop, a row
/// of another run), not forgers: anyone can recompute an FNV-1a hash.
pub fn row_digest(row: &GameRow, key: &str) -> String {
    let blank = GameRow {
        digest: String::new(),
        ..row.clone()
    };
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    // Writing into memory cannot fail, and every field of a row serialises.
    w.serialize(&blank).expect("a game row serialises");
    let line = w.into_inner().expect("a write to memory does not fail");
    // The empty digest is the last field: the line ends with its separator and `\n`.
    let content = line
        .strip_suffix(b",\n")
        .expect("a row ends with its empty digest field");
    let mut text = Vec::with_capacity(key.len() + content.len());
    text.extend_from_slice(key.as_bytes());
    text.extend_from_slice(content);
    format!("{:016x}", fnv1a(&text))
}

/// Rows for the tests of the modules that read games.csv.
#[cfg(test)]
impl GameRow {
    /// Game `game` (of pair `game / 2`) of `pairing` between `agents`, seat 0 first,
    /// with `result0` and the winner it implies, `plies` plies (each a turn, the seats'
    /// decisions alternating), Black moving first, ended by elimination, no moves
    /// recorded.
    pub(crate) fn example(
        game: u64,
        pairing: u64,
        agents: [&str; 2],
        result0: Result0,
        plies: u32,
    ) -> GameRow {
        GameRow {
            game,
            pair: game / 2,
            pairing,
            agent0: agents[0].into(),
            agent1: agents[1].into(),
            side0: "black".into(),
            side1: "white".into(),
            result0,
            winner: match result0 {
                Result0::Win => Some(0),
                Result0::Loss => Some(1),
                Result0::Draw => None,
            },
            end_reason: "elimination".into(),
            plies,
            turns: plies,
            decisions0: plies.div_ceil(2),
            decisions1: plies / 2,
            nodes0: 0,
            nodes1: 0,
            opening: 0,
            moves: String::new(),
            note: String::new(),
            digest: String::new(),
        }
    }
}
