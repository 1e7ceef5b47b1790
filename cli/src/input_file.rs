//! Files a user names for the command line to read (an openings file, a weights file,
//! an experiment file), opened with a bound on what is read.
//!
//! Every such file is checked before a byte of it is read: it must be a regular file
//! (a device such as `/dev/zero` never ends, a pipe cannot be sized, a folder is no
//! text) and no larger than the bound its kind documents. The reader stops at that
//! bound too, so a file that grows while it is read costs no more than the bound.
//! Each refusal is one line naming the kind of file, the file and the reason.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Take};
use std::path::Path;

use crate::bad_input::BadInput;

/// A file named by the user, checked and opened: see the module docs.
pub struct InputFile<'a> {
    /// The kind of file, for messages (`openings file`).
    what: &'a str,
    /// The file as messages show it.
    shown: &'a str,
    reader: BufReader<Take<File>>,
}

impl<'a> InputFile<'a> {
    /// Opens `path`, a `what` shown in messages as `shown`, to read at most `max` bytes.
    /// Refuses, without reading, a path that cannot be opened, is not a regular file or
    /// holds more than `max` bytes.
    pub fn open(path: &Path, what: &'a str, shown: &'a str, max: u64) -> Result<Self, BadInput> {
        // Looked at before opening too: opening a named pipe for reading would wait for a
        // writer. Looked at again once open, in case the path changed in between.
        let before = std::fs::metadata(path).map_err(|e| cannot_read(what, shown, &e))?;
        let file = if before.is_file() {
            File::open(path).map_err(|e| cannot_read(what, shown, &e))?
        } else {
            return Err(not_regular(what, shown));
        };
        let metadata = file.metadata().map_err(|e| cannot_read(what, shown, &e))?;
        if !metadata.is_file() {
            return Err(not_regular(what, shown));
        }
        if metadata.len() > max {
            return Err(too_large(what, shown, max));
        }
        Ok(InputFile {
            what,
            shown,
            reader: BufReader::new(file.take(max)),
        })
    }

    /// The whole file as text; fails if it is not UTF-8.
    pub fn read_text(path: &Path, what: &str, shown: &str, max: u64) -> Result<String, BadInput> {
        let bytes = InputFile::read_bytes(path, what, shown, max)?;
        String::from_utf8(bytes)
            .map_err(|_| BadInput::new(format!("{what} {shown} is not UTF-8 text")))
    }

    /// The whole file as bytes.
    pub fn read_bytes(path: &Path, what: &str, shown: &str, max: u64) -> Result<Vec<u8>, BadInput> {
        let mut file = InputFile::open(path, what, shown, max)?;
        let mut bytes = Vec::new();
        file.reader
            .read_to_end(&mut bytes)
            .map_err(|e| file.error(&e))?;
        Ok(bytes)
    }

    /// The reader, buffered and stopping at the bound.
    pub fn reader(&mut self) -> &mut impl BufRead {
        &mut self.reader
    }

    /// The refusal of a read that failed with `e`.
    pub fn error(&self, e: &std::io::Error) -> BadInput {
        cannot_read(self.what, self.shown, e)
    }

    /// The refusal of a file that is not UTF-8 text.
    pub fn not_text(&self) -> BadInput {
        BadInput::new(format!("{} {} is not UTF-8 text", self.what, self.shown))
    }
}

/// `cannot read <what> <shown>: <e>`.
fn not_regular(what: &str, shown: &str) -> BadInput {
    BadInput::new(format!(
        "{what} {shown} is not a regular file (a device, pipe or folder is not read)"
    ))
}

fn cannot_read(what: &str, shown: &str, e: &std::io::Error) -> BadInput {
    BadInput::new(format!("cannot read {what} {shown}: {e}"))
}

/// The refusal of a file over `max` bytes, the bound in the largest whole unit that
/// states it exactly.
fn too_large(what: &str, shown: &str, max: u64) -> BadInput {
    let bound = match max {
        m if m >= 1 << 20 && m % (1 << 20) == 0 => format!("{} MiB", m >> 20),
        m if m >= 1 << 10 && m % (1 << 10) == 0 => format!("{} KiB", m >> 10),
        m => format!("{m} bytes"),
    };
    BadInput::new(format!(
        "{what} {shown} is larger than {bound}, the most read"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("agon-input-file-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn read(path: &Path, max: u64) -> Result<String, String> {
        InputFile::read_text(path, "test file", "T", max).map_err(|e| e.0)
    }

    #[test]
    fn devices_folders_and_files_over_the_bound_are_refused_before_reading() {
        let dir = scratch("refusals");
        for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
            assert_eq!(
                read(Path::new(device), 1 << 20).unwrap_err(),
                "test file T is not a regular file (a device, pipe or folder is not read)"
            );
        }
        assert_eq!(
            read(&dir, 1 << 20).unwrap_err(),
            "test file T is not a regular file (a device, pipe or folder is not read)"
        );
        // A named pipe no one writes to: opening it to read would wait for ever.
        #[cfg(unix)]
        {
            let pipe = dir.join("pipe");
            let made = std::process::Command::new("mkfifo").arg(&pipe).status();
            assert!(made.unwrap().success());
            assert_eq!(
                read(&pipe, 1 << 20).unwrap_err(),
                "test file T is not a regular file (a device, pipe or folder is not read)"
            );
        }
        let file = dir.join("f");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read(&file, 10).unwrap(), "0123456789");
        assert_eq!(
            read(&file, 9).unwrap_err(),
            "test file T is larger than 9 bytes, the most read"
        );
        std::fs::write(&file, vec![b'x'; (1 << 20) + 1]).unwrap();
        assert_eq!(
            read(&file, 1 << 20).unwrap_err(),
            "test file T is larger than 1 MiB, the most read"
        );
        assert_eq!(
            read(&file, 64 << 10).unwrap_err(),
            "test file T is larger than 64 KiB, the most read"
        );
        std::fs::write(&file, [0xff, 0xfe]).unwrap();
        assert_eq!(
            read(&file, 10).unwrap_err(),
            "test file T is not UTF-8 text"
        );
        let missing = read(&dir.join("none"), 10).unwrap_err();
        assert!(
            missing.starts_with("cannot read test file T: "),
            "{missing}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
