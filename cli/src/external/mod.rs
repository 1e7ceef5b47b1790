//! Outside programs as agents, and Agon's agents for outside tools, over the text
//! protocol of `docs/protocol.md` (close to UCI and UGI).
//!
//! - The agent `ext:cmd=PATH,...` ([`ExtAgent`]) runs a program that speaks the
//!   protocol, one process per game and seat, and asks it for each move; a program that
//!   exits, hangs past its `timeout`, writes past the limits of [`program`] or answers a
//!   move that is not legal panics the agent with an [`ExtFault`], which a tournament
//!   turns into a forfeit with the reason in games.csv's note, and other callers into an
//!   error ([`catch_fault`]).
//! - `agon serve --agent SPEC` (`crate::commands::serve`) speaks the protocol as an engine, with
//!   this module's bounded reading of lines.
//!
//! [`program`] starts and talks to the process, reading its lines with [`lines`]; this
//! module reads the agent's parameters ([`ExtSetup`]) and says which file a program is
//! ([`Program`]: its path and digest, which meta.csv records). The search crate stays
//! free of processes and I/O.

mod agent;
pub(crate) mod lines;
mod program;

use std::cell::Cell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::Duration;

pub use agent::{ExtAgent, ExtFault};

use crate::bad_input::BadInput;
use crate::digest::fnv1a;
use crate::ext_spec::{missing_cmd, NAME};
use crate::spec::{AgentSpec, GameSpec};

/// Where an agent plays, besides its spec: the game (an outside program is told it, and
/// checks each position against its line of moves from the start) and the file an
/// outside program's standard error is appended to (`None`: this process's).
#[derive(Clone, Debug)]
pub struct Venue<'a> {
    /// The game played.
    pub game: &'a GameSpec,
    /// The log file of the program's standard error.
    pub log: Option<PathBuf>,
}

/// The log file in the run folder `dir` of the agent labelled `label` at `seat`:
/// `ext-<label>-seat<k>.log`, the label's characters other than letters, digits, `.`,
/// `-` and `_` made `_`. Every game of that agent at that seat appends to it.
pub fn log_file(dir: &Path, label: &str, seat: usize) -> PathBuf {
    let safe: String = label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("ext-{safe}-seat{seat}.log"))
}

/// The limits sent with each `go`: those the spec sets (`depth`, `nodes`, `movetime`),
/// none by default. A plain `go` leaves the program to its own budget, so that an
/// engine configured with one (a served `ab:depth=4`) plays as it would on its own; the
/// `timeout` still bounds every answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoBudget {
    /// `go depth N`.
    pub depth: Option<i64>,
    /// `go nodes N`.
    pub nodes: Option<i64>,
    /// `go movetime MS`, in milliseconds.
    pub movetime: Option<u128>,
}

impl GoBudget {
    /// The `go` command: `go`, followed by each limit set, in the order depth, nodes,
    /// movetime.
    pub fn command(self) -> String {
        let mut go = "go".to_string();
        if let Some(d) = self.depth {
            go += &format!(" depth {d}");
        }
        if let Some(n) = self.nodes {
            go += &format!(" nodes {n}");
        }
        if let Some(ms) = self.movetime {
            go += &format!(" movetime {ms}");
        }
        go
    }
}

