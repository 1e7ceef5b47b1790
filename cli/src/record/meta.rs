//! The metadata of a run: meta.csv ([`RunMeta`]), the format it was written in, and the
//! identity a rerun, a resume and a merge compare.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::no_follow;
use crate::shard::Shard;

/// Version of the layout of these files, stored in meta.csv; bumped when a column
/// changes meaning so that old folders are recognised as different runs. Format 2 added
/// games.csv's `opening` and `note` columns and meta.csv's `commit` row and opening keys;
/// format 3 added games.csv's `digest` column and meta.csv's `anchor` row, and refuses
/// unknown or missing meta.csv keys.
pub const FORMAT: &str = "3";

/// The older format this build still reads (for `agon report` only, with a note): its
/// games.csv lacks the columns added since, which read as their defaults.
pub const OLDER_FORMAT: &str = "2";

/// What was run in a folder: written first, compared by a rerun. `Default` is the
/// empty record that reading a meta.csv, or planning a run, fills in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunMeta {
    /// `agon <version>` of the build that ran it.
    pub toolkit: String,
    /// The git commit of that build (see [`commit`]); recorded, not part of the run's
    /// identity.
    pub commit: String,
    /// Every build (its [`commit`]) that wrote rows into the run, in the order they first
    /// did, `commit` first, when a build other than `commit` continued it (`--resume`,
    /// or shards merged from several builds); empty when `commit` alone wrote it (see
    /// [`RunMeta::builds`]). Written as one `builds` row, the commits separated by
    /// spaces, only when not empty, so other runs' meta.csv is unchanged. Recorded, not
    /// part of the run's identity, as `commit` is not: a resume by another build of the
    /// same toolkit version is allowed, and this row names every build whose rows the
    /// run holds.
    pub builds: Vec<String>,
    /// Canonical game spec.
    pub game: String,
    /// Canonical agent specs, in the order given.
    pub agents: Vec<String>,
    /// Games per pairing.
    pub games_per_pairing: u64,
    /// Master seed.
    pub seed: u64,
    /// `--random-opening K` (0 without).
    pub random_opening: u32,
    /// Whether those K decisions are drawn without replacement (`agon balance` on a
    /// game without chance, [`crate::running::opening::Opening::Distinct`]). Written as an
    /// `opening_draw` row with the value `distinct` only then, so other runs' meta.csv
    /// is unchanged.
    pub distinct_openings: bool,
    /// `--openings FILE`: the path as given (empty without).
    pub openings: String,
    /// The FNV-1a hash of the openings file's contents (16 hex digits), so that a
    /// changed file is a different run; empty without one.
    pub openings_hash: String,
    /// The soundness check of the random openings (`--opening-check`, `--opening-window`),
    /// as [`crate::running::opening::OpeningCheck::describe`] writes it; `None` without one.
    /// Written as an `opening_check` row only when present, so the meta.csv of runs
    /// without a check is unchanged.
    pub opening_check: Option<String>,
    /// Per agent, in order, the digest of the evaluator weights its `eval=FILE` set
    /// (`weights_file::digest`), empty for an agent without one; no entries when no
    /// agent has one. Written as `eval_hash` rows, one per agent, only then, so that an
    /// edited weight file makes a different run.
    pub eval_hashes: Vec<String>,
    /// Per agent, in order, the outside program an `ext` agent runs, as the digest of
    /// its file (and scripts) and its path (`crate::external::Program::record`), empty
    /// for any other agent; no entries when no agent is an outside program. Written as
    /// `program` rows only then, so that a changed program makes a different run.
    pub programs: Vec<String>,
    /// Worker threads used (does not change the results).
    pub threads: usize,
    /// The command line as typed.
    pub command: String,
    /// The slice of the run this folder holds (`--shard I/N`); `None` for a whole run.
    /// Written as a `shard` row only when present, so whole runs' meta.csv is unchanged.
    pub shard: Option<Shard>,
    /// The SPRT that stops the run (`--sprt`, as `elo0,elo1,alpha,beta`); `None` when the
    /// run plays all its games. Written as an `sprt` row only when present.
    pub sprt: Option<String>,
    /// The label of the agent rated 0 in summary.csv (`--anchor`); `None` for ratings of
    /// mean zero. Written as an `anchor` row only when present. Not part of the run's
    /// identity: it changes the summary, never the games.
    pub anchor: Option<String>,
}

/// The keys of meta.csv, in the order [`RunMeta::write`] writes them. `agent`,
/// `eval_hash` and `program` repeat;
/// the keys of [`OPTIONAL_KEYS`] may be absent; every other key appears exactly once.
const META_KEYS: [&str; 20] = [
    "format",
    "toolkit",
    "commit",
    "builds",
    "game",
    "agent",
    "eval_hash",
    "program",
    "games_per_pairing",
    "seed",
    "random_opening",
    "opening_draw",
    "openings",
    "openings_hash",
    "opening_check",
    "threads",
    "command",
    "anchor",
    "shard",
    "sprt",
];

