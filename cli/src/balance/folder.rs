//! The study's output folder: whether it is new or holds this study ([`inspect`]), and
//! whether that study is finished ([`finished`]); the reading of a finished run's rows
//! ([`read_run`]).
//!
//! A study folder may be new or empty (or hold only its lock file and study.csv's
//! temporary file): a new study; or hold a study.csv equal to this study's: this study,
//! finished or not. Anything else is refused (exit 2), naming the first difference of a
//! study.csv, and nothing is changed.

use std::path::Path;

use anyhow::{Context, Result};

use super::study::{difference, read_study, STUDY_FILE};
use super::tidy::BALANCE_FILE;
use crate::args::BadInput;
use crate::audit::{plan_of, read_checked_games};
use crate::record::{temporary_path, GameRow, RunMeta, GAMES_FILE, META_FILE, SUMMARY_FILE};
use crate::run_dir::is_new_folder;
use crate::run_lock::LOCK_FILE;

/// What a study folder holds, with respect to the study about to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StudyFolder {
    /// Nothing: a new study.
    New,
    /// This study, finished or not.
    Same,
}

/// Looks at the study folder `dir` without changing it; `rows` are this study's
/// study.csv rows.
pub fn inspect(dir: &Path, rows: &[(String, String)]) -> Result<StudyFolder> {
    let shown = dir.display();
    let study_tmp = temporary_path(Path::new(STUDY_FILE));
    let before_study = [LOCK_FILE, &study_tmp.to_string_lossy()];
    if is_new_folder(dir, &before_study)? {
        return Ok(StudyFolder::New);
    }
    let Some(theirs) = read_study(dir)? else {
        return Err(BadInput::new(format!(
            "output folder \"{shown}\" is not empty and holds no agon study (no {STUDY_FILE}); \
             choose a new or empty folder"
        ))
        .into());
    };
    if let Some(what) = difference(rows, &theirs) {
        return Err(BadInput::new(format!(
            "output folder \"{shown}\" holds a different study ({what}); choose another \
             --out or remove it"
        ))
        .into());
    }
    Ok(StudyFolder::Same)
}

/// How many of the study's run `folders` (relative to `dir`) are finished (summary.csv
/// is written last); the study is finished when all are and, for a whole study, its
/// balance.csv is written (`whole`).
pub fn finished(dir: &Path, folders: &[&Path], whole: bool) -> (usize, bool) {
    let done = folders
        .iter()
        .filter(|f| dir.join(f).join(SUMMARY_FILE).is_file())
        .count();
    let all = done == folders.len() && (!whole || dir.join(BALANCE_FILE).is_file());
    (done, all)
}

/// The game rows of the run folder `dir`, read and checked as `agon report` reads them.
pub fn read_run(dir: &Path) -> Result<Vec<GameRow>> {
    let (meta, written) = RunMeta::read_any(&dir.join(META_FILE))?;
    let plan = plan_of(&meta)?;
    Ok(read_checked_games(&dir.join(GAMES_FILE), &meta, &plan, written)?.rows)
}

/// Writes the CSV file `path` whole or not at all: `fill` writes its records into a
/// temporary file, which is then renamed into place, so a stop never leaves half a file.
pub fn write_whole(
    path: &Path,
    fill: impl FnOnce(&mut csv::Writer<std::fs::File>) -> Result<()>,
) -> Result<()> {
    let temporary = temporary_path(path);
    let mut w = csv::Writer::from_path(&temporary)
        .with_context(|| format!("cannot create {}", temporary.display()))?;
    fill(&mut w)?;
    w.flush()
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    drop(w);
    std::fs::rename(&temporary, path).with_context(|| {
        format!(
            "cannot rename {} to {}",
            temporary.display(),
            path.display()
        )
    })
}
