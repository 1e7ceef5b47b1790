//! # agon-cli: the library under the `agon` binary
//!
//! Runs tournaments between agents, plays and analyses games, and counts perft, for
//! every registered game. `agon` alone runs a small default tournament:
//!
//! ```text
//! cargo run --release                       # default tournament into results/default
//! agon tournament --game invector:width=6,height=5 --agents ab:depth=3 greedy \
//!     --games 20 --seed 7 --out results/ab-vs-greedy
//! agon analyse --game invector --moves "d4xe4" --agent ab:depth=6
//! agon perft --game invector:width=5,height=4 --depth 3
//! agon bench [--threads 4]                  # fixed searches; ends `Bench: <nodes>`
//! agon tournament ... --shard 2/8 --out shards/2   # one of 8 slices of a tournament
//! agon merge --out results/big shards/*             # the 8 slices as one run
//! agon run experiments/connect4-ladder.toml         # a tournament described in TOML
//! agon report results/ab-vs-greedy                  # summary again, and SVG charts
//! agon tune --game connect4 --out c4.toml --games 400  # fit evaluator weights
//! agon balance --game connect4 --levels 2,3 --games 100 --out study  # balance study
//! agon openings --game apv --plies 4 --count 400 --out apv.book  # checked openings
//! agon show --game apv --moves "e3-e4" --svg apv.svg  # one position as a picture
//! agon replay results/ab-vs-greedy 3               # step through game 3 of a run
//! agon serve --agent mcts:iters=1000 --game connect4  # an agent for other tools
//! ```
//!
//! Exit codes: 0 success, 1 a failure of the machine (a file that cannot be written),
//! 2 bad input (one line on standard error naming the problem and the valid choices).
//!
//! Module map, by layer from the bottom: the foundation (`bad_input`, [`args`], [`spec`]
//! and `ext_spec`, [`games`], `ladder`, `weights_file`, `input_file`, `no_follow`,
//! `position`, `seeds`, `digest`, `shard`); `record` (a run's CSV files); `external`
//! (outside programs as agents); `reporting` (statistics, summaries, speed, charts,
//! HTML, [`picture`]); `running` (a tournament's schedule, games and ordered writer,
//! openings, the audited reading of rows, a run's folder, lock, merge and progress);
//! `tune` (fitting evaluator weights); `commands`, one module per subcommand; and
//! `balance`, balance studies, which run and report their tournaments through the
//! tournament and report commands. No module depends on one above it (ARCHITECTURE.md).
//!
//! The binary (`src/main.rs`) only parses the command line, calls [`run`] and turns an
//! error into its exit code. The public parts are what another front end (the Python
//! bindings, a test) needs: [`run`] for any parsed command, [`args`] (the command
//! line's types), [`spec`] (game and agent specs), [`games`] (the registry of games and
//! the generic dispatch over them) and [`picture`] (drawing positions).

pub mod args;
mod bad_input;
mod balance;
mod commands;
mod digest;
mod ext_spec;
mod external;
pub mod games;
mod input_file;
mod ladder;
mod network_file;
mod no_follow;
mod position;
mod record;
mod reporting;
mod running;
mod seeds;
mod shard;
pub mod spec;
pub mod stop;
mod train;
mod tune;
mod weights_file;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::Parser;

use crate::args::{Cli, Command};
use crate::spec::{AgentSpec, GameSpec};
use crate::stop::Stop;

pub use crate::bad_input::BadInput;
pub use crate::external::{catch_fault, ExtFault, Venue};
pub use crate::position::notate_line;
pub use crate::reporting::picture;
pub use crate::seeds::agent_rng;

/// Runs a parsed command line, writing its output to standard output. Bad input is an
/// error holding a [`BadInput`]; [`command_line`] is what a run records in meta.csv.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    let stdout = io::stdout();
    run_to(cli, &command_line(), &mut stdout.lock())
}

/// Runs a parsed command line as [`run`] does, writing its output to `out`, with
/// `command` as the command line a run records in meta.csv (a front end other than the
/// binary, such as the Python bindings, passes the `agon ...` line that would do the
/// same). Commands that read a person's input (`play`, `replay`, `serve`) read standard
/// input.
pub fn run_to(cli: Cli, command: &str, out: &mut dyn Write) -> anyhow::Result<()> {
    run_until(cli, command, out, &Stop::new())
}

