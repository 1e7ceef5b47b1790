//! Writing into a folder without ever following a symbolic link.
//!
//! Run and study folders are written by name: `agon.lock`, `meta.csv` (through
//! `meta.csv.tmp`), `games.csv`, `summary.csv`, charts, `report.html`. Opened the plain
//! way, a name planted there as a link to another file (someone else's, or one of the
//! user's own) would make agon write into that file: the lock would write its process id
//! over it, a temporary file its contents. So:
//!
//! - every command that writes into a folder first looks at it ([`refuse_links`]) and
//!   refuses (exit code 2, nothing changed) a folder holding a link, whatever its name;
//! - every file is then opened so that a link met all the same (planted after that look)
//!   is refused rather than followed: appended files and the lock with `O_NOFOLLOW`
//!   ([`open`]); whole files ([`write_whole`]) under a temporary name created new (a
//!   creation that refuses any existing name, a link included), then renamed over the
//!   final name, which replaces a link there instead of writing through it.
//!
//! The folder itself may be a link (the user's `--out` naming a link to a folder is the
//! user's choice): only the names inside it are guarded.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::bad_input::BadInput;

/// The refusal of a file that is a symbolic link.
fn link_refused(path: &Path) -> BadInput {
    BadInput::new(format!(
        "{} is a symbolic link, and agon writes no file through a link (it would change \
         the file the link points to); remove the link, or choose another folder",
        path.display()
    ))
}

/// Whether `path` is a symbolic link (dangling or not).
fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Refuses the folder `dir` (named `what` in the message, e.g. `output folder`) if any
/// name in it is a symbolic link, naming the first in name order; a folder that does
/// not exist holds none. Nothing is changed.
pub fn refuse_links(dir: &Path, what: &str) -> Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot read folder {}", dir.display())),
    };
    let mut links = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read folder {}", dir.display()))?;
        let kind = entry
            .file_type()
            .with_context(|| format!("cannot read folder {}", dir.display()))?;
        if kind.is_symlink() {
            links.push(entry.file_name());
        }
    }
    links.sort();
    match links.first() {
        None => Ok(()),
        Some(name) => Err(BadInput::new(format!(
            "{what} \"{}\" holds a symbolic link, {}, and agon writes no file through a link \
             (it would change the file the link points to); remove the link, or choose \
             another folder",
            dir.display(),
            name.to_string_lossy()
        ))
        .into()),
    }
}

/// `options` made to refuse a symbolic link as the file's last component
/// (`O_NOFOLLOW`; elsewhere than Unix, [`open`]'s look before opening is the guard).
fn no_follow(options: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
    }
    options
}

/// `path` with `.tmp` appended: where a whole file is written before it is renamed.
pub fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Opens `path` with `options`, refusing (a [`BadInput`] naming it) a symbolic link.
pub fn open(path: &Path, options: &mut OpenOptions) -> Result<File> {
    if is_link(path) {
        return Err(link_refused(path).into());
    }
    no_follow(options).open(path).map_err(|e| {
        // Opened with O_NOFOLLOW, a link fails (ELOOP): say what it is.
        if is_link(path) {
            link_refused(path).into()
        } else {
            anyhow::Error::new(e).context(format!("cannot open {}", path.display()))
        }
    })
}

/// Writes the file `path` whole or not at all: `fill` writes its contents into a
/// temporary file beside it ([`temporary_path`]), created new (a stale one a stop left
/// is removed first; a link there is refused), which is then renamed over `path`. A stop
/// at any instant leaves `path` as it was or whole.
pub fn write_whole(path: &Path, fill: impl FnOnce(&mut File) -> Result<()>) -> Result<()> {
    let temporary = temporary_path(path);
    if is_link(&temporary) || is_link(path) {
        let link = if is_link(&temporary) {
            &temporary
        } else {
            path
        };
        return Err(link_refused(link).into());
    }
    match std::fs::remove_file(&temporary) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot remove {}", temporary.display())),
    }
    let mut file = open(&temporary, OpenOptions::new().write(true).create_new(true))?;
    fill(&mut file)?;
    file.flush()
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    drop(file);
    std::fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}

/// [`write_whole`] of `bytes`.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<()> {
    write_whole(path, |file| {
        file.write_all(bytes)
            .with_context(|| format!("cannot write {}", temporary_path(path).display()))
    })
}

/// Writes the CSV file `path` whole or not at all: `fill` writes its records into a
/// temporary file, which is then renamed into place, so a stop never leaves half a file
/// ([`write_whole`], which never writes through a link).
pub fn write_csv_whole(
    path: &Path,
    fill: impl FnOnce(&mut csv::Writer<&mut std::fs::File>) -> Result<()>,
) -> Result<()> {
    write_whole(path, |file| {
        let mut w = csv::Writer::from_writer(file);
        fill(&mut w)?;
        w.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_link_is_refused_and_the_file_it_points_to_is_left_as_it_was() {
        use std::os::unix::fs::symlink;
        let dir = std::env::temp_dir().join(format!("agon-no-follow-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        std::fs::write(&victim, "mine").unwrap();
        let run = dir.join("run");
        std::fs::create_dir_all(&run).unwrap();
        assert!(refuse_links(&run, "output folder").is_ok());
        assert!(refuse_links(&dir.join("absent"), "output folder").is_ok());

        // Appending, through the look before opening and through O_NOFOLLOW alone.
        symlink(&victim, run.join("games.csv")).unwrap();
        let append = || OpenOptions::new().create(true).append(true).clone();
        let refused = open(&run.join("games.csv"), &mut append()).unwrap_err();
        assert_eq!(
            refused.downcast_ref::<BadInput>().unwrap().0,
            format!(
                "{} is a symbolic link, and agon writes no file through a link (it would \
                 change the file the link points to); remove the link, or choose another \
                 folder",
                run.join("games.csv").display()
            )
        );
        assert!(no_follow(&mut append())
            .open(run.join("games.csv"))
            .is_err());
        assert_eq!(
            refuse_links(&run, "output folder")
                .unwrap_err()
                .downcast_ref::<BadInput>()
                .unwrap()
                .0,
            format!(
                "output folder \"{}\" holds a symbolic link, games.csv, and agon writes no \
                 file through a link (it would change the file the link points to); remove \
                 the link, or choose another folder",
                run.display()
            )
        );

        // A whole file: a link at its temporary name or at its own is refused.
        symlink(&victim, run.join("meta.csv.tmp")).unwrap();
        assert!(write_bytes(&run.join("meta.csv"), b"theirs").is_err());
        std::fs::remove_file(run.join("meta.csv.tmp")).unwrap();
        symlink(&victim, run.join("summary.csv")).unwrap();
        assert!(write_bytes(&run.join("summary.csv"), b"theirs").is_err());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine");

        // A stale temporary file is replaced; the file appears whole.
        std::fs::write(run.join("speed.csv.tmp"), "half").unwrap();
        write_bytes(&run.join("speed.csv"), b"whole").unwrap();
        assert_eq!(
            std::fs::read_to_string(run.join("speed.csv")).unwrap(),
            "whole"
        );
        assert!(!run.join("speed.csv.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
