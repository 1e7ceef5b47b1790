//! Declared parameters of games (and, through the same types, of agents): names, kinds,
//! defaults and checked values.
//!
//! Parsing of spec strings (`invector:width=5,height=4`) lives in the CLI; this module
//! only defines what a parameter is, so that each game declares its own next to its
//! rules and `agon games` can list them.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// What values a parameter accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// An integer in `min..=max`.
    Int {
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// `true` or `false`.
    Bool,
    /// A duration written with a unit, `ms` or `s` (`50ms`, `2s`).
    Duration,
    /// A floating-point number in `min..=max`.
    Float {
        /// Smallest accepted value.
        min: f64,
        /// Largest accepted value.
        max: f64,
    },
    /// One word out of a fixed list.
    Choice(&'static [&'static str]),
    /// The path of a file, read by whoever uses the parameter (a spec string cannot
    /// hold a `,` or `=` in it, so neither may the path).
    File,
}

impl fmt::Display for ParamKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamKind::Int { min, max } => write!(f, "integer {min}..{max}"),
            ParamKind::Bool => f.write_str("true|false"),
            ParamKind::Duration => f.write_str("duration (e.g. 50ms, 2s)"),
            ParamKind::Float { min, max } => write!(f, "number {min}..{max}"),
            ParamKind::Choice(words) => f.write_str(&words.join("|")),
            ParamKind::File => f.write_str("file path"),
        }
    }
}

/// One declared parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// Name as typed in a spec string.
    pub name: &'static str,
    /// Accepted values.
    pub kind: ParamKind,
    /// Default, written as it would be typed; `None` for an optional parameter that is
    /// absent unless given (e.g. a budget).
    pub default: Option<&'static str>,
    /// Whether the canonical text leaves this parameter out while it holds its default.
    /// Set for the designer's knobs of a game (a rule's number made a parameter after
    /// results were recorded), so that a spec which does not turn the knob names the
    /// same game in the same words as before the knob existed: records, resumed runs and
    /// committed studies keep their text. Only meaningful with a `default`.
    pub omitted_at_default: bool,
    /// One line of help.
    pub help: &'static str,
}

/// A checked parameter value.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A duration (stored in whole milliseconds, as written canonically).
    Duration(Duration),
    /// A floating-point number.
    Float(f64),
    /// One of a fixed list of words.
    Choice(&'static str),
    /// A file path, as given.
    File(String),
}

impl fmt::Display for ParamValue {
    /// The canonical text: what records store and compare.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Bool(v) => write!(f, "{v}"),
            ParamValue::Duration(d) => {
                let ms = d.as_millis();
                if ms % 1000 == 0 && ms > 0 {
                    write!(f, "{}s", ms / 1000)
                } else {
                    write!(f, "{ms}ms")
                }
            }
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Choice(w) => f.write_str(w),
            ParamValue::File(path) => f.write_str(path),
        }
    }
}

/// Checked parameter values by name, sorted (the canonical order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params(BTreeMap<&'static str, ParamValue>);

impl Params {
    /// The value of `name`, if present.
    pub fn get(&self, name: &str) -> Option<&ParamValue> {
        self.0.get(name)
    }

    /// Whether `name` is present.
    pub fn contains(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// Sets `name` to `value` (the caller checked it against the parameter's spec).
    pub fn insert(&mut self, name: &'static str, value: ParamValue) {
        self.0.insert(name, value);
    }

    /// Removes `name`, if present.
    pub fn remove(&mut self, name: &str) {
        self.0.remove(name);
    }

    /// Keeps only the parameters whose name passes `keep`.
    pub fn retain(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.0.retain(|name, _| keep(name));
    }

    /// The names present, in canonical order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.keys().copied()
    }

    /// Whether no parameter is present.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The integer parameter `name`, if present. Panics if present with another kind:
    /// that would be a mismatch between a declaration and its reader (a bug).
    pub fn int(&self, name: &str) -> Option<i64> {
        self.0.get(name).map(|v| match v {
            ParamValue::Int(i) => *i,
            other => panic!("parameter {name} read as an integer but holds {other:?}"),
        })
    }

    /// The boolean parameter `name`, if present (panics on a kind mismatch, as `int`).
    pub fn bool(&self, name: &str) -> Option<bool> {
        self.0.get(name).map(|v| match v {
            ParamValue::Bool(b) => *b,
            other => panic!("parameter {name} read as a boolean but holds {other:?}"),
        })
    }