/// Runs a parsed command line as [`run_to`] does, ending a run of games early when
/// `stop` is requested (from another thread): the run starts no further game, keeps
/// the games played in its folder, and fails with [`stop::Stopped`]; the same command
/// with `--resume` continues it. Only the commands [`stops_between_games`] names answer
/// `stop`; the others run to their end.
pub fn run_until(cli: Cli, command: &str, out: &mut dyn Write, stop: &Stop) -> anyhow::Result<()> {
    let command_line = || command.to_string();
    match cli.command {
        None => commands::tournament::tournament(
            &commands::tournament::default_args(),
            command_line(),
            out,
            stop,
        ),
        Some(Command::Games) => commands::listing::games(out),
        Some(Command::Agents(args)) => {
            let game = args.game.as_deref().map(GameSpec::parse).transpose()?;
            commands::listing::agents(out, game.as_ref())
        }
        Some(Command::Tournament(args)) => {
            commands::tournament::tournament(&args, command_line(), out, stop)
        }
        // The shards of a study (`agon balance --shard`) are joined run folder by run
        // folder, each by the tournament's merge.
        Some(Command::Merge(args)) if balance::is_study(&args.shards[0]) => {
            balance::merge_studies(&args, command_line(), out)
        }
        Some(Command::Merge(args)) => running::merge::merge(&args, command_line(), out),
        Some(Command::Run(args)) => commands::experiment::run(&args, command_line(), out, stop),
        Some(Command::Report(args)) => commands::report::report(&args, out),
        Some(Command::Play(args)) => {
            let game = GameSpec::parse(&args.game)?;
            let agents = [
                AgentSpec::parse_for_game(&args.agents[0], &game, true)?,
                AgentSpec::parse_for_game(&args.agents[1], &game, true)?,
            ];
            let stdin = io::stdin();
            let mut input = stdin.lock();
            games::dispatch(
                &game,
                commands::play::PlayCommand {
                    agents,
                    seed: args.seed,
                    input: &mut input,
                    out,
                },
            )
        }
        Some(Command::Analyse(args)) => {
            let game = GameSpec::parse(&args.position.game)?;
            let agent = AgentSpec::parse_for_game(&args.agent, &game, false)?;
            games::dispatch(
                &game,
                commands::analyse::AnalyseCommand {
                    agent,
                    moves: args.position.moves,
                    seed: args.seed,
                    out,
                },
            )
        }
        Some(Command::Tune(args)) => tune::tune(&args, out),
        Some(Command::Train(args)) => train::train(&args, out),
        Some(Command::Openings(args)) => commands::openings::openings(&args, command, out),
        Some(Command::Balance(args)) => balance::balance(&args, command_line(), out, stop),
        Some(Command::Bench(args)) => commands::bench::bench(
            &commands::bench::cases(),
            args.filter.as_deref(),
            args.threads,
            out,
        ),
        Some(Command::Show(args)) => {
            let game = GameSpec::parse(&args.position.game)?;
            games::dispatch(
                &game,
                commands::show::ShowCommand {
                    moves: args.position.moves,
                    svg: args.svg,
                    out,
                },
            )
        }
        Some(Command::Replay(args)) => {
            let stdin = io::stdin();
            commands::replay::replay_game(&args, &mut stdin.lock(), out)
        }
        Some(Command::Serve(args)) => {
            let stdin = io::stdin();
            commands::serve::serve(&args.agent, args.game.as_deref(), &mut stdin.lock(), out)
        }
        Some(Command::Perft(args)) => {
            let game = GameSpec::parse(&args.position.game)?;
            games::dispatch(
                &game,
                commands::perft::PerftCommand {
                    moves: args.position.moves,
                    depth: args.depth,
                    divide: args.divide,
                    out,
                    err: &mut io::stderr(),
                },
            )
        }
    }
}

/// Whether [`run_until`] answers a stop request for `cli`: the commands that play a run
/// of games into a folder (`tournament`, `run`, `balance` and `agon` alone), whose
/// stopped run a resume continues. The others (a tuning, a benchmark, a listing) end only
/// at their end.
pub fn stops_between_games(cli: &Cli) -> bool {
    matches!(
        cli.command,
        None | Some(Command::Tournament(_) | Command::Run(_) | Command::Balance(_))
    )
}

/// The folder `cli`'s command writes its run, study or report into, where it has one:
/// `--out` of `tournament`, `balance` (unless `--plan`, which writes nothing) and
/// `merge`; `agon run`'s (its `--out`, or `results/<file stem>`); `agon report`'s
/// `--out`, or the run folder it reports on; results/default for `agon` alone. `None`
/// for the commands that write no folder (a listing, perft, bench, a tuning or
/// openings file). The folder need not exist yet: it is the command's, not a check.
pub fn run_folder(cli: &Cli) -> Option<PathBuf> {
    match &cli.command {
        None => Some(commands::tournament::default_args().out),
        Some(Command::Tournament(args)) => Some(args.out.clone()),
        Some(Command::Balance(args)) => (!args.plan).then(|| args.out.clone()),
        Some(Command::Merge(args)) => Some(args.out.clone()),
        Some(Command::Run(args)) => commands::experiment::out_folder(args).ok(),
        Some(Command::Report(args)) => Some(args.out.clone().unwrap_or_else(|| args.dir.clone())),
        Some(_) => None,
    }
}

