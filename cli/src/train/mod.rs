//! `agon train`: learns a value network for a game from positions of its games and
//! writes it to a network file that agents load with `net=FILE`.
//!
//! 1. Games: `--self-play N` games of `--agent` (by default the top level of the game's
//!    ladder) with random openings, played as `agon tune` plays them, or the games of
//!    the run folders `--from DIR...`.
//! 2. Positions and labels ([`examples`]): `agon tune`'s sample of quiet positions,
//!    every fifth game held out for validation, each labelled by the game's result
//!    blended with a teacher search's value (`--blend`, `--teacher`).
//! 3. Fit ([`fit`]): the network of [`agon_engine::network`] (`--hidden`, `--dense`) by
//!    minibatch Adam, stopped when the validation loss has not improved for
//!    `--patience` epochs; the best epoch's network is kept and quantised.
//! 4. Output: a few lines on standard output (the sample, `K`, one line per epoch, and
//!    the validation losses of the network, the quantised network and the teacher), the
//!    network file (its note is the command without `--out` and `--threads`, which
//!    change nothing in it), and beside it `<stem>.loss.csv` and `<stem>.loss.svg`, the
//!    loss curve. Each file is written whole or not at all.
//!
//! The same command gives the same bytes at any `--threads`: games and teacher searches
//! run in parallel but each depends only on its index, and the fit runs on one thread.

pub mod examples;
pub mod fit;

use std::io::Write;
use std::path::{Path, PathBuf};

use agon_engine::network::{Network, MAX_DENSE, MAX_HIDDEN, QA, QB};
use agon_engine::Encode;
use anyhow::Result;

use crate::args::TrainArgs;
use crate::bad_input::BadInput;
use crate::games::{dispatch, ladder, GameCommand, PlayableGame};
use crate::no_follow;
use crate::record::{check_file_out, write_file_whole};
use crate::reporting::plots;
use crate::running::table_memory;
use crate::running::tournament::{worker_threads, workers, Plan};
use crate::spec::{AgentSpec, GameSpec};
use crate::tune::linear::SCALE;
use crate::tune::{self, sample, source_games, Source, MAX_GAMES};
use examples::Examples;
use fit::Schedule;

/// Runs `agon train`.
pub fn train(args: &TrainArgs, out: &mut dyn Write) -> Result<()> {
    let spec = GameSpec::parse(&args.game)?;
    check_file_out(&args.out, "the network file")?;
    check_numbers(args)?;
    let threads = worker_threads(args.threads)?;
    let (source, source_flags) = match args.self_play {
        Some(games) => {
            if games == 0 || games > MAX_GAMES {
                return Err(BadInput::new(format!(
                    "--self-play must be 1 to {MAX_GAMES}, got {games}"
                ))
                .into());
            }
            let agent = match &args.agent {
                Some(agent) => agent.clone(),
                None => ladder(spec.name)
                    .last()
                    .map_or_else(|| tune::default_agent(&spec).to_string(), |a| a.to_string()),
            };
            let agent = AgentSpec::parse(&agent, false)?;
            let plan = Plan::new(
                spec.clone(),
                vec![agent.clone()],
                games + games % 2,
                args.seed,
            )?;
            table_memory::check(&plan, threads)?;
            let mut flags = format!("--self-play {games} --agent {agent}");
            if let Some(k) = args.random_opening {
                flags += &format!(" --random-opening {k}");
            }
            (Source::SelfPlay { plan, games }, flags)
        }
        None => {
            let shown: Vec<String> = args
                .from
                .iter()
                .map(|d| crate::shell_quote(&d.display().to_string()))
                .collect();
            (
                tune::run_games(&args.from, &spec)?,
                format!("--from {}", shown.join(" ")),
            )
        }
    };
    let teacher = args.teacher.clone();
    dispatch(
        &spec,
        TrainCommand {
            args,
            source,
            source_flags,
            teacher,
            threads,
            out,
        },
    )
}

