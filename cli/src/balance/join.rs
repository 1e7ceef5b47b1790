//! `agon merge --out DIR STUDY_SHARD...`: joins the folders of the N shards of one study
//! (`agon balance --shard I/N`) into the study a single machine would have written.
//!
//! Every folder must hold a study.csv with a `shard` row, all the same study (their rows
//! equal but for the shard and the digest), each shard once and none missing. Each run
//! folder is then merged by the tournament's merge ([`crate::running::merge`], which checks every
//! shard's rows and refuses an unfinished one), the whole study's study.csv is written
//! (the shards' rows without the shard, the digest recomputed: the single-machine
//! study's bytes), and balance.csv and the charts are computed from the merged runs'
//! rows, as a study's own end computes them.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::conclude;
use super::folder::{inspect, run_state, RunState, StudyFolder};
use super::study::{difference, read_study, whole_rows, write_study, Layout, STUDY_FILE};
use crate::args::MergeArgs;
use crate::bad_input::BadInput;
use crate::running::lock::RunLock;
use crate::running::merge::merge;
use crate::shard::Shard;

/// Whether `dir` holds a study (a study.csv), so that `agon merge` joins studies.
pub fn is_study(dir: &Path) -> bool {
    dir.join(STUDY_FILE).is_file()
}

/// Runs `agon merge` on study shard folders; `command` is the command line as typed.
pub fn merge_studies(args: &MergeArgs, command: String, out: &mut dyn Write) -> Result<()> {
    let mut shards: BTreeMap<u64, &PathBuf> = BTreeMap::new();
    let mut count = None;
    let mut first: Option<(&PathBuf, Vec<(String, String)>)> = None;
    for dir in &args.shards {
        let rows = read_study(dir)?.ok_or_else(|| {
            BadInput::new(format!(
                "\"{}\" holds no study ({STUDY_FILE}), but \"{}\" does; give the study \
                 folders of every shard",
                dir.display(),
                args.shards[0].display()
            ))
        })?;
        let shard = rows
            .iter()
            .find(|(k, _)| k == "shard")
            .map(|(_, v)| Shard::parse(v))
            .transpose()?
            .ok_or_else(|| {
                BadInput::new(format!(
                    "\"{}\" holds a whole study, not a shard (its {STUDY_FILE} has no shard \
                     row)",
                    dir.display()
                ))
            })?;
        let whole = whole_rows(&rows);
        match &first {
            None => first = Some((dir, whole)),
            Some((first_dir, first_rows)) => {
                if let Some(what) = difference(&whole, first_rows) {
                    return Err(BadInput::new(format!(
                        "\"{}\" is not a shard of the same study as \"{}\": {what}",
                        dir.display(),
                        first_dir.display()
                    ))
                    .into());
                }
            }
        }
        if count.is_some_and(|n| n != shard.count) {
            return Err(BadInput::new(format!(
                "\"{}\" is shard {shard}, of another count than \"{}\"",
                dir.display(),
                args.shards[0].display()
            ))
            .into());
        }
        count = Some(shard.count);
        if let Some(other) = shards.insert(shard.index, dir) {
            return Err(BadInput::new(format!(
                "shard {shard} is given twice: \"{}\" and \"{}\"",
                other.display(),
                dir.display()
            ))
            .into());
        }
    }
    let (count, (_, rows)) = (count.unwrap_or(0), first.expect("merge needs a folder"));
    let missing: Vec<String> = (1..=count)
        .filter(|i| !shards.contains_key(i))
        .map(|index| Shard { index, count }.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(BadInput::new(format!(
            "study shards {} missing; give all {count} study folders",
            missing.join(", ")
        ))
        .into());
    }
    let layout = Layout::of_rows(&rows)?;
    let dir = &args.out;
    inspect(dir, &rows)?;
    let _lock = RunLock::acquire(dir)?;
    if inspect(dir, &rows)? == StudyFolder::New {
        write_study(dir, &rows)?;
    }
    let mut results = Vec::new();
    for (_, _, folder) in &layout.runs {
        let run = MergeArgs {
            out: dir.join(folder),
            shards: shards.values().map(|d| d.join(folder)).collect(),
            anchor: None,
        };
        // The run's own table is not printed: the study's follows.
        merge(&run, command.clone(), &mut Vec::new())?;
        match run_state(&run.out, None)? {
            RunState::Finished(rows) => results.push(rows),
            // A merge writes a finished run or nothing.
            RunState::Unfinished { what, .. } => {
                return Err(BadInput::new(format!(
                    "the merged run \"{}\" is unfinished ({what})",
                    run.out.display()
                ))
                .into())
            }
        }
    }
    writeln!(
        out,
        "merged {count} study shard{} into {}\n",
        if count == 1 { "" } else { "s" },
        dir.display()
    )?;
    conclude(&layout, dir, &results, true, out)
}
