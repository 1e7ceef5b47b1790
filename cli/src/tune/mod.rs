//! `agon tune`: fits a game's evaluator weights to the results of games, in the manner of
//! Texel's method, and writes them to a weights file.
//!
//! 1. Games: `--games N` self-play games of `--agent` with random openings, played as a
//!    self-play tournament's games ([`play_game`]: game `g` has its own opening and luck,
//!    seeded from `--seed`, in parallel, the same at any `--threads`), or with `--from
//!    DIR` the games of a run folder (its games.csv checked as `agon report` checks it,
//!    its game the one `--game` names).
//! 2. Positions: sampled from the games and labelled with their results
//!    ([`sample`]), every fifth game held out.
//! 3. Fit: from the evaluator's default weights or those of `--eval FILE` (read as an
//!    agent's `eval=FILE`), `K`, then rounds of linearising the evaluator and fitting
//!    the linear model, kept while the held-out loss measured with the true evaluator
//!    falls ([`fit`]).
//! 4. Output: a few lines on standard output, the last one `loss <before> -> <after>`
//!    (held-out losses, six decimals), and the weights file ([`weights_file::render`]),
//!    written under a temporary name and renamed, so it is whole or absent. Progress
//!    goes to standard error on a terminal only.
//!
//! The default agent is `ab:depth=2` (`expectimax:depth=2` on a game with chance): cheap,
//! and varied enough by the random openings (default 4 decisions, fewer where a pie rule
//! allows fewer) and by chance. The module only reads games and writes a weights file;
//! what becomes a game's default weights is decided elsewhere.

pub mod fit;
pub mod linear;
pub mod sample;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use agon_engine::weights::{flat_names, Tunable, Weights};
use agon_engine::Game;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::args::TuneArgs;
use crate::bad_input::BadInput;
use crate::games::{dispatch, GameCommand, PlayableGame, GAMES};
use crate::record::{check_file_out, write_file_whole, GameRow};
use crate::running::audit::{open_run_to_read, read_checked_games};
use crate::running::opening::Opening;
use crate::running::table_memory;
use crate::running::tournament::{play_game, worker_threads, workers, workers_for, Plan};
use crate::spec::{AgentSpec, GameSpec};
use crate::weights_file;

/// The most self-play games `--games` may ask for.
pub const MAX_GAMES: u64 = 1_000_000;

/// The random opening's decisions when `--random-opening` is not given.
pub const DEFAULT_OPENING: u32 = 4;

/// Where the games come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Self-play games `0..games` of the plan (one agent, random openings).
    SelfPlay {
        /// The self-play plan.
        plan: Plan,
        /// How many of its games to play.
        games: u64,
    },
    /// The games of run folders.
    Run {
        /// The folders as given.
        dirs: Vec<PathBuf>,
        /// Their complete games, folder after folder; with several folders, renumbered
        /// from 0 in that order (the number decides which games are held out and seeds
        /// each game's choice of positions).
        rows: Vec<GameRow>,
    },
}

/// What a tuning needs besides the game and the starting weights.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The games.
    pub source: Source,
    /// Seed of the choice of positions.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
}

/// What a tuning found: the lines to print and the weights file to write.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// Standard output, every line ended; the last is `loss <before> -> <after>`.
    pub report: String,
    /// The weights file's text.
    pub file: String,
    /// The fit itself.
    pub fitted: fit::Fitted,
}

/// Runs `agon tune`.
pub fn tune(args: &TuneArgs, out: &mut dyn Write) -> Result<()> {
    let spec = GameSpec::parse(&args.game)?;
    check_file_out(&args.out, "the weights file")?;
    let threads = worker_threads(args.threads)?;
    let source = match &args.from {
        Some(dir) => run_games(std::slice::from_ref(dir), &spec)?,
        None => {
            if args.games == 0 || args.games > MAX_GAMES {
                return Err(BadInput::new(format!(
                    "--games must be 1 to {MAX_GAMES}, got {}",
                    args.games
                ))
                .into());
            }
            // Seat-swapped pairs mean nothing in self-play: any count is played, from a
            // plan of the next even count.
            let agent = args.agent.as_deref().unwrap_or(default_agent(&spec));
            let agent = AgentSpec::parse(agent, false)?;
            let plan = Plan::new(
                spec.clone(),
                vec![agent],
                args.games + args.games % 2,
                args.seed,
            )?;
            table_memory::check(&plan, threads)?;
            Source::SelfPlay {
                plan,
                games: args.games,
            }
        }
    };
    let setup = Setup {
        source,
        seed: args.seed,
        threads,
    };
    dispatch(
        &spec,
        TuneCommand {
            setup,
            random_opening: args.random_opening,
            eval: args.eval.as_deref(),
            path: &args.out,
            out,
        },
    )
}

