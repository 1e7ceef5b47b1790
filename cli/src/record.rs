//! The files of a tournament run: their rows (serde + csv) and the run's metadata.
//!
//! A run folder holds `meta.csv` (what was run), `games.csv` (one row per game, in
//! game-index order, reproducible byte for byte), `timings.csv` (wall-clock thinking time,
//! never reproducible, hence apart) and `summary.csv` (statistics computed from
//! games.csv alone). Every column is documented in `results/README.md`.

use std::fs::File;
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

/// Name of the metadata file in a run folder.
pub const META_FILE: &str = "meta.csv";
/// Name of the per-game results file.
pub const GAMES_FILE: &str = "games.csv";
/// Name of the per-game timing file.
pub const TIMINGS_FILE: &str = "timings.csv";
/// Name of the statistics file.
pub const SUMMARY_FILE: &str = "summary.csv";

/// Version of the layout of these files, stored in meta.csv; bumped when a column
/// changes meaning so that old folders are recognised as different runs.
const FORMAT: &str = "2";

/// The result of a game for seat 0, written `1`, `0.5` or `0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Result0 {
    /// Seat 0 won.
    #[serde(rename = "1")]
    Win,
    /// Draw.
    #[serde(rename = "0.5")]
    Draw,
    /// Seat 0 lost.
    #[serde(rename = "0")]
    Loss,
}

impl Result0 {
    /// The result for `seat` as +1, 0 or -1.
    pub fn score(self, seat: usize) -> i32 {
        let s0 = match self {
            Result0::Win => 1,
            Result0::Draw => 0,
            Result0::Loss => -1,
        };
        if seat == 0 {
            s0
        } else {
            -s0
        }
    }
}

/// One row of games.csv: everything about a game that is reproducible.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// Game index in the run, from 0.
    pub game: u64,
    /// Pair index: games `2p` and `2p+1` start alike with seats swapped.
    pub pair: u64,
    /// Pairing index (which two agents), from 0, in round-robin order.
    pub pairing: u64,
    /// Label of seat 0's agent (its canonical spec, `#k` added if repeated).
    pub agent0: String,
    /// Label of seat 1's agent.
    pub agent1: String,
    /// Side or colour seat 0 played at the end of the game.
    pub side0: String,
    /// Side or colour seat 1 played at the end of the game.
    pub side1: String,
    /// Result for seat 0.
    pub result0: Result0,
    /// Winning seat; empty for a draw.
    pub winner: Option<u8>,
    /// Why the game ended (the game's own word, e.g. `elimination`).
    pub end_reason: String,
    /// Plies played (decisions and chance outcomes).
    pub plies: u32,
    /// Search nodes of seat 0's agent over the game.
    pub nodes0: u64,
    /// Search nodes of seat 1's agent over the game.
    pub nodes1: u64,
    /// How many of the first plies of `moves` were the opening (`--random-opening` or
    /// `--openings`) rather than the agents' play; 0 without one.
    pub opening: u32,
    /// Every move in notation, chance outcomes included, separated by spaces.
    pub moves: String,
}

/// One row of timings.csv: thinking time, which is never reproducible.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimingRow {
    /// Game index (as in games.csv).
    pub game: u64,
    /// Thinking time of seat 0's agent over the game, in microseconds.
    pub time_us0: u64,
    /// Thinking time of seat 1's agent over the game, in microseconds.
    pub time_us1: u64,
}

/// One row of summary.csv. Numbers are pre-formatted text so that the file is the same
/// byte for byte wherever it is computed; an empty field means "not defined".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// `pairing` (two agents) or `game` (every game of the run).
    pub scope: String,
    /// Pairing index; empty for the `game` row.
    pub pairing: String,
    /// Agent A of the pairing (seat 0 in the pairing's even games).
    pub agent_a: String,
    /// Agent B of the pairing.
    pub agent_b: String,
    /// Games counted.
    pub games: u64,
    /// A's wins against B.
    pub wins: String,
    /// Draws.
    pub draws: String,
    /// A's losses against B.
    pub losses: String,
    /// A's score `(W + D/2) / N`.
    pub score: String,
    /// Elo difference A − B (`inf`/`-inf` for a perfect score).
    pub elo: String,
    /// Lower end of the 95% Elo interval.
    pub elo_low: String,
    /// Upper end of the 95% Elo interval.
    pub elo_high: String,
    /// Seat 0's wins.
    pub seat0_wins: u64,
    /// Draws.
    pub seat0_draws: u64,
    /// Seat 0's losses.
    pub seat0_losses: u64,
    /// Seat 0's wins over decisive games.
    pub seat0_win_rate: String,
    /// Lower end of its Wilson 95% interval.
    pub seat0_win_low: String,
    /// Upper end of its Wilson 95% interval.
    pub seat0_win_high: String,
}