/// The parameters of an `ext` spec, read and checked.
#[derive(Clone, Debug)]
pub struct ExtSetup {
    /// The program.
    pub program: Program,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working folder (`None`: this process's).
    pub dir: Option<PathBuf>,
    /// The longest a move may take.
    pub timeout: Duration,
    /// What each `go` asks for.
    pub budget: GoBudget,
    /// The program as errors name it: the `cmd` as given.
    pub shown: String,
}

impl ExtSetup {
    /// Reads the parameters of `spec` (an `ext` spec) and finds its program; a `cmd` that
    /// names no executable file, or a `dir` that is no folder, is bad input.
    pub fn of(spec: &AgentSpec) -> Result<ExtSetup, BadInput> {
        let params = &spec.params;
        let cmd = params.file("cmd").ok_or_else(missing_cmd)?;
        let dir = params.file("dir").map(PathBuf::from);
        if let Some(dir) = &dir {
            if !dir.is_dir() {
                return Err(BadInput::new(format!(
                    "agent {NAME}: dir={} is not a folder",
                    dir.display()
                )));
            }
        }
        let args: Vec<String> = params
            .file("args")
            .map(|a| a.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        let timeout = params.duration("timeout").expect("timeout has a default");
        let movetime = params.duration("movetime");
        if let Some(movetime) = movetime {
            if movetime >= timeout {
                return Err(BadInput::new(format!(
                    "agent {NAME}: movetime={} must be shorter than timeout={} (the program \
                     needs time to answer)",
                    params.get("movetime").expect("read above"),
                    params.get("timeout").expect("timeout has a default"),
                )));
            }
        }
        let budget = GoBudget {
            depth: params.int("depth"),
            nodes: params.int("nodes"),
            movetime: movetime.map(|d| d.as_millis()),
        };
        let program = Program::find(cmd)?;
        Ok(ExtSetup {
            program,
            args,
            dir,
            timeout,
            budget,
            shown: cmd.to_string(),
        })
    }
}

/// Runs `f` (a call to an agent), giving back the [`ExtFault`] of an outside program
/// that it panics with as an error, with no report of that panic on standard error.
/// Any other panic goes on unwinding, reported as usual.
///
/// The call runs under [`AssertUnwindSafe`]: a fault may leave the agent half-updated,
/// so a caller must not ask the faulty agent again (every caller here drops it).
pub fn catch_fault<T>(f: impl FnOnce() -> T) -> Result<T, ExtFault> {
    quiet_faults();
    // Restored, not cleared, afterwards: correct even if calls are nested.
    let outer = CATCHING.with(|c| c.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(outer));
    result.map_err(|payload| match payload.downcast::<ExtFault>() {
        Ok(fault) => *fault,
        Err(other) => resume_unwind(other),
    })
}

thread_local! {
    /// Whether this thread is inside [`catch_fault`].
    static CATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Installs (once per process) a panic hook that says nothing of an [`ExtFault`] on a
/// thread inside [`catch_fault`], which gives it back; every other panic goes to the
/// hook installed before.
fn quiet_faults() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !(CATCHING.with(Cell::get) && info.payload().is::<ExtFault>()) {
                previous(info);
            }
        }));
    });
}

/// The file an outside program runs from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The executable, as an absolute path (links not resolved: it is run by this path).
    pub path: PathBuf,
}

impl Program {
    /// Finds `cmd`: a path if it holds a `/` (relative to the current folder), else a
    /// name looked up on `PATH`; it must be an executable file.
    pub fn find(cmd: &str) -> Result<Program, BadInput> {
        let path = if cmd.contains('/') {
            Some(PathBuf::from(cmd)).filter(|p| is_executable(p))
        } else {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join(cmd))
                    .find(|p| is_executable(p))
            })
        };
        // Absolute but not resolved: a program reached through a link runs as that link,
        // since some programs read the path they were started by (a virtual
        // environment's `python` finds its packages so).
        let path = path
            .and_then(|p| std::path::absolute(p).ok())
            .ok_or_else(|| {
                BadInput::new(format!(
                    "agent {NAME}: cmd={cmd} is not an executable file{}",
                    if cmd.contains('/') { "" } else { " on PATH" }
                ))
            })?;
        Ok(Program { path })
    }

    /// meta.csv's `program` value: the digest, a space, the path. The digest is FNV-1a
    /// (64 bits, 16 hex digits) over the executable's bytes followed by those of every
    /// argument that names a file (a script the executable interprets; relative to
    /// `dir` when given), so that a changed program or script is another run.
    pub fn record(&self, args: &[String], dir: Option<&Path>) -> Result<String, BadInput> {
        let mut bytes = read(&self.path)?;
        for arg in args {
            let file = dir.map_or_else(|| PathBuf::from(arg), |d| d.join(arg));
            if file.is_file() {
                bytes.extend(read(&file)?);
            }
        }
        Ok(format!("{:016x} {}", fnv1a(&bytes), self.path.display()))
    }
}

