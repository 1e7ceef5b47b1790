//! The files of a tournament run: their rows (serde + csv) and the run's metadata.
//!
//! A run folder holds `meta.csv` (what was run), `games.csv` (one row per game, in
//! game-index order, reproducible byte for byte), `timings.csv` (wall-clock thinking time,
//! never reproducible, hence apart) and `summary.csv` (statistics computed from
//! games.csv alone). Every column is documented in `results/README.md`.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::args::BadInput;
use crate::opening::fnv1a;
use crate::shard::Shard;

/// Name of the metadata file in a run folder.
pub const META_FILE: &str = "meta.csv";
/// Name of the per-game results file.
pub const GAMES_FILE: &str = "games.csv";
/// Name of the per-game timing file.
pub const TIMINGS_FILE: &str = "timings.csv";
/// Name of the statistics file.
pub const SUMMARY_FILE: &str = "summary.csv";

/// Version of the layout of these files, stored in meta.csv; bumped when a column
/// changes meaning so that old folders are recognised as different runs. Format 2 added
/// games.csv's `opening` and `note` columns and meta.csv's `commit` row and opening keys;
/// format 3 added games.csv's `digest` column and meta.csv's `anchor` row, and refuses
/// unknown or missing meta.csv keys.
pub const FORMAT: &str = "3";

/// The older format this build still reads (for `agon report` only, with a note): its
/// games.csv lacks the columns added since, which read as their defaults.
pub const OLDER_FORMAT: &str = "2";

/// The header line of games.csv (without its line end): [`GameRow`]'s fields in order.
/// A unit test checks that serde writes exactly this header.
pub const GAMES_HEADER: &str = "game,pair,pairing,agent0,agent1,side0,side1,result0,winner,\
                                end_reason,plies,turns,decisions0,decisions1,nodes0,nodes1,opening,\
                                moves,note,digest";
/// The header line of a games.csv of [`OLDER_FORMAT`].
const OLDER_GAMES_HEADER: &str = "game,pair,pairing,agent0,agent1,side0,side1,result0,\
                                      winner,end_reason,plies,nodes0,nodes1,opening,moves,note";
/// The header line of timings.csv (without its line end): [`TimingRow`]'s fields.
pub const TIMINGS_HEADER: &str = "game,time_us0,time_us1";

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
/// the reader of an older format ([`read_older_games`]) can meet a missing column: the
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
    /// Why the game ended (the game's own word, e.g. `elimination`).
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
    /// [`row_digest`]), 16 hex digits, set by [`RunWriter::write`]; the last column, so
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
}

/// What was run in a folder: written first, compared by a rerun.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunMeta {
    /// `agon <version>` of the build that ran it.
    pub toolkit: String,
    /// The git commit of that build (see [`commit`]); recorded, not part of the run's
    /// identity.
    pub commit: String,
    /// Canonical game spec.
    pub game: String,
    /// Canonical agent specs, in the order given.
    pub agents: Vec<String>,
    /// Games per pairing.
    pub games_per_pairing: u64,
    /// Master seed.
    pub seed: u64,
    /// `--random-opening K` (0 without).
    pub random_opening: u32,
    /// `--openings FILE`: the path as given (empty without).
    pub openings: String,
    /// The FNV-1a hash of the openings file's contents (16 hex digits), so that a
    /// changed file is a different run; empty without one.
    pub openings_hash: String,
    /// Worker threads used (does not change the results).
    pub threads: usize,
    /// The command line as typed.
    pub command: String,
    /// The slice of the run this folder holds (`--shard I/N`); `None` for a whole run.
    /// Written as a `shard` row only when present, so whole runs' meta.csv is unchanged.
    pub shard: Option<Shard>,
    /// The SPRT that stops the run (`--sprt`, as `elo0,elo1,alpha,beta`); `None` when the
    /// run plays all its games. Written as an `sprt` row only when present.
    pub sprt: Option<String>,
    /// The label of the agent rated 0 in summary.csv (`--anchor`); `None` for ratings of
    /// mean zero. Written as an `anchor` row only when present. Not part of the run's
    /// identity: it changes the summary, never the games.
    pub anchor: Option<String>,
}

