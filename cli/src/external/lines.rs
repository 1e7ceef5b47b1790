//! Lines read with a bound on their length, so that a peer that writes a line without
//! end (or one larger than memory) costs a bounded amount of memory: the reader of an
//! outside program's output ([`super::program`]) and `agon serve`'s reader of its
//! commands ([`crate::commands::serve`]).

use std::io::{self, BufRead, ErrorKind};

/// What [`read_line`] read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// A line within the bound.
    Line(Line),
    /// A line longer than the bound: what was read of it is dropped, and the reader
    /// stands inside it (its rest is read by [`skip_line`]).
    TooLong,
    /// The end of the input.
    End,
}

/// A line within the bound, without its `\n` and without a `\r` before that.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of UTF-8 text.
    Text(String),
    /// A line that is not UTF-8, as its bytes.
    NotText(Vec<u8>),
}

/// Reads the next line of `input`, at most `max` bytes before its `\n` (a last line
/// without one counts as a line). A longer line is [`Read::TooLong`] as soon as its
/// `max + 1`th byte is seen, so that a line that never ends is told at once.
pub fn read_line<R: BufRead + ?Sized>(input: &mut R, max: usize) -> io::Result<Read> {
    let mut bytes = Vec::new();
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if bytes.is_empty() {
                Read::End
            } else {
                Read::Line(line(bytes))
            });
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let take = newline.unwrap_or(available.len());
        if bytes.len() + take > max {
            return Ok(Read::TooLong);
        }
        bytes.extend_from_slice(&available[..take]);
        input.consume(take + usize::from(newline.is_some()));
        if newline.is_some() {
            return Ok(Read::Line(line(bytes)));
        }
    }
}

/// Reads and drops the rest of the current line, through its `\n` or to the end of the
/// input, keeping nothing of it.
pub fn skip_line<R: BufRead + ?Sized>(input: &mut R) -> io::Result<()> {
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(());
        }
        match available.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let all = available.len();
                input.consume(all);
            }
        }
    }
}

/// The line of `bytes` (read without its `\n`): without a final `\r`, as text if it is
/// UTF-8.
fn line(mut bytes: Vec<u8>) -> Line {
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    String::from_utf8(bytes).map_or_else(|e| Line::NotText(e.into_bytes()), Line::Text)
}

/// A size in bytes as the limits are written: `4 MiB`, `64 KiB`, or `N bytes`.
pub fn size(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * KIB;
    if bytes >= MIB && bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes % KIB == 0 {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use std::io::BufReader;

    use super::*;

    /// Every read of `input` with the bound `max` through a buffer of 4 bytes (so that
    /// lines span refills), skipping the rest of a line too long, up to the end.
    fn reads(input: &[u8], max: usize) -> Vec<Read> {
        let mut reader = BufReader::with_capacity(4, input);
        let mut all = Vec::new();
        loop {
            let read = read_line(&mut reader, max).unwrap();
            match read {
                Read::End => return all,
                Read::TooLong => skip_line(&mut reader).unwrap(),
                Read::Line(_) => {}
            }
            all.push(read);
        }
    }

    fn text(s: &str) -> Read {
        Read::Line(Line::Text(s.to_string()))
    }

    #[test]
    fn lines_within_the_bound_are_read_and_longer_ones_dropped() {
        assert_eq!(
            reads(b"ugiok\r\n123456789\n\xff\xfe\n12345678\nlast", 8),
            [
                text("ugiok"),
                Read::TooLong,
                Read::Line(Line::NotText(vec![0xff, 0xfe])),
                text("12345678"),
                text("last"),
            ]
        );
        assert_eq!(reads(b"", 8), []);
        assert_eq!(reads(b"\n\n", 8), [text(""), text("")]);
    }

    #[test]
    fn a_line_without_end_is_too_long_once_past_the_bound() {
        // A reader that never ends: the line is told too long without reading on.
        let mut endless = BufReader::with_capacity(4, std::io::repeat(b'x'));
        assert_eq!(read_line(&mut endless, 10).unwrap(), Read::TooLong);
    }

    #[test]
    fn sizes_are_written_in_their_largest_whole_unit() {
        assert_eq!(size(4 * 1024 * 1024), "4 MiB");
        assert_eq!(size(64 * 1024), "64 KiB");
        assert_eq!(size(1000), "1000 bytes");
    }
}
