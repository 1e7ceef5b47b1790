//! The output folder of a run, shared by `agon tournament` ([`crate::commands::tournament`])
//! and `agon merge` ([`crate::running::merge`]): [`inspect`] says whether it is new or holds this
//! run (and refuses anything else), [`check_files`] reads its data files checked against
//! the plan, [`missing_games`] says what they lack of the plan's games (every reader of a
//! finished run asks it: a resume, a merge, a report, a balance study), and [`repair`]
//! cuts them back to the last complete game, saving what it cuts.

use std::path::Path;

use anyhow::{Context, Result};

use crate::bad_input::BadInput;
use crate::no_follow::refuse_links;
use crate::record::{
    cut, foreign, games_path, partial_path, scan, GameRow, RunMeta, Scanned, TimingRow, Written,
    FORMAT, GAMES_FILE, GAMES_GZ_FILE, META_FILE, OLDER_FORMAT, TIMINGS_FILE, TIMINGS_HEADER,
};
use crate::reporting::stats::sprt::Sprt;
use crate::running::audit::read_checked_games;
use crate::running::lock::LOCK_FILE;
use crate::running::tournament::{sprt_decides, Plan};

/// What an output folder holds, with respect to the run about to start.
pub(crate) enum Folder {
    /// Nothing (absent or empty): a new run.
    New,
    /// This run (its meta.csv as found), finished or not.
    Same(Box<RunMeta>),
}

/// The data files of this run as found, checked against the plan, not yet changed.
pub(crate) struct Found {
    /// games.csv: its torn end, if any, and `rows`, the first `n` complete rows (the
    /// range's first `n` games): those that have their timing row. `keep` counts every
    /// complete row's bytes, kept or not.
    pub(crate) games: Scanned<GameRow>,
    /// The complete rows games.csv holds, `n` of them kept.
    pub(crate) complete: usize,
    /// Byte length of games.csv's header and first `n` rows: the rest is cut.
    games_keep: u64,
    /// timings.csv: its first `n` rows are the games' timings.
    pub(crate) timings: Scanned<TimingRow>,
    /// Byte length of timings.csv's header and first `n` rows: the rest is cut.
    timings_keep: u64,
}

impl Found {
    /// Whether both files end at the last kept game, with nothing to cut.
    pub(crate) fn clean(&self) -> bool {
        self.games.tail.is_none()
            && self.games_keep == self.games.keep
            && self.timings.tail.is_none()
            && self.timings_keep == self.timings.keep
    }
}

/// Whether the output folder `dir` is a new one: absent, or holding nothing but files
/// named in `before_start` (what a stop may leave before the folder's first record is
/// written). A file where the folder should be, and a folder holding a symbolic link
/// ([`refuse_links`]: agon would write through it), are refused (exit 2).
pub(crate) fn is_new_folder(dir: &Path, before_start: &[&str]) -> Result<bool> {
    let shown = dir.display();
    if !dir.exists() {
        return Ok(true);
    }
    if !dir.is_dir() {
        return Err(
            BadInput::new(format!("output folder \"{shown}\" is a file, not a folder")).into(),
        );
    }
    refuse_links(dir, "output folder")?;
    let entries = std::fs::read_dir(dir)
        .and_then(|entries| entries.collect::<Result<Vec<_>, _>>())
        .with_context(|| format!("cannot read folder {shown}"))?;
    Ok(entries
        .iter()
        .all(|e| before_start.iter().any(|name| e.file_name() == *name)))
}

/// Files the tool may leave in a folder before its meta.csv exists: the lock file, and
/// meta.csv's temporary file (a stop while it was written). A folder holding only these
/// is a new run's.
const BEFORE_META: [&str; 2] = [LOCK_FILE, "meta.csv.tmp"];

