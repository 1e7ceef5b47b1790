//! Just enough JSON for the data a page embeds: numbers, strings and arrays of them,
//! written so that the text is safe inside a `<script>` element.

use std::fmt::Write;

/// Appends `text` as a JSON string. Besides what JSON requires, `<` is written
/// `\u003c` (no `</script>` can end the element early) and the line separators U+2028
/// and U+2029 are escaped.
pub fn string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '<' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Appends `[a,b,...]` of numbers.
pub fn numbers<T: std::fmt::Display>(out: &mut String, values: impl IntoIterator<Item = T>) {
    out.push('[');
    for (i, v) in values.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{v}");
    }
    out.push(']');
}

/// Appends `["a","b",...]`.
pub fn strings<'a>(out: &mut String, values: impl IntoIterator<Item = &'a str>) {
    out.push('[');
    for (i, v) in values.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(out, v);
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_quotes_controls_and_the_end_of_a_script() {
        let mut out = String::new();
        strings(&mut out, ["a\"b\\c", "</script>\n\t", "x\u{2028}"]);
        assert_eq!(out, r#"["a\"b\\c","\u003c/script>\n\u0009","x\u2028"]"#);
        let mut out = String::new();
        numbers(&mut out, [3u32, 0, 12]);
        numbers(&mut out, Vec::<u32>::new());
        assert_eq!(out, "[3,0,12][]");
    }
}
