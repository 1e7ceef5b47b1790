//! `agon run FILE.toml`: a tournament described in a TOML file, run into
//! `results/<file stem>/` (or `--out`).
//!
//! The file holds the flags of `agon tournament`, by name:
//!
//! ```toml
//! question = "Does alpha-beta at depth 4 beat depth 2 on Connect Four?"  # optional
//! game = "connect4"
//! agents = ["ab:depth=4", "ab:depth=2"]
//! games = 100        # per pairing, even
//! seed = 1
//! threads = 2        # optional; 0 (the default) is one per core
//! sprt = "0,10,0.05,0.05"  # optional, two agents only: stop at the SPRT's decision
//! anchor = "ab:depth=2"    # optional: the agent rated 0 (default: mean zero)
//! random_opening = 4       # optional: K random decisions open each pair
//! openings = "book.txt"    # optional (not with random_opening): one opening per line
//! opening_check = "default" # optional, with random_opening: keep only sound openings
//! opening_window = 60.0     # optional: the checker's window (default: the game's)
//! ```
//!
//! An unknown key or a missing required one is bad input naming it and the valid keys,
//! so a typo never silently runs a different experiment. The run itself is exactly
//! `agon tournament` with those flags (same checks, same folder rules, same files), so
//! an experiment's folder is indistinguishable from the tournament's but for meta.csv's
//! `command`. `--threads`, `--out` and `--shard` on the command line override or add to
//! the file. The file must be a regular file of at most [`MAX_FILE_BYTES`] (see
//! [`crate::input_file`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;

use crate::args::{RunArgs, TournamentArgs};
use crate::bad_input::BadInput;
use crate::commands::tournament;
use crate::input_file::InputFile;
use crate::stop::Stop;

/// Where experiments' results go, relative to the working folder.
const RESULTS: &str = "results";

/// The largest experiment file read: 1 MiB, far more than any list of agents needs.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The keys of an experiment file, for messages.
const KEYS: &str = "required: game, agents, games, seed; optional: question, threads, sprt, \
                    anchor, random_opening, openings, opening_check, opening_window";

/// The contents of an experiment file.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// The question the experiment asks (documentation only; not stored in the run).
    #[serde(default)]
    pub question: Option<String>,
    /// Game spec, as `--game`.
    pub game: String,
    /// Agent specs, as `--agents`.
    pub agents: Vec<String>,
    /// Games per pairing, as `--games`.
    pub games: u64,
    /// Master seed, as `--seed`.
    pub seed: u64,
    /// Worker threads, as `--threads` (0 or absent: one per core).
    #[serde(default)]
    pub threads: Option<usize>,
    /// SPRT of a two-agent match, `elo0,elo1,alpha,beta`, as `--sprt`.
    #[serde(default)]
    pub sprt: Option<String>,
    /// The agent rated 0, as `--anchor`.
    #[serde(default)]
    pub anchor: Option<String>,
    /// Random decisions opening each pair, as `--random-opening` (0 or absent: none).
    #[serde(default)]
    pub random_opening: u32,
    /// Openings file, as `--openings` (a path relative to the working folder).
    #[serde(default)]
    pub openings: Option<PathBuf>,
    /// The soundness check of the random openings, as `--opening-check`.
    #[serde(default)]
    pub opening_check: Option<String>,
    /// Its window, as `--opening-window`.
    #[serde(default)]
    pub opening_window: Option<f64>,
}

impl Experiment {
    /// Parses an experiment file's text; `name` (the file's path) starts error messages.
    pub fn parse(name: &str, text: &str) -> Result<Experiment, BadInput> {
        toml::from_str(text).map_err(|e| {
            // A missing key belongs to no line (toml reports it against the document).
            let missing = e.message().starts_with("missing field");
            let place = match e.span() {
                Some(span) if !missing => {
                    let line = text[..span.start].matches('\n').count() + 1;
                    format!("{name} line {line}")
                }
                _ => name.to_string(),
            };
            BadInput::new(format!("{place}: {} ({KEYS})", e.message().trim()))
        })
    }
}

