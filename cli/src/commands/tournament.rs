//! `agon tournament` (and `agon` alone): checks everything, then the output folder, then
//! plays, writes and prints.
//!
//! Order matters: the specs, `--games`, the game's parameters and every agent are checked
//! before the folder is looked at, and the folder is read in full before anything in it
//! is created or changed, so bad input never leaves a file behind or alters one. Between
//! a first look that changes nothing and the look that counts, the process takes the
//! folder's lock ([`RunLock`]) and holds it to the end, so a second process in the same
//! folder is refused instead of interleaving rows. The folder may be
//!
//! - new or empty (or holding only the lock file and `meta.csv.tmp`, left by a stop while
//!   meta.csv was first written): a new run (also with `--resume`, so a script may always
//!   pass it);
//! - this very run, finished (every game of its plan in games.csv, each with its timing
//!   row, as [`missing_games`] tests it, and summary.csv, the mark written last):
//!   its summary is recomputed from games.csv and printed again, nothing is changed;
//!   with `--resume`, what the folder lacks of a finished run's files (speed.csv, a
//!   chart, report.html) is drawn first ([`complete_finished`]);
//! - this run, unfinished: refused unless `--resume`, which continues it after its last
//!   complete game. A torn last line (a write cut short by a kill) in games.csv or
//!   timings.csv is reported, saved to `<file>.partial` and cut off; the files then end as
//!   an uninterrupted run's would at that game, and the games after it are played. A run
//!   whose games are kept only compressed (games.csv.gz, no games.csv) is read as the
//!   games.csv it holds, so finished it is printed again; unfinished it is refused, even
//!   with `--resume`, with the advice to gunzip it first;
//! - anything else (another run, a run of an older format, a meta.csv with an unknown or
//!   missing key, files that are not this run's as this build writes them, rows that fail
//!   the checks of [`crate::running::audit`], a symbolic link among its names, see
//!   [`crate::no_follow`]): refused with exit code 2, nothing changed.
//!
//! A build that continues a run another build started records itself in meta.csv's
//! `builds` row before it writes a row ([`RunMeta::builds`]).
//!
//! games.csv is the source of truth for what was played, for the games that have their
//! timing row: the writer flushes the timing row first, so a kill leaves timings.csv at
//! most one row ahead, and rows beyond games.csv's are cut off (saved) as the games are
//! played again. A game row without its timing row (timings.csv lost or cut) is cut off
//! (saved) likewise and the game played again, so that whatever `agon merge` calls
//! unfinished, `--resume` finishes.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::args::TournamentArgs;
use crate::args::DEFAULT_HTML_GAMES;
use crate::bad_input::BadInput;
use crate::external::{self, Venue};
use crate::games::offers_pie_swap;
use crate::games::{dispatch, GameCommand, PlayableGame};
use crate::record::{
    commit, games_compressed, scan, toolkit, write_summary, GameRow, RunMeta, RunWriter, TimingRow,
    Written, GAMES_FILE, GAMES_GZ_FILE, META_FILE, SUMMARY_FILE, TIMINGS_FILE, TIMINGS_HEADER,
};
use crate::reporting::charts::{chart_files, draw_charts};
use crate::reporting::html::{RunPage, REPORT_HTML};
use crate::reporting::speed::{speed_section, SPEED_FILE};
use crate::reporting::stats::sprt::Sprt;
use crate::reporting::summary::{summarise, table, Summary};
use crate::running::folder::{check_files, inspect, missing_games, repair, Folder, Found};
use crate::running::lock::RunLock;
use crate::running::opening::{Opening, OpeningCheck};
use crate::running::progress::Progress;
use crate::running::table_memory;
use crate::running::tournament::{run, worker_threads, workers_for, Plan};
use crate::shard::Shard;
use crate::shell_quote;
use crate::spec::{AgentSpec, GameSpec};
use crate::stop::Stop;

/// The tournament `agon` runs without arguments: Invector on its default 8×7 board,
/// alpha-beta against greedy and random, 20 games per pairing (60 games, about a second
/// in a release build on two cores), enough to show every column and a clear ranking.
pub fn default_args() -> TournamentArgs {
    TournamentArgs {
        game: "invector".into(),
        agents: vec!["ab:depth=3".into(), "greedy".into(), "random".into()],
        games: 20,
        seed: 1,
        threads: 0,
        out: PathBuf::from("results/default"),
        random_opening: 0,
        openings: None,
        opening_check: None,
        opening_window: None,
        shard: None,
        sprt: None,
        anchor: None,
        // `agon` alone takes no flags, so it continues its own stopped run.
        resume: true,
    }
}

