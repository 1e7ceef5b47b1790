//! # agon-python: Agon from Python
//!
//! The extension module `agon._agon`, which the Python package `agon` (python/agon/)
//! re-exports with its type hints: every game ([`games`](game::games), [`load_game`](game::load_game)), its states
//! (`State`: moves in notation or as dense ids, chance outcomes with exact
//! probabilities, undo, pictures, whole random playouts in one call), every agent
//! (`agent(spec, game, seed).choose(state)`) and any `agon` command ([`run`], which runs
//! tournaments and studies into a folder exactly as the command line does, and
//! [`main`], the whole `agon` command line in this process, for the package's `agon`
//! command).
//!
//! Errors are `agon.AgonError` (a `ValueError`) carrying the command line's one-line
//! message. Every call into the library goes through [`shielded`], so a failure deep
//! inside it (a panic, say an outside program that crashed) is an `AgonError` too, never
//! pyo3's `PanicException`, which `except Exception` does not catch. Calls that can run
//! long ([`interruptible`]) answer Ctrl-C: they raise `KeyboardInterrupt` within a
//! fraction of a second.
//!
//! Module map: `erased` (one object type per concept over every game), `state`,
//! `game`, `agent` (the Python classes), `describe` (a picture as Python data), `tensor`
//! (observation tensors as NumPy arrays), this file (functions and the module).

mod agent;
mod describe;
mod erased;
mod game;
mod state;
mod tensor;

use std::ffi::OsString;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use agon_cli::args::Cli;
use agon_cli::stop::Stop;
use agon_cli::{one_line, BadInput};
use clap::error::ErrorKind;
use clap::Parser;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    _agon,
    AgonError,
    PyValueError,
    "Bad input to Agon: an unknown game or agent, a bad parameter, an illegal move, or a \
     failure inside Agon (an outside program that crashed). The message is the command \
     line's."
);

/// How often a long call looks for a signal (Ctrl-C) to answer.
pub(crate) const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `call`, a call into the library, with a panic inside it turned into
/// `AgonError` with the panic's message (see the module docs).
pub(crate) fn shielded<T>(call: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(AssertUnwindSafe(call))
        .unwrap_or_else(|panic| Err(error_text(panic_text(&*panic))))
}

/// Runs `work` on a thread of its own, with the interpreter released, and waits for it
/// while answering signals: Ctrl-C raises `KeyboardInterrupt` here at once, and `work`,
/// which cannot be stopped from outside, goes on to its end in the background, its
/// result dropped. A panic in `work` is `AgonError`, as in [`shielded`].
pub(crate) fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (done, mut result) = mpsc::channel();
    std::thread::Builder::new()
        .name("agon-call".into())
        .spawn(move || {
            // The caller may be gone (interrupted): then the result is dropped.
            let _ = done.send(std::panic::catch_unwind(AssertUnwindSafe(work)));
        })
        .map_err(|e| error_text(format!("cannot start a thread: {e}")))?;
    loop {
        // The receiver goes with the wait (it may be sent, not shared, between threads).
        let (waited, receiver) = py.detach(move || (result.recv_timeout(SIGNAL_POLL), result));
        result = receiver;
        match waited {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(panic)) => return Err(error_text(panic_text(&*panic))),
            Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(error_text("the library's thread ended without a result"))
            }
        }
    }
}

/// The message of a panic.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "Agon failed inside".to_string())
}

/// The Python exception for an error of the library: the one line `agon` would print.
pub(crate) fn agon_error(error: &anyhow::Error) -> PyErr {
    let text = match error.chain().find_map(|c| c.downcast_ref::<BadInput>()) {
        Some(bad) => one_line(&bad.0),
        None => one_line(&format!("{error:#}")),
    };
    AgonError::new_err(text)
}

/// [`agon_error`] for a message.
pub(crate) fn error_text(text: impl Into<String>) -> PyErr {
    AgonError::new_err(one_line(&text.into()))
}

/// The integer argument `name`, taken as Python passed it and checked against the range
/// of `T`, so that a negative, huge or non-integer value is an `AgonError` saying
/// `"{name} {value}: {valid}"` (pyo3's own conversion would raise a `TypeError` or an
/// `OverflowError` naming its internals). Anything with `__index__` is an integer
/// (NumPy's included).
pub(crate) fn int_arg<T: TryFrom<i128>>(
    value: &Bound<'_, PyAny>,
    name: &str,
    valid: &str,
) -> PyResult<T> {
    value
        .extract::<i128>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| error_text(format!("{name} {}: {valid}", shown(value))))
}

/// A seat argument called `name` (`player`, `seat`): 0 or 1. Anything else (another
/// integer, one too large for any integer type, not an integer) is `AgonError` saying
/// `"{name} {value}: the {name}s are 0 and 1"`.
pub(crate) fn seat_arg(value: &Bound<'_, PyAny>, name: &str) -> PyResult<agon_engine::Seat> {
    let valid = format!("the {name}s are 0 and 1");
    match int_arg::<u8>(value, name, &valid)? {
        seat @ (0 | 1) => Ok(agon_engine::Seat::from(seat)),
        _ => Err(error_text(format!("{name} {}: {valid}", shown(value)))),
    }
}