/// The bytes of `path`; an unreadable file is bad input.
fn read(path: &Path) -> Result<Vec<u8>, BadInput> {
    std::fs::read(path)
        .map_err(|e| BadInput::new(format!("agent {NAME}: cannot read {}: {e}", path.display())))
}

/// Whether `path` is a file that may be run.
fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// meta.csv's `program` row of `spec`: [`Program::record`] for an `ext` agent, `None`
/// for any other.
pub fn program_record(spec: &AgentSpec) -> Result<Option<String>, BadInput> {
    if !spec.is_external() {
        return Ok(None);
    }
    let setup = ExtSetup::of(spec)?;
    setup
        .program
        .record(&setup.args, setup.dir.as_deref())
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_is_given_back_and_any_other_panic_unwinds_on() {
        let fault = || std::panic::panic_any(ExtFault("ext program \"x\" exited".into()));
        assert_eq!(
            catch_fault(fault),
            Err::<(), _>(ExtFault("ext program \"x\" exited".into()))
        );
        assert_eq!(catch_fault(|| 7), Ok(7));
        let bug = std::panic::catch_unwind(|| catch_fault(|| panic!("a bug"))).unwrap_err();
        assert_eq!(bug.downcast_ref::<&str>(), Some(&"a bug"));
    }

    #[test]
    fn a_log_file_is_named_by_label_and_seat_in_plain_characters() {
        let file = log_file(Path::new("run"), "ext:cmd=/bin/x y", 1);
        assert_eq!(
            file,
            Path::new("run").join("ext-ext_cmd__bin_x_y-seat1.log")
        );
    }

    #[test]
    fn the_budget_is_the_limits_the_spec_sets_and_none_without_them() {
        let setup = |text: &str| ExtSetup::of(&AgentSpec::parse(text, false).unwrap());
        let go = |text: &str| setup(text).unwrap().budget.command();
        let sh = "ext:cmd=/bin/sh";
        // No limit in the spec: a plain `go`, whatever the timeout.
        assert_eq!(go(sh), "go");
        assert_eq!(go(&format!("{sh},timeout=500ms")), "go");
        assert_eq!(go(&format!("{sh},depth=3")), "go depth 3");
        assert_eq!(
            go(&format!("{sh},depth=3,nodes=100")),
            "go depth 3 nodes 100"
        );
        assert_eq!(
            go(&format!("{sh},movetime=2s,nodes=100")),
            "go nodes 100 movetime 2000"
        );
        assert_eq!(
            go(&format!("{sh},movetime=450ms,timeout=500ms")),
            "go movetime 450"
        );
        assert_eq!(
            setup(&format!("{sh},movetime=10s")).unwrap_err().0,
            "agent ext: movetime=10s must be shorter than timeout=10s (the program needs \
             time to answer)"
        );
        let found = setup("ext:cmd=sh").unwrap().program.path;
        assert!(found.is_absolute() && found.ends_with("sh"), "{found:?}");
        assert_eq!(
            std::fs::canonicalize(found).unwrap(),
            std::fs::canonicalize("/bin/sh").unwrap()
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_program_reached_through_a_link_runs_as_the_link() {
        let dir = std::env::temp_dir().join(format!("agon-ext-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let link = dir.join("python");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("/bin/sh", &link).unwrap();
        let spec = AgentSpec::parse(&format!("ext:cmd={}", link.display()), false).unwrap();
        assert_eq!(ExtSetup::of(&spec).unwrap().program.path, link);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_program_that_is_not_there_is_bad_input() {
        let err = ExtSetup::of(&AgentSpec::parse("ext:cmd=./no/such/program", false).unwrap())
            .unwrap_err();
        assert_eq!(
            err.0,
            "agent ext: cmd=./no/such/program is not an executable file"
        );
        let err =
            ExtSetup::of(&AgentSpec::parse("ext:cmd=no-such-program-anywhere", false).unwrap())
                .unwrap_err();
        assert!(
            err.0.ends_with("is not an executable file on PATH"),
            "{}",
            err.0
        );
    }
}