/// Refuses numbers outside what the options allow, naming the range.
fn check_numbers(args: &TrainArgs) -> Result<(), BadInput> {
    let bad = |flag: &str, range: &str, got: String| {
        Err(BadInput::new(format!(
            "--{flag} must be {range}, got {got}"
        )))
    };
    if !(0.0..=1.0).contains(&args.blend) {
        return bad("blend", "0 to 1", args.blend.to_string());
    }
    if !(1..=MAX_HIDDEN).contains(&args.hidden) {
        return bad(
            "hidden",
            &format!("1 to {MAX_HIDDEN}"),
            args.hidden.to_string(),
        );
    }
    if !(1..=MAX_DENSE).contains(&args.dense) {
        return bad(
            "dense",
            &format!("1 to {MAX_DENSE}"),
            args.dense.to_string(),
        );
    }
    if !(1..=100_000).contains(&args.epochs) {
        return bad("epochs", "1 to 100000", args.epochs.to_string());
    }
    if args.patience == 0 {
        return bad("patience", "at least 1", "0".into());
    }
    if !(1..=65_536).contains(&args.batch) {
        return bad("batch", "1 to 65536", args.batch.to_string());
    }
    if !(args.lr > 0.0 && args.lr < 1.0) {
        return bad("lr", "above 0 and below 1", args.lr.to_string());
    }
    Ok(())
}

/// The training, generic over the game.
struct TrainCommand<'a> {
    args: &'a TrainArgs,
    source: Source,
    /// The source's flags as the network's note gives them.
    source_flags: String,
    teacher: Option<String>,
    threads: usize,
    out: &'a mut dyn Write,
}

/// The loss curve's files beside the network file `out`.
pub fn curve_paths(out: &Path) -> (PathBuf, PathBuf) {
    (
        out.with_extension("loss.csv"),
        out.with_extension("loss.svg"),
    )
}

