//! The study's output folder: whether it is new or holds this study ([`inspect`]), and
//! whether that study is finished ([`study_state`]), each of its runs read and checked
//! ([`run_state`]).
//!
//! A study folder may be new or empty (or hold only its lock file and study.csv's
//! temporary file): a new study; or hold a study.csv equal to this study's: this study,
//! finished or not. Anything else is refused (exit 2), naming the first difference of a
//! study.csv, and nothing is changed.

use std::path::Path;

use anyhow::{Context, Result};

use super::study::StudyRun;
use super::study::{difference, read_study, STUDY_FILE};
use super::tidy::BALANCE_FILE;
use crate::bad_input::BadInput;
use crate::commands::tournament::planned_meta;
use crate::no_follow::refuse_links;
use crate::no_follow::temporary_path;
use crate::record::{GameRow, RunMeta, META_FILE, SUMMARY_FILE};
use crate::running::audit::plan_of;
use crate::running::folder::{check_files, is_new_folder, missing_games};
use crate::running::lock::LOCK_FILE;
use crate::running::tournament::Plan;

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

/// What one run folder of a study holds.
pub enum RunState {
    /// Every game of its plan, checked, and its summary.csv: its game rows.
    Finished(Vec<GameRow>),
    /// Anything less: what it lacks, in words, and whether it holds a summary.csv all
    /// the same (`marked`: a finished run that lost rows since, or was cut by hand).
    Unfinished { what: String, marked: bool },
}

/// Reads the run folder `dir` of a study without changing it, with the checks every
/// reader of a finished run makes ([`check_files`], [`missing_games`]: each row the
/// run's own, every game of the plan there, each with its timing row), from games.csv
/// or from games.csv.gz where games.csv is absent. With `plan` (the run the study plans
/// there), its meta.csv must describe that run. A meta.csv that cannot be read or
/// describes another run, and rows that are not the run's, are refused (exit 2); a
/// folder without meta.csv is a run not started.
pub fn run_state(dir: &Path, plan: Option<&Plan>) -> Result<RunState> {
    let shown = dir.display();
    let marked = dir.join(SUMMARY_FILE).is_file();
    let meta_path = dir.join(META_FILE);
    if !meta_path.is_file() {
        return Ok(RunState::Unfinished {
            what: "not started".into(),
            marked,
        });
    }
    let (meta, written) = RunMeta::read_any(&meta_path).map_err(|e| {
        BadInput::new(format!(
            "run folder \"{shown}\" holds a {META_FILE} this build cannot read ({e:#})"
        ))
    })?;
    if let Some(difference) = plan.and_then(|p| planned_meta(p, meta.clone()).difference(&meta)) {
        return Err(BadInput::new(format!(
            "run folder \"{shown}\" holds another run than the study plans there \
             ({difference}); remove it and resume the study with --resume"
        ))
        .into());
    }
    let plan = plan_of(&meta)
        .map_err(|e| BadInput::new(format!("run folder \"{shown}\": {META_FILE}: {e}")))?;
    let found = check_files(dir, &plan, &meta, written)?;
    if let Some(what) = missing_games(dir, &found, &plan, None) {
        return Ok(RunState::Unfinished { what, marked });
    }
    if !marked {
        return Ok(RunState::Unfinished {
            what: format!("no {SUMMARY_FILE}"),
            marked,
        });
    }
    Ok(RunState::Finished(found.games.rows))
}

/// What a study folder holding this study holds.
pub enum StudyState {
    /// Every run finished and, for a whole study, balance.csv written: each run's game
    /// rows, in the order of the runs.
    Finished(Vec<Vec<GameRow>>),
    /// Anything less, in words for the refusal of a study not resumed: how many runs are
    /// finished, and the first run that holds a summary.csv but not its games, if any
    /// (e.g. `4 of 6 runs finished; base/A2-self is marked finished (summary.csv), but
    /// games.csv holds 3 of its 8 games`).
    Unfinished(String),
}

/// Reads every run of the study in `dir` ([`run_state`], each against the run `runs`
/// plans there), changing nothing: the study is finished when every run is and, for a
/// whole study (`whole`), its balance.csv is written. A run whose rows do not hold its
/// plan's games makes the study unfinished whatever the marks say, so it is continued
/// (`--resume`) rather than read short.
pub fn study_state(dir: &Path, runs: &[StudyRun], whole: bool) -> Result<StudyState> {
    let mut rows = Vec::new();
    let mut damaged = None;
    for run in runs {
        match run_state(&dir.join(&run.folder), Some(&run.plan))? {
            RunState::Finished(games) => rows.push(games),
            RunState::Unfinished { what, marked } => {
                if marked && damaged.is_none() {
                    damaged = Some(format!(
                        "{} is marked finished ({SUMMARY_FILE}), but {what}",
                        run.folder.display()
                    ));
                }
            }
        }
    }
    if rows.len() == runs.len() && (!whole || dir.join(BALANCE_FILE).is_file()) {
        return Ok(StudyState::Finished(rows));
    }
    let mut text = format!("{} of {} runs finished", rows.len(), runs.len());
    if let Some(damaged) = damaged {
        text.push_str(&format!("; {damaged}"));
    }
    Ok(StudyState::Unfinished(text))
}