/// The tuning, generic over the game.
struct TuneCommand<'a> {
    setup: Setup,
    random_opening: Option<u32>,
    /// `--eval FILE`: the starting weights; none, the evaluator's defaults.
    eval: Option<&'a str>,
    path: &'a Path,
    out: &'a mut dyn Write,
}

impl GameCommand for TuneCommand<'_> {
    fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> Result<()> {
        let start = match self.eval {
            Some(file) => weights_file::load::<WeightsOf<G>>(file)?,
            None => WeightsOf::<G>::default(),
        };
        let tuned = tune_game(
            &game,
            spec,
            self.setup,
            self.random_opening,
            &start,
            &stage_bar(),
        )?;
        write_file_whole(self.path, &tuned.file)?;
        self.out.write_all(tuned.report.as_bytes())?;
        Ok(())
    }
}

/// The agent that plays when `--agent` is not given: alpha-beta at depth 2, or on a game
/// with chance (which alpha-beta cannot play) expectimax at depth 2.
pub fn default_agent(spec: &GameSpec) -> &'static str {
    let chance = GAMES.iter().any(|g| g.name == spec.name && g.has_chance);
    if chance {
        "expectimax:depth=2"
    } else {
        "ab:depth=2"
    }
}

/// The complete games of the run folders `dirs`, whose game must be `spec`'s (see
/// [`Source::Run`]).
pub fn run_games(dirs: &[PathBuf], spec: &GameSpec) -> Result<Source> {
    let mut rows = Vec::new();
    for dir in dirs {
        rows.extend(one_run_games(dir, spec)?);
    }
    if dirs.len() > 1 {
        for (index, row) in rows.iter_mut().enumerate() {
            row.game = index as u64;
        }
    }
    Ok(Source::Run {
        dirs: dirs.to_vec(),
        rows,
    })
}

/// The complete games of the run folder `dir`, whose game must be `spec`'s.
fn one_run_games(dir: &Path, spec: &GameSpec) -> Result<Vec<GameRow>> {
    let shown = dir.display();
    let (meta, written, plan, games_path) = open_run_to_read(dir, "--from: ")?;
    if plan.game != *spec {
        return Err(BadInput::new(format!(
            "--game {spec} differs from the game of the run in \"{shown}\" ({}); give --game {}",
            plan.game, plan.game
        ))
        .into());
    }
    let scanned = read_checked_games(&games_path, &meta, &plan, written)?;
    if let Some(tail) = &scanned.tail {
        eprintln!(
            "note: {} line {}: {}; the complete rows before it are used",
            games_path.display(),
            tail.line,
            tail.what
        );
    }
    Ok(scanned.rows)
}

/// The weights of a playable game's evaluator.
pub type WeightsOf<G> = <<G as PlayableGame>::Eval as Tunable<<G as Game>::State>>::Weights;

/// Tunes the weights of the evaluator of `game` (built from `spec`) from `start`, as the
/// module docs say. `random_opening` is `--random-opening` (self-play only).
pub fn tune_game<G: PlayableGame>(
    game: &G,
    spec: &GameSpec,
    setup: Setup,
    random_opening: Option<u32>,
    start: &WeightsOf<G>,
    bar: &ProgressBar,
) -> Result<Tuned> {
    let pool = workers(setup.threads)?;
    let (games, rows) = source_games(game, setup.source, setup.threads, random_opening, bar)?;
    let heading = format!("tune {spec}: {games}, seed {}", setup.seed);
    let noisy = G::Eval::with_weights(start.clone());
    let positions = pool.install(|| sample::sample(game, &rows, &noisy, setup.seed, false))?;
    let (train, held_out) = (positions.train.len(), positions.held_out.len());
    if train == 0 || held_out == 0 {
        return Err(BadInput::new(format!(
            "{} games gave {train} training and {held_out} held-out positions, too few to \
             fit; tune on more games",
            rows.len()
        ))
        .into());
    }
    let fitted = pool.install(|| fit::fit::<G::State, G::Eval>(&positions, start, bar))?;
    bar.finish_and_clear();

    let names = flat_names(WeightsOf::<G>::SPECS);
    let mut report = format!("{heading}\n");
    report += &format!(
        "positions: {train} training, {held_out} held-out (from {} of {} games)\n",
        positions.held_out_games,
        rows.len()
    );
    report += &format!("K: {:.6}\n", fitted.k);
    for (i, round) in fitted.rounds.iter().enumerate() {
        report += &format!(
            "round {}: held-out loss {:.6}, training loss {:.6} (linear model {:.6})\n",
            i + 1,
            round.held_out_loss,
            round.train_loss,
            round.model_loss
        );
    }
    let changes: Vec<String> = names
        .iter()
        .zip(start.flat().iter().zip(&fitted.best))
        .filter(|(_, (a, b))| a != b)
        .map(|(name, (a, b))| format!("{name} {a} -> {b}"))
        .collect();
    report += &format!(
        "weights: {}\n",
        if changes.is_empty() {
            "unchanged".to_string()
        } else {
            changes.join(", ")
        }
    );
    report += &format!("loss {:.6} -> {:.6}\n", fitted.before, fitted.after);
    let best = WeightsOf::<G>::from_flat(&fitted.best).context("the fitted weights")?;
    Ok(Tuned {
        report,
        file: weights_file::render(&best),
        fitted,
    })
}