impl GameCommand for TrainCommand<'_> {
    fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> Result<()> {
        let args = self.args;
        let (csv_path, svg_path) = curve_paths(&args.out);
        check_file_out(&csv_path, "the loss curve")?;
        let start = game.initial_state();
        let teacher = self
            .teacher
            .as_deref()
            .unwrap_or_else(|| examples::default_teacher::<G::State>());
        let teacher = AgentSpec::parse_for_game(teacher, spec, false)?;
        G::build_agent(&teacher, &start)?;
        let bar = tune::stage_bar();
        let pool = workers(self.threads)?;
        let (games, rows) =
            source_games(&game, self.source, self.threads, args.random_opening, &bar)?;
        let positions =
            pool.install(|| sample::sample(&game, &rows, &G::Eval::default(), args.seed, true))?;
        if positions.train.is_empty() || positions.held_out.is_empty() {
            return Err(BadInput::new(format!(
                "{} games gave {} training and {} validation positions, too few to train; \
                 give more games",
                rows.len(),
                positions.train.len(),
                positions.held_out.len()
            ))
            .into());
        }
        let labels = pool.install(|| {
            examples::label::<G>(
                &positions.train,
                &positions.held_out,
                &teacher,
                args.blend,
                args.seed,
                &bar,
            )
        })?;
        let encoding = start.encoding();
        let shape = examples::shape(&encoding, args.hidden, args.dense);
        let schedule = Schedule {
            epochs: args.epochs,
            patience: args.patience,
            batch: args.batch,
            lr: args.lr as f32,
            seed: args.seed,
        };
        let (train, validation) = (&labels.train.examples, &labels.validation.examples);
        let base = (labels.static_k / SCALE) as f32;
        let cells = encoding.cells() as usize;
        let start_net = fit::Start {
            encoding: &encoding.id,
            shape,
            cells,
            base,
        };
        let fitted = fit::fit(start_net, train, validation, schedule, &bar);
        bar.finish_and_clear();

        let note = format!(
            "agon train --game {spec} {} --blend {} --teacher {teacher} --hidden {} --dense {} \
             --epochs {} --patience {} --batch {} --lr {} --seed {}",
            self.source_flags,
            args.blend,
            args.hidden,
            args.dense,
            args.epochs,
            args.patience,
            args.batch,
            args.lr,
            args.seed
        );
        let max: Vec<i32> = encoding.scalars.iter().map(|s| s.max).collect();
        let net = Network::quantised(&fitted.net, &max, &note);
        // The teacher's predictions as logits, to be scored as the network's are.
        let logit = |p: f32| {
            let p = f64::from(p).clamp(1e-6, 1.0 - 1e-6);
            (p / (1.0 - p)).ln()
        };
        let teacher_logits: Vec<f64> = labels
            .validation
            .teacher
            .iter()
            .map(|&p| logit(p))
            .collect();
        let results = &labels.validation.results;
        let teacher_loss = fit::mean_loss(&validation.targets, |i| teacher_logits[i]);
        let teacher_on_results = fit::mean_loss(results, |i| teacher_logits[i]);
        let net_on_results = fit::net_loss(&fitted.net, validation, results);
        let best = fitted.curve[fitted.best_epoch];

        let mut report = format!("train {spec}: {games}, seed {}\n", args.seed);
        let distinct = rows
            .iter()
            .map(|r| r.moves.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        if distinct < rows.len() {
            report += &format!(
                "warning: only {distinct} of the {} games are distinct, so validation \
                 positions repeat training ones and its loss flatters the network; vary \
                 the games (longer random openings, an agent with noise=N)\n",
                rows.len()
            );
        }
        report += &format!(
            "positions: {} training, {} validation (from {} of {} games)\n",
            train.len(),
            validation.len(),
            positions.held_out_games,
            rows.len()
        );
        report += &format!(
            "labels: {} x result + {} x {teacher} (K {:.6})\n",
            args.blend,
            1.0 - args.blend,
            labels.k
        );
        report += &format!(
            "linear evaluator's weight: K {:.6}, {base:.8} logits per unit\n",
            labels.static_k
        );
        report += &format!(
            "network: {} ({} features, {} scalars) -> 2x{} -> {} -> 1\n",
            encoding.id, shape.features, shape.scalars, shape.hidden, shape.dense
        );
        let mut csv = String::from("epoch,training_loss,validation_loss\n");
        for (i, (t, v)) in fitted.curve.iter().enumerate() {
            report += &format!("epoch {i}: training loss {t:.6}, validation loss {v:.6}\n");
            csv += &format!("{i},{t:.6},{v:.6}\n");
        }
        report += &format!(
            "best epoch {} of {}: validation loss {:.6}{}\n",
            fitted.best_epoch,
            fitted.curve.len() - 1,
            best.1,
            if fitted.best_epoch == 0 {
                " (no epoch beat the linear evaluator alone; the network is it)"
            } else {
                ""
            }
        );
        report += &format!(
            "validation loss: network {:.6}, quantised {:.6}, teacher {teacher_loss:.6}\n",
            best.1,
            quantised_loss(&net, validation, &max)
        );
        report += &format!(
            "against results alone: network {net_on_results:.6}, teacher {teacher_on_results:.6}\n"
        );

        no_follow::write_bytes(&args.out, &net.to_bytes())?;
        write_file_whole(&csv_path, &csv)?;
        let (training, validating): (Vec<f64>, Vec<f64>) = fitted.curve.iter().copied().unzip();
        plots::lines(
            &svg_path,
            &format!("agon train {spec}: loss per epoch"),
            ("epoch", "cross-entropy"),
            &[("training", &training), ("validation", &validating)],
            Some((
                1,
                fitted.best_epoch,
                &format!("kept: epoch {}", fitted.best_epoch),
            )),
        )?;
        self.out.write_all(report.as_bytes())?;
        Ok(())
    }
}

/// The mean loss of the integer network `net` over `examples` (scalars of maxima
/// `max`), which shows what quantising cost.
fn quantised_loss(net: &Network, examples: &Examples, max: &[i32]) -> f64 {
    let h = net.shape().hidden;
    let (mut mine_acc, mut theirs_acc) = (vec![0; h], vec![0; h]);
    fit::mean_loss(&examples.targets, |i| {
        let (mine, theirs, scaled, linear) = examples.get(i);
        net.refresh(mine, &mut mine_acc);
        net.refresh(theirs, &mut theirs_acc);
        let raw: Vec<i32> = scaled
            .iter()
            .zip(max)
            .map(|(&x, &m)| (x * m as f32).round() as i32)
            .collect();
        let output = net.output(&mine_acc, &theirs_acc, &raw, linear as i32);
        output as f64 / f64::from(QA * QB)
    })
}
