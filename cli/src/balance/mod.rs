//! `agon balance`: a study of a game's balance in one command.
//!
//! A study is a plan of ordinary tournament runs ([`study`]): for the base game and each
//! variant, each rung's self-play and each rung against the previous one, every run a
//! run folder inside the study's folder, played and written by the tournament's own
//! machinery ([`crate::commands::tournament`]), so `agon report` works on each and each resumes
//! as a tournament does. Then the measurements ([`measure`]) are computed from the runs'
//! rows, written tidy to balance.csv ([`tidy`]), drawn ([`charts`]) and printed with a
//! verdict per arm and, for each variant, a verdict comparing it with the base game
//! ([`verdict`]). `--plan` ([`plan`]) times a few games per run and
//! plays nothing else; `--shard I/N` plays a slice of every run, and `agon merge` joins
//! the study folders of the N shards ([`join`]).
//!
//! Order matters, as in a tournament: every input is checked (game, variants, rungs,
//! agents against each arm, openings, games, shard) before the folder is looked at;
//! the folder is looked at without change, then locked and looked at again; only then is
//! study.csv written. A folder holding this study unfinished is continued only with
//! `--resume`. A finished one is reported again from its runs' games without taking the
//! lock or writing anything, so a committed study's folder stays byte for byte as it is;
//! its runs may keep their games compressed (games.csv.gz, read where games.csv is
//! absent). Finished means that every run holds its plan's games, read through the
//! checks of every reader of a finished run ([`folder::run_state`]: each row the run's
//! own, every game there with its timing row, summary.csv written) and, for a whole
//! study, that balance.csv is written: the marks alone are not enough. A run that lost
//! rows since it finished makes the study unfinished, so it is refused without
//! `--resume` (the line names the run and what it lacks) and continued with it, the run
//! repaired and its missing games played as a tournament's resume does.

mod charts;
mod folder;
mod join;
mod measure;
mod plan;
mod race;
mod study;
mod tidy;
mod verdict;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use self::folder::{inspect, study_state, StudyFolder, StudyState};
use self::measure::{ArmMeasures, Level, Replay, SelfPlay, Step};
use self::study::{write_study, Layout, RunKind, Rung, Study, StudyRun, STUDY_FILE};
use self::tidy::{write_balance, BALANCE_FILE};
use crate::args::BalanceArgs;
use crate::bad_input::BadInput;
use crate::commands::tournament::{complete_finished, open_run, play_run, run_meta, Opened};
use crate::games::{dispatch, GameCommand, PlayableGame};
use crate::record::{GameRow, RunMeta};
use crate::reporting::html::{StudyPage, REPORT_HTML};
use crate::running::lock::RunLock;
use crate::running::progress::Progress;
use crate::running::table_memory;
use crate::running::tournament::worker_threads;
use crate::spec::GameSpec;
use crate::stop::Stop;

pub use join::{is_study, merge_studies};

