//! `agon tournament` (and `agon` alone): checks everything, then the output folder, then
//! plays, writes and prints.
//!
//! Order matters: the specs, `--games`, the game's parameters and every agent are checked
//! before the folder is looked at, and the folder before anything is created, so bad input
//! never leaves a file behind. The folder may be new or empty (a new run), hold this very
//! run finished (its summary is recomputed from games.csv and printed again), hold this
//! run unfinished (it is started again from game 0; resuming comes later), or hold
//! anything else (refused).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::args::{BadInput, TournamentArgs};
use crate::games::{dispatch, GameCommand, PlayableGame};
use crate::opening::Opening;
use crate::record::{
    read_games, toolkit, write_summary, GameRow, RunMeta, RunWriter, GAMES_FILE, META_FILE,
    SUMMARY_FILE, TIMINGS_FILE,
};
use crate::report::{summarise, table};
use crate::spec::{AgentSpec, GameSpec};
use crate::tournament::{run, Plan};

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
    }
}

/// Runs `agon tournament` with `args`; `command` is the command line as typed, for
/// meta.csv.
pub fn tournament(args: &TournamentArgs, command: String, out: &mut dyn Write) -> Result<()> {
    let game = GameSpec::parse(&args.game)?;
    let agents = args
        .agents
        .iter()
        .map(|a| AgentSpec::parse(a, false))
        .collect::<Result<Vec<_>, _>>()?;
    let opening = Opening::from_args(args.random_opening, args.openings.as_deref())?;
    let plan = Plan::new(game.clone(), agents, args.games, args.seed)?.with_opening(opening);
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.threads
    };
    dispatch(
        &game,
        TournamentCommand {
            plan,
            dir: args.out.clone(),
            threads,
            command,
            out,
        },
    )
}

/// The tournament, generic over the game.
struct TournamentCommand<'a> {
    plan: Plan,
    dir: PathBuf,
    threads: usize,
    command: String,
    out: &'a mut dyn Write,
}

/// What an output folder holds, with respect to the run about to start.
enum Folder {
    /// Nothing (absent or empty): a new run.
    New,
    /// This run, finished: its game rows.
    Finished(Vec<GameRow>),
    /// This run, with this many complete games.
    Unfinished(usize),
}

impl GameCommand for TournamentCommand<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
        let TournamentCommand {
            plan,
            dir,
            threads,
            command,
            out,
        } = self;
        // Build each agent once so that a spec the game cannot use fails before any file.
        for entrant in &plan.entrants {
            G::build_agent(&entrant.spec, entrant.label.clone())?;
        }
        // Likewise every line of an openings file.
        plan.opening.check(&game)?;
        let (random_opening, openings, openings_hash) = match &plan.opening {
            Opening::Start => (0, String::new(), String::new()),
            Opening::Random(k) => (*k, String::new(), String::new()),
            Opening::Book(book) => (0, book.path.display().to_string(), book.hash.clone()),
        };
        let meta = RunMeta {
            toolkit: toolkit(),
            game: plan.game.to_string(),
            agents: plan.entrants.iter().map(|e| e.spec.to_string()).collect(),
            games_per_pairing: plan.games_per_pairing,
            seed: plan.seed,
            random_opening,
            openings,
            openings_hash,
            threads,
            command,
        };
        let total = plan.total_games();
        let heading = format!(
            "{}: {total} games ({} per pairing), seed {}",
            meta.game, plan.games_per_pairing, plan.seed
        );
        match inspect(&dir, &meta, total)? {
            Folder::Finished(rows) => {
                writeln!(
                    out,
                    "{} already holds this finished run; its summary:\n\n{heading}\n{}",
                    dir.display(),
                    table(&summarise(&rows))
                )?;
                return Ok(());
            }
            Folder::Unfinished(done) => eprintln!(
                "note: {} holds this run unfinished ({done} of {total} games); starting it again",
                dir.display()
            ),
            Folder::New => {}
        }

        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        meta.write(&dir.join(META_FILE))?;
        let mut writer = RunWriter::create(&dir)?;
        eprintln!(
            "playing {total} games on {threads} thread{} into {}",
            if threads == 1 { "" } else { "s" },
            dir.display()
        );
        let rows = run(&game, &plan, threads, &mut writer)?;
        let summary = summarise(&rows);
        write_summary(&dir.join(SUMMARY_FILE), &summary)?;
        writeln!(out, "{heading}\n{}", table(&summary))?;
        writeln!(
            out,
            "wrote {} in {}",
            [META_FILE, GAMES_FILE, TIMINGS_FILE, SUMMARY_FILE].join(", "),
            dir.display()
        )?;
        out.flush()?;
        Ok(())
    }
}

/// Looks at the output folder; refuses one that holds something other than this run.
fn inspect(dir: &Path, meta: &RunMeta, total: u64) -> Result<Folder> {
    let shown = dir.display();
    if !dir.exists() {
        return Ok(Folder::New);
    }
    if !dir.is_dir() {
        return Err(
            BadInput::new(format!("output folder \"{shown}\" is a file, not a folder")).into(),
        );
    }
    let mut entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read folder {shown}"))?;
    if entries.next().is_none() {
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
    let theirs = RunMeta::read(&meta_path).map_err(|e| {
        BadInput::new(format!(
            "output folder \"{shown}\" holds a {META_FILE} that is not an agon run's ({e:#}); \
             choose a new or empty folder"
        ))
    })?;
    if let Some(difference) = meta.difference(&theirs) {
        return Err(BadInput::new(format!(
            "output folder \"{shown}\" holds a different run ({difference}); \
             choose another --out or remove it"
        ))
        .into());
    }
    // The same run: finished when games.csv holds every game, in order, and summary.csv
    // was written after the last one.
    let rows = read_games(&dir.join(GAMES_FILE)).unwrap_or_default();
    let complete = rows.len() as u64 == total
        && rows.iter().enumerate().all(|(i, r)| r.game == i as u64)
        && dir.join(SUMMARY_FILE).is_file();
    Ok(if complete {
        Folder::Finished(rows)
    } else {
        Folder::Unfinished(rows.len())
    })
}
