//! The strength ladders: agent specs at reproducible budgets (depth, nodes or
//! iterations, never time), weakest first, each measured to beat the one below on the
//! game's default parameters. Each game's ladder is part of its profile
//! ([`crate::games::GameProfile::ladder`]); this module reads and writes levels.
//!
//! `level:k` in an agent spec means rung k (from 1) of the game's ladder. It resolves to
//! `L<k>=<spec>`, the form records store: the spec itself, so that a later change of a
//! ladder cannot change what a recorded or resumed run played.

use crate::bad_input::BadInput;

/// Whether `text` asks for a ladder level (`level:k`, or a malformed `level...`).
pub fn is_level(text: &str) -> bool {
    let name = text.split(':').next().unwrap_or("").trim();
    name == "level"
}

/// `text` as `L<k>=<spec>` split into k and the spec, if it has that form.
pub fn split_resolved(text: &str) -> Option<(usize, &str)> {
    let (tag, spec) = text.trim().split_once('=')?;
    let digits = tag.strip_prefix('L')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Rungs count from 1: `L0=...` is no rung, and is left for the parser to refuse.
    digits.parse().ok().filter(|&k| k > 0).map(|k| (k, spec))
}

/// `level:k` for `game`, whose ladder is `levels`, resolved to `L<k>=<spec>`; `None` if
/// `text` is not a level; a [`BadInput`] naming the valid levels if k is not one.
pub fn resolve(text: &str, game: &str, levels: &[&str]) -> Result<Option<String>, BadInput> {
    if !is_level(text) {
        return Ok(None);
    }
    let valid = format!("level:1 to level:{}", levels.len());
    let k = text
        .trim()
        .strip_prefix("level:")
        .and_then(|k| k.trim().parse::<usize>().ok())
        .filter(|k| (1..=levels.len()).contains(k))
        .ok_or_else(|| {
            BadInput::new(format!(
                "agent {:?}: no such level of the {game} ladder (valid: {valid})",
                text.trim()
            ))
        })?;
    Ok(Some(format!("L{k}={}", levels[k - 1])))
}

#[cfg(test)]
mod tests {
    use crate::games::{dispatch, ladder, GameCommand, PlayableGame, GAMES};
    use crate::spec::{AgentSpec, GameSpec};

    #[test]
    fn every_game_has_four_levels_at_reproducible_budgets_that_build() {
        struct Build;
        impl GameCommand for Build {
            fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> anyhow::Result<()> {
                for level in ladder(spec.name) {
                    let agent = AgentSpec::parse(level, false)?;
                    assert!(!agent.params.contains("time"), "{level}");
                    assert!(
                        agent.params.int("threads").map_or(true, |t| t == 1),
                        "{level}"
                    );
                    G::build_agent(&agent, &game.initial_state())?;
                }
                Ok(())
            }
        }
        for game in GAMES {
            assert!(ladder(game.name).len() >= 4, "{}", game.name);
            dispatch(&GameSpec::parse(game.name).unwrap(), Build).unwrap();
        }
    }

    #[test]
    fn a_level_resolves_to_its_rung_and_keeps_it_in_text_and_label() {
        let game = GameSpec::parse("connect4").unwrap();
        let spec = AgentSpec::parse_for_game("level:3", &game, false).unwrap();
        assert_eq!(spec.level, Some(3));
        assert_eq!(
            spec.to_string(),
            format!(
                "L3={}",
                AgentSpec::parse(ladder("connect4")[2], false).unwrap()
            )
        );
        assert_eq!(
            spec.label(),
            format!(
                "L3={}",
                AgentSpec::parse(ladder("connect4")[2], false)
                    .unwrap()
                    .label()
            )
        );
        // What records store parses back without the ladder.
        assert_eq!(AgentSpec::parse(&spec.to_string(), false).unwrap(), spec);
        assert_eq!(AgentSpec::parse(&spec.label(), false).unwrap(), spec);
        // Other specs are untouched.
        assert_eq!(
            AgentSpec::parse_for_game("ab:depth=3", &game, false).unwrap(),
            AgentSpec::parse("ab:depth=3", false).unwrap()
        );
    }

    #[test]
    fn a_level_that_does_not_exist_or_has_no_game_is_refused() {
        let game = GameSpec::parse("connect4").unwrap();
        let n = ladder("connect4").len();
        for bad in ["level:0", &format!("level:{}", n + 1), "level:x", "level"] {
            assert_eq!(
                AgentSpec::parse_for_game(bad, &game, false).unwrap_err().0,
                format!(
                    "agent {bad:?}: no such level of the connect4 ladder (valid: level:1 to \
                     level:{n})"
                )
            );
        }
        assert!(AgentSpec::parse("L0=random", false).is_err());
        assert_eq!(
            AgentSpec::parse("level:2", false).unwrap_err().0,
            "agent \"level:2\": a ladder level needs a game, and none is known here"
        );
    }
}