/// The keys of meta.csv, in the order [`RunMeta::write`] writes them. `agent` repeats;
/// the keys of [`OPTIONAL_KEYS`] may be absent; every other key appears exactly once.
const META_KEYS: [&str; 15] = [
    "format",
    "toolkit",
    "commit",
    "game",
    "agent",
    "games_per_pairing",
    "seed",
    "random_opening",
    "openings",
    "openings_hash",
    "threads",
    "command",
    "anchor",
    "shard",
    "sprt",
];

/// The keys of meta.csv written only when they have a value.
const OPTIONAL_KEYS: [&str; 3] = ["anchor", "shard", "sprt"];

/// Which layout a run folder was written in (its meta.csv's `format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// [`FORMAT`], this build's.
    Now,
    /// [`OLDER_FORMAT`]: `agon report` reads it, with a note; resume and merge refuse it.
    Older,
}

/// The version string stored in `toolkit`.
pub fn toolkit() -> String {
    format!("agon {}", env!("CARGO_PKG_VERSION"))
}

/// The git commit this binary was built from: `git rev-parse HEAD`, with `-dirty`
/// appended when tracked files differed from it, or `unknown` when built outside a git
/// checkout (captured by cli/build.rs).
pub fn commit() -> String {
    env!("AGON_COMMIT").to_string()
}

