//! `agon merge --out DIR SHARD_DIR...`: joins the folders of the `N` shards of one
//! tournament (see [`crate::shard`]) into one run folder, the same as a single-machine run.
//!
//! Everything is checked before anything is written: every folder holds a shard (its
//! meta.csv has a `shard` row), all are shards of the same run (same toolkit, game, agents,
//! games per pairing, seed and shard count; threads and command may differ), no shard is
//! given twice, none of the `N` is missing, and each is finished (games.csv and
//! timings.csv hold exactly the shard's games in order, and summary.csv was written after
//! the last). The output folder must be new, empty, or hold this same merged run (which is
//! then written again, to the same bytes).
//!
//! The merged games.csv is the shards' rows in game-index order, written with the same
//! serialiser as a tournament, and summary.csv is computed from those rows alone, so both
//! are byte-identical to a single-machine run of the same tournament. meta.csv is a whole
//! run's (no `shard` row); its `threads` is the first shard's and its `command` the merge
//! command, the two fields that never change results.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::args::{BadInput, MergeArgs};
use crate::games::offers_pie_rule;
use crate::record::{
    first_difference, read_games, write_summary, GameRow, RunMeta, TimingRow, GAMES_FILE,
    META_FILE, SUMMARY_FILE, TIMINGS_FILE,
};
use crate::report::{summarise, table};
use crate::report_cmd::draw_charts;
use crate::run_dir;
use crate::shard::Shard;
use crate::spec::GameSpec;

/// The rows of one shard folder, read and checked.
struct ShardFolder {
    games: Vec<GameRow>,
    timings: Vec<TimingRow>,
}

/// Runs `agon merge`; `command` is the command line as typed, for meta.csv.
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
    let mut by_index: Vec<Option<&PathBuf>> = vec![None; count as usize];
    for (dir, meta) in args.shards.iter().zip(&metas) {
        let shard = shard_of(meta);
        let slot = &mut by_index[(shard.index - 1) as usize];
        if let Some(other) = slot {
            return Err(BadInput::new(format!(
                "shard {shard} is given twice: \"{}\" and \"{}\"",
                other.display(),
                dir.display()
            ))
            .into());
        }
        *slot = Some(dir);
    }
    let missing: Vec<String> = (1..=count)
        .filter(|&i| by_index[(i - 1) as usize].is_none())
        .map(|index| Shard { index, count }.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(BadInput::new(format!(
            "{} {} {} missing; give all {count} shard folders of the run",
            if missing.len() == 1 {
                "shard"
            } else {
                "shards"
            },
            missing.join(", "),
            if missing.len() == 1 { "is" } else { "are" }
        ))
        .into());
    }

    let total = first.games_per_pairing * pairings(first);
    let folders = by_index
        .into_iter()
        .enumerate()
        .map(|(i, dir)| {
            let shard = Shard {
                index: i as u64 + 1,
                count,
            };
            // Every slot is filled: a missing one was refused above.
            finished_shard(dir.expect("every shard is present"), shard, total)
        })
        .collect::<Result<Vec<_>>>()?;

    let meta = RunMeta {
        shard: None,
        command,
        ..first.clone()
    };
    // A folder that is neither new, nor empty, nor this merged run is refused, exactly
    // as a tournament refuses it.
    run_dir::inspect(&args.out, &meta)?;

    let dir = &args.out;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    meta.write(&dir.join(META_FILE))?;
    let (mut games, mut timings) = (Vec::new(), Vec::new());
    for folder in folders {
        games.extend(folder.games);
        timings.extend(folder.timings);
    }
    write_rows(&dir.join(GAMES_FILE), &games)?;
    write_rows(&dir.join(TIMINGS_FILE), &timings)?;
    // Last, as a tournament does: summary.csv marks the folder as a finished run.
    let summary = summarise(&games, args.anchor.as_deref(), None)?
        .with_pie_rule(offers_pie_rule(&GameSpec::parse(&meta.game)?)?);
    write_summary(&dir.join(SUMMARY_FILE), &summary.rows())?;
    let mut written = vec![META_FILE, GAMES_FILE, TIMINGS_FILE, SUMMARY_FILE];
    written.extend(draw_charts(dir, &meta.game, &games, &summary)?);
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
    let meta = RunMeta::read(&path).map_err(|e| {
        BadInput::new(format!(
            "shard folder \"{shown}\" holds a {META_FILE} that is not an agon run's ({e:#})"
        ))
    })?;
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

