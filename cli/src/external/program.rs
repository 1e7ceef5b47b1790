//! One running outside program: its standard input for commands, its standard output
//! read line by line on a thread of its own (so that a wait can end at a deadline), its
//! standard error kept in a log file. Dropping it asks the program to quit and then
//! stops it, with every process it started.
//!
//! What a program may cost is bounded: the lines it writes ([`MAX_LINE`]), what it
//! writes in answer to one command ([`MAX_ANSWER`]), the lines read but not yet taken
//! ([`QUEUE`]) and what its log keeps of its standard error ([`LOG_HEAD`],
//! [`LOG_TAIL`]).

use std::fs::{File, OpenOptions};
use std::io::{BufReader, ErrorKind, Read as _, Write};
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use agon_engine::ParamValue;

use super::lines::{self, Line, Read};
use super::ExtSetup;
use crate::no_follow;

/// How long a program has to quit after `quit` before it is stopped.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// The longest line a program may write, in bytes before its `\n`. Some hundred times a
/// long `info ... pv` line, so that no program that keeps the protocol comes near it,
/// while a line that never ends costs this much memory at most; a longer line is a
/// fault.
pub const MAX_LINE: usize = 64 * 1024;

/// The most a program may write to its standard output in answer to one command (from
/// one command of Agon's to the next), in bytes, each line's `\n` counted: a hundred
/// times what a chatty engine writes in a long search, so that only a flood reaches it;
/// past it is a fault, which ends a flood at once rather than at the timeout.
pub const MAX_ANSWER: usize = 4 * 1024 * 1024;

/// How many lines read from a program wait at most to be taken. The reader thread stops
/// reading while they wait (and the program, once its pipe is full, stops writing), so
/// that a program writing faster than it is read holds no more than this many lines of
/// [`MAX_LINE`] bytes in Agon's memory.
const QUEUE: usize = 64;

/// How many bytes of a program's standard error its log keeps from the start, written
/// as they come (each run of a program appends to its log, so what a game may add to
/// it is bounded by this and [`LOG_TAIL`]).
pub const LOG_HEAD: usize = 64 * 1024;

/// How many bytes of a program's standard error its log keeps from the end (where a
/// crash report is), written once the standard error closes, after a line saying how
/// many bytes between the head and the tail were left out.
pub const LOG_TAIL: usize = 64 * 1024;

/// How long stopping a program waits for the last of its standard error to reach its
/// log. The log's writer ends when every process holding that standard error has
/// ended, which a process that left the program's process group may never do; the
/// tail is then written whenever it does, or lost if Agon ends first.
const LOG_GRACE: Duration = Duration::from_secs(5);

/// A started program.
pub struct Running {
    child: Child,
    stdin: ChildStdin,
    /// What the reader thread read, [`Read::End`] or [`Read::TooLong`] last.
    lines: Receiver<Read>,
    /// The time allowed for an answer, as a fault names it.
    timeout: Duration,
    /// Bytes of output taken since the last command sent.
    answered: usize,
    /// The first process's exit status, once its group is stopped and it is reaped.
    status: Option<ExitStatus>,
    /// Told when the log's writer has written the last of the standard error; `None`
    /// when the program writes to this process's standard error.
    logged: Option<Receiver<()>>,
}

impl Running {
    /// Starts the program of `setup` in a process group of its own, its standard error
    /// kept in `log` (or written to this process's when `None`).
    pub fn start(setup: &ExtSetup, log: Option<&Path>) -> Result<Running, String> {
        let mut command = Command::new(&setup.program.path);
        command
            .args(&setup.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        #[cfg(unix)]
        {
            // Stopping the group stops every process the program started (the engine a
            // wrapper script runs, a helper it forks) and nothing else.
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        if let Some(dir) = &setup.dir {
            command.current_dir(dir);
        }
        let log = match log {
            Some(path) => {
                // Never through a link planted in the run folder.
                let file = no_follow::open(path, OpenOptions::new().create(true).append(true))
                    .map_err(|e| format!("cannot open its log: {e:#}"))?;
                command.stderr(Stdio::piped());
                Some(file)
            }
            None => None,
        };
        let mut child = command
            .spawn()
            .map_err(|e| format!("could not be started: {e}"))?;
        let stdin = child.stdin.take().expect("standard input is piped");
        let stdout = child.stdout.take().expect("standard output is piped");
        let (sender, lines) = mpsc::sync_channel(QUEUE);
        std::thread::spawn(move || read_output(stdout, &sender));
        let logged = log.map(|file| {
            let stderr = child.stderr.take().expect("standard error is piped");
            let (done, logged) = mpsc::sync_channel(1);
            std::thread::spawn(move || {
                keep_log(stderr, file);
                let _ = done.send(());
            });
            logged
        });
        Ok(Running {
            child,
            stdin,
            lines,
            timeout: setup.timeout,
            answered: 0,
            status: None,
            logged,
        })
    }

    /// Sends one command line; what the program writes from here on is its answer.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        self.answered = 0;
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| self.gone())
    }

