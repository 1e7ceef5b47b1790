//! `agon report DIR`: recomputes a run folder's summary from its games.csv alone, prints
//! it, writes summary.csv again, writes speed.csv from timings.csv (and prints it, apart
//! from the reproducible table), and draws SVG charts into the folder (the same
//! [`draw_charts`] a tournament and a merge call when they finish).
//!
//! The folder must hold a run (meta.csv) and its games.csv (or games.csv.gz where
//! games.csv is absent); the games are read through the checks a resume makes
//! ([`crate::running::audit`]: rows in order and the plan's, digests, the moves replayed), so a
//! duplicated, reordered, edited or foreign row is refused. Bad input is one line and
//! exit code 2, refused before any file is written.
//!
//! The run must hold its plan's games ([`missing_games`], the test a resume and a merge
//! make: every game of its range, or of an SPRT's up to the deciding pair, each with its
//! timing row, no torn end): a report of fewer would rewrite the run's summary.csv from
//! part of its games. An unfinished run is refused (one line naming what it lacks, exit
//! 2, nothing written) unless `--out OUTDIR` asks for a report of its complete games
//! there, which a `note:` line calls unfinished.
//!
//! A report changes the run folder only to write what the run itself would: with the
//! run's own options (the anchor recorded in meta.csv, the default), summary.csv and the
//! charts are written again into the folder, under its lock ([`RunLock`]). A report with
//! another `--anchor` is printed only, and so is a folder of an older format and a folder
//! whose games are kept only compressed (games.csv.gz, read as the games.csv it holds:
//! such a folder, a committed study's run, stays byte for byte as it is, lock file
//! included); each is said in a `note:` line, and `--out OUTDIR` writes any of them into
//! OUTDIR instead, a folder that must not hold a run.
//!
//! Charts (see [`crate::reporting::plots`]):
//! - `ratings.svg`: every agent's Bradley–Terry rating with its 95% interval (the rating
//!   source is a plain list of labels and numbers, so another model's ratings can
//!   replace it); none for self-play alone;
//! - `seat0.svg`: seat 0's wins, draws and losses as shares of the games, over all games
//!   and (with more than one pairing) per pairing; each row names its game count, since
//!   pairings may differ in games and budgets;
//! - `lengths.svg`: a histogram of game lengths in plies, the games stopped by a length
//!   cap (end reason `cap`) in their own colour and labelled.
//!
//! Agent labels longer than 20 characters are written `A1`, `A2`, ... (the agents in
//! order of first appearance), with a legend under the chart.
//!
//! With `--html` the report also writes report.html ([`crate::reporting::html`]) where it writes
//! summary.csv, embedding at most `--html-games` games for its replayer.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use crate::args::ReportArgs;
use crate::bad_input::BadInput;
use crate::games::offers_pie_rule;
use crate::no_follow::refuse_links;
use crate::record::{
    games_compressed, write_summary, Written, FORMAT, GAMES_GZ_FILE, META_FILE, OLDER_FORMAT,
    SUMMARY_FILE,
};
use crate::reporting::charts::draw_charts;
use crate::reporting::html::{write_run_page, RunPage, REPORT_HTML};
use crate::reporting::speed::{speed_section, SPEED_FILE};
use crate::reporting::stats::sprt::Sprt;
use crate::reporting::summary::{summarise, table};
use crate::running::audit::open_run_to_read;
use crate::running::folder::{check_files, missing_games};
use crate::running::lock::RunLock;