/// Runs `agon balance`; `command` is the command line as typed, for each run's meta.csv.
/// The study stops between games when `stop` is requested ([`crate::run_until`]).
pub fn balance(
    args: &BalanceArgs,
    command: String,
    out: &mut dyn Write,
    stop: &Stop,
) -> Result<()> {
    if !args.search.is_empty() {
        return race::race(args, command, out, stop);
    }
    let study = Study::from_args(args)?;
    let threads = worker_threads(args.threads)?;
    let runs = study.runs()?;
    for run in &runs {
        table_memory::check(&run.plan, threads)?;
    }
    if args.plan {
        return plan::print(&study, &runs, threads, out);
    }
    let dir = &args.out;
    let rows = study.rows()?;
    let whole = study.shard.is_none();
    // Whether a study in the folder may be continued: it must be asked for.
    let refuse_unless_resumed = |state: &str| -> Result<()> {
        if args.resume {
            return Ok(());
        }
        Err(BadInput::new(format!(
            "output folder \"{}\" holds this study unfinished ({state}); pass --resume to \
             continue it, or choose another --out",
            dir.display()
        ))
        .into())
    };
    // A finished study is only read: without the lock, so that its folder (a committed
    // study's) stays exactly as it is, lock file included. Its runs are never appended
    // to again, so no writer can be met. An unfinished one not to be resumed is refused
    // as plainly.
    let seen = inspect(dir, &rows)?;
    if seen == StudyFolder::Same {
        match study_state(dir, &runs, whole)? {
            StudyState::Finished(results) => return print_finished(&study, dir, &results, out),
            StudyState::Unfinished(state) => refuse_unless_resumed(&state)?,
        }
    }
    let _lock = RunLock::acquire(dir)?;
    match inspect(dir, &rows)? {
        StudyFolder::New => write_study(dir, &rows)?,
        // Begun by another process between the two looks (one that finished it since
        // has written its study.csv too): looked at as above.
        StudyFolder::Same if seen == StudyFolder::New => match study_state(dir, &runs, whole)? {
            StudyState::Finished(results) => return print_finished(&study, dir, &results, out),
            StudyState::Unfinished(state) => refuse_unless_resumed(&state)?,
        },
        StudyFolder::Same => {}
    }
    let total: u64 = runs
        .iter()
        .map(|r| r.plan.game_range().end - r.plan.game_range().start)
        .sum();
    let mut progress = Progress::over_runs(total).with_stop(stop);
    let mut results = Vec::new();
    for run in &runs {
        results.push(play_study_run(run, dir, threads, &command, &mut progress)?);
    }
    progress.end();
    match study.shard {
        Some(shard) => {
            writeln!(
                out,
                "{}: shard {shard} of the study, {} runs, written into {}; join the {} study \
                 folders with agon merge --out DIR FOLDER...",
                study.game,
                runs.len(),
                dir.display(),
                shard.count
            )?;
            Ok(())
        }
        None => conclude(&study.layout(), dir, &results, true, out),
    }
}

/// Prints the results of the finished study in `dir` without writing anything: the
/// tables and verdicts recomputed from its runs' games (`results`, read and checked by
/// [`study_state`]); for a shard of a study, a line saying it is finished.
fn print_finished(
    study: &Study,
    dir: &Path,
    results: &[Vec<GameRow>],
    out: &mut dyn Write,
) -> Result<()> {
    match study.shard {
        None => {
            writeln!(
                out,
                "{} already holds this finished study; its results:\n",
                dir.display()
            )?;
            conclude(&study.layout(), dir, results, false, out)
        }
        Some(shard) => {
            writeln!(
                out,
                "{} already holds shard {shard} of this study, finished; join the {} study \
                 folders with agon merge --out DIR FOLDER...",
                dir.display(),
                shard.count
            )?;
            Ok(())
        }
    }
}

/// Opens the run `run` of the study in `dir` (new, continued or finished) and plays what
/// it lacks through the tournament's machinery; returns its game rows.
fn play_study_run(
    run: &StudyRun,
    dir: &Path,
    threads: usize,
    command: &str,
    progress: &mut Progress,
) -> Result<Vec<GameRow>> {
    let mut rows = Vec::new();
    dispatch(
        &run.plan.game,
        PlayStudyRun {
            run,
            dir: dir.join(&run.folder),
            threads,
            command: command.to_string(),
            progress,
            rows: &mut rows,
        },
    )?;
    Ok(rows)
}

/// One run of a study, generic over the game: opened (new, continued or finished) and
/// played through the tournament's machinery.
struct PlayStudyRun<'a> {
    run: &'a StudyRun,
    dir: PathBuf,
    threads: usize,
    command: String,
    progress: &'a mut Progress,
    rows: &'a mut Vec<GameRow>,
}

impl GameCommand for PlayStudyRun<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
        let plan = &self.run.plan;
        let meta = run_meta(&game, plan, self.threads, self.command, None, None)?;
        let (_lock, opened) = open_run(&self.dir, plan, &meta, true, None)?;
        *self.rows = match opened {
            Opened::Finished(found, theirs) => {
                complete_finished(&game, &self.dir, &theirs, &found, None, true)?;
                self.progress.skip(found.games.rows.len() as u64);
                found.games.rows
            }
            Opened::ToPlay(done, recorded) => {
                self.progress.skip(done.len() as u64);
                let meta = RunMeta {
                    threads: self.threads,
                    ..*recorded
                };
                play_run(&game, plan, &self.dir, &meta, done, self.progress, None)?.rows
            }
        };
        Ok(())
    }
}