/// Runs `agon tournament` with `args`; `command` is the command line as typed, for
/// meta.csv. The run stops between games when `stop` is requested
/// ([`crate::run_until`]).
pub fn tournament(
    args: &TournamentArgs,
    command: String,
    out: &mut dyn Write,
    stop: &Stop,
) -> Result<()> {
    let game = GameSpec::parse(&args.game)?;
    let agents = args
        .agents
        .iter()
        .map(|a| AgentSpec::parse_for_game(a, &game, false))
        .collect::<Result<Vec<_>, _>>()?;
    let opening = Opening::from_args(args.random_opening, args.openings.as_deref())?;
    let check = OpeningCheck::from_args(
        &game,
        args.opening_check.as_deref(),
        args.opening_window,
        false,
    )?;
    if check.is_some() && !matches!(opening, Opening::Random(_)) {
        return Err(BadInput::new(
            "--opening-check and --opening-window judge random openings; add \
             --random-opening K (a line of an openings file is not checked)",
        )
        .into());
    }
    let mut plan = Plan::new(game.clone(), agents, args.games, args.seed)?
        .with_opening(opening)
        .with_opening_check(check);
    if let Some(shard) = &args.shard {
        plan = plan.with_shard(Shard::parse(shard)?)?;
    }
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && plan.entrants.len() != 2 {
        return Err(BadInput::new(format!(
            "--sprt needs exactly two agents, got {}",
            plan.entrants.len()
        ))
        .into());
    }
    if sprt.is_some() && plan.shard.is_some() {
        return Err(BadInput::new(
            "--sprt cannot be used with --shard: the test stops after the pair that crosses \
             a bound, which needs every earlier pair of the run",
        )
        .into());
    }
    let anchor = args
        .anchor
        .as_deref()
        .map(|name| plan.anchor_label(name))
        .transpose()?;
    let threads = worker_threads(args.threads)?;
    dispatch(
        &game,
        TournamentCommand {
            plan,
            dir: args.out.clone(),
            threads,
            command,
            resume: args.resume,
            sprt,
            anchor,
            out,
            stop,
        },
    )
}

/// The tournament, generic over the game.
struct TournamentCommand<'a> {
    plan: Plan,
    dir: PathBuf,
    threads: usize,
    command: String,
    resume: bool,
    sprt: Option<Sprt>,
    anchor: Option<String>,
    out: &'a mut dyn Write,
    stop: &'a Stop,
}

impl GameCommand for TournamentCommand<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
        let TournamentCommand {
            plan,
            dir,
            threads,
            command,
            resume,
            sprt,
            anchor,
            out,
            stop,
        } = self;
        let meta = run_meta(&game, &plan, threads, command, sprt, anchor.clone())?;
        let range = plan.game_range();
        let total = range.end - range.start;
        let heading = match plan.shard {
            None => format!(
                "{}: {total} games ({} per pairing), seed {}",
                meta.game, plan.games_per_pairing, plan.seed
            ),
            Some(shard) => format!(
                "{}: shard {shard}, games {} to {} of {} ({} per pairing), seed {}",
                meta.game,
                range.start,
                range.end - 1,
                plan.total_games(),
                plan.games_per_pairing,
                plan.seed
            ),
        };
        // The heading of a run that played `n` of its games: only the SPRT stops one early.
        let heading_of = |n: usize| {
            if (n as u64) < total {
                format!("{heading}; the SPRT stopped it after {n} games")
            } else {
                heading.clone()
            }
        };
        let (_lock, opened) = open_run(&dir, &plan, &meta, resume, sprt.as_ref())?;
        let (done, recorded) = match opened {
            Opened::Finished(found, theirs) => {
                complete_finished(&game, &dir, &theirs, &found, sprt.as_ref(), resume)?;
                let summary = summarise(&found.games.rows, anchor.as_deref(), sprt.as_ref())?
                    .with_pie_rule(offers_pie_swap(&game));
                for warning in summary.warnings() {
                    eprintln!("{warning}");
                }
                write!(
                    out,
                    "{} already holds this finished run; its summary:\n\n{}\n{}\n{}",
                    dir.display(),
                    heading_of(found.games.rows.len()),
                    table(&summary),
                    speed_section(&dir, &found.games.rows, &found.timings.rows, false)?,
                )?;
                return Ok(());
            }
            Opened::ToPlay(done, recorded) => (done, recorded),
        };
        let mut progress = Progress::new(total, &done).with_stop(stop);
        let played = play_run(
            &game,
            &plan,
            &dir,
            &RunMeta {
                threads,
                ..*recorded
            },
            done,
            &mut progress,
            sprt.as_ref(),
        )?;
        writeln!(
            out,
            "{}\n{}",
            heading_of(played.rows.len()),
            table(&played.summary)
        )?;
        write!(out, "{}", played.speed)?;
        for warning in played.summary.warnings() {
            eprintln!("{warning}");
        }
        writeln!(
            out,
            "wrote {} in {}",
            played.written.join(", "),
            dir.display()
        )?;
        out.flush()?;
        Ok(())
    }
}

