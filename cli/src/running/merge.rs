//! `agon merge --out DIR SHARD_DIR...`: joins the folders of the `N` shards of one
//! tournament (see [`crate::shard`]) into one run folder, the same as a single-machine run.
//!
//! Everything is checked before anything is written: every folder holds a shard of this
//! build's format (its meta.csv has a `shard` row), all are shards of the same run (the
//! run's identity with shard counts in place of shards; threads, command, commit and
//! anchor may differ), no shard is given twice, none of the `N` is missing, each shard's
//! rows pass the checks a resume makes ([`folder::check_files`]: order, plan, digest,
//! replay of the moves) and each is finished (games.csv and timings.csv hold exactly the
//! shard's games, and summary.csv was written after the last). A shard that is not
//! finished is one its tournament command with `--resume` finishes. The output folder
//! must be new, empty, or hold this same merged run (which is then written again, to the
//! same bytes); it is locked ([`RunLock`]) while it is written.
//!
//! The merged games.csv is the shards' rows in game-index order, written with the same
//! serialiser as a tournament, and summary.csv is computed from those rows alone, so both
//! are byte-identical to a single-machine run of the same tournament (a row's digest does
//! not cover the shard). meta.csv is a whole run's (no `shard` row); its `threads` is the
//! first shard's, its `command` the merge command and its `anchor` the merge's
//! `--anchor`, fields that never change the games; its `commit` is the first shard's, and
//! its `builds` names every build that wrote rows into any shard (written only when that
//! is more than the one commit).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::args::MergeArgs;
use crate::args::DEFAULT_HTML_GAMES;
use crate::bad_input::BadInput;
use crate::games::offers_pie_rule;
use crate::record::{
    first_difference, write_rows_whole, write_summary, GameRow, RunMeta, TimingRow, Written,
    FORMAT, GAMES_FILE, META_FILE, OLDER_FORMAT, SUMMARY_FILE, TIMINGS_FILE,
};
use crate::reporting::charts::draw_charts;
use crate::reporting::html::{write_run_page, RunPage, REPORT_HTML};
use crate::reporting::summary::{summarise, table};
use crate::running::audit::plan_of;
use crate::running::folder;
use crate::running::lock::RunLock;
use crate::shard::Shard;

/// The rows of one shard folder, read and checked.
struct ShardFolder {
    games: Vec<GameRow>,
    timings: Vec<TimingRow>,
}

/// The most missing shards a refusal names (then "and N more").
const MISSING_LISTED: usize = 10;

