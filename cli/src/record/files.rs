//! The append-only files of a run: [`RunWriter`] appends rows game by game, [`scan`]
//! reads a file a stopped run may have left with a torn end, [`cut`] removes that end
//! without losing a byte, and [`write_summary`] writes summary.csv whole or not at all.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use flate2::read::MultiGzDecoder;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::rows::{
    row_digest, GameRow, SummaryRow, TimingRow, GAMES_HEADER, OLDER_GAMES_HEADER, TIMINGS_HEADER,
};
use super::{GAMES_FILE, TIMINGS_FILE};
use crate::bad_input::BadInput;
use crate::no_follow;

/// Appends game and timing rows to games.csv and timings.csv, flushing after every game.
///
/// Each game's timing row is flushed before its game row, so that after a kill at any
/// instant timings.csv holds at least as many complete rows as games.csv: games.csv is
/// the source of truth of what was played, and a resumed run never lacks a timing.
pub struct RunWriter {
    games: csv::Writer<File>,
    timings: csv::Writer<File>,
    /// The run's [`RunMeta::digest_key`](super::RunMeta::digest_key), for each row's digest.
    key: String,
    /// Game rows this writer has written.
    written: usize,
    /// The test hook [`PAUSE_VARIABLE`]: after this many rows, wait until the file exists.
    pause: Option<(usize, PathBuf)>,
}

/// A test hook: with `AGON_TEST_PAUSE=N:PATH` in the environment, a run's writer stops
/// after writing its `N`th game row (counted from this process's start) until the file
/// `PATH` exists. The tests of kills, resumes and locks use it to stop a run at an exact
/// row, rather than racing a background run with a clock.
pub const PAUSE_VARIABLE: &str = "AGON_TEST_PAUSE";

/// The pause [`PAUSE_VARIABLE`] asks for, if any.
fn pause_from_environment() -> Result<Option<(usize, PathBuf)>, BadInput> {
    let Some(value) = std::env::var_os(PAUSE_VARIABLE) else {
        return Ok(None);
    };
    let value = value.to_string_lossy();
    value
        .split_once(':')
        .and_then(|(rows, path)| Some((rows.parse().ok()?, PathBuf::from(path))))
        .map(Some)
        .ok_or_else(|| {
            BadInput::new(format!(
                "{PAUSE_VARIABLE}={value:?} is not ROWS:PATH (a test hook: stop after ROWS \
                 game rows until the file PATH exists)"
            ))
        })
}

impl RunWriter {
    /// Opens games.csv and timings.csv in `dir` for appending, creating them if absent;
    /// a file that is empty gets its header first. `key` is the run's
    /// [`RunMeta::digest_key`](super::RunMeta::digest_key). The caller has made sure that each file holds only its
    /// header and complete rows of this run (see [`scan`] and [`cut`]).
    pub fn open(dir: &Path, key: &str) -> Result<RunWriter> {
        let open = |name: &str, header: &str| -> Result<csv::Writer<File>> {
            let path = dir.join(name);
            let mut file = no_follow::open(&path, OpenOptions::new().create(true).append(true))?;
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
            written: 0,
            pause: pause_from_environment()?,
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
        self.written += 1;
        if let Some((rows, path)) = &self.pause {
            if self.written == *rows {
                while !path.exists() {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            }
        }
        Ok(())
    }
}

/// Reads a games.csv without changing it: its complete rows and its torn end, if any
/// ([`scan`] with [`GAMES_HEADER`]). The rows are not checked against the run: see
/// [`crate::running::audit`].
pub fn read_games(path: &Path) -> Result<Scanned<GameRow>> {
    scan(path, GAMES_HEADER)
}

/// Reads a games.csv of [`OLDER_FORMAT`](super::OLDER_FORMAT) as [`read_games`] does, except that a row need
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
/// A missing or empty file has no rows; a games.csv.gz is read as the games.csv it holds. The header must be `header`. Every row line must
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
    let Some(bytes) = read_bytes(path)? else {
        return Ok(scanned);
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

/// The bytes of the file at `path`, or `None` when there is none; a file whose name ends
/// in `.gz` ([`GAMES_GZ_FILE`](super::GAMES_GZ_FILE)) is decompressed, member after member
/// as gunzip reads it. A compressed file that is not whole gzip (cut short, damaged) is a
/// [`BadInput`] naming it: its rows cannot be trusted, and nothing is changed.
fn read_bytes(path: &Path) -> Result<Option<Vec<u8>>> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if path.extension().and_then(|e| e.to_str()) != Some("gz") {
        return Ok(Some(bytes));
    }
    let mut text = Vec::new();
    MultiGzDecoder::new(bytes.as_slice())
        .read_to_end(&mut text)
        .map_err(|e| {
            BadInput::new(format!(
                "{} is not a whole gzip file ({e}); nothing was changed: restore it (gunzip -t \
                 tests it)",
                path.display()
            ))
        })?;
    Ok(Some(text))
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
    let mut saved = no_follow::open(&side, OpenOptions::new().create(true).append(true))?;
    saved
        .write_all(rest)
        .and_then(|()| saved.sync_all())
        .with_context(|| format!("cannot write {}", side.display()))?;
    let file = no_follow::open(path, OpenOptions::new().write(true))?;
    file.set_len(keep)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot cut {}", path.display()))?;
    Ok(rest.len() as u64)
}

/// Writes summary.csv. Like meta.csv, the file appears whole or not at all (written
/// under a temporary name, then renamed), so that a run killed while writing it is not
/// mistaken for a finished one.
pub fn write_summary(path: &Path, rows: &[SummaryRow]) -> Result<()> {
    write_rows_whole(path, rows)
}

/// Writes a CSV file of `rows` (header first, as serde names the fields) whole or not
/// at all ([`no_follow::write_whole`]).
pub fn write_rows_whole<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    no_follow::write_whole(path, |file| {
        let mut w = csv::Writer::from_writer(file);
        for row in rows {
            w.serialize(row)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        w.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    })
}

/// Refuses an `--out` that cannot be a file: a folder (the message asks to name
/// `what`, e.g. "the weights file"), or a path in a folder that does not exist.
pub fn check_file_out(path: &Path, what: &str) -> Result<(), BadInput> {
    if path.is_dir() {
        return Err(BadInput::new(format!(
            "--out \"{}\" is a folder; name {what} to write",
            path.display()
        )));
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(parent) = parent.filter(|p| !p.is_dir()) {
        return Err(BadInput::new(format!(
            "--out \"{}\": folder \"{}\" does not exist",
            path.display(),
            parent.display()
        )));
    }
    Ok(())
}

/// Writes `text` to `path` whole or not at all: under a temporary name in the same
/// folder, then renamed over it, never through a link ([`no_follow::write_whole`]).
pub fn write_file_whole(path: &Path, text: &str) -> Result<()> {
    no_follow::write_bytes(path, text.as_bytes())
}
