//! # agon: the command-line tool of the Agon toolkit
//!
//! The binary over the `agon_cli` library, which does all of it ([`agon_cli::main_with`]):
//! it parses the command line, runs the command and turns the outcome into an exit code:
//! 0 success, 1 a failure of the machine (a file that cannot be written), 2 bad input
//! (one line on standard error naming the problem and the valid choices). Python's `agon`
//! command calls the same function, so both behave alike.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(agon_cli::main_with(std::env::args_os()))
}