/// The meta.csv of a run of `plan` on `game` (its identity and how it was started),
/// after checking that the agents' tables fit the machine's memory on `threads` workers
/// ([`table_memory::check`]), and building and readying each agent once, so that a spec
/// the game cannot use (or an unusable weights file) fails before any file is written
/// and the optimal agent's table is built before the games, and after checking the
/// opening against the game and drawing the first deal's ([`Opening::probe`]).
pub(crate) fn run_meta<G: PlayableGame>(
    game: &G,
    plan: &Plan,
    threads: usize,
    command: String,
    sprt: Option<Sprt>,
    anchor: Option<String>,
) -> Result<RunMeta> {
    table_memory::check(plan, threads)?;
    let mut eval_hashes = Vec::new();
    let mut programs = Vec::new();
    let venue = Venue {
        game: &plan.game,
        log: None,
    };
    for entrant in &plan.entrants {
        G::build_agent_for(&entrant.spec, &venue, &game.initial_state())?;
        eval_hashes.push(G::eval_digest(&entrant.spec)?.unwrap_or_default());
        programs.push(external::program_record(&entrant.spec)?.unwrap_or_default());
    }
    for recorded in [&mut eval_hashes, &mut programs] {
        if recorded.iter().all(String::is_empty) {
            recorded.clear();
        }
    }
    // Likewise the opening: every line of an openings file, and on a game with a pie
    // rule the length of a random opening.
    plan.opening.check(game)?;
    if let Some(check) = plan.applied_check() {
        check.ready(game, &plan.game)?;
    }
    plan.opening.probe(game, plan.seed, plan.applied_check())?;
    Ok(planned_meta(
        plan,
        RunMeta {
            toolkit: toolkit(),
            commit: commit(),
            eval_hashes,
            programs,
            threads,
            command,
            sprt: sprt.map(|s| s.to_string()),
            anchor,
            ..RunMeta::default()
        },
    ))
}

/// `meta` with every field that `plan` determines set from it: the game, the agents, the
/// games per pairing, the seed, the opening (and its check) and the shard. The rest
/// (toolkit, commit, agents' weights and programs, threads, command, SPRT, anchor) is
/// `meta`'s. A balance study compares a run folder's meta.csv with the run it plans
/// through it.
pub(crate) fn planned_meta(plan: &Plan, meta: RunMeta) -> RunMeta {
    let (random_opening, distinct_openings, openings, openings_hash) = match &plan.opening {
        Opening::Start => (0, false, String::new(), String::new()),
        Opening::Random(k) => (*k, false, String::new(), String::new()),
        Opening::Distinct(draws) => (draws.k(), true, String::new(), String::new()),
        Opening::Book(book) => (0, false, book.path.display().to_string(), book.hash.clone()),
    };
    RunMeta {
        game: plan.game.to_string(),
        agents: plan.entrants.iter().map(|e| e.spec.to_string()).collect(),
        games_per_pairing: plan.games_per_pairing,
        seed: plan.seed,
        random_opening,
        distinct_openings,
        openings,
        openings_hash,
        opening_check: plan.applied_check().map(OpeningCheck::describe),
        shard: plan.shard,
        ..meta
    }
}

/// A run folder as [`open_run`] found it.
pub(crate) enum Opened {
    /// This run, finished (every game played, or as many as the SPRT needed; the files
    /// clean; summary.csv written), with the meta.csv it holds: no game is left to play
    /// ([`complete_finished`] draws what its folder lacks).
    Finished(Found, Box<RunMeta>),
    /// A new run (its meta.csv just written) or this run continued: the games already
    /// played, in order (any torn end has been cut off and saved), and the meta.csv the
    /// folder holds now (a continued run's, with this build among its builds).
    ToPlay(Vec<GameRow>, Box<RunMeta>),
}

