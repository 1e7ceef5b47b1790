//! The perft data files (`tests/data/<game>.perft`) shared by every game's perft test:
//! one reader, one writer of recomputed counts, and the engine-side helpers.
//!
//! A file holds one count per line, six fields separated by `|` (spaces around a field
//! ignored; `#` starts a comment line; blank lines are skipped):
//!
//! ```text
//! <game spec> | <moves from the start> | <depth> | <count or ?> | <source> | <quick|deep>
//! ```
//!
//! The game spec is read through the game's declared parameters, as on the command
//! line (`pig:target=20,die=3`; a bare name takes the defaults). Each file's own header
//! says what its sources mean. A `?` count is a placeholder that [`refill`] computes;
//! the checking tests refuse it.
//!
//! The submodules hold the rest of the harness the games' tests share: [`naive_counts`]
//! checks a naive reference model's counts against a data file, [`lockstep`] walks an
//! engine state and a naive model side by side, and [`notation`] lists and refuses
//! moves as text for the rules tests, [`tree`] walks a naive model written as a tree
//! of positions, and [`suite`] declares the data-file tests every perft file shares.
//!
//! Every test binary that includes this module uses a different part of it, and each
//! binary is its own crate, so what one of them leaves unused would warn there.
#![allow(dead_code)]

pub mod apv;
pub mod lockstep;
pub mod naive_counts;
pub mod notation;
pub mod suite;
pub mod tree;

use std::fmt::Write as _;

use agon_engine::perft::{divide, perft};
use agon_engine::{play_moves, Game, Params, State};

/// One count of a perft data file, with its game built from the spec.
#[derive(Clone, Debug)]
pub struct PerftLine<G: Game> {
    /// 1-based line number in the file.
    pub line: usize,
    /// The game spec as written.
    pub spec: String,
    /// The game the spec describes.
    pub game: G,
    /// Move list from the start in the game's notation, space separated (maybe empty).
    pub moves: String,
    /// Plies to count.
    pub depth: u32,
    /// The recorded count; `None` for a `?` placeholder.
    pub count: Option<u64>,
    /// Where the count comes from (one of the file's declared sources).
    pub source: String,
    /// Whether the line belongs to the `deep` tier (only `#[ignore]`d tests check it).
    pub deep: bool,
}

impl<G: Game> PerftLine<G> {
    /// `line 12: pig:target=20 [roll 4] depth 6`, for failure messages.
    pub fn label(&self) -> String {
        format!(
            "line {}: {} [{}] depth {}",
            self.line, self.spec, self.moves, self.depth
        )
    }

    /// The engine's state after the move list; panics if the engine refuses a move.
    pub fn engine_state(&self) -> G::State {
        let mut s = self.game.initial_state();
        play_moves(&mut s, &self.moves)
            .unwrap_or_else(|e| panic!("{}: the engine refuses the move list: {e}", self.label()));
        s
    }

    /// The recorded count; panics on a `?` placeholder.
    pub fn expected(&self) -> u64 {
        self.count
            .unwrap_or_else(|| panic!("{}: count is ?", self.label()))
    }
}

/// Reads `name:key=value,...` (or a bare `name`) through `G`'s declared parameters,
/// defaults filled in.
pub fn parse_game<G: Game>(spec: &str) -> Result<G, String> {
    let rest = match spec.split_once(':') {
        Some((name, rest)) if name == G::NAME => rest,
        None if spec == G::NAME => "",
        _ => return Err(format!("{spec:?} is not a {} spec", G::NAME)),
    };
    let mut pairs = Vec::new();
    for kv in rest.split(',').filter(|kv| !kv.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("{kv:?} is not key=value"))?;
        pairs.push((k, v));
    }
    let params = Params::parse(G::param_specs(), &pairs).map_err(|e| e.0)?;
    G::from_params(&params).map_err(|e| e.0)
}

