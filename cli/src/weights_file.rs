//! Weight files: an evaluator's weights as flat TOML, one `name = value` line per weight
//! (arrays flattened to `name_1`, `name_2`, ...), read by the agents' `eval=FILE`
//! parameter and written by `agon tune`.
//!
//! A file may set only some weights; the rest keep their defaults. A name the
//! evaluator does not declare, a value that is not an integer and a value outside its
//! declared range are each refused with one line naming the valid choices.
//!
//! `eval=builtin:<name>` names a weights file built into the binary instead: the
//! committed files under `results/weights/` ([`BUILT_IN`]), so that a ladder rung that
//! scores with other weights than the defaults plays wherever `agon` runs. A file is
//! read once per process ([`load`]), so every game of a run scores with the same weights
//! even if the file is edited while it runs; meta.csv records their [`digest`]. A
//! weights file is a regular file of at most [`MAX_FILE_BYTES`] (see
//! [`crate::input_file`]).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use agon_engine::weights::{flat_names, flat_ranges, flat_specs};
use agon_engine::{WeightSpec, Weights};

use crate::bad_input::BadInput;
use crate::digest::fnv1a;
use crate::input_file::InputFile;
use crate::network_file::built_in;

/// The largest weights file read: 1 MiB, thousands of times what a file with every
/// weight of any evaluator here and its comments takes.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The weights files built into the binary, by name (`<game>-<what>`): the committed
/// files under `results/weights/`, whose README gives the matches that chose them.
pub const BUILT_IN: &[(&str, &str)] = &[
    (
        "hexstrat-hunt",
        include_str!("../../results/weights/hexstrat-hunt.toml"),
    ),
    (
        "threewill-playouts",
        include_str!("../../results/weights/threewill-playouts.toml"),
    ),
];

/// The weights `text` sets over the defaults of `W`. `source` names the file in errors.
pub fn parse<W: Weights>(text: &str, source: &str) -> Result<W, BadInput> {
    let bad = |what: String| BadInput::new(format!("weights file {source:?}: {what}"));
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| bad(e.message().replace('\n', " ")))?;
    let names = flat_names(W::SPECS);
    let ranges = flat_ranges(W::SPECS);
    let mut flat = W::default().flat();
    for (key, value) in &table {
        let Some(i) = names.iter().position(|n| n == key) else {
            return Err(bad(format!(
                "unknown weight {key:?} (valid: {})",
                names.join(", ")
            )));
        };
        let (min, max) = ranges[i];
        let value = value
            .as_integer()
            .ok_or_else(|| bad(format!("{key} = {value} is not an integer")))?;
        if !(i64::from(min)..=i64::from(max)).contains(&value) {
            return Err(bad(format!(
                "{key} = {value} is out of range (valid: {min}..{max})"
            )));
        }
        flat[i] = value as i32;
    }
    Ok(W::from_flat(&flat).expect("every value was checked against its range"))
}

/// The file of `weights`: every weight, in declaration order, under a comment with its
/// help and range. [`parse`] reads it back to the same weights.
pub fn render<W: Weights>(weights: &W) -> String {
    let names = flat_names(W::SPECS);
    let mut out = String::new();
    for ((name, value), spec) in names.iter().zip(weights.flat()).zip(flat_specs(W::SPECS)) {
        let WeightSpec { help, min, max, .. } = spec;
        out.push_str(&format!("# {help} ({min}..{max})\n{name} = {value}\n"));
    }
    out
}

/// A fingerprint of `weights` (16 hex digits): the FNV-1a hash of their [`render`]ed
/// file, so it depends on the values and not on how a file was written.
pub fn digest<W: Weights>(weights: &W) -> String {
    format!("{:016x}", fnv1a(render(weights).as_bytes()))
}