/// Opens the folder `dir` for the run `meta` describes (planned as `plan`): a look that
/// changes nothing first, so that a refused folder does not even get a lock file; then
/// the lock, returned to be held to the end, and the look that counts (see the module
/// docs for what a folder may hold). A new run's meta.csv is written; an unfinished one
/// is refused unless `resume`, and otherwise repaired to its last complete game. A run
/// whose games are kept only compressed (games.csv.gz) is read: finished, it is
/// [`Opened::Finished`]; unfinished, it is refused (exit 2), as rows are appended to
/// games.csv only.
pub(crate) fn open_run(
    dir: &Path,
    plan: &Plan,
    meta: &RunMeta,
    resume: bool,
    sprt: Option<&Sprt>,
) -> Result<(RunLock, Opened)> {
    let range = plan.game_range();
    let total = range.end - range.start;
    inspect(dir, meta)?;
    let lock = RunLock::acquire(dir)?;
    let opened = match inspect(dir, meta)? {
        Folder::New => {
            meta.write(&dir.join(META_FILE))?;
            Opened::ToPlay(Vec::new(), Box::new(meta.clone()))
        }
        Folder::Same(theirs) => {
            let found = check_files(dir, plan, &theirs, Written::Now)?;
            let n = found.games.rows.len() as u64;
            // Every game played (or as many as the SPRT needed to decide), the files
            // clean, and the mark of a finished run written.
            let all_played = missing_games(dir, &found, plan, sprt).is_none();
            if all_played && dir.join(SUMMARY_FILE).is_file() {
                return Ok((lock, Opened::Finished(found, theirs)));
            }
            // Rows are appended to games.csv only: a run kept compressed is read, never
            // continued (its games.csv would start again without the games before).
            if games_compressed(dir) {
                return Err(BadInput::new(format!(
                    "output folder \"{}\" holds this run unfinished ({n} of {total} games) \
                     with its games only in {GAMES_GZ_FILE}, which agon never appends to; \
                     gunzip it (gunzip {}) before continuing it with --resume",
                    dir.display(),
                    shell_quote(&dir.join(GAMES_GZ_FILE).display().to_string())
                ))
                .into());
            }
            if !resume {
                return Err(BadInput::new(format!(
                    "output folder \"{}\" holds this run unfinished ({n} of {total} \
                     games); pass --resume to continue it, or choose another --out",
                    dir.display()
                ))
                .into());
            }
            if theirs.anchor != meta.anchor {
                let rated = |anchor: &Option<String>| {
                    anchor
                        .as_ref()
                        .map_or("with a mean of zero".to_string(), |a| {
                            format!("relative to \"{a}\"")
                        })
                };
                return Err(BadInput::new(format!(
                    "output folder \"{}\" holds this run rating its agents {} (the anchor \
                     in its {META_FILE}), but this command rates them {}; resume it with \
                     the run's --anchor, and see other anchors with agon report --anchor \
                     A --out DIR",
                    dir.display(),
                    rated(&theirs.anchor),
                    rated(&meta.anchor)
                ))
                .into());
            }
            // Every build that writes rows into the run is named in its meta.csv, before
            // its first row.
            let recorded = if theirs.builds().contains(&meta.commit.as_str()) {
                theirs
            } else {
                let recorded = theirs.with_build(&meta.commit);
                eprintln!(
                    "warning: {} was started by commit {}, this build is commit {}; \
                     continuing, as the toolkit version ({}) is the same, and recording the \
                     builds that wrote its rows in its {META_FILE} (builds {})",
                    dir.display(),
                    theirs.commit,
                    meta.commit,
                    meta.toolkit,
                    recorded.builds().join(" ")
                );
                recorded.write(&dir.join(META_FILE))?;
                Box::new(recorded)
            };
            repair(dir, &found, range.start)?;
            match plan.shard {
                None => eprintln!("resuming {} at game {n} of {total}", dir.display()),
                Some(shard) => eprintln!(
                    "resuming {} (shard {shard}) at game {} ({n} of its {total} played)",
                    dir.display(),
                    range.start + n
                ),
            }
            Opened::ToPlay(found.games.rows, recorded)
        }
    };
    Ok((lock, opened))
}

/// What [`play_run`] played and wrote.
pub(crate) struct Played {
    /// Every game row of the run, in order.
    pub rows: Vec<GameRow>,
    /// Their summary, as summary.csv holds it.
    pub summary: Summary,
    /// The printed speed section ([`speed_section`]).
    pub speed: String,
    /// The names of the files written.
    pub written: Vec<&'static str>,
}