/// Runs `agon report`.
pub fn report(args: &ReportArgs, out: &mut dyn Write) -> Result<()> {
    let dir = &args.dir;
    let shown = dir.display();
    let (meta, written, plan, games_path) = open_run_to_read(dir, "")?;
    let sprt = meta
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(|e| BadInput::new(format!("\"{shown}\": {META_FILE}: {e}")))?;
    let anchor = match &args.anchor {
        Some(name) => Some(plan.anchor_label(name)?),
        None => meta.anchor.clone(),
    };
    let rated = |anchor: &Option<String>| {
        anchor
            .as_ref()
            .map_or("a mean of zero".to_string(), |a| format!("\"{a}\""))
    };
    let print_only = if written == Written::Older {
        Some(format!(
            "\"{shown}\" was written by an older agon (format {OLDER_FORMAT}; this build writes \
             format {FORMAT}): its rows have no digest, so they are checked by order, plan and \
             moves only"
        ))
    } else if games_compressed(dir) {
        Some(format!(
            "\"{shown}\" keeps its games only in {GAMES_GZ_FILE} (as a committed study \
             does), and a report leaves such a folder as it is"
        ))
    } else if anchor != meta.anchor {
        Some(format!(
            "--anchor {} differs from the run's anchor ({}, in its {META_FILE})",
            rated(&anchor),
            rated(&meta.anchor)
        ))
    } else {
        None
    };
    // Writing into the run folder: its lock is taken before games.csv is read, so that
    // no process appends rows between the reading and the writing.
    let lock = match (&args.out, &print_only) {
        (None, None) => {
            refuse_links(dir, "run folder")?;
            Some(RunLock::acquire(dir)?)
        }
        _ => None,
    };
    // Checked before anything is read further, so that a bad --out writes nothing.
    if let Some(target) = &args.out {
        check_out(target)?;
        refuse_links(target, "--out folder")?;
    }
    let found = check_files(dir, &plan, &meta, written)?;
    // The games of a run that lost its last rows (or was stopped) would make a summary
    // of another run than the one asked for: said, and written only where --out says.
    if let Some(what) = missing_games(dir, &found, &plan, sprt.as_ref()) {
        let n = found.games.rows.len();
        if args.out.is_none() {
            return Err(BadInput::new(format!(
                "run folder \"{shown}\" is unfinished ({what}); finish it with its command and \
                 --resume, or report its {n} complete games into another folder with --out \
                 OUTDIR"
            ))
            .into());
        }
        eprintln!(
            "note: run folder \"{shown}\" is unfinished ({what}); the report counts its {n} \
             complete games"
        );
    }
    let games = found.games.rows;
    if games.is_empty() {
        return Err(BadInput::new(format!(
            "\"{shown}\": {} holds no game",
            games_path.file_name().unwrap_or_default().to_string_lossy()
        ))
        .into());
    }
    let summary = summarise(&games, anchor.as_deref(), sprt.as_ref())?
        .with_pie_rule(offers_pie_rule(&plan.game)?);

    // Where to write: --out, else the run folder (under `lock`) unless printing only.
    let target = match (&args.out, &print_only) {
        (Some(target), _) => {
            std::fs::create_dir_all(target)
                .with_context(|| format!("cannot create {}", target.display()))?;
            Some(target.as_path())
        }
        (None, Some(why)) => {
            eprintln!("note: {why}; printed only, nothing written (write it with --out OUTDIR)");
            None
        }
        (None, None) => Some(dir.as_path()),
    };

    let shard = meta
        .shard
        .map(|s| format!(", shard {s}"))
        .unwrap_or_default();
    // Rows of more than one build: named, as meta.csv records them.
    let builds = match meta.builds().as_slice() {
        [_] => String::new(),
        builds => format!(
            "written by {} builds: {} (the commits that wrote its rows, in order; it was \
             continued by another build than the one that started it)\n",
            builds.len(),
            builds.join(", ")
        ),
    };
    writeln!(
        out,
        "{}: {} games ({} per pairing{shard}), seed {}\n{builds}{}",
        meta.game,
        games.len(),
        meta.games_per_pairing,
        meta.seed,
        table(&summary)
    )?;
    let speed = speed_section(
        target.unwrap_or(dir),
        &games,
        &found.timings.rows,
        target.is_some(),
    )?;
    write!(out, "{speed}")?;
    if let Some(target) = target {
        write_summary(&target.join(SUMMARY_FILE), &summary.rows())?;
        let mut written = vec![SUMMARY_FILE];
        if !speed.is_empty() {
            written.push(SPEED_FILE);
        }
        written.extend(draw_charts(target, &meta.game, &games, &summary)?);
        if args.html {
            let page = RunPage {
                meta: &meta,
                rows: &games,
                summary: &summary,
                run_dir: dir,
                cap: args.html_games,
            };
            write_run_page(&plan.game, &page, target)?;
            written.push(REPORT_HTML);
        }
        writeln!(out, "wrote {} in {}", written.join(", "), target.display())?;
    }
    for warning in summary.warnings() {
        eprintln!("{warning}");
    }
    out.flush()?;
    drop(lock);
    Ok(())
}

/// Refuses a `--out` folder that is a file or holds a run (its summary.csv is that run's).
fn check_out(target: &Path) -> Result<(), BadInput> {
    let shown = target.display();
    if target.exists() && !target.is_dir() {
        return Err(BadInput::new(format!(
            "--out \"{shown}\" is a file, not a folder"
        )));
    }
    if target.join(META_FILE).exists() {
        return Err(BadInput::new(format!(
            "--out \"{shown}\" holds an agon run (a {META_FILE}), whose {SUMMARY_FILE} is that \
             run's; choose a folder that holds no run"
        )));
    }
    Ok(())
}