/// What was run in a folder: written first, compared by a rerun.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunMeta {
    /// `agon <version>` of the build that ran it.
    pub toolkit: String,
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
    /// `--openings FILE`: the path as given (empty without).
    pub openings: String,
    /// The FNV-1a hash of the openings file's contents (16 hex digits), so that a
    /// changed file is a different run; empty without one.
    pub openings_hash: String,
    /// Worker threads used (does not change the results).
    pub threads: usize,
    /// The command line as typed.
    pub command: String,
}

/// The version string stored in `toolkit`.
pub fn toolkit() -> String {
    format!("agon {}", env!("CARGO_PKG_VERSION"))
}

impl RunMeta {
    /// Writes meta.csv (`key,value` rows; `agent` repeats once per agent, in order).
    pub fn write(&self, path: &Path) -> Result<()> {
        let mut w = csv::Writer::from_path(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        w.write_record(["key", "value"])?;
        let mut row = |k: &str, v: &str| w.write_record([k, v]);
        row("format", FORMAT)?;
        row("toolkit", &self.toolkit)?;
        row("game", &self.game)?;
        for agent in &self.agents {
            row("agent", agent)?;
        }
        row("games_per_pairing", &self.games_per_pairing.to_string())?;
        row("seed", &self.seed.to_string())?;
        row("random_opening", &self.random_opening.to_string())?;
        row("openings", &self.openings)?;
        row("openings_hash", &self.openings_hash)?;
        row("threads", &self.threads.to_string())?;
        row("command", &self.command)?;
        w.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    }

    /// Reads meta.csv. Fails if the file is not a meta.csv of this format.
    pub fn read(path: &Path) -> Result<RunMeta> {
        let mut r = csv::Reader::from_path(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut meta = RunMeta {
            toolkit: String::new(),
            game: String::new(),
            agents: Vec::new(),
            games_per_pairing: 0,
            seed: 0,
            random_opening: 0,
            openings: String::new(),
            openings_hash: String::new(),
            threads: 0,
            command: String::new(),
        };
        let mut format = None;
        for record in r.records() {
            let record = record.with_context(|| format!("cannot read {}", path.display()))?;
            let (key, value) = (record.get(0).unwrap_or(""), record.get(1).unwrap_or(""));
            let number = || {
                value
                    .parse()
                    .with_context(|| format!("{}: bad {key} {value:?}", path.display()))
            };
            match key {
                "format" => format = Some(value.to_string()),
                "toolkit" => meta.toolkit = value.into(),
                "game" => meta.game = value.into(),
                "agent" => meta.agents.push(value.into()),
                "games_per_pairing" => meta.games_per_pairing = number()?,
                "seed" => meta.seed = number()?,
                "random_opening" => {
                    meta.random_opening = value
                        .parse()
                        .with_context(|| format!("{}: bad {key} {value:?}", path.display()))?;
                }
                "openings" => meta.openings = value.into(),
                "openings_hash" => meta.openings_hash = value.into(),
                "threads" => meta.threads = value.parse().unwrap_or(0),
                "command" => meta.command = value.into(),
                _ => {}
            }
        }
        if format.as_deref() != Some(FORMAT) {
            bail!(
                "{} is not an agon run's metadata (format {FORMAT})",
                path.display()
            );
        }
        Ok(meta)
    }

    /// The first field that makes `other` a different run from `self` (`None` if they
    /// are the same run), as `what: "mine" here, "theirs" there`. Threads and the command
    /// text do not count: they never change the results.
    pub fn difference(&self, other: &RunMeta) -> Option<String> {
        let fields = [
            ("toolkit", self.toolkit.clone(), other.toolkit.clone()),
            ("game", self.game.clone(), other.game.clone()),
            ("agents", self.agents.join(" "), other.agents.join(" ")),
            (
                "games per pairing",
                self.games_per_pairing.to_string(),
                other.games_per_pairing.to_string(),
            ),
            ("seed", self.seed.to_string(), other.seed.to_string()),
            (
                "random opening",
                self.random_opening.to_string(),
                other.random_opening.to_string(),
            ),
            (
                "openings file",
                self.openings.clone(),
                other.openings.clone(),
            ),
            (
                "openings file contents (hash)",
                self.openings_hash.clone(),
                other.openings_hash.clone(),
            ),
        ];
        fields
            .into_iter()
            .find(|(_, a, b)| a != b)
            .map(|(what, a, b)| format!("{what} {b:?} there, {a:?} here"))
    }
}

/// Appends game and timing rows to games.csv and timings.csv, flushing after every game.
pub struct RunWriter {
    games: csv::Writer<File>,
    timings: csv::Writer<File>,
}

impl RunWriter {
    /// Creates (or truncates) games.csv and timings.csv in `dir`.
    pub fn create(dir: &Path) -> Result<RunWriter> {
        let open = |name: &str| {
            let path = dir.join(name);
            csv::Writer::from_path(&path)
                .with_context(|| format!("cannot create {}", path.display()))
        };
        Ok(RunWriter {
            games: open(GAMES_FILE)?,
            timings: open(TIMINGS_FILE)?,
        })
    }

    /// Writes one game's rows and flushes both files.
    pub fn write(&mut self, game: &GameRow, timing: &TimingRow) -> Result<()> {
        self.games.serialize(game)?;
        self.timings.serialize(timing)?;
        self.games.flush().context("cannot write games.csv")?;
        self.timings.flush().context("cannot write timings.csv")?;
        Ok(())
    }
}

/// Reads every row of a games.csv.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>> {
    let mut r =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    r.deserialize()
        .map(|row| row.with_context(|| format!("bad row in {}", path.display())))
        .collect()
}

/// Writes summary.csv.
pub fn write_summary(path: &Path, rows: &[SummaryRow]) -> Result<()> {
    let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut w = csv::Writer::from_writer(file);
    for row in rows {
        w.serialize(row)?;
    }
    w.flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_rows_round_trip_with_the_documented_header() {
        let row = GameRow {
            game: 3,
            pair: 1,
            pairing: 0,
            agent0: "ab:depth=3".into(),
            agent1: "random".into(),
            side0: "white".into(),
            side1: "black".into(),
            result0: Result0::Draw,
            winner: None,
            end_reason: "cap".into(),
            plies: 2,
            nodes0: 10,
            nodes1: 1,
            opening: 1,
            moves: "a1xa2 swap".into(),
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(
            text,
            "game,pair,pairing,agent0,agent1,side0,side1,result0,winner,end_reason,plies,\
             nodes0,nodes1,opening,moves\n\
             3,1,0,ab:depth=3,random,white,black,0.5,,cap,2,10,1,1,a1xa2 swap\n"
        );
        let back: GameRow = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(back, row);
        assert_eq!(Result0::Loss.score(0), -1);
        assert_eq!(Result0::Loss.score(1), 1);
    }

    #[test]
    fn meta_round_trips_and_names_the_difference() {
        let dir = std::env::temp_dir().join(format!("agon-meta-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(META_FILE);
        let meta = RunMeta {
            toolkit: toolkit(),
            game: "invector:height=5,pie=true,width=6".into(),
            agents: vec!["ab:depth=3".into(), "random".into()],
            games_per_pairing: 4,
            seed: 9,
            random_opening: 0,
            openings: "openings.txt".into(),
            openings_hash: "af63dc4c8601ec8c".into(),
            threads: 2,
            command: "agon tournament --game \"invector:width=6\"".into(),
        };
        meta.write(&path).unwrap();
        let back = RunMeta::read(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(back, meta);
        let other = RunMeta {
            threads: 1,
            command: "x".into(),
            ..meta.clone()
        };
        assert_eq!(meta.difference(&other), None);
        let other = RunMeta {
            seed: 10,
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&other).unwrap(),
            "seed \"10\" there, \"9\" here"
        );
        let other = RunMeta {
            openings_hash: "0000000000000000".into(),
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&other).unwrap(),
            "openings file contents (hash) \"0000000000000000\" there, \"af63dc4c8601ec8c\" here"
        );
        let other = RunMeta {
            random_opening: 4,
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&other).unwrap(),
            "random opening \"4\" there, \"0\" here"
        );
    }
}