/// Runs `agon merge` on the shards of a tournament (a study's shards are joined run
/// folder by run folder by the balance study, which calls this for each); `command` is
/// the command line as typed, for meta.csv.
pub fn merge(args: &MergeArgs, command: String, out: &mut dyn Write) -> Result<()> {
    let metas = args
        .shards
        .iter()
        .map(|dir| shard_meta(dir))
        .collect::<Result<Vec<_>, _>>()?;
    let (first_dir, first) = (&args.shards[0], &metas[0]);
    for (dir, meta) in args.shards.iter().zip(&metas).skip(1) {
        if let Some(difference) = run_difference(first_dir, first, dir, meta) {
            return Err(BadInput::new(format!(
                "\"{}\" is not a shard of the same run as \"{}\": {difference}",
                dir.display(),
                first_dir.display()
            ))
            .into());
        }
    }

    let count = shard_of(first).count;
    // By shard index; a map, as the count comes from the folders and may be huge.
    let mut by_index: BTreeMap<u64, (&PathBuf, &RunMeta)> = BTreeMap::new();
    for (dir, meta) in args.shards.iter().zip(&metas) {
        let shard = shard_of(meta);
        if let Some((other, _)) = by_index.insert(shard.index, (dir, meta)) {
            return Err(BadInput::new(format!(
                "shard {shard} is given twice: \"{}\" and \"{}\"",
                other.display(),
                dir.display()
            ))
            .into());
        }
    }
    let missing_count = count - by_index.len() as u64;
    if missing_count > 0 {
        // At most MISSING_LISTED named, so that the line stays short.
        let mut missing: Vec<String> = (1..=count)
            .filter(|i| !by_index.contains_key(i))
            .take(MISSING_LISTED)
            .map(|index| Shard { index, count }.to_string())
            .collect();
        if missing_count > MISSING_LISTED as u64 {
            missing.push(format!(
                "and {} more",
                missing_count - MISSING_LISTED as u64
            ));
        }
        return Err(BadInput::new(format!(
            "{} {} {} missing; give all {count} shard folders of the run",
            if missing_count == 1 {
                "shard"
            } else {
                "shards"
            },
            missing.join(", "),
            if missing_count == 1 { "is" } else { "are" }
        ))
        .into());
    }

    // The builds of every shard, the first shard's first: the merged rows are theirs.
    let whole = metas
        .iter()
        .flat_map(RunMeta::builds)
        .fold(first.clone(), |meta, build| meta.with_build(build));
    let whole = RunMeta {
        shard: None,
        ..whole
    };
    // Plan::new refuses a run whose game count does not fit, so `total` cannot overflow.
    let plan = plan_of(&whole)?;
    let total = plan.total_games();
    let anchor = args
        .anchor
        .as_deref()
        .map(|name| plan.anchor_label(name))
        .transpose()?;
    let meta = RunMeta {
        command,
        anchor,
        ..whole
    };

    // Every index from 1 to count is present: a missing one was refused above.
    let folders = by_index
        .into_values()
        .map(|(dir, meta)| finished_shard(dir, meta))
        .collect::<Result<Vec<_>>>()?;

    // A folder that is neither new, nor empty, nor this merged run is refused, exactly
    // as a tournament refuses it: first by a look that changes nothing, then again under
    // the folder's lock.
    let dir = &args.out;
    folder::inspect(dir, &meta)?;
    let _lock = RunLock::acquire(dir)?;
    folder::inspect(dir, &meta)?;
    meta.write(&dir.join(META_FILE))?;
    let (mut games, mut timings) = (Vec::new(), Vec::new());
    for folder in folders {
        games.extend(folder.games);
        timings.extend(folder.timings);
    }
    write_rows_whole(&dir.join(GAMES_FILE), &games)?;
    write_rows_whole(&dir.join(TIMINGS_FILE), &timings)?;
    let summary = summarise(&games, meta.anchor.as_deref(), None)?
        .with_pie_rule(offers_pie_rule(&plan.game)?);
    let mut written = vec![META_FILE, GAMES_FILE, TIMINGS_FILE, SUMMARY_FILE];
    written.extend(draw_charts(dir, &meta.game, &games, &summary)?);
    let page = RunPage {
        meta: &meta,
        rows: &games,
        summary: &summary,
        run_dir: dir,
        cap: DEFAULT_HTML_GAMES,
    };
    write_run_page(&plan.game, &page, dir)?;
    written.push(REPORT_HTML);
    // Last, as a tournament does: summary.csv marks the folder as a finished run, so it
    // is written once the charts and the page are.
    write_summary(&dir.join(SUMMARY_FILE), &summary.rows())?;
    for warning in summary.warnings() {
        eprintln!("{warning}");
    }
    writeln!(
        out,
        "{}: {total} games ({} per pairing), seed {}\n{}",
        meta.game,
        meta.games_per_pairing,
        meta.seed,
        table(&summary)
    )?;
    writeln!(
        out,
        "merged {count} shard{} into {}: wrote {}",
        if count == 1 { "" } else { "s" },
        dir.display(),
        written.join(", ")
    )?;
    out.flush()?;
    Ok(())
}