impl RunMeta {
    /// Writes meta.csv (`key,value` rows; `agent` repeats once per agent, in order).
    /// The file appears whole or not at all: it is written beside under a temporary name,
    /// then renamed.
    pub fn write(&self, path: &Path) -> Result<()> {
        let temporary = temporary_path(path);
        let mut w = csv::Writer::from_path(&temporary)
            .with_context(|| format!("cannot create {}", temporary.display()))?;
        w.write_record(["key", "value"])?;
        let mut row = |k: &str, v: &str| w.write_record([k, v]);
        row("format", FORMAT)?;
        row("toolkit", &self.toolkit)?;
        row("commit", &self.commit)?;
        row("game", &self.game)?;
        for agent in &self.agents {
            row("agent", agent)?;
        }
        row("games_per_pairing", &self.games_per_pairing.to_string())?;
        row("seed", &self.seed.to_string())?;
        row("random_opening", &self.random_opening.to_string())?;
        row("openings", &self.openings)?;
        row("openings_hash", &self.openings_hash)?;
        row("threads", &self.threads.to_string())?;
        row("command", &self.command)?;
        if let Some(anchor) = &self.anchor {
            row("anchor", anchor)?;
        }
        if let Some(shard) = self.shard {
            row("shard", &shard.to_string())?;
        }
        if let Some(sprt) = &self.sprt {
            row("sprt", sprt)?;
        }
        w.flush()
            .with_context(|| format!("cannot write {}", temporary.display()))?;
        drop(w);
        std::fs::rename(&temporary, path)
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// Reads meta.csv of this format or of [`OLDER_FORMAT`]. Refuses a file without a
    /// `format` row or of another format, a key that is not one of meta.csv's (a
    /// misspelt key would otherwise be ignored and its setting lost), a key given twice
    /// (`agent` apart), a missing key (the optional `anchor`, `shard` and `sprt` apart)
    /// and a value that does not parse, naming the file and the line.
    pub fn read_any(path: &Path) -> Result<(RunMeta, Written)> {
        let shown = path.display();
        let mut r = csv::Reader::from_path(path).with_context(|| format!("cannot read {shown}"))?;
        let mut rows: Vec<(usize, String, String)> = Vec::new();
        for (i, record) in r.records().enumerate() {
            let record = record.with_context(|| format!("cannot read {shown}"))?;
            let (key, value) = (record.get(0).unwrap_or(""), record.get(1).unwrap_or(""));
            rows.push((i + 2, key.to_string(), value.to_string()));
        }
        let written = match rows.iter().find(|(_, key, _)| key == "format") {
            Some((_, _, format)) if format == FORMAT => Written::Now,
            Some((_, _, format)) if format == OLDER_FORMAT => Written::Older,
            Some((line, _, format)) => bail!(
                "{shown} line {line}: format {format:?} is not one this build reads (it \
                 writes format {FORMAT} and reads {OLDER_FORMAT})"
            ),
            None => bail!("{shown} is not an agon run's metadata (no format row)"),
        };
        let mut meta = RunMeta {
            toolkit: String::new(),
            commit: String::new(),
            game: String::new(),
            agents: Vec::new(),
            games_per_pairing: 0,
            seed: 0,
            random_opening: 0,
            openings: String::new(),
            openings_hash: String::new(),
            threads: 0,
            command: String::new(),
            shard: None,
            sprt: None,
            anchor: None,
        };
        let mut seen: Vec<&str> = Vec::new();
        for (line, key, value) in &rows {
            let Some(&key) = META_KEYS.iter().find(|k| **k == key.as_str()) else {
                bail!(
                    "{shown} line {line}: unknown key {key:?} (valid: {})",
                    META_KEYS.join(", ")
                );
            };
            if key != "agent" && seen.contains(&key) {
                bail!("{shown} line {line}: key {key:?} is given twice");
            }
            seen.push(key);
            let bad = || format!("{shown} line {line}: bad {key} {value:?}");
            match key {
                "toolkit" => meta.toolkit = value.clone(),
                "commit" => meta.commit = value.clone(),
                "game" => meta.game = value.clone(),
                "agent" => meta.agents.push(value.clone()),
                "games_per_pairing" => meta.games_per_pairing = value.parse().with_context(bad)?,
                "seed" => meta.seed = value.parse().with_context(bad)?,
                "random_opening" => meta.random_opening = value.parse().with_context(bad)?,
                "openings" => meta.openings = value.clone(),
                "openings_hash" => meta.openings_hash = value.clone(),
                "threads" => meta.threads = value.parse().with_context(bad)?,
                "command" => meta.command = value.clone(),
                "anchor" => meta.anchor = Some(value.clone()),
                "shard" => meta.shard = Some(Shard::parse(value).with_context(bad)?),
                "sprt" => meta.sprt = Some(value.clone()),
                // "format", read above; META_KEYS holds no other key.
                _ => {}
            }
        }
        if let Some(missing) = META_KEYS
            .iter()
            .find(|k| !OPTIONAL_KEYS.contains(k) && !seen.contains(k))
        {
            bail!("{shown} has no {missing:?} row");
        }
        Ok((meta, written))
    }

    /// The fields that make a run what it is, each named and as text, with the shard
    /// field given as `shard` (a resume compares shards, a merge shard counts). Threads,
    /// the command text, the commit and the anchor are not among them: the first two
    /// never change the results, a rebuilt binary of the same toolkit version may
    /// continue a run (the caller warns), and the anchor changes only the summary.
    pub fn identity(&self, shard: (&'static str, String)) -> [(&'static str, String); 10] {
        [
            ("toolkit", self.toolkit.clone()),
            ("game", self.game.clone()),
            ("agents", self.agents.join(" ")),
            ("games per pairing", self.games_per_pairing.to_string()),
            ("seed", self.seed.to_string()),
            shard,
            ("sprt", self.sprt.clone().unwrap_or_else(|| "none".into())),
            ("random opening", self.random_opening.to_string()),
            ("openings file", self.openings.clone()),
            ("openings file contents (hash)", self.openings_hash.clone()),
        ]
    }

    /// The first field of [`RunMeta::identity`] that makes `other` a different run from
    /// `self` (`None` if they are the same run), as `what: "mine" here, "theirs" there`.
    pub fn difference(&self, other: &RunMeta) -> Option<String> {
        let shard = |m: &RunMeta| ("shard", shard_text(m.shard));
        first_difference(self.identity(shard(self)), other.identity(shard(other)))
            .map(|(what, a, b)| format!("{what} {b:?} there, {a:?} here"))
    }

    /// The text that every games.csv row's digest covers besides the row itself
    /// ([`row_digest`]): the run's identity without its shard, one `name=value` line per
    /// field. Without the shard, a shard's rows carry the digests of the whole run's, so
    /// merged files are byte-identical to a single-machine run's; threads, command,
    /// commit and anchor are left out as they are from the identity.
    pub fn digest_key(&self) -> String {
        self.identity(("shard", String::new()))
            .iter()
            .filter(|(what, _)| *what != "shard")
            .map(|(what, value)| format!("{what}={value}\n"))
            .collect()
    }
}

/// The digest of a games.csv row: FNV-1a (64 bits, 16 lower-case hex digits) of `key`
/// ([`RunMeta::digest_key`]) followed by the row as written, without its line end and
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

/// A shard as meta.csv writes it; `none` for a whole run.
fn shard_text(shard: Option<Shard>) -> String {
    shard.map_or_else(|| "none".into(), |s| s.to_string())
}

/// Appends game and timing rows to games.csv and timings.csv, flushing after every game.
///
/// Each game's timing row is flushed before its game row, so that after a kill at any
/// instant timings.csv holds at least as many complete rows as games.csv: games.csv is
/// the source of truth of what was played, and a resumed run never lacks a timing.
pub struct RunWriter {
    games: csv::Writer<File>,
    timings: csv::Writer<File>,
    /// The run's [`RunMeta::digest_key`], for each row's digest.
    key: String,
}

impl RunWriter {
    /// Opens games.csv and timings.csv in `dir` for appending, creating them if absent;
    /// a file that is empty gets its header first. `key` is the run's
    /// [`RunMeta::digest_key`]. The caller has made sure that each file holds only its
    /// header and complete rows of this run (see [`scan`] and [`cut`]).
    pub fn open(dir: &Path, key: &str) -> Result<RunWriter> {
        let open = |name: &str, header: &str| -> Result<csv::Writer<File>> {
            let path = dir.join(name);
            let mut file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .with_context(|| format!("cannot open {}", path.display()))?;
            let empty = file.metadata()?.len() == 0;
            if empty {
                writeln!(file, "{header}")
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            Ok(csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(file))
        };
        Ok(RunWriter {
            timings: open(TIMINGS_FILE, TIMINGS_HEADER)?,
            games: open(GAMES_FILE, GAMES_HEADER)?,
            key: key.to_string(),
        })
    }

    /// Writes one game's rows: the timing row, flushed, then the game row with its digest
    /// ([`row_digest`]; `game.digest` is ignored), flushed.
    pub fn write(&mut self, game: &GameRow, timing: &TimingRow) -> Result<()> {
        self.timings.serialize(timing)?;
        self.timings.flush().context("cannot write timings.csv")?;
        let game = GameRow {
            digest: row_digest(game, &self.key),
            ..game.clone()
        };
        self.games.serialize(&game)?;
        self.games.flush().context("cannot write games.csv")?;
        Ok(())
    }
}

/// Reads a games.csv without changing it: its complete rows and its torn end, if any
/// ([`scan`] with [`GAMES_HEADER`]). The rows are not checked against the run: see
/// [`crate::audit`].
pub fn read_games(path: &Path) -> Result<Scanned<GameRow>> {
    scan(path, GAMES_HEADER)
}

/// Reads a games.csv of [`OLDER_FORMAT`] as [`read_games`] does, except that a row need
/// not be written back byte for byte (this build would write it with more columns):
/// the columns it lacks read as their defaults (the digest as empty).
pub fn read_older_games(path: &Path) -> Result<Scanned<GameRow>> {
    scan_rows(path, OLDER_GAMES_HEADER, false)
}

/// What [`scan`] found in a CSV file that a stopped run may have left with a torn end.
#[derive(Debug, PartialEq, Eq)]
pub struct Scanned<T> {
    /// The complete rows, in file order.
    pub rows: Vec<T>,
    /// Length in bytes of the header line and the complete rows: everything after it is
    /// `tail`.
    pub keep: u64,
    /// The torn end after `keep`, if any.
    pub tail: Option<Tail>,
}

/// The torn end of a file: a last line that a killed writer left half-written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tail {
    /// Its line number, from 1 (the header is line 1).
    pub line: usize,
    /// What it is, e.g. `half-written row (no line end, 41 bytes)`.
    pub what: String,
}

/// Reads a run's CSV file (games.csv or timings.csv) line by line, without changing it.
///
/// A missing or empty file has no rows. The header must be `header`. Every row line must
/// parse as a `T` and be written back byte for byte as it stands (so that rows appended
/// later make the same file as an uninterrupted run). Only the **last** line may fail
/// that: if it has no line end, or does not parse, it is the torn end of a killed write
/// and is returned as [`Scanned::tail`] (a half-written header counts too). Anything else
/// (another header, a bad row before the last line) makes the file foreign: a
/// [`BadInput`] naming the file, the line number and what is wrong.
pub fn scan<T: Serialize + DeserializeOwned>(path: &Path, header: &str) -> Result<Scanned<T>> {
    scan_rows(path, header, true)
}

/// [`scan`], with the check that each row is written back byte for byte only if `exact`.
fn scan_rows<T: Serialize + DeserializeOwned>(
    path: &Path,
    header: &str,
    exact: bool,
) -> Result<Scanned<T>> {
    let mut scanned = Scanned {
        rows: Vec::new(),
        keep: 0,
        tail: None,
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(scanned),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let shown = path.display();
    let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    for (i, &line) in lines.iter().enumerate() {
        let number = i + 1;
        let last = number == lines.len();
        let Some(content) = line.strip_suffix(b"\n") else {
            // Only the last piece of a split can lack its line end.
            let what = if i == 0 && header.as_bytes().starts_with(line) {
                format!("half-written header (no line end, {} bytes)", line.len())
            } else if i == 0 {
                return Err(foreign(path, number, "is not this build's header").into());
            } else {
                format!("half-written row (no line end, {} bytes)", line.len())
            };
            scanned.tail = Some(Tail { line: number, what });
            break;
        };
        if i == 0 {
            if content != header.as_bytes() {
                return Err(foreign(path, number, "is not this build's header").into());
            }
        } else {
            match parse_row::<T>(header, content, exact) {
                Ok(row) => scanned.rows.push(row),
                Err(problem) if last => {
                    scanned.tail = Some(Tail {
                        line: number,
                        what: format!("unreadable last row ({problem})"),
                    });
                    break;
                }
                Err(problem) => {
                    return Err(foreign(path, number, &format!("is not a row ({problem})")).into())
                }
            }
        }
        scanned.keep += line.len() as u64;
    }
    debug_assert!(
        scanned.tail.is_some() || scanned.keep == bytes.len() as u64,
        "{shown}"
    );
    Ok(scanned)
}

/// The error for a file that is not this run's: it is left as it is.
pub fn foreign(path: &Path, line: usize, what: &str) -> BadInput {
    BadInput::new(format!(
        "{} line {line} {what}: this folder does not hold this run as this build writes it; \
         nothing was changed",
        path.display()
    ))
}

/// Parses one row line under `header`; if `exact`, the row must write back to exactly
/// `content`.
fn parse_row<T: Serialize + DeserializeOwned>(
    header: &str,
    content: &[u8],
    exact: bool,
) -> Result<T, String> {
    let mut text = Vec::with_capacity(header.len() + content.len() + 2);
    text.extend_from_slice(header.as_bytes());
    text.push(b'\n');
    text.extend_from_slice(content);
    text.push(b'\n');
    let mut reader = csv::Reader::from_reader(text.as_slice());
    let row: T = match reader.deserialize().next() {
        Some(Ok(row)) => row,
        Some(Err(e)) => return Err(e.to_string()),
        None => return Err("empty line".into()),
    };
    if !exact {
        return Ok(row);
    }
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer.serialize(&row).map_err(|e| e.to_string())?;
    let written = writer.into_inner().map_err(|e| e.to_string())?;
    if written.strip_suffix(b"\n") != Some(content) {
        return Err("not written as this build writes it".into());
    }
    Ok(row)
}

/// Where the bytes cut from `path` are saved: `path` with `.partial` appended.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Cuts `path` to its first `keep` bytes, first appending the bytes after them to
/// [`partial_path`] (created if needed, synced to disk before the cut), so that no byte
/// is ever lost. Returns how many bytes were moved.
pub fn cut(path: &Path, keep: u64) -> Result<u64> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let Some(rest) = bytes.get(keep as usize..).filter(|r| !r.is_empty()) else {
        return Ok(0);
    };
    let side = partial_path(path);
    let mut saved = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&side)
        .with_context(|| format!("cannot open {}", side.display()))?;
    saved
        .write_all(rest)
        .and_then(|()| saved.sync_all())
        .with_context(|| format!("cannot write {}", side.display()))?;
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.set_len(keep)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot cut {}", path.display()))?;
    Ok(rest.len() as u64)
}