/// The folder `agon run` writes into: `--out`, or results/<the file's stem>.
pub fn out_folder(args: &RunArgs) -> Result<PathBuf, BadInput> {
    match &args.out {
        Some(dir) => Ok(dir.clone()),
        None => default_out(&args.file),
    }
}

/// Runs `agon run`; `command` is the command line as typed, for meta.csv. The run stops
/// between games when `stop` is requested ([`crate::run_until`]).
pub fn run(args: &RunArgs, command: String, out: &mut dyn Write, stop: &Stop) -> Result<()> {
    let name = args.file.display().to_string();
    let shown = format!("\"{name}\"");
    let text = InputFile::read_text(&args.file, "experiment file", &shown, MAX_FILE_BYTES)?;
    let experiment = Experiment::parse(&name, &text)?;
    let dir = out_folder(args)?;
    let tournament = TournamentArgs {
        game: experiment.game,
        agents: experiment.agents,
        games: experiment.games,
        seed: experiment.seed,
        threads: args.threads.or(experiment.threads).unwrap_or(0),
        out: dir,
        shard: args.shard.clone(),
        sprt: experiment.sprt,
        anchor: experiment.anchor,
        resume: args.resume,
        random_opening: experiment.random_opening,
        openings: experiment.openings,
        opening_check: experiment.opening_check,
        opening_window: experiment.opening_window,
    };
    if tournament.random_opening > 0 && tournament.openings.is_some() {
        return Err(BadInput::new(format!(
            "{name}: random_opening and openings cannot be used together"
        ))
        .into());
    }
    tournament::tournament(&tournament, command, out, stop)
}

/// `results/<stem>` for the experiment file `file`.
fn default_out(file: &Path) -> Result<PathBuf, BadInput> {
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| {
            BadInput::new(format!(
                "experiment file \"{}\" has no usable name for its results folder; give --out",
                file.display()
            ))
        })?;
    Ok(Path::new(RESULTS).join(stem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_file_parses_and_optional_keys_may_be_left_out() {
        let text = "question = \"q\"\ngame = \"connect4\"\nagents = [\"ab:depth=2\", \
                    \"random\"]\ngames = 4\nseed = 9\nthreads = 1\n";
        assert_eq!(
            Experiment::parse("x.toml", text).unwrap(),
            Experiment {
                question: Some("q".into()),
                game: "connect4".into(),
                agents: vec!["ab:depth=2".into(), "random".into()],
                games: 4,
                seed: 9,
                threads: Some(1),
                sprt: None,
                anchor: None,
                random_opening: 0,
                openings: None,
                opening_check: None,
                opening_window: None,
            }
        );
        let minimal = "game = \"pig\"\nagents = [\"random\"]\ngames = 2\nseed = 1\n";
        let e = Experiment::parse("x.toml", minimal).unwrap();
        assert_eq!((e.question, e.threads), (None, None));
        assert_eq!(
            default_out(Path::new("experiments/ladder.toml")).unwrap(),
            Path::new("results/ladder")
        );
    }

    #[test]
    fn unknown_and_missing_keys_are_named_with_the_valid_ones() {
        let unknown = "game = \"pig\"\nagents = [\"random\"]\ngames = 2\nseed = 1\nsede = 2\n";
        assert_eq!(
            Experiment::parse("e.toml", unknown).unwrap_err().0,
            "e.toml line 5: unknown field `sede`, expected one of `question`, `game`, \
             `agents`, `games`, `seed`, `threads`, `sprt`, `anchor`, `random_opening`, `openings`, `opening_check`, `opening_window` (required: game, agents, games, \
             seed; optional: question, threads, sprt, anchor, random_opening, openings, opening_check, opening_window)"
        );
        let missing = "game = \"pig\"\nagents = [\"random\"]\ngames = 2\n";
        assert_eq!(
            Experiment::parse("e.toml", missing).unwrap_err().0,
            "e.toml: missing field `seed` (required: game, agents, games, seed; optional: \
             question, threads, sprt, anchor, random_opening, openings, opening_check, \
             opening_window)"
        );
    }
}