/// The games of `source` (played in parallel, the same at any `threads`, or read from a
/// run folder) and a phrase naming them (`200 games of ab:depth=2 (random opening
/// 4)`). `random_opening` is `--random-opening` (self-play only); `bar` counts the games
/// played.
pub fn source_games<G: PlayableGame>(
    game: &G,
    source: Source,
    threads: usize,
    random_opening: Option<u32>,
    bar: &ProgressBar,
) -> Result<(String, Vec<GameRow>)> {
    match source {
        Source::SelfPlay { plan, games } => {
            let agent = &plan.entrants[0].spec;
            G::build_agent(agent, &game.initial_state())?;
            let k = random_opening.unwrap_or_else(|| {
                DEFAULT_OPENING.min(game.pie_swap_decision().unwrap_or(u32::MAX))
            });
            let opening = Opening::from_args(k, None)?;
            opening.check(game)?;
            let plan = plan.with_opening(opening);
            let named = format!(
                "{games} games of {} (random opening {k})",
                plan.entrants[0].label
            );
            bar.set_length(games);
            bar.set_message("games");
            let play = |index| {
                let row = play_game(game, &plan, index).map(|(row, _)| row);
                bar.inc(1);
                row
            };
            let pool = workers(workers_for(threads, games))?;
            let rows = pool.install(|| {
                (0..games)
                    .into_par_iter()
                    .map(play)
                    .collect::<Result<Vec<_>>>()
            })?;
            Ok((named, rows))
        }
        Source::Run { dirs, rows } => {
            let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            Ok((format!("{} games of {}", rows.len(), shown.join(" ")), rows))
        }
    }
}

/// The progress bar of a tuning: on standard error if it is a terminal, else hidden.
pub fn stage_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template("{bar:30} {pos}/{len}  ETA {eta}  {wide_msg}")
        .expect("the template is valid");
    ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr()).with_style(style)
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::Connect4;
    use agon_engine::weights::flat_ranges;

    use super::*;

    type Connect4Weights = WeightsOf<Connect4>;

    /// Tunes Connect Four from `start` on 60 self-play games of `ab:depth=2` (seed 5,
    /// random openings of 4 decisions) with `threads` workers.
    fn tune_connect4(start: &Connect4Weights, threads: usize) -> Tuned {
        let spec = GameSpec::parse("connect4").unwrap();
        let agent = AgentSpec::parse("ab:depth=2", false).unwrap();
        let setup = Setup {
            source: Source::SelfPlay {
                plan: Plan::new(spec.clone(), vec![agent], 60, 5).unwrap(),
                games: 60,
            },
            seed: 5,
            threads,
        };
        tune_game(&Connect4, &spec, setup, None, start, &ProgressBar::hidden()).unwrap()
    }

    #[test]
    fn a_bad_start_is_improved_on_held_out_games_and_threads_change_nothing() {
        // Every weight at its range's least value: the evaluator says 0 everywhere.
        let least: Vec<i32> = flat_ranges(Connect4Weights::SPECS)
            .iter()
            .map(|r| r.0)
            .collect();
        let start = Connect4Weights::from_flat(&least).unwrap();
        let tuned = tune_connect4(&start, 2);
        let fitted = &tuned.fitted;
        assert!(fitted.after < fitted.before - 0.005, "{}", tuned.report);
        assert_ne!(fitted.best, least);
        // The best weights are the best round's, and the report ends with the losses.
        let best_round = fitted
            .rounds
            .iter()
            .min_by(|a, b| a.held_out_loss.total_cmp(&b.held_out_loss))
            .unwrap();
        assert_eq!(best_round.weights, fitted.best);
        assert_eq!(best_round.held_out_loss, fitted.after);
        assert!(
            tuned.report.ends_with(&format!(
                "\nloss {:.6} -> {:.6}\n",
                fitted.before, fitted.after
            )),
            "{}",
            tuned.report
        );
        // One worker plays, samples and fits the same.
        assert_eq!(tune_connect4(&start, 1), tuned);
    }
}