/// Exit code for bad input.
const BAD_INPUT: u8 = 2;

/// The whole of the `agon` binary: parses `args` (the program's name first, as
/// `std::env::args_os` gives them), runs the command writing to standard output, and
/// returns the exit code: 0 success (help and `--version` included, printed as clap
/// prints them), 1 a failure of the machine (a file that cannot be written), 2 bad
/// input; an error is one line on standard error, `error: ` first. A closed standard
/// output (`agon games | head`) is success. meta.csv records the arguments, quoted
/// ([`shell_quote`]). Standard output is flushed before it returns, so that a front end
/// that goes on living (Python's `agon` command) loses nothing.
pub fn main_with(args: impl IntoIterator<Item = OsString>) -> u8 {
    let args: Vec<OsString> = args.into_iter().collect();
    let command = args
        .iter()
        .map(|arg| shell_quote(&arg.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ");
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return command_line_error(e),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = run_to(cli, &command, &mut out).and_then(|()| Ok(out.flush()?));
    match result {
        Ok(()) => 0,
        Err(e) => {
            let broken_pipe = e.chain().any(|c| {
                c.downcast_ref::<io::Error>()
                    .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
            });
            // What is still buffered goes out before the error line (a closed pipe
            // takes nothing, and says so again, which is no news).
            let _ = out.flush();
            if broken_pipe {
                // The reader of our output went away (`agon games | head`): not an error.
                0
            } else if let Some(bad) = e.chain().find_map(|c| c.downcast_ref::<BadInput>()) {
                eprintln!("error: {}", one_line(&bad.0));
                BAD_INPUT
            } else {
                eprintln!("error: {}", one_line(&format!("{e:#}")));
                1
            }
        }
    }
}

/// Reports a command-line error from clap. Help and version requests print as usual
/// (exit 0); anything else becomes one line, with the valid subcommands when the
/// subcommand is unknown, and exit code 2.
fn command_line_error(e: clap::Error) -> u8 {
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // Printing help can only fail on a closed pipe, where nothing can be said.
            let _ = e.print();
            let _ = io::stdout().flush();
            0
        }
        _ => {
            let message = command_line_message(&e);
            eprintln!("error: {message}");
            let _ = io::stderr().flush();
            BAD_INPUT
        }
    }
}

/// The command line as typed, each argument quoted for a POSIX shell when it holds
/// anything but plain characters, for meta.csv.
pub fn command_line() -> String {
    std::env::args()
        .map(|arg| shell_quote(&arg))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `arg` as a POSIX shell reads it back as one word: as it is when it holds only plain
/// characters (and does not start with `#`, which would start a comment), else in single
/// quotes, each `'` in it written `'\''`. Every command shown to the user with a path in
/// it (meta.csv's command, the run page's `agon replay`, advice in messages) quotes the
/// path so, so that a folder named `x;rm -rf ~` is copied back as the folder's name.
pub fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && !arg.starts_with('#')
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%#".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// `text` with every run of white space (line breaks included) made one space, so that
/// an error or a forfeit's reason is exactly one line.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A command-line error from clap as the one line `agon` prints after `error: `: clap's
/// error lines and tip without the usage, and the valid subcommands when the subcommand
/// is unknown.
pub fn command_line_message(e: &clap::Error) -> String {
    let rendered = e.render().to_string();
    // clap's text: "error: ..." lines, an optional "tip: ..." line, then usage and a
    // "For more information" line. Keep what comes before those two.
    let mut message = String::new();
    for line in rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty())
    {
        if message.is_empty() {
            message.push_str(line.strip_prefix("error:").unwrap_or(line).trim());
        } else {
            // A tip is a sentence of its own; other lines continue a list.
            message.push_str(if line.starts_with("tip:") { "; " } else { " " });
            message.push_str(line);
        }
    }
    if e.kind() == clap::error::ErrorKind::InvalidSubcommand {
        let valid: Vec<String> = <Cli as clap::CommandFactory>::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        message.push_str(&format!(" (valid: {})", valid.join(", ")));
    }
    message
}
