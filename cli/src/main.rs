//! # agon: the command-line tool of the Agon toolkit
//!
//! The binary over the `agon_cli` library: it parses the command line, runs the command
//! ([`agon_cli::run`]) and turns the outcome into an exit code: 0 success, 1 a failure
//! of the machine (a file that cannot be written), 2 bad input (one line on standard
//! error naming the problem and the valid choices).

use std::io::{self, Write};
use std::process::ExitCode;

use agon_cli::args::Cli;
use agon_cli::{one_line, run, BadInput};
use clap::error::ErrorKind;
use clap::Parser;

/// Exit code for bad input.
const BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return command_line_error(e),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let broken_pipe = e.chain().any(|c| {
                c.downcast_ref::<io::Error>()
                    .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                // The reader of our output went away (`agon games | head`): not an error.
                ExitCode::SUCCESS
            } else if let Some(bad) = e.chain().find_map(|c| c.downcast_ref::<BadInput>()) {
                eprintln!("error: {}", one_line(&bad.0));
                ExitCode::from(BAD_INPUT)
            } else {
                eprintln!("error: {}", one_line(&format!("{e:#}")));
                ExitCode::FAILURE
            }
        }
    }
}

/// Reports a command-line error from clap. Help and version requests print as usual
/// (exit 0); anything else becomes one line, with the valid subcommands when the
/// subcommand is unknown, and exit code 2.
fn command_line_error(e: clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // Printing help can only fail on a closed pipe, where nothing can be said.
            let _ = e.print();
            ExitCode::SUCCESS
        }
        _ => {
            let message = agon_cli::command_line_message(&e);
            eprintln!("error: {message}");
            let _ = io::stderr().flush();
            ExitCode::from(BAD_INPUT)
        }
    }
}