/// `value` as an error message shows it: its `repr` (an integer's digits, a string
/// quoted).
pub(crate) fn shown(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "(unprintable)".to_string())
}

/// Runs an `agon` command, as the command line would with these arguments (without the
/// program name), and returns what it printed with the folder it wrote its run, study or
/// report into ([`agon_cli::run_folder`], where it exists afterwards; `None` for the
/// commands that write none). Runs write their folder exactly as the command line
/// does, and record `agon <args>` as their command in meta.csv. `--help` and
/// `--version` (of any command) return the text the command line prints.
///
/// Ctrl-C: a run of games (`tournament`, `run`, `balance`, no command) is asked to stop
/// ([`agon_cli::stop::Stop`]): it starts no further game, keeps the games played in its
/// folder (the same command with `--resume` continues it), and `KeyboardInterrupt` is
/// raised once the games being played have ended; a second Ctrl-C raises it at once,
/// leaving those games to end in the background. Any other command raises it at once,
/// as [`interruptible`] calls do.
#[pyfunction]
fn run(py: Python<'_>, args: Vec<String>) -> PyResult<(String, Option<PathBuf>)> {
    shielded(|| run_command(py, &args))
}

/// [`run`], unshielded.
fn run_command(py: Python<'_>, args: &[String]) -> PyResult<(String, Option<PathBuf>)> {
    let argv = std::iter::once("agon".to_string()).chain(args.iter().cloned());
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            return match e.kind() {
                // The text the binary prints (without its colours).
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    Ok((e.render().to_string(), None))
                }
                _ => Err(error_text(agon_cli::command_line_message(&e))),
            };
        }
    };
    let command = std::iter::once("agon")
        .chain(args.iter().map(String::as_str))
        .map(agon_cli::shell_quote)
        .collect::<Vec<_>>()
        .join(" ");
    let folder = agon_cli::run_folder(&cli);
    let output = if agon_cli::stops_between_games(&cli) {
        let stop = Stop::new();
        let asked = stop.clone();
        stoppable(py, &stop, move || {
            let mut out = Vec::new();
            agon_cli::run_until(cli, &command, &mut out, &asked).map(|()| out)
        })?
    } else {
        interruptible(py, move || {
            let mut out = Vec::new();
            agon_cli::run_to(cli, &command, &mut out).map(|()| out)
        })?
    };
    let out = output.map_err(|e| agon_error(&e))?;
    let text = String::from_utf8_lossy(&out).into_owned();
    Ok((text, folder.filter(|dir| dir.is_dir())))
}

/// Runs `work`, a run of games that answers `stop`, as [`interruptible`] runs a call,
/// except on Ctrl-C: the first requests `stop` and waits for `work` to end (the games
/// being played finish and are written), then raises `KeyboardInterrupt` whatever
/// `work` returned; a second raises it at once, leaving `work` to end in the background.
fn stoppable<T: Send + 'static>(
    py: Python<'_>,
    stop: &Stop,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (done, mut result) = mpsc::channel();
    std::thread::Builder::new()
        .name("agon-run".into())
        .spawn(move || {
            let _ = done.send(std::panic::catch_unwind(AssertUnwindSafe(work)));
        })
        .map_err(|e| error_text(format!("cannot start a thread: {e}")))?;
    // The signal's exception (KeyboardInterrupt), once Ctrl-C asked the run to stop.
    let mut interrupted: Option<PyErr> = None;
    loop {
        let (waited, receiver) = py.detach(move || (result.recv_timeout(SIGNAL_POLL), result));
        result = receiver;
        match waited {
            Ok(outcome) => {
                if let Some(signal) = interrupted {
                    return Err(signal);
                }
                return outcome.map_err(|panic| error_text(panic_text(&*panic)));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    if interrupted.is_some() {
                        return Err(signal);
                    }
                    stop.request();
                    interrupted = Some(signal);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(error_text("the library's thread ended without a result"))
            }
        }
    }
}

/// The `agon` command of the Python package (`agon.__main__`): runs the command line
/// `args` (without the program's name) exactly as the `agon` binary does, in this
/// process, reading standard input and writing standard output and error, and returns
/// the binary's exit code (0, 1, or 2 for bad input with its one line on standard
/// error; help and `--version` print as the binary prints them). meta.csv records the
/// command as `agon <args>`. Signals are the caller's: `agon.__main__` lets Ctrl-C end
/// the process, as it ends the binary.
#[pyfunction]
fn main(py: Python<'_>, args: Vec<OsString>) -> u8 {
    let argv: Vec<OsString> = std::iter::once(OsString::from("agon"))
        .chain(args)
        .collect();
    py.detach(move || agon_cli::main_with(argv))
}

#[pymodule]
fn _agon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("AgonError", m.py().get_type::<AgonError>())?;
    m.add("CHANCE", erased::CHANCE)?;
    m.add("TERMINAL", erased::TERMINAL)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(game::games, m)?)?;
    m.add_function(wrap_pyfunction!(game::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(agent::agent, m)?)?;
    m.add_function(wrap_pyfunction!(game::_restore_state, m)?)?;
    m.add_class::<game::GameInfo>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<state::State>()?;
    m.add_class::<agent::Agent>()?;
    m.add_class::<agent::Choice>()?;
    m.add_class::<agent::SearchLine>()?;
    Ok(())
}
