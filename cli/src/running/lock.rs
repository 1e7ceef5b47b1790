//! The lock that keeps a run folder to one `agon` process at a time.
//!
//! Two processes writing one folder (say, the same cluster job started twice, both with
//! `--resume`) would interleave their rows. So every command that writes a run folder —
//! a tournament (new, resumed or reprinted), `agon merge` for its output, `agon report`
//! writing into the folder — first takes an exclusive lock on the folder's
//! [`LOCK_FILE`] and holds it until it ends; a second process is refused at once (exit
//! code 2), naming the folder and the holder's process id, which the holder writes into
//! the file.
//!
//! The lock is the operating system's advisory file lock (`flock` on Unix, `LockFileEx`
//! on Windows, through the `fs4` crate, whose API is that of std's `File::try_lock`,
//! stable only since a Rust newer than this workspace's minimum): the system releases it when the holder ends,
//! however it ends (even by `kill -9`), so a stale lock file never blocks a resume. The
//! file itself stays in the folder after the run: removing it would let a process that
//! opened it just before the removal lock a file no other process can see any more.
//! The folder checks ([`crate::running::folder::inspect`]) know its name.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;

use anyhow::{Context, Result};
use fs4::{FileExt, TryLockError};

use crate::bad_input::BadInput;
use crate::no_follow;

/// Name of the lock file in a run folder.
pub const LOCK_FILE: &str = "agon.lock";

/// The exclusive lock on a run folder, held until dropped.
#[derive(Debug)]
pub struct RunLock {
    /// The open lock file: closing it releases the lock.
    _file: File,
}

impl RunLock {
    /// Creates `dir` if it is missing, then takes the lock of its [`LOCK_FILE`] (created
    /// if missing) and writes this process's id into it. Another process holding it is a
    /// [`BadInput`] naming the folder and that process's id; a [`LOCK_FILE`] that is a
    /// symbolic link is one naming it ([`no_follow::open`]); nothing is changed then.
    pub fn acquire(dir: &Path) -> Result<RunLock> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join(LOCK_FILE);
        // Never through a link: the holder's id would be written over its target.
        let mut file = no_follow::open(
            &path,
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
        )?;
        // Called through the trait: on a toolchain whose std has `File::try_lock`, the
        // method syntax would pick std's, above the workspace's minimum Rust version.
        match FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                // The holder writes its id right after locking; in the instant between,
                // the file may still be empty (or hold a stale id being replaced).
                let holder = match file.read_to_string(&mut text).map(|_| text.trim()) {
                    Ok(pid) if !pid.is_empty() => format!("pid {pid}"),
                    _ => "its pid not yet written".to_string(),
                };
                return Err(BadInput::new(format!(
                    "run folder \"{}\" is in use by another agon process ({holder}); wait \
                     for it to end, or choose another folder",
                    dir.display()
                ))
                .into());
            }
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", path.display()))
            }
        }
        file.set_len(0)
            .and_then(|()| writeln!(file, "{}", std::process::id()))
            .and_then(|()| file.flush())
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(RunLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_refuses_a_second_holder_naming_the_pid_and_a_dropped_one_does_not() {
        let dir = std::env::temp_dir().join(format!("agon-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let held = RunLock::acquire(&dir).unwrap();
        let pid = std::process::id();
        assert_eq!(
            std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap(),
            format!("{pid}\n")
        );
        // A second open file description conflicts, as another process's would.
        let refused = RunLock::acquire(&dir).unwrap_err();
        assert_eq!(
            refused.downcast_ref::<BadInput>().unwrap().0,
            format!(
                "run folder \"{}\" is in use by another agon process (pid {pid}); wait for \
                 it to end, or choose another folder",
                dir.display()
            )
        );
        drop(held);
        let again = RunLock::acquire(&dir).unwrap();
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