/// Parses the data file `text` (called `file` in messages), whose sources must be among
/// `sources`; panics with the line number on a malformed line.
pub fn read<G: Game>(file: &str, text: &str, sources: &[&str]) -> Vec<PerftLine<G>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let line = i + 1;
        let bad = |why: &str| -> ! { panic!("{file} line {line}: {why}: {raw}") };
        let fields: Vec<&str> = trimmed.split('|').map(str::trim).collect();
        if fields.len() != 6 {
            bad("expected 6 fields separated by |");
        }
        let game = parse_game::<G>(fields[0]).unwrap_or_else(|e| bad(&e));
        let depth = fields[2].parse().unwrap_or_else(|_| bad("bad depth"));
        let count = match fields[3] {
            "?" => None,
            c => Some(c.parse().unwrap_or_else(|_| bad("bad count"))),
        };
        if !sources.contains(&fields[4]) {
            bad(&format!("source must be one of {sources:?}"));
        }
        let deep = match fields[5] {
            "quick" => false,
            "deep" => true,
            _ => bad("tier must be quick or deep"),
        };
        out.push(PerftLine {
            line,
            spec: fields[0].to_string(),
            game,
            moves: fields[1].to_string(),
            depth,
            count,
            source: fields[4].to_string(),
            deep,
        });
    }
    out
}

/// The engine's count differs from the file's on these lines (each with `explain`'s
/// account of where, e.g. a divide against a reference generator).
pub fn check_engine<G: Game>(
    lines: &[PerftLine<G>],
    explain: impl Fn(&PerftLine<G>) -> String,
) -> Vec<String> {
    let mut failures = Vec::new();
    for l in lines {
        let expected = l.expected();
        let got = perft(&l.engine_state(), l.depth);
        if got != expected {
            failures.push(format!(
                "{}: engine {got}, file {expected} ({}); {}",
                l.label(),
                l.source,
                explain(l)
            ));
        }
    }
    failures
}

/// Checks one tier of `lines` against the engine and panics with every failure: the
/// quick lines all at once, or (`deep`) the deep lines one by one, printing each one's
/// time as it passes.
pub fn assert_engine_tier<G: Game>(
    lines: &[PerftLine<G>],
    deep: bool,
    explain: impl Fn(&PerftLine<G>) -> String,
) {
    let mut failures = Vec::new();
    for l in lines.iter().filter(|l| l.deep == deep) {
        let t = std::time::Instant::now();
        failures.extend(check_engine(std::slice::from_ref(l), &explain));
        if deep {
            assert!(failures.is_empty(), "\n{}", failures.join("\n"));
            eprintln!("{} ok in {:.1?}", l.label(), t.elapsed());
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// The data file `text` with every line of `lines` given the count `recount` returns
/// (the other fields and every other line unchanged). A recorded count that `recount`
/// does not reproduce stops it: refilling only ever fills in placeholders.
pub fn refill<G: Game>(
    text: &str,
    lines: &[PerftLine<G>],
    mut recount: impl FnMut(&PerftLine<G>) -> u64,
) -> String {
    let mut out = String::new();
    for (i, raw) in text.lines().enumerate() {
        match lines.iter().find(|l| l.line == i + 1) {
            None => out.push_str(raw),
            Some(l) => {
                let n = recount(l);
                if let Some(c) = l.count {
                    assert_eq!(c, n, "{}", l.label());
                }
                let mut fields: Vec<String> = raw.split('|').map(String::from).collect();
                fields[3] = format!(" {n} ");
                out.push_str(&fields.join("|"));
            }
        }
        out.push('\n');
    }
    out
}

/// How the engine's divide of `state` at `depth` differs from a reference generator's
/// divide `reference` (each move as text, with its count): one `" move: ...;"` clause
/// per move missing on either side or counted differently, empty when they agree.
pub fn divide_differences<S: State>(
    state: &S,
    depth: u32,
    mut reference: Vec<(String, u64)>,
) -> String {
    let mut engine: Vec<(String, u64)> = divide(state, depth)
        .into_iter()
        .map(|(m, n)| (state.format_move(m), n))
        .collect();
    engine.sort();
    reference.sort();
    let mut out = String::new();
    for (m, n) in &reference {
        match engine.iter().find(|(e, _)| e == m) {
            None => {
                let _ = write!(out, " {m}: naive {n}, missing in engine;");
            }
            Some((_, e)) if e != n => {
                let _ = write!(out, " {m}: naive {n}, engine {e};");
            }
            _ => {}
        }
    }
    for (m, e) in &engine {
        if !reference.iter().any(|(r, _)| r == m) {
            let _ = write!(out, " {m}: engine {e}, not legal for naive;");
        }
    }
    out
}