/// The keys of meta.csv written only when they have a value.
const OPTIONAL_KEYS: [&str; 8] = [
    "builds",
    "eval_hash",
    "program",
    "opening_draw",
    "opening_check",
    "anchor",
    "shard",
    "sprt",
];

/// The keys that repeat, one row per agent.
const PER_AGENT_KEYS: [&str; 3] = ["agent", "eval_hash", "program"];

/// The value of meta.csv's `opening_draw` row: random openings drawn without
/// replacement.
const DISTINCT: &str = "distinct";

/// Which layout a run folder was written in (its meta.csv's `format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// [`FORMAT`], this build's.
    Now,
    /// [`OLDER_FORMAT`]: `agon report` reads it, with a note; resume and merge refuse it.
    Older,
}

/// The version string stored in `toolkit`.
pub fn toolkit() -> String {
    format!("agon {}", env!("CARGO_PKG_VERSION"))
}

/// The git commit this binary was built from: `git rev-parse HEAD`, with `-dirty`
/// appended when tracked files differed from it, or `unknown` when built outside a git
/// checkout (captured by cli/build.rs).
pub fn commit() -> String {
    env!("AGON_COMMIT").to_string()
}

/// A run's meta for the tests of the modules that read or show meta.csv.
#[cfg(test)]
impl RunMeta {
    /// A whole run of `greedy` against `random` at Pig, 6 games per pairing, seed 5,
    /// two random opening decisions, one thread.
    pub(crate) fn example() -> RunMeta {
        RunMeta {
            toolkit: "agon 0.1.0".into(),
            commit: "abc".into(),
            builds: Vec::new(),
            game: "pig:die=6,horizon=1000,target=20".into(),
            agents: vec!["greedy".into(), "random".into()],
            games_per_pairing: 6,
            seed: 5,
            random_opening: 2,
            distinct_openings: false,
            openings: String::new(),
            openings_hash: String::new(),
            opening_check: None,
            eval_hashes: Vec::new(),
            programs: Vec::new(),
            threads: 1,
            command: "agon tournament".into(),
            shard: None,
            sprt: None,
            anchor: None,
        }
    }
}