/// `path` with `.tmp` appended: where a whole file is written before it is renamed.
fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Writes summary.csv. Like meta.csv, the file appears whole or not at all (written
/// under a temporary name, then renamed), so that a run killed while writing it is not
/// mistaken for a finished one.
pub fn write_summary(path: &Path, rows: &[SummaryRow]) -> Result<()> {
    let temporary = temporary_path(path);
    let file = File::create(&temporary)
        .with_context(|| format!("cannot create {}", temporary.display()))?;
    let mut w = csv::Writer::from_writer(file);
    for row in rows {
        w.serialize(row)?;
    }
    w.flush()
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    drop(w);
    std::fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}

/// The first field where two [`RunMeta::identity`] lists differ: its name, then the
/// first list's text and the second's.
pub fn first_difference<const N: usize>(
    a: [(&'static str, String); N],
    b: [(&'static str, String); N],
) -> Option<(&'static str, String, String)> {
    a.into_iter()
        .zip(b)
        .find(|((_, x), (_, y))| x != y)
        .map(|((what, x), (_, y))| (what, x, y))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_rows_round_trip_with_the_documented_header() {
        let row = GameRow {
            game: 3,
            pair: 1,
            pairing: 0,
            agent0: "ab:depth=3".into(),
            agent1: "random".into(),
            side0: "white".into(),
            side1: "black".into(),
            result0: Result0::Draw,
            winner: None,
            end_reason: "cap".into(),
            plies: 2,
            turns: 2,
            decisions0: 0,
            decisions1: 1,
            nodes0: 10,
            nodes1: 1,
            opening: 1,
            moves: "a1xa2 swap".into(),
            note: String::new(),
            digest: "0123456789abcdef".into(),
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(
            text,
            "game,pair,pairing,agent0,agent1,side0,side1,result0,winner,end_reason,plies,\
             turns,decisions0,decisions1,nodes0,nodes1,opening,moves,note,digest\n\
             3,1,0,ab:depth=3,random,white,black,0.5,,cap,2,2,0,1,10,1,1,a1xa2 swap,,0123456789abcdef\n"
        );
        assert_eq!(text.lines().next(), Some(GAMES_HEADER));
        let back: GameRow = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(back, row);
        assert_eq!(Result0::Loss.score(0), -1);
        assert_eq!(Result0::Loss.score(1), 1);
    }

    #[test]
    fn meta_round_trips_and_names_the_difference() {
        let dir = std::env::temp_dir().join(format!("agon-meta-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(META_FILE);
        let meta = RunMeta {
            toolkit: toolkit(),
            commit: "0123abc-dirty".into(),
            game: "invector:height=5,pie=true,width=6".into(),
            agents: vec!["ab:depth=3".into(), "random".into()],
            games_per_pairing: 4,
            seed: 9,
            random_opening: 0,
            openings: "openings.txt".into(),
            openings_hash: "af63dc4c8601ec8c".into(),
            threads: 2,
            command: "agon tournament --game \"invector:width=6\"".into(),
            shard: None,
            sprt: None,
            anchor: Some("random".into()),
        };
        meta.write(&path).unwrap();
        let back = RunMeta::read_any(&path).unwrap().0;
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(back, meta);
        let other = RunMeta {
            threads: 1,
            command: "x".into(),
            commit: "unknown".into(),
            anchor: None,
            ..meta.clone()
        };
        assert_eq!(meta.difference(&other), None);
        let other = RunMeta {
            seed: 10,
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&other).unwrap(),
            "seed \"10\" there, \"9\" here"
        );
        let sharded = RunMeta {
            shard: Some(Shard { index: 2, count: 3 }),
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&sharded).unwrap(),
            "shard \"2/3\" there, \"none\" here"
        );
        let other = RunMeta {
            openings_hash: "0000000000000000".into(),
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&other).unwrap(),
            "openings file contents (hash) \"0000000000000000\" there, \"af63dc4c8601ec8c\" here"
        );
        let other = RunMeta {
            random_opening: 4,
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&other).unwrap(),
            "random opening \"4\" there, \"0\" here"
        );
        std::fs::create_dir_all(&dir).unwrap();
        sharded.write(&path).unwrap();
        let back = RunMeta::read_any(&path).unwrap().0;
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(back, sharded);
    }

    /// A whole run's meta as the tests of meta.csv use it.
    fn meta_example() -> RunMeta {
        RunMeta {
            toolkit: "agon 0.1.0".into(),
            commit: "abc".into(),
            game: "pig:die=6,horizon=1000,target=20".into(),
            agents: vec!["greedy".into(), "random".into()],
            games_per_pairing: 6,
            seed: 5,
            random_opening: 2,
            openings: String::new(),
            openings_hash: String::new(),
            threads: 1,
            command: "agon tournament".into(),
            shard: None,
            sprt: None,
            anchor: None,
        }
    }

    #[test]
    fn meta_refuses_unknown_repeated_and_missing_keys_and_tells_the_older_format() {
        let dir = std::env::temp_dir().join(format!("agon-meta-keys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(META_FILE);
        meta_example().write(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let shown = path.display().to_string();
        let read_text = |t: &str| {
            std::fs::write(&path, t).unwrap();
            RunMeta::read_any(&path).map_err(|e| format!("{e:#}"))
        };
        assert_eq!(read_text(&text).unwrap(), (meta_example(), Written::Now));
        // A misspelt key would lose its setting: refused, naming its line.
        assert!(text.contains("\nrandom_opening,2\n"));
        assert_eq!(
            read_text(&text.replace("random_opening,", "raNdom_opening,")).unwrap_err(),
            format!(
                "{shown} line 10: unknown key \"raNdom_opening\" (valid: format, toolkit, \
                 commit, game, agent, games_per_pairing, seed, random_opening, openings, \
                 openings_hash, threads, command, anchor, shard, sprt)"
            )
        );
        assert_eq!(
            read_text(&text.replace("seed,5\n", "seed,5\nseed,6\n")).unwrap_err(),
            format!("{shown} line 10: key \"seed\" is given twice")
        );
        assert_eq!(
            read_text(&text.replace("threads,1\n", "")).unwrap_err(),
            format!("{shown} has no \"threads\" row")
        );
        assert_eq!(
            read_text(&text.replace("threads,1\n", "threads,some\n")).unwrap_err(),
            format!("{shown} line 13: bad threads \"some\": invalid digit found in string")
        );
        // Two agents, two agent rows: `agent` alone may repeat.
        assert_eq!(read_text(&text).unwrap().0.agents.len(), 2);
        assert_eq!(
            read_text(&text.replace("format,3", "format,2")).unwrap(),
            (meta_example(), Written::Older)
        );
        assert_eq!(
            read_text(&text.replace("format,3", "format,1")).unwrap_err(),
            format!(
                "{shown} line 2: format \"1\" is not one this build reads (it writes format 3 \
                 and reads 2)"
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_rows_digest_covers_each_field_and_the_run_but_not_the_shard() {
        let meta = meta_example();
        let key = meta.digest_key();
        assert_eq!(
            key,
            "toolkit=agon 0.1.0\ngame=pig:die=6,horizon=1000,target=20\nagents=greedy random\n\
             games per pairing=6\nseed=5\nsprt=none\nrandom opening=2\nopenings file=\n\
             openings file contents (hash)=\n"
        );
        let sharded = RunMeta {
            shard: Some(Shard { index: 2, count: 3 }),
            threads: 4,
            command: "other".into(),
            commit: "def".into(),
            anchor: Some("random".into()),
            ..meta.clone()
        };
        assert_eq!(sharded.digest_key(), key);
        let row = GameRow::example(3, 0, ["random", "greedy"], Result0::Win, 7);
        let digest = row_digest(&row, &key);
        // Pinned (recomputed outside Rust): FNV-1a of the key, then
        // `3,1,0,random,greedy,black,white,1,0,elimination,7,7,4,3,0,0,0,,`.
        assert_eq!(digest, "3bd6420eaaf5df3a");
        // The digest field itself is not covered; every other field is.
        let with_digest = GameRow {
            digest: "x".into(),
            ..row.clone()
        };
        assert_eq!(row_digest(&with_digest, &key), digest);
        let edits: [fn(&mut GameRow); 6] = [
            |r| r.winner = Some(1),
            |r| r.result0 = Result0::Loss,
            |r| r.plies += 1,
            |r| r.moves = "roll 3".into(),
            |r| r.note = "n".into(),
            |r| r.nodes1 = 1,
        ];
        for edit in edits {
            let mut changed = row.clone();
            edit(&mut changed);
            assert_ne!(row_digest(&changed, &key), digest, "{changed:?}");
        }
        let other_seed = RunMeta { seed: 6, ..meta };
        assert_ne!(row_digest(&row, &other_seed.digest_key()), digest);
    }

    #[test]
    fn scan_finds_the_torn_end_and_cut_saves_it() {
        let dir = std::env::temp_dir().join(format!("agon-scan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(TIMINGS_FILE);
        let side = partial_path(&path);
        let _ = std::fs::remove_file(&side);
        let scan_text = |text: &str| {
            std::fs::write(&path, text).unwrap();
            scan::<TimingRow>(&path, TIMINGS_HEADER)
        };
        let row = |game| TimingRow {
            game,
            time_us0: 5,
            time_us1: 7,
        };

        // Missing and empty files have no rows.
        std::fs::remove_file(&path).ok();
        let none = scan::<TimingRow>(&path, TIMINGS_HEADER).unwrap();
        assert_eq!((none.rows.len(), none.keep, none.tail), (0, 0, None));
        assert_eq!(scan_text("").unwrap().keep, 0);

        // A half-written header.
        let torn = scan_text("game,time").unwrap();
        assert_eq!(torn.keep, 0);
        assert_eq!(
            torn.tail.unwrap().what,
            "half-written header (no line end, 9 bytes)"
        );

        // Whole rows, then a last line that has its line end but does not parse.
        let header = "game,time_us0,time_us1\n";
        let text = format!("{header}0,5,7\n1,5,7\n2,5\n");
        let found = scan_text(&text).unwrap();
        assert_eq!(found.rows, vec![row(0), row(1)]);
        assert_eq!(found.keep, (header.len() + 12) as u64);
        let tail = found.tail.unwrap();
        assert_eq!(tail.line, 4);
        assert!(
            tail.what.starts_with("unreadable last row ("),
            "{}",
            tail.what
        );

        // The same line before the last: the file is foreign.
        let error = scan_text(&format!("{header}0,5,7\n2,5\n1,5,7\n")).unwrap_err();
        let bad = error.downcast_ref::<BadInput>().unwrap();
        assert!(
            bad.0
                .starts_with(&format!("{} line 3 is not a row (", path.display())),
            "{bad}"
        );

        // Cutting appends the tail to the side file, twice over, and keeps the rows.
        std::fs::write(&path, &text).unwrap();
        assert_eq!(cut(&path, found.keep).unwrap(), 4);
        std::fs::write(&path, format!("{header}0,5,7\n1,5,7\n2,")).unwrap();
        assert_eq!(cut(&path, found.keep).unwrap(), 2);
        assert_eq!(cut(&path, found.keep).unwrap(), 0);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{header}0,5,7\n1,5,7\n")
        );
        assert_eq!(std::fs::read_to_string(&side).unwrap(), "2,5\n2,");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