/// Looks at the output folder without changing it; refuses one that holds something
/// other than this run (tournaments, and `agon merge` for its output).
pub(crate) fn inspect(dir: &Path, meta: &RunMeta) -> Result<Folder> {
    let shown = dir.display();
    if is_new_folder(dir, &BEFORE_META)? {
        return Ok(Folder::New);
    }
    let meta_path = dir.join(META_FILE);
    if !meta_path.is_file() {
        return Err(BadInput::new(format!(
            "output folder \"{shown}\" is not empty and holds no agon run (no {META_FILE}); \
             choose a new or empty folder"
        ))
        .into());
    }
    let theirs = match RunMeta::read_any(&meta_path) {
        Ok((theirs, Written::Now)) => theirs,
        Ok((_, Written::Older)) => {
            return Err(BadInput::new(format!(
                "output folder \"{shown}\" holds a run written by an older agon (format \
                 {OLDER_FORMAT}; this build writes format {FORMAT}), which this build cannot \
                 continue or rewrite; choose another --out (agon report still reads it)"
            ))
            .into())
        }
        Err(e) => {
            return Err(BadInput::new(format!(
                "output folder \"{shown}\" holds a {META_FILE} this build cannot read ({e:#}); \
                 correct it, or choose another --out"
            ))
            .into())
        }
    };
    if let Some(difference) = meta.difference(&theirs) {
        return Err(BadInput::new(format!(
            "output folder \"{shown}\" holds a different run ({difference}); \
             choose another --out or remove it"
        ))
        .into());
    }
    Ok(Folder::Same(Box::new(theirs)))
}

/// Reads games.csv and timings.csv of this run's folder (planned as `plan`, its
/// meta.csv read as `meta`, in the layout `written`) without changing them, and refuses
/// (exit 2, naming file and line) files that are not this run's: a games.csv row that
/// fails the checks of [`crate::running::audit`] (out of order, not the plan's, changed since it
/// was written, or not what its moves give), or a timings.csv row out of order.
///
/// games.csv is the source of truth, but a game counts as played only with its timing
/// row (written first): if timings.csv holds fewer rows (it was lost or cut), the games
/// without one are left out of [`Found::games`]' rows, to be cut aside and played again.
/// Where games.csv is absent the games are read from games.csv.gz
/// ([`crate::record::games_path`]); such a folder is read, never repaired or continued.
pub(crate) fn check_files(
    dir: &Path,
    plan: &Plan,
    meta: &RunMeta,
    written: Written,
) -> Result<Found> {
    let games_path = games_path(dir);
    let mut games = read_checked_games(&games_path, meta, plan, written)?;
    let start = plan.game_range().start;
    let timings_path = dir.join(TIMINGS_FILE);
    let timings: Scanned<TimingRow> = scan(&timings_path, TIMINGS_HEADER)?;
    for (i, row) in timings.rows.iter().enumerate() {
        let index = start + i as u64;
        if row.game != index {
            return Err(foreign(
                &timings_path,
                i + 2,
                &format!("holds game {} where game {index} belongs", row.game),
            )
            .into());
        }
    }
    let complete = games.rows.len();
    let n = complete.min(timings.rows.len());
    games.rows.truncate(n);
    Ok(Found {
        complete,
        games_keep: head_bytes(&games_path, games.keep, complete, n)?,
        timings_keep: head_bytes(&timings_path, timings.keep, timings.rows.len(), n)?,
        games,
        timings,
    })
}