/// Plays the games of `plan` left after `done` into the opened folder `dir` of the run
/// `meta` (as its meta.csv records it, but for the worker threads: this command's),
/// telling `progress` of each, then writes speed.csv, the charts and report.html
/// (embedding [`DEFAULT_HTML_GAMES`] games) and, last, summary.csv: the mark of a
/// finished run is written only once everything else is, so a stop at any instant
/// leaves a run that a resume finishes, never one that passes for finished without its
/// charts or page. Outside programs log their standard error into `dir`
/// ([`Plan::with_logs`]).
pub(crate) fn play_run<G: PlayableGame>(
    game: &G,
    plan: &Plan,
    dir: &Path,
    meta: &RunMeta,
    done: Vec<GameRow>,
    progress: &mut Progress,
    sprt: Option<&Sprt>,
) -> Result<Played> {
    let threads = meta.threads;
    let range = plan.game_range();
    let mut writer = RunWriter::open(dir, &meta.digest_key())?;
    let left = range.end - range.start - done.len() as u64;
    let workers = workers_for(threads, left);
    progress.note(&format!(
        "playing {left} games on {workers} thread{} into {}",
        if workers == 1 { "" } else { "s" },
        dir.display()
    ));
    let plan = plan.clone().with_logs(dir);
    let rows = run(game, &plan, threads, done, &mut writer, progress, sprt)?;
    let summary =
        summarise(&rows, meta.anchor.as_deref(), sprt)?.with_pie_rule(offers_pie_swap(game));
    let timings = scan::<TimingRow>(&dir.join(TIMINGS_FILE), TIMINGS_HEADER)?.rows;
    let (speed, drawn) = write_outputs(game, dir, meta, &rows, &timings, &summary)?;
    write_summary(&dir.join(SUMMARY_FILE), &summary.rows())?;
    let mut written = vec![
        META_FILE,
        GAMES_FILE,
        TIMINGS_FILE,
        SUMMARY_FILE,
        SPEED_FILE,
    ];
    written.extend(drawn);
    Ok(Played {
        rows,
        summary,
        speed,
        written,
    })
}

/// Writes what a finished run holds besides its rows and summary.csv into its folder
/// `dir` (of the run `meta`, its games `rows` with their `timings`, summarised as
/// `summary`): speed.csv (when a game has its timing), the charts and report.html.
/// Returns the printed speed section and the names of the charts and the page.
fn write_outputs<G: PlayableGame>(
    game: &G,
    dir: &Path,
    meta: &RunMeta,
    rows: &[GameRow],
    timings: &[TimingRow],
    summary: &Summary,
) -> Result<(String, Vec<&'static str>)> {
    let speed = speed_section(dir, rows, timings, true)?;
    let mut drawn = draw_charts(dir, &meta.game, rows, summary)?;
    RunPage {
        meta,
        rows,
        summary,
        run_dir: dir,
        cap: DEFAULT_HTML_GAMES,
    }
    .write(game, dir)?;
    drawn.push(REPORT_HTML);
    Ok((speed, drawn))
}

/// Draws again what the finished run in `dir` (its meta.csv `meta`, its files `found`)
/// lacks of what its end writes (speed.csv, the charts, report.html: a folder a build
/// that wrote summary.csv first left when stopped before them, or one whose files were
/// deleted), when `resume`, saying so in a `note:` line; without `resume` the line says
/// that `--resume` draws them, and nothing is written. A run whose games are kept only
/// compressed (games.csv.gz, a committed run) is left as it is.
pub(crate) fn complete_finished<G: PlayableGame>(
    game: &G,
    dir: &Path,
    meta: &RunMeta,
    found: &Found,
    sprt: Option<&Sprt>,
    resume: bool,
) -> Result<()> {
    if games_compressed(dir) {
        return Ok(());
    }
    let rows = &found.games.rows;
    let timings = &found.timings.rows;
    // With the run's own anchor, as its end drew them.
    let summary =
        summarise(rows, meta.anchor.as_deref(), sprt)?.with_pie_rule(offers_pie_swap(game));
    let mut expected = Vec::new();
    if !timings.is_empty() {
        expected.push(SPEED_FILE);
    }
    expected.extend(chart_files(&summary));
    expected.push(REPORT_HTML);
    let lacking: Vec<&str> = expected
        .into_iter()
        .filter(|name| !dir.join(name).is_file())
        .collect();
    if lacking.is_empty() {
        return Ok(());
    }
    let lacks = format!(
        "note: {} holds this run finished but lacks {}",
        dir.display(),
        lacking.join(", ")
    );
    if !resume {
        eprintln!("{lacks}; --resume draws them");
        return Ok(());
    }
    write_outputs(game, dir, meta, rows, timings, &summary)?;
    eprintln!("{lacks}; drawn again from its games");
    Ok(())
}