    /// The duration parameter `name`, if present (panics on a kind mismatch, as `int`).
    pub fn duration(&self, name: &str) -> Option<Duration> {
        self.0.get(name).map(|v| match v {
            ParamValue::Duration(d) => *d,
            other => panic!("parameter {name} read as a duration but holds {other:?}"),
        })
    }

    /// The float parameter `name`, if present (panics on a kind mismatch, as `int`).
    pub fn float(&self, name: &str) -> Option<f64> {
        self.0.get(name).map(|v| match v {
            ParamValue::Float(x) => *x,
            other => panic!("parameter {name} read as a number but holds {other:?}"),
        })
    }

    /// The file parameter `name`, if present (panics on a kind mismatch, as `int`).
    pub fn file(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(|v| match v {
            ParamValue::File(path) => path.as_str(),
            other => panic!("parameter {name} read as a file but holds {other:?}"),
        })
    }

    /// The choice parameter `name`, if present (panics on a kind mismatch, as `int`).
    pub fn choice(&self, name: &str) -> Option<&'static str> {
        self.0.get(name).map(|v| match v {
            ParamValue::Choice(w) => *w,
            other => panic!("parameter {name} read as a choice but holds {other:?}"),
        })
    }
}

/// A configuration that the rules do not allow (e.g. an illegal board size).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl ParamSpec {
    /// Reads `text` as a value of this parameter. The error says what was expected.
    pub fn parse(&self, text: &str) -> Result<ParamValue, String> {
        let expected = || format!("{}={text} is not valid: expected {}", self.name, self.kind);
        match self.kind {
            ParamKind::Int { min, max } => match text.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(ParamValue::Int(v)),
                _ => Err(expected()),
            },
            ParamKind::Bool => match text {
                "true" => Ok(ParamValue::Bool(true)),
                "false" => Ok(ParamValue::Bool(false)),
                _ => Err(expected()),
            },
            ParamKind::Duration => parse_duration(text)
                .map(ParamValue::Duration)
                .ok_or_else(expected),
            ParamKind::Float { min, max } => match text.parse::<f64>() {
                Ok(v) if v.is_finite() && v >= min && v <= max => Ok(ParamValue::Float(v)),
                _ => Err(expected()),
            },
            ParamKind::Choice(words) => words
                .iter()
                .find(|w| **w == text)
                .map(|w| ParamValue::Choice(w))
                .ok_or_else(expected),
            ParamKind::File => Ok(ParamValue::File(text.to_string())),
        }
    }
}