/// What the checked folder `dir` ([`check_files`]: its files `found`, planned as
/// `plan`) lacks of its plan's games, in words (e.g. `games.csv holds 100 of its 4000
/// games`), or `None` when its files hold them as a finished run's do: every game of its
/// range (or, with `sprt`, every game up to the pair that decided it), each with its
/// timing row, no torn end, no timing row past the last game. This is the one test of
/// "every game is there" that every reader of a finished run applies (a resume, `agon
/// merge` for its shards, `agon report`, a balance study reading its runs); whether
/// summary.csv was written, the mark of a finished run, is asked apart by those that need
/// it.
pub(crate) fn missing_games(
    dir: &Path,
    found: &Found,
    plan: &Plan,
    sprt: Option<&Sprt>,
) -> Option<String> {
    let path = games_path(dir);
    if !path.is_file() {
        return Some(format!("no {GAMES_FILE} (nor {GAMES_GZ_FILE})"));
    }
    let file = path.file_name().unwrap_or_default().to_string_lossy();
    let n = found.games.rows.len();
    if let Some(tail) = &found.games.tail {
        return Some(format!("{file} line {}: {}", tail.line, tail.what));
    }
    if n < found.complete {
        return Some(if dir.join(TIMINGS_FILE).is_file() {
            format!(
                "{TIMINGS_FILE} holds the rows of {n} of the {} games in {file}",
                found.complete
            )
        } else {
            format!("no {TIMINGS_FILE}")
        });
    }
    let range = plan.game_range();
    let expected = range.end - range.start;
    let decided = sprt.is_some_and(|s| sprt_decides(s, &found.games.rows));
    if (n as u64) < expected && !decided {
        let games = match plan.shard {
            Some(_) => format!(" {} to {}", range.start, range.end - 1),
            None => String::new(),
        };
        return Some(format!("{file} holds {n} of its {expected} games{games}"));
    }
    if !found.clean() {
        return Some(format!("{TIMINGS_FILE} holds rows past its last game's"));
    }
    None
}

/// The byte length of the header and first `n` rows of the file at `path`, of which a
/// scan kept `keep` bytes holding `rows` complete rows (0 bytes: no complete header,
/// nothing to keep). The file is read again only when `n` cuts into those rows.
fn head_bytes(path: &Path, keep: u64, rows: usize, n: usize) -> Result<u64> {
    if keep == 0 || n == rows {
        return Ok(keep);
    }
    let text = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(text
        .split_inclusive(|&b| b == b'\n')
        .take(n + 1)
        .map(|l| l.len() as u64)
        .sum())
}

/// Makes a checked folder end at its last complete game: a torn end of games.csv, the
/// games.csv rows that have no timing row, and whatever timings.csv holds past the last
/// kept game's row, are reported (one line each, on standard error) and moved to
/// `<file>.partial`. `first` is the index of the folder's first game (a shard's first),
/// for the messages.
pub(crate) fn repair(dir: &Path, found: &Found, first: u64) -> Result<()> {
    let n = found.games.rows.len();
    // The game index of the first row past the kept games (a shard starts at `first`).
    let next = first + n as u64;
    let games_path = dir.join(GAMES_FILE);
    if n < found.complete {
        let moved = cut(&games_path, found.games_keep)?;
        eprintln!(
            "note: {} line {}: rows from game {next} on have no row in {TIMINGS_FILE} (which \
             is written first, so it lost them; those games are played again); moved {moved} \
             bytes to {}",
            games_path.display(),
            n + 2,
            partial_path(&games_path).display()
        );
    } else if let Some(tail) = &found.games.tail {
        let moved = cut(&games_path, found.games_keep)?;
        eprintln!(
            "note: {} line {}: {}; moved {moved} bytes to {} (every complete row is kept)",
            games_path.display(),
            tail.line,
            tail.what,
            partial_path(&games_path).display()
        );
    }
    let timings_path = dir.join(TIMINGS_FILE);
    if found.timings_keep < found.timings.keep || found.timings.tail.is_some() {
        let what = match &found.timings.tail {
            Some(tail) if found.timings.rows.len() == n => {
                format!("line {}: {}", tail.line, tail.what)
            }
            _ => format!(
                "line {}: rows from game {next} on, past games.csv's last game (games.csv \
                 is the source of truth; those games are played again)",
                n + 2
            ),
        };
        let moved = cut(&timings_path, found.timings_keep)?;
        eprintln!(
            "note: {} {what}; moved {moved} bytes to {}",
            timings_path.display(),
            partial_path(&timings_path).display()
        );
    }
    Ok(())
}
