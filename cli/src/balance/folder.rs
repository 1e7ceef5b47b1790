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
use crate::no_follow::{self, refuse_links};
use crate::record::{
    games_path, temporary_path, GameRow, RunMeta, GAMES_FILE, GAMES_GZ_FILE, META_FILE,
    SUMMARY_FILE,
};
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
/// study.csv rows. A symbolic link in it or in one of its arms' folders is refused.
pub fn inspect(dir: &Path, rows: &[(String, String)]) -> Result<StudyFolder> {
    let shown = dir.display();
    let study_tmp = temporary_path(Path::new(STUDY_FILE));
    let before_study = [LOCK_FILE, &study_tmp.to_string_lossy()];
    if is_new_folder(dir, &before_study)? {
        return Ok(StudyFolder::New);
    }
    // Its arms' folders too (the runs' own are looked at as each run opens): a link
    // there would take a run's files elsewhere.
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read folder {shown}"))? {
        let entry = entry.with_context(|| format!("cannot read folder {shown}"))?;
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            refuse_links(&entry.path(), "output folder")?;
        }
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

/// The game rows of the finished run folder `dir`, read and checked as `agon report`
/// reads them (from games.csv, or games.csv.gz where games.csv is absent), changing
/// nothing. The run must hold exactly the games its plan asks for (a study's runs have no
/// SPRT to stop them early): a games file that is missing, short or torn is a
/// [`BadInput`] naming the run folder and the counts, e.g. `study/base/L3-self:
/// games.csv holds 212 of the 400 games its plan asks for`.
pub fn read_run(dir: &Path) -> Result<Vec<GameRow>> {
    let shown = dir.display();
    let (meta, written) = RunMeta::read_any(&dir.join(META_FILE))?;
    let plan = plan_of(&meta)?;
    let range = plan.game_range();
    let planned = range.end - range.start;
    let path = games_path(dir);
    if !path.is_file() {
        return Err(BadInput::new(format!(
            "{shown}: holds no {GAMES_FILE} (nor {GAMES_GZ_FILE}), but its plan asks for \
             {planned} games"
        ))
        .into());
    }
    let scanned = read_checked_games(&path, &meta, &plan, written)?;
    let held = scanned.rows.len() as u64;
    if held != planned || scanned.tail.is_some() {
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        let tail = scanned
            .tail
            .map(|t| format!(", then line {}: {}", t.line, t.what))
            .unwrap_or_default();
        return Err(BadInput::new(format!(
            "{shown}: {file} holds {held} of the {planned} games its plan asks for{tail}"
        ))
        .into());
    }
    Ok(scanned.rows)
}

/// Writes the CSV file `path` whole or not at all: `fill` writes its records into a
/// temporary file, which is then renamed into place, so a stop never leaves half a file
/// ([`no_follow::write_whole`], which never writes through a link).
pub fn write_whole(
    path: &Path,
    fill: impl FnOnce(&mut csv::Writer<&mut std::fs::File>) -> Result<()>,
) -> Result<()> {
    no_follow::write_whole(path, |file| {
        let mut w = csv::Writer::from_writer(file);
        fill(&mut w)?;
        w.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    })
}