/// The pairings of the run a meta describes (round robin; one agent plays itself).
fn pairings(meta: &RunMeta) -> u64 {
    let n = meta.agents.len() as u64;
    if n == 1 {
        1
    } else {
        n * (n - 1) / 2
    }
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

/// Reads a shard folder's rows; refuses it unless it holds exactly its games, finished.
fn finished_shard(dir: &Path, shard: Shard, total: u64) -> Result<ShardFolder> {
    let range = shard.games(total);
    let expected = range.end - range.start;
    let unfinished = |what: String| -> anyhow::Error {
        BadInput::new(format!(
            "shard {shard} in \"{}\" is unfinished ({what}); run it again to finish it",
            dir.display()
        ))
        .into()
    };
    let games_path = dir.join(GAMES_FILE);
    let scanned = if games_path.is_file() {
        read_games(&games_path).map_err(|e| unfinished(format!("{e:#}")))?
    } else {
        return Err(unfinished(format!("no {GAMES_FILE}")));
    };
    if let Some(tail) = scanned.tail {
        return Err(unfinished(format!(
            "{GAMES_FILE} line {}: {}",
            tail.line, tail.what
        )));
    }
    let games = scanned.rows;
    let in_order = |indices: &mut dyn Iterator<Item = u64>| indices.eq(range.clone());
    if !in_order(&mut games.iter().map(|g| g.game)) {
        return Err(unfinished(format!(
            "{GAMES_FILE} holds {} of its {expected} games {} to {}",
            games.len(),
            range.start,
            range.end - 1
        )));
    }
    let timings_path = dir.join(TIMINGS_FILE);
    let timings: Vec<TimingRow> = if timings_path.is_file() {
        read_rows(&timings_path).map_err(|e| unfinished(format!("{e:#}")))?
    } else {
        return Err(unfinished(format!("no {TIMINGS_FILE}")));
    };
    if !in_order(&mut timings.iter().map(|t| t.game)) {
        return Err(unfinished(format!(
            "{TIMINGS_FILE} holds {} of its {expected} games",
            timings.len()
        )));
    }
    if !dir.join(SUMMARY_FILE).is_file() {
        return Err(unfinished(format!("no {SUMMARY_FILE}")));
    }
    Ok(ShardFolder { games, timings })
}

/// Reads every row of a CSV file with a header.
fn read_rows<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    let mut r =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    r.deserialize()
        .map(|row| row.with_context(|| format!("bad row in {}", path.display())))
        .collect()
}

/// Writes `rows` to a new CSV file, header first (as the tournament's writer does).
fn write_rows<T: Serialize>(path: &Path, rows: impl IntoIterator<Item = T>) -> Result<()> {
    let mut w = csv::Writer::from_path(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    for row in rows {
        w.serialize(row)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    w.flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard_meta(index: u64, random_opening: u32) -> RunMeta {
        RunMeta {
            toolkit: "agon 0.1.0".into(),
            commit: "abc".into(),
            game: "pig".into(),
            agents: vec!["greedy".into(), "random".into()],
            games_per_pairing: 6,
            seed: 5,
            random_opening,
            openings: String::new(),
            openings_hash: String::new(),
            threads: 1,
            command: format!("agon tournament --shard {index}/4"),
            shard: Some(Shard { index, count: 4 }),
            sprt: None,
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