impl RunMeta {
    /// Writes meta.csv (`key,value` rows; `agent` repeats once per agent, in order).
    /// The file appears whole or not at all: it is written beside under a temporary name,
    /// then renamed, never through a link ([`no_follow::write_whole`]).
    pub fn write(&self, path: &Path) -> Result<()> {
        no_follow::write_whole(path, |file| self.write_rows(file))
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// The rows of meta.csv, header first, into `file`.
    fn write_rows(&self, file: &mut std::fs::File) -> Result<()> {
        let mut w = csv::Writer::from_writer(file);
        w.write_record(["key", "value"])?;
        let mut row = |k: &str, v: &str| w.write_record([k, v]);
        row("format", FORMAT)?;
        row("toolkit", &self.toolkit)?;
        row("commit", &self.commit)?;
        if !self.builds.is_empty() {
            row("builds", &self.builds.join(" "))?;
        }
        row("game", &self.game)?;
        for agent in &self.agents {
            row("agent", agent)?;
        }
        for hash in &self.eval_hashes {
            row("eval_hash", hash)?;
        }
        for program in &self.programs {
            row("program", program)?;
        }
        row("games_per_pairing", &self.games_per_pairing.to_string())?;
        row("seed", &self.seed.to_string())?;
        row("random_opening", &self.random_opening.to_string())?;
        if self.distinct_openings {
            row("opening_draw", DISTINCT)?;
        }
        row("openings", &self.openings)?;
        row("openings_hash", &self.openings_hash)?;
        if let Some(check) = &self.opening_check {
            row("opening_check", check)?;
        }
        row("threads", &self.threads.to_string())?;
        row("command", &self.command)?;
        if let Some(anchor) = &self.anchor {
            row("anchor", anchor)?;
        }
        if let Some(shard) = self.shard {
            row("shard", &shard.to_string())?;
        }
        if let Some(sprt) = &self.sprt {
            row("sprt", sprt)?;
        }
        w.flush()?;
        Ok(())
    }

    /// Reads meta.csv of this format or of [`OLDER_FORMAT`]. Refuses a file without a
    /// `format` row or of another format, a key that is not one of meta.csv's (a
    /// misspelt key would otherwise be ignored and its setting lost), a key given twice
    /// (`agent` apart), a missing key (the optional `anchor`, `shard` and `sprt` apart)
    /// and a value that does not parse, naming the file and the line.
    pub fn read_any(path: &Path) -> Result<(RunMeta, Written)> {
        let shown = path.display();
        let mut r = csv::Reader::from_path(path).with_context(|| format!("cannot read {shown}"))?;
        let mut rows: Vec<(usize, String, String)> = Vec::new();
        for (i, record) in r.records().enumerate() {
            let record = record.with_context(|| format!("cannot read {shown}"))?;
            let (key, value) = (record.get(0).unwrap_or(""), record.get(1).unwrap_or(""));
            rows.push((i + 2, key.to_string(), value.to_string()));
        }
        let written = match rows.iter().find(|(_, key, _)| key == "format") {
            Some((_, _, format)) if format == FORMAT => Written::Now,
            Some((_, _, format)) if format == OLDER_FORMAT => Written::Older,
            Some((line, _, format)) => bail!(
                "{shown} line {line}: format {format:?} is not one this build reads (it \
                 writes format {FORMAT} and reads {OLDER_FORMAT})"
            ),
            None => bail!("{shown} is not an agon run's metadata (no format row)"),
        };
        let mut meta = RunMeta::default();
        let mut seen: Vec<&str> = Vec::new();
        for (line, key, value) in &rows {
            let Some(&key) = META_KEYS.iter().find(|k| **k == key.as_str()) else {
                bail!(
                    "{shown} line {line}: unknown key {key:?} (valid: {})",
                    META_KEYS.join(", ")
                );
            };
            if !PER_AGENT_KEYS.contains(&key) && seen.contains(&key) {
                bail!("{shown} line {line}: key {key:?} is given twice");
            }
            seen.push(key);
            let bad = || format!("{shown} line {line}: bad {key} {value:?}");
            match key {
                "toolkit" => meta.toolkit = value.clone(),
                "commit" => meta.commit = value.clone(),
                "builds" => meta.builds = value.split(' ').map(String::from).collect(),
                "game" => meta.game = value.clone(),
                "agent" => meta.agents.push(value.clone()),
                "eval_hash" => meta.eval_hashes.push(value.clone()),
                "program" => meta.programs.push(value.clone()),
                "games_per_pairing" => meta.games_per_pairing = value.parse().with_context(bad)?,
                "seed" => meta.seed = value.parse().with_context(bad)?,
                "random_opening" => meta.random_opening = value.parse().with_context(bad)?,
                "opening_draw" if value == DISTINCT => meta.distinct_openings = true,
                "opening_draw" => bail!(
                    "{shown} line {line}: bad opening_draw {value:?} (the only value is \
                     {DISTINCT:?}; without the row openings are drawn independently)"
                ),
                "openings" => meta.openings = value.clone(),
                "openings_hash" => meta.openings_hash = value.clone(),
                "opening_check" => meta.opening_check = Some(value.clone()),
                "threads" => meta.threads = value.parse().with_context(bad)?,
                "command" => meta.command = value.clone(),
                "anchor" => meta.anchor = Some(value.clone()),
                "shard" => meta.shard = Some(Shard::parse(value).with_context(bad)?),
                "sprt" => meta.sprt = Some(value.clone()),
                // "format", read above; META_KEYS holds no other key.
                _ => {}
            }
        }
        if let Some(missing) = META_KEYS
            .iter()
            .find(|k| !OPTIONAL_KEYS.contains(k) && !seen.contains(k))
        {
            bail!("{shown} has no {missing:?} row");
        }
        if !meta.eval_hashes.is_empty() && meta.eval_hashes.len() != meta.agents.len() {
            bail!(
                "{shown} has {} eval_hash rows for {} agents (one per agent, or none)",
                meta.eval_hashes.len(),
                meta.agents.len()
            );
        }
        if let Some(line) = rows.iter().find(|(_, key, _)| key == "builds").map(|r| r.0) {
            let builds = &meta.builds;
            let repeated = (1..builds.len()).any(|i| builds[..i].contains(&builds[i]));
            if builds.len() < 2
                || builds[0] != meta.commit
                || repeated
                || builds.iter().any(String::is_empty)
            {
                bail!(
                    "{shown} line {line}: bad builds {:?} (the commits of the builds that \
                     wrote rows, separated by single spaces: the run's commit first, then \
                     each other once)",
                    builds.join(" ")
                );
            }
        }
        if !meta.programs.is_empty() && meta.programs.len() != meta.agents.len() {
            bail!(
                "{shown} has {} program rows for {} agents (one per agent, or none)",
                meta.programs.len(),
                meta.agents.len()
            );
        }
        Ok((meta, written))
    }

    /// Every build that wrote rows into the run, in order: [`RunMeta::builds`]'s list,
    /// or `commit` alone.
    pub fn builds(&self) -> Vec<&str> {
        if self.builds.is_empty() {
            vec![self.commit.as_str()]
        } else {
            self.builds.iter().map(String::as_str).collect()
        }
    }

    /// The same run with `build` added to [`RunMeta::builds`], unless it is there: what
    /// a build about to write rows into the run records first.
    pub fn with_build(&self, build: &str) -> RunMeta {
        let mut builds: Vec<String> = self.builds().into_iter().map(String::from).collect();
        if !builds.iter().any(|b| b == build) {
            builds.push(build.to_string());
        }
        RunMeta {
            builds: if builds.len() > 1 { builds } else { Vec::new() },
            ..self.clone()
        }
    }

    /// The fields that make a run what it is, each named and as text, with the shard
    /// field given as `shard` (a resume compares shards, a merge shard counts). Threads,
    /// the command text, the commit and the anchor are not among them: the first two
    /// never change the results, a rebuilt binary of the same toolkit version may
    /// continue a run (the caller warns), and the anchor changes only the summary.
    pub fn identity(&self, shard: (&'static str, String)) -> [(&'static str, String); 13] {
        [
            ("toolkit", self.toolkit.clone()),
            ("game", self.game.clone()),
            ("agents", self.agents.join(" ")),
            ("games per pairing", self.games_per_pairing.to_string()),
            ("seed", self.seed.to_string()),
            shard,
            ("sprt", self.sprt.clone().unwrap_or_else(|| "none".into())),
            ("random opening", self.random_opening_text()),
            ("openings file", self.openings.clone()),
            ("openings file contents (hash)", self.openings_hash.clone()),
            (
                OPENING_CHECK,
                self.opening_check.clone().unwrap_or_else(|| "none".into()),
            ),
            (EVAL_HASHES, self.eval_hashes.join(" ")),
            (PROGRAMS, self.programs.join(" ")),
        ]
    }

    /// The random opening as the identity names it: K, then ` distinct` when drawn
    /// without replacement (so the identity of every other run is as before).
    fn random_opening_text(&self) -> String {
        if self.distinct_openings {
            format!("{} {DISTINCT}", self.random_opening)
        } else {
            self.random_opening.to_string()
        }
    }

    /// The first field of [`RunMeta::identity`] that makes `other` a different run from
    /// `self` (`None` if they are the same run), as `what: "mine" here, "theirs" there`.
    pub fn difference(&self, other: &RunMeta) -> Option<String> {
        let shard = |m: &RunMeta| ("shard", shard_text(m.shard));
        first_difference(self.identity(shard(self)), other.identity(shard(other)))
            .map(|(what, a, b)| format!("{what} {b:?} there, {a:?} here"))
    }

    /// The text that every games.csv row's digest covers besides the row itself
    /// ([`row_digest`](super::row_digest)): the run's identity without its shard, one `name=value` line per
    /// field. Without the shard, a shard's rows carry the digests of the whole run's, so
    /// merged files are byte-identical to a single-machine run's; threads, command,
    /// commit and anchor are left out as they are from the identity.
    pub fn digest_key(&self) -> String {
        self.identity(("shard", String::new()))
            .iter()
            .filter(|(what, value)| {
                *what != "shard"
                    && !([EVAL_HASHES, PROGRAMS].contains(what) && value.is_empty())
                    && !(*what == OPENING_CHECK && value == "none")
            })
            .map(|(what, value)| format!("{what}={value}\n"))
            .collect()
    }
}

/// The identity field of the agents' evaluator weights. The row digests leave it out
/// when no agent has an `eval=FILE`, so the digests of such runs are what they were
/// before weight files existed.
const EVAL_HASHES: &str = "evaluator weights (hash)";

/// The identity field of the opening check. The row digests leave it out without a
/// check, so the digests of such runs are what they were before checks existed.
const OPENING_CHECK: &str = "opening check";

/// The identity field of the outside programs. The row digests leave it out when no
/// agent is one, so the digests of such runs are what they were before.
const PROGRAMS: &str = "outside programs (digest and path)";

/// A shard as meta.csv writes it; `none` for a whole run.
fn shard_text(shard: Option<Shard>) -> String {
    shard.map_or_else(|| "none".into(), |s| s.to_string())
}

/// The first field where two [`RunMeta::identity`] lists differ: its name, then the
/// first list's text and the second's.
pub fn first_difference<const N: usize>(
    a: [(&'static str, String); N],
    b: [(&'static str, String); N],
) -> Option<(&'static str, String, String)> {
    a.into_iter()
        .zip(b)
        .find(|((_, x), (_, y))| x != y)
        .map(|((what, x), (_, y))| (what, x, y))
}