/// Reads `50ms` or `2s` (a whole number with a unit; the unit is required so that a
/// bare number is never misread).
fn parse_duration(text: &str) -> Option<Duration> {
    let (digits, scale) = if let Some(d) = text.strip_suffix("ms") {
        (d, 1)
    } else if let Some(d) = text.strip_suffix('s') {
        (d, 1000)
    } else {
        return None;
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ms = digits.parse::<u64>().ok()?.checked_mul(scale)?;
    (ms > 0).then(|| Duration::from_millis(ms))
}

impl Params {
    /// Every declared parameter with a default, at its default, except those
    /// [omitted at their default](ParamSpec::omitted_at_default): the rules "the game"
    /// means unless a result names a variant.
    pub fn defaults(specs: &[ParamSpec]) -> Params {
        let mut params = Params::default();
        for spec in specs.iter().filter(|s| !s.omitted_at_default) {
            if let Some(text) = spec.default {
                let value = spec
                    .parse(text)
                    .unwrap_or_else(|e| panic!("declared default does not parse: {e}"));
                params.0.insert(spec.name, value);
            }
        }
        params
    }

    /// The defaults of `specs` with `overrides` (`name`, `text`) applied. Errors name
    /// the unknown parameter and the valid ones, or the bad value and what is valid.
    pub fn parse(specs: &[ParamSpec], overrides: &[(&str, &str)]) -> Result<Params, ConfigError> {
        let mut params = Params::defaults(specs);
        for (name, text) in overrides {
            let spec = specs.iter().find(|s| s.name == *name).ok_or_else(|| {
                let valid: Vec<_> = specs.iter().map(|s| s.name).collect();
                let valid = if valid.is_empty() {
                    "none".to_string()
                } else {
                    valid.join(", ")
                };
                ConfigError(format!("unknown parameter {name:?} (valid: {valid})"))
            })?;
            let value = spec.parse(text).map_err(ConfigError)?;
            if spec.omitted_at_default
                && spec.default.map(|d| spec.parse(d)) == Some(Ok(value.clone()))
            {
                // A knob turned to its own default names the game as it is.
                params.0.remove(spec.name);
            } else {
                params.0.insert(spec.name, value);
            }
        }
        Ok(params)
    }

    /// These parameters with every parameter of `specs` that has a default and is absent
    /// filled in at its default: what a game reads, so that a knob
    /// [omitted at its default](ParamSpec::omitted_at_default) reads as its default.
    pub fn filled(&self, specs: &[ParamSpec]) -> Params {
        let mut params = self.clone();
        for spec in specs {
            if let (Some(text), false) = (spec.default, params.contains(spec.name)) {
                let value = spec
                    .parse(text)
                    .unwrap_or_else(|e| panic!("declared default does not parse: {e}"));
                params.0.insert(spec.name, value);
            }
        }
        params
    }

    /// Canonical text `k=v,k=v` in key order (empty when there are no parameters).
    pub fn canonical(&self) -> String {
        self.0
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[
        ParamSpec {
            name: "depth",
            kind: ParamKind::Int { min: 1, max: 64 },
            default: None,
            omitted_at_default: false,
            help: "",
        },
        ParamSpec {
            name: "pie",
            kind: ParamKind::Bool,
            default: Some("true"),
            omitted_at_default: false,
            help: "",
        },
        ParamSpec {
            name: "time",
            kind: ParamKind::Duration,
            default: None,
            omitted_at_default: false,
            help: "",
        },
    ];

    #[test]
    fn durations_need_a_unit_and_print_canonically() {
        assert_eq!(SPECS[2].parse("1500ms").unwrap().to_string(), "1500ms");
        assert_eq!(SPECS[2].parse("2000ms").unwrap().to_string(), "2s");
        assert_eq!(SPECS[2].parse("3s").unwrap().to_string(), "3s");
        for bad in ["50", "ms", "1.5s", "-3s", "0ms", "5 ms"] {
            assert!(SPECS[2].parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn parse_fills_defaults_and_sorts_keys() {
        let p = Params::parse(SPECS, &[("time", "50ms"), ("depth", "6")]).unwrap();
        assert_eq!(p.canonical(), "depth=6,pie=true,time=50ms");
        assert_eq!(Params::parse(SPECS, &[]).unwrap().canonical(), "pie=true");
    }

    #[test]
    fn a_knob_is_left_out_of_the_canonical_text_at_its_default() {
        let specs = [
            SPECS[1],
            ParamSpec {
                name: "seize",
                kind: ParamKind::Int { min: 1, max: 9 },
                default: Some("3"),
                omitted_at_default: true,
                help: "",
            },
        ];
        assert_eq!(Params::parse(&specs, &[]).unwrap().canonical(), "pie=true");
        let given = Params::parse(&specs, &[("seize", "3")]).unwrap();
        assert_eq!(given.canonical(), "pie=true", "turned to its default");
        let turned = Params::parse(&specs, &[("seize", "4")]).unwrap();
        assert_eq!(turned.canonical(), "pie=true,seize=4");
        assert_eq!(given.filled(&specs).int("seize"), Some(3));
        assert_eq!(turned.filled(&specs).int("seize"), Some(4));
        let e = Params::parse(&specs, &[("seize", "0")]).unwrap_err();
        assert_eq!(e.0, "seize=0 is not valid: expected integer 1..9");
    }

    #[test]
    fn errors_name_the_problem_and_the_choices() {
        let e = Params::parse(SPECS, &[("dpth", "6")]).unwrap_err();
        assert_eq!(e.0, "unknown parameter \"dpth\" (valid: depth, pie, time)");
        let e = Params::parse(SPECS, &[("depth", "0")]).unwrap_err();
        assert_eq!(e.0, "depth=0 is not valid: expected integer 1..64");
        let e = Params::parse(SPECS, &[("pie", "yes")]).unwrap_err();
        assert_eq!(e.0, "pie=yes is not valid: expected true|false");
    }
}