/// The weights of the file at `path`, read on its first use in this process and
/// remembered (see the module docs).
pub fn load<W: Weights>(path: &str) -> Result<W, BadInput> {
    static TEXTS: OnceLock<Mutex<BTreeMap<PathBuf, Arc<str>>>> = OnceLock::new();
    let key = PathBuf::from(path);
    let text = {
        let mut texts = TEXTS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match texts.get(&key) {
            Some(text) => Arc::clone(text),
            None => {
                let shown = format!("{path:?}");
                let text: Arc<str> = match built_in(path, BUILT_IN, "weights")? {
                    Some(text) => text.into(),
                    None => {
                        InputFile::read_text(&key, "weights file", &shown, MAX_FILE_BYTES)?.into()
                    }
                };
                texts.insert(key, Arc::clone(&text));
                text
            }
        }
    };
    parse(&text, path)
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::Connect4Weights;

    use super::*;

    #[test]
    fn a_rendered_file_reads_back_and_defaults_render_as_declared() {
        let defaults = Connect4Weights::default();
        let text = render(&defaults);
        assert_eq!(
            text,
            "# an open window holding two own stones (and two empty cells) (0..50)\n\
             two = 2\n\
             # an open window holding three own stones (and one empty cell) (0..200)\n\
             three = 10\n\
             # one stone in the centre column (d) (0..50)\n\
             centre = 3\n"
        );
        assert_eq!(parse::<Connect4Weights>(&text, "f").unwrap(), defaults);
        let tuned = Connect4Weights {
            two: 7,
            three: 0,
            centre: 50,
        };
        assert_eq!(
            parse::<Connect4Weights>(&render(&tuned), "f").unwrap(),
            tuned
        );
        assert_ne!(digest(&tuned), digest(&defaults));
    }

    #[test]
    fn names_left_out_keep_their_defaults() {
        let w = parse::<Connect4Weights>("# only one\nthree = 12\n", "f").unwrap();
        assert_eq!((w.two, w.three, w.centre), (2, 12, 3));
        assert_eq!(
            parse::<Connect4Weights>("", "f").unwrap(),
            Connect4Weights::default()
        );
    }

    #[test]
    fn unknown_names_bad_values_and_bad_toml_are_one_line_each() {
        let err = |text: &str| parse::<Connect4Weights>(text, "w.toml").unwrap_err().0;
        assert_eq!(
            err("four = 1"),
            "weights file \"w.toml\": unknown weight \"four\" (valid: two, three, centre)"
        );
        assert_eq!(
            err("centre = 51"),
            "weights file \"w.toml\": centre = 51 is out of range (valid: 0..50)"
        );
        assert_eq!(
            err("two = -1"),
            "weights file \"w.toml\": two = -1 is out of range (valid: 0..50)"
        );
        assert_eq!(
            err("two = 99999999999"),
            "weights file \"w.toml\": two = 99999999999 is out of range (valid: 0..50)"
        );
        assert_eq!(
            err("two = \"2\""),
            "weights file \"w.toml\": two = \"2\" is not an integer"
        );
        assert_eq!(
            err("two = 1.5"),
            "weights file \"w.toml\": two = 1.5 is not an integer"
        );
        let syntax = err("two = = 2");
        assert!(syntax.starts_with("weights file \"w.toml\": "), "{syntax}");
        assert!(!syntax.contains('\n'), "{syntax}");
    }

    #[test]
    fn a_missing_file_is_named() {
        let e = load::<Connect4Weights>("/nonexistent/w.toml")
            .unwrap_err()
            .0;
        assert!(
            e.starts_with("cannot read weights file \"/nonexistent/w.toml\": "),
            "{e}"
        );
    }

    #[test]
    fn built_in_weights_read_as_their_files_and_an_unknown_one_names_the_valid() {
        use agon_engine::games::hexstrat::HexstratWeights;
        use agon_engine::games::threewill::ThreeWillWeights;
        let hunt = load::<HexstratWeights>("builtin:hexstrat-hunt").unwrap();
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../results/weights/hexstrat-hunt.toml"
        ))
        .unwrap();
        assert_eq!(hunt, parse::<HexstratWeights>(&text, "f").unwrap());
        assert_eq!((hunt.hunt, hunt.initiative), (4, 0));
        assert_eq!((hunt.seize_sure, hunt.threat_sure), (400, 300));
        let playouts = load::<ThreeWillWeights>("builtin:threewill-playouts").unwrap();
        assert_eq!((playouts.free_operation, playouts.throw_mean), (100, 1));
        let defaults = ThreeWillWeights {
            free_operation: 100,
            throw_mean: 1,
            ..ThreeWillWeights::default()
        };
        assert_eq!(playouts, defaults, "otherwise the defaults");
        let e = load::<HexstratWeights>("builtin:nope").unwrap_err().0;
        assert_eq!(
            e,
            "no built-in weights \"builtin:nope\" (valid: builtin:hexstrat-hunt, \
             builtin:threewill-playouts)"
        );
    }
}