/// The meta.csv of a shard folder; refuses a folder that is not a shard.
fn shard_meta(dir: &Path) -> Result<RunMeta, BadInput> {
    let shown = dir.display();
    if !dir.is_dir() {
        return Err(BadInput::new(format!(
            "shard folder \"{shown}\" does not exist"
        )));
    }
    let path = dir.join(META_FILE);
    if !path.is_file() {
        return Err(BadInput::new(format!(
            "shard folder \"{shown}\" holds no agon run (no {META_FILE})"
        )));
    }
    let meta = match RunMeta::read_any(&path) {
        Ok((meta, Written::Now)) => meta,
        Ok((_, Written::Older)) => {
            return Err(BadInput::new(format!(
                "shard folder \"{shown}\" holds a run written by an older agon (format \
                 {OLDER_FORMAT}; this build writes format {FORMAT}), which this build does \
                 not merge; run the shard again with this build into a new folder"
            )))
        }
        Err(e) => {
            return Err(BadInput::new(format!(
                "shard folder \"{shown}\" holds a {META_FILE} this build cannot read ({e:#})"
            )))
        }
    };
    if meta.shard.is_none() {
        return Err(BadInput::new(format!(
            "\"{shown}\" holds a whole run, not a shard (its {META_FILE} has no shard row)"
        )));
    }
    Ok(meta)
}

/// The shard of a meta that [`shard_meta`] accepted.
fn shard_of(meta: &RunMeta) -> Shard {
    meta.shard.expect("shard_meta accepts only shards")
}

/// The first field in which two shards' runs differ, naming both folders: any field of
/// the run's identity, with shard counts in place of the shards themselves.
fn run_difference(a_dir: &Path, a: &RunMeta, b_dir: &Path, b: &RunMeta) -> Option<String> {
    let count = |m: &RunMeta| ("shard count", shard_of(m).count.to_string());
    first_difference(a.identity(count(a)), b.identity(count(b))).map(|(what, x, y)| {
        format!(
            "{what} {y:?} in \"{}\", {x:?} in \"{}\"",
            b_dir.display(),
            a_dir.display()
        )
    })
}

/// Reads a shard folder's rows through the checks of a resume
/// ([`folder::check_files`]); refuses it unless it holds exactly its games
/// ([`folder::missing_games`]) and its summary.csv, with advice that works: whatever
/// those checks accept, the shard's tournament command with `--resume` finishes.
fn finished_shard(dir: &Path, meta: &RunMeta) -> Result<ShardFolder> {
    let shard = shard_of(meta);
    let unfinished = |what: String| -> anyhow::Error {
        BadInput::new(format!(
            "shard {shard} in \"{}\" is unfinished ({what}); run its tournament command \
             again with --resume to finish it",
            dir.display()
        ))
        .into()
    };
    let plan = plan_of(meta)?;
    let found = folder::check_files(dir, &plan, meta, Written::Now)?;
    if let Some(what) = folder::missing_games(dir, &found, &plan, None) {
        return Err(unfinished(what));
    }
    if !dir.join(SUMMARY_FILE).is_file() {
        return Err(unfinished(format!("no {SUMMARY_FILE}")));
    }
    // Clean: timings.csv holds exactly the rows of the games.
    Ok(ShardFolder {
        games: found.games.rows,
        timings: found.timings.rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard_meta(index: u64, random_opening: u32) -> RunMeta {
        RunMeta {
            game: "pig".into(),
            random_opening,
            command: format!("agon tournament --shard {index}/4"),
            shard: Some(Shard { index, count: 4 }),
            ..RunMeta::example()
        }
    }

    #[test]
    fn shards_of_one_run_differ_only_in_their_index_and_anything_else_is_named() {
        let (a, b) = (Path::new("s1"), Path::new("s2"));
        assert_eq!(
            run_difference(a, &shard_meta(1, 0), b, &shard_meta(2, 0)),
            None
        );
        assert_eq!(
            run_difference(a, &shard_meta(1, 0), b, &shard_meta(2, 4)).unwrap(),
            "random opening \"4\" in \"s2\", \"0\" in \"s1\""
        );
        let mut other_count = shard_meta(2, 0);
        other_count.shard = Some(Shard { index: 2, count: 5 });
        assert_eq!(
            run_difference(a, &shard_meta(1, 0), b, &other_count).unwrap(),
            "shard count \"5\" in \"s2\", \"4\" in \"s1\""
        );
    }
}