/// Measures the runs' rows (`results`, in the order of `layout.runs`), prints each arm's
/// table and verdict (a variant's followed by its comparison with the base arm), and,
/// when `write`, writes the charts, the study's report.html (linking to its runs' pages)
/// and, last, balance.csv (the study's mark of being finished) into `dir`.
fn conclude(
    layout: &Layout,
    dir: &Path,
    results: &[Vec<GameRow>],
    write: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let mut arms = Vec::new();
    for (a, (game, pie)) in layout.arms.iter().enumerate() {
        let mut measured = None;
        dispatch(
            game,
            MeasureArm {
                layout,
                arm: a,
                pie: *pie,
                results,
                out: &mut measured,
            },
        )?;
        arms.push(measured.expect("MeasureArm sets its result"));
    }
    let printed: Vec<String> = arms
        .iter()
        .enumerate()
        .map(|(a, arm)| {
            let mut text = format!("{}\n{}\n", verdict::table(arm), verdict::verdict(arm));
            if a > 0 {
                text.push_str(&format!("{}\n", verdict::comparison(&arms[0], arm)));
            }
            text
        })
        .collect();
    for text in &printed {
        writeln!(out, "{text}")?;
    }
    if write {
        let mut written = vec![STUDY_FILE, BALANCE_FILE];
        let charts = charts::draw(dir, &arms)?;
        written.extend(&charts);
        StudyPage {
            game: &layout.arms[0].0.to_string(),
            arms: printed,
            charts: &charts,
            runs: layout
                .runs
                .iter()
                .map(|(_, kind, folder)| (run_title(&layout.rungs, *kind), folder.clone()))
                .collect(),
        }
        .write(dir)?;
        written.push(REPORT_HTML);
        // Last: balance.csv marks the study as finished, so it is written once the
        // charts and the page are.
        write_balance(dir, &tidy::rows(&arms))?;
        writeln!(out, "wrote {} in {}", written.join(", "), dir.display())?;
    }
    out.flush()?;
    Ok(())
}

/// What a run of a study is, in words: `L3 self-play (ab:depth=3)`, `L3 against L2`.
fn run_title(rungs: &[Rung], kind: RunKind) -> String {
    match kind {
        RunKind::SelfPlay(i) => format!("{} self-play ({})", rungs[i].name, rungs[i].spec.label()),
        RunKind::Step(i) => format!("{} against {}", rungs[i].name, rungs[i - 1].name),
    }
}

/// The measurements of one arm, generic over its game (the shape replays the moves).
struct MeasureArm<'a> {
    layout: &'a Layout,
    arm: usize,
    pie: bool,
    results: &'a [Vec<GameRow>],
    out: &'a mut Option<ArmMeasures>,
}

impl GameCommand for MeasureArm<'_> {
    fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> Result<()> {
        let rungs = &self.layout.rungs;
        let mut levels: Vec<Level> = Vec::new();
        for ((arm, kind, _), rows) in self.layout.runs.iter().zip(self.results) {
            if *arm != self.arm {
                continue;
            }
            match *kind {
                RunKind::SelfPlay(i) => levels.push(Level {
                    rung: rungs[i].name.clone(),
                    number: rungs[i].number,
                    agent: rungs[i].spec.label(),
                    self_play: SelfPlay::of(rows, self.pie, &Replay::of(&game, rows)?)?,
                    step: None,
                }),
                RunKind::Step(i) => {
                    let level = levels.last_mut().expect("a rung's self-play comes first");
                    let step = Step::of(rows, &Replay::of(&game, rows)?)?;
                    level.step = Some((rungs[i - 1].spec.label(), step));
                }
            }
        }
        *self.out = Some(ArmMeasures {
            variant: spec.to_string(),
            pie: self.pie,
            levels,
        });
        Ok(())
    }
}
