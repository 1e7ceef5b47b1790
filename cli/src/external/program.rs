//! One running outside program: its standard input for commands, its standard output
//! read line by line on a thread of its own (so that a wait can end at a deadline), its
//! standard error appended to a log file. Dropping it asks the program to quit and
//! stops it if it does not.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::ExtSetup;
use crate::no_follow;

/// How long a program has to quit after `quit` before it is stopped.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// A started program.
pub struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Running {
    /// Starts the program of `setup`, its standard error appended to `log` (or this
    /// process's when `None`).
    pub fn start(setup: &ExtSetup, log: Option<&Path>) -> Result<Running, String> {
        let mut command = Command::new(&setup.program.path);
        command
            .args(&setup.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        if let Some(dir) = &setup.dir {
            command.current_dir(dir);
        }
        if let Some(log) = log {
            // Never through a link planted in the run folder.
            let file = no_follow::open(log, OpenOptions::new().create(true).append(true))
                .map_err(|e| format!("cannot open its log: {e:#}"))?;
            command.stderr(file);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("could not be started: {e}"))?;
        let stdin = child.stdin.take().expect("standard input is piped");
        let stdout = child.stdout.take().expect("standard output is piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Running {
            child,
            stdin,
            lines,
        })
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| self.gone())
    }

    /// The next line the program writes, waiting until `deadline` at most; `Err` says
    /// why none came (it ended, or the deadline passed: `timed out`).
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err("timed out".to_string()),
            Err(RecvTimeoutError::Disconnected) => Err(self.gone()),
        }
    }

    /// Why the program no longer listens: its exit status if it has ended.
    fn gone(&mut self) -> String {
        let deadline = Instant::now() + QUIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("exited ({status})"),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => return "closed its output".to_string(),
            }
        }
    }
}

impl Drop for Running {
    /// Sends `quit`, gives the program [`QUIT_GRACE`] to end, then stops it; reaps it
    /// either way.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