    /// The next line the program writes, waiting until `deadline` at most. `Err` is the
    /// fault that stopped the wait: the deadline passed (checked before a waiting line is
    /// taken, so that a program that writes without end cannot outlast it), the program
    /// wrote a line longer than [`MAX_LINE`] or more than [`MAX_ANSWER`] since the last
    /// command, or its output ended.
    pub fn next_line(&mut self, deadline: Instant) -> Result<Line, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(self.timed_out());
        }
        match self.lines.recv_timeout(left) {
            Ok(Read::Line(line)) => {
                let bytes = match &line {
                    Line::Text(text) => text.len(),
                    Line::NotText(bytes) => bytes.len(),
                };
                self.answered += bytes + 1;
                if self.answered > MAX_ANSWER {
                    Err(format!("wrote more than {}", lines::size(MAX_ANSWER)))
                } else {
                    Ok(line)
                }
            }
            Ok(Read::TooLong) => Err(format!(
                "wrote a line longer than {}",
                lines::size(MAX_LINE)
            )),
            Ok(Read::End) | Err(RecvTimeoutError::Disconnected) => Err(self.gone()),
            Err(RecvTimeoutError::Timeout) => Err(self.timed_out()),
        }
    }

    /// The fault of a program that did not answer in time.
    fn timed_out(&self) -> String {
        format!("timed out after {}", ParamValue::Duration(self.timeout))
    }

    /// Why the program no longer listens: its exit status if it ends within
    /// [`QUIT_GRACE`] (its process group is then stopped).
    fn gone(&mut self) -> String {
        let deadline = Instant::now() + QUIT_GRACE;
        while !self.has_ended() {
            if Instant::now() >= deadline {
                return "closed its output".to_string();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        match self.stop() {
            Some(status) => format!("exited ({status})"),
            None => "exited".to_string(),
        }
    }

    /// Whether the program's first process has ended. It is not reaped, so that its
    /// pid, the id of its process group, stays taken until [`Running::stop`] has
    /// stopped the group (a reaped pid could be given to another process).
    #[cfg(unix)]
    fn has_ended(&mut self) -> bool {
        use rustix::process::{waitid, Pid, WaitId, WaitIdOptions};
        if self.status.is_some() {
            return true;
        }
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        // An error can only mean that there is no such child left to wait for.
        waitid(WaitId::Pid(Pid::from_child(&self.child)), options).map_or(true, |s| s.is_some())
    }

    /// Whether the program has ended (reaping it).
    #[cfg(not(unix))]
    fn has_ended(&mut self) -> bool {
        if let Ok(Some(status)) = self.child.try_wait() {
            self.status = Some(status);
        }
        self.status.is_some()
    }

    /// Stops every process of the program's group (its first process, whether or not
    /// it has ended, holds the group's id until it is reaped here), then reaps the
    /// first: its exit status (`None` if it cannot be had). Once stopped, stays so.
    fn stop(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            #[cfg(unix)]
            {
                use rustix::process::{kill_process_group, Pid, Signal};
                // The group may have no process left but the first, ended one.
                let _ = kill_process_group(Pid::from_child(&self.child), Signal::KILL);
            }
            #[cfg(not(unix))]
            {
                let _ = self.child.kill();
            }
            self.status = self.child.wait().ok();
        }
        self.status
    }
}

impl Drop for Running {
    /// Sends `quit`, gives the program [`QUIT_GRACE`] to end, then stops its process
    /// group either way (a process it left behind goes with it), and waits up to
    /// [`LOG_GRACE`] for its log to be complete.
    fn drop(&mut self) {
        if !self.has_ended() {
            let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
            let deadline = Instant::now() + QUIT_GRACE;
            while Instant::now() < deadline && !self.has_ended() {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.stop();
        if let Some(logged) = &self.logged {
            let _ = logged.recv_timeout(LOG_GRACE);
        }
    }
}

/// Sends what is read from `output` to `sender`, line by line, until the end of the
/// output (a read error counts as the end), a line too long or the receiver's end.
fn read_output(output: ChildStdout, sender: &SyncSender<Read>) {
    let mut reader = BufReader::new(output);
    loop {
        let read = lines::read_line(&mut reader, MAX_LINE).unwrap_or(Read::End);
        let last = !matches!(read, Read::Line(_));
        if sender.send(read).is_err() || last {
            return;
        }
    }
}

/// Copies `stderr` to `log` until it closes: its first [`LOG_HEAD`] bytes as they
/// come, then, if more came than the log keeps, a line saying how many bytes were left
/// out, and its last [`LOG_TAIL`] bytes. A log that cannot be written loses lines, not
/// the game.
fn keep_log(mut stderr: ChildStderr, mut log: File) {
    let mut chunk = [0; 8192];
    let mut head_left = LOG_HEAD;
    let mut head_ends_line = true;
    // The bytes after the head, of which the last LOG_TAIL are kept (trimmed when twice
    // that, so that trimming costs little per byte).
    let mut tail = Vec::new();
    let mut left_out: u64 = 0;
    loop {
        let n = match stderr.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let (head, rest) = chunk[..n].split_at(n.min(head_left));
        if !head.is_empty() {
            head_left -= head.len();
            head_ends_line = head.ends_with(b"\n");
            let _ = log.write_all(head);
        }
        tail.extend_from_slice(rest);
        if tail.len() >= 2 * LOG_TAIL {
            let cut = tail.len() - LOG_TAIL;
            tail.drain(..cut);
            left_out += cut as u64;
        }
    }
    let cut = tail.len().saturating_sub(LOG_TAIL);
    tail.drain(..cut);
    left_out += cut as u64;
    let mut end = Vec::new();
    if left_out > 0 {
        if !head_ends_line {
            end.push(b'\n');
        }
        end.extend_from_slice(
            format!("[agon: {left_out} bytes of this program's standard error left out]\n")
                .as_bytes(),
        );
    }
    end.extend_from_slice(&tail);
    let _ = log.write_all(&end);
}
