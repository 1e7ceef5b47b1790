//! The candidates of a race: every combination of the values that the `--search` flags
//! give their knobs, applied to the base game.

use crate::bad_input::BadInput;
use crate::spec::GameSpec;

/// A candidate game and the `(key, value)` picks of the search that make it.
pub type Candidate = (GameSpec, Vec<(String, String)>);

/// The most candidates a race takes: each is raced and drawn as a row of the chart.
pub const MAX_CANDIDATES: usize = 64;

/// The candidate games of `flags` (`KEY=V1,V2,...` each) on `base`, the first flag's
/// key changing slowest, each with the `(key, value)` picks that make it. Every key must be a parameter of the game, named once; every
/// value valid for it (the error names the valid range) and given once; two candidates
/// at least and at most [`MAX_CANDIDATES`].
pub fn candidates(base: &GameSpec, flags: &[String]) -> Result<Vec<Candidate>, BadInput> {
    let mut knobs: Vec<(&str, Vec<&str>)> = Vec::new();
    for flag in flags {
        let (key, values) = flag
            .split_once('=')
            .map(|(k, v)| (k.trim(), v))
            .filter(|(k, v)| !k.is_empty() && !v.trim().is_empty())
            .ok_or_else(|| {
                BadInput::new(format!(
                    "--search {flag:?}: expected KEY=V1,V2,... (a parameter of {} and the \
                     values to try)",
                    base.name
                ))
            })?;
        if knobs.iter().any(|(k, _)| *k == key) {
            return Err(BadInput::new(format!(
                "--search names {key:?} twice; give all its values in one flag"
            )));
        }
        let values: Vec<&str> = values.split(',').map(str::trim).collect();
        for (i, value) in values.iter().enumerate() {
            if value.is_empty() {
                return Err(BadInput::new(format!("--search {flag:?}: an empty value")));
            }
            if values[..i].contains(value) {
                return Err(BadInput::new(format!(
                    "--search {flag:?}: the value {value:?} is given twice"
                )));
            }
            // Checks the key and the value alone, so that the error names them.
            GameSpec::parse(&format!("{}:{key}={value}", base.name))
                .map_err(|e| BadInput::new(format!("--search {flag:?}: {}", e.0)))?;
        }
        knobs.push((key, values));
    }
    let count = knobs
        .iter()
        .try_fold(1usize, |n, (_, values)| n.checked_mul(values.len()))
        .filter(|&n| n <= MAX_CANDIDATES)
        .ok_or_else(|| {
            BadInput::new(format!(
                "--search makes more than {MAX_CANDIDATES} candidates; search fewer values \
                 or fewer knobs at a time"
            ))
        })?;
    if count < 2 {
        return Err(BadInput::new(
            "--search needs two candidates at least: give a knob two values or more",
        ));
    }
    let mut games = Vec::with_capacity(count);
    for index in 0..count {
        // Mixed radix, the last knob the fastest digit.
        let mut rest = index;
        let mut picks = vec![""; knobs.len()];
        for (k, (_, values)) in knobs.iter().enumerate().rev() {
            picks[k] = values[rest % values.len()];
            rest /= values.len();
        }
        let text: Vec<String> = knobs
            .iter()
            .zip(&picks)
            .map(|((key, _), value)| format!("{key}={value}"))
            .collect();
        let picks = knobs
            .iter()
            .zip(&picks)
            .map(|((key, _), value)| (key.to_string(), value.to_string()))
            .collect();
        games.push((with_values(base, &text.join(","))?, picks));
    }
    Ok(games)
}

/// `base` with the `key=value,...` of `text` replacing its values of those keys.
fn with_values(base: &GameSpec, text: &str) -> Result<GameSpec, BadInput> {
    let mut given: Vec<String> = base
        .params
        .names()
        .filter(|name| !text.split(',').any(|kv| kv.split('=').next() == Some(name)))
        .map(|name| format!("{name}={}", base.params.get(name).expect("named")))
        .collect();
    given.push(text.to_string());
    GameSpec::parse(&format!("{}:{}", base.name, given.join(",")))
        .map_err(|e| BadInput::new(format!("--search: {}", e.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(base: &str, flags: &[&str]) -> Result<Vec<String>, String> {
        let base = GameSpec::parse(base).unwrap();
        let flags: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
        candidates(&base, &flags)
            .map(|games| games.iter().map(|(g, _)| g.to_string()).collect())
            .map_err(|e| e.0)
    }

    #[test]
    fn every_combination_the_first_knob_slowest_on_the_base_game() {
        assert_eq!(
            texts("pig:target=20", &["bonus=0,2", "die=3,4"]).unwrap(),
            [
                "pig:die=3,horizon=1000,target=20",
                "pig:die=4,horizon=1000,target=20",
                "pig:bonus=2,die=3,horizon=1000,target=20",
                "pig:bonus=2,die=4,horizon=1000,target=20",
            ]
        );
    }

    #[test]
    fn each_candidate_keeps_its_picks() {
        let base = GameSpec::parse("pig").unwrap();
        let found = candidates(&base, &["die=3,4".into(), "bonus=0,2".into()]).unwrap();
        let picks: Vec<String> = found
            .iter()
            .map(|(_, p)| {
                p.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        assert_eq!(
            picks,
            [
                "die=3,bonus=0",
                "die=3,bonus=2",
                "die=4,bonus=0",
                "die=4,bonus=2"
            ]
        );
    }

    #[test]
    fn bad_searches_are_refused_naming_the_problem() {
        assert_eq!(
            texts("pig", &["bonus=0,1000"]).unwrap_err(),
            "--search \"bonus=0,1000\": game \"pig:bonus=1000\": bonus=1000 is not valid: \
             expected integer 0..999"
        );
        assert_eq!(
            texts("pig", &["bonsu=1,2"]).unwrap_err(),
            "--search \"bonsu=1,2\": game \"pig:bonsu=1\": unknown parameter \"bonsu\" \
             (valid: bonus, die, horizon, target)"
        );
        assert_eq!(
            texts("pig", &["bonus=1"]).unwrap_err(),
            "--search needs two candidates at least: give a knob two values or more"
        );
        assert_eq!(
            texts("pig", &["bonus=1,2", "bonus=3,4"]).unwrap_err(),
            "--search names \"bonus\" twice; give all its values in one flag"
        );
        assert_eq!(
            texts("pig", &["bonus=1,1"]).unwrap_err(),
            "--search \"bonus=1,1\": the value \"1\" is given twice"
        );
        assert_eq!(
            texts("pig", &["bonus"]).unwrap_err(),
            "--search \"bonus\": expected KEY=V1,V2,... (a parameter of pig and the values \
             to try)"
        );
        let many: Vec<String> = (0..65).map(|v| v.to_string()).collect();
        assert_eq!(
            texts("pig", &[&format!("bonus={}", many.join(","))]).unwrap_err(),
            "--search makes more than 64 candidates; search fewer values or fewer knobs at \
             a time"
        );
    }
}
