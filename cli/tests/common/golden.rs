//! Golden files: expected outputs kept byte for byte under `cli/tests/golden/`, so a
//! deliberate change to an output is reviewed as a diff of a file.
//!
//! A check compares the actual text with its file and fails naming the file, the first
//! line that differs (expected and actual) and how to update. Run the tests with
//! `AGON_UPDATE_GOLDEN=1` to write each actual text to its file instead of comparing
//! (then review the diff); without it a test never writes a golden file.
//!
//! A placeholder such as `{out}` stands in a file for a text that differs from run to run
//! (a scratch folder): it is replaced by its value before comparing, and the value by the
//! placeholder when a file is updated.

use std::path::PathBuf;

/// The environment variable that turns a comparison into an update of the golden file.
pub const UPDATE: &str = "AGON_UPDATE_GOLDEN";

/// Whether this run updates golden files instead of comparing with them.
pub fn updating() -> bool {
    std::env::var_os(UPDATE).is_some_and(|v| !v.is_empty() && v != "0")
}

/// The path of the golden file `name` (relative to `cli/tests/golden/`).
pub fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// Compares `actual` with the golden file `name`, its `placeholders` replaced by their
/// values, or writes `actual` there (values replaced by placeholders) when
/// [`updating`]. The error names the file, the first differing line and how to update.
pub fn check_golden(name: &str, actual: &str, placeholders: &[(&str, &str)]) -> Result<(), String> {
    let path = golden_path(name);
    if updating() {
        let mut text = actual.to_string();
        for (placeholder, value) in placeholders {
            text = text.replace(value, placeholder);
        }
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return Ok(());
    }
    let mut expected = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "cannot read golden file {}: {e}; {UPDATE}=1 writes it",
            path.display()
        )
    })?;
    for (placeholder, value) in placeholders {
        expected = expected.replace(placeholder, value);
    }
    if expected == actual {
        return Ok(());
    }
    let mut expected_lines = expected.split_inclusive('\n');
    let mut actual_lines = actual.split_inclusive('\n');
    let mut line = 1;
    loop {
        match (expected_lines.next(), actual_lines.next()) {
            (e, a) if e == a => line += 1,
            (e, a) => {
                return Err(format!(
                    "{} differs from the actual output at line {line}:\n  expected: {:?}\n  actual:   {:?}\n\
                     if the change is deliberate, run the tests with {UPDATE}=1 to rewrite the file, \
                     then review its diff",
                    path.display(),
                    e.unwrap_or("(end of file)"),
                    a.unwrap_or("(end of output)"),
                ))
            }
        }
    }
}

/// [`check_golden`] without placeholders, panicking on a difference.
pub fn assert_golden(name: &str, actual: &str) {
    assert_golden_with(name, actual, &[]);
}

/// [`check_golden`], panicking on a difference.
pub fn assert_golden_with(name: &str, actual: &str, placeholders: &[(&str, &str)]) {
    if let Err(message) = check_golden(name, actual, placeholders) {
        panic!("{message}");
    }
}

/// Asserts that `actual` starts with the golden file `name` (the file holds the first
/// lines of the output, which are reproducible; the rest is checked elsewhere or not at
/// all). When [`updating`], writes as many lines of `actual` as the file holds now.
pub fn assert_golden_prefix(name: &str, actual: &str) {
    let path = golden_path(name);
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    let lines = expected.lines().count();
    let prefix: String = actual.split_inclusive('\n').take(lines).collect();
    assert_golden(name, &prefix);
}
