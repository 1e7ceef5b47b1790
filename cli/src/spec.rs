//! Spec strings: `name` or `name:key=value,key=value` for games and agents, parsed here
//! and nowhere else.
//!
//! A parsed spec is canonical: every parameter with a default is filled in (for agents,
//! also the default budget of [`agon_search::registry::complete_params`]), keys are
//! sorted, durations carry a unit (`50ms`, `2s`), booleans are `true`/`false`. Its text
//! (`invector:height=7,pie=true,width=8`) is what records store and what two runs compare,
//! so `ab:depth=3` and `ab:hash=16,depth=3` (if 16 is the default) are the same agent.
//!
//! A value holds no control character (`char::is_control`: a line break, a tab, the
//! escape that starts a terminal's colour codes): values are shown in labels, printed
//! tables and records, where one would garble the terminal or split a record's line.
//!
//! Errors are [`BadInput`] and name the valid choices: `unknown game "x" (valid:
//! invector)`, `unknown agent "x" (valid: random, greedy, ab, solve, ...)`, `game "invector:w=5":
//! unknown parameter "w" (valid: handicap, height, hole, lose_at, pie, stride, width)`.

use std::fmt;

use agon_engine::{ParamSpec, Params};
use agon_search::registry::{self, AgentKind};

use crate::bad_input::BadInput;
use crate::ext_spec;
use crate::ladder;

/// The name of the agent that reads its moves from standard input (`agon play` only).
pub const HUMAN: &str = "human";

/// A game spec: a registered game and its complete parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSpec {
    /// The game's name (`invector`).
    pub name: &'static str,
    /// Every parameter, defaults filled in.
    pub params: Params,
}

impl fmt::Display for GameSpec {
    /// The canonical text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&canonical(self.name, &self.params))
    }
}

/// The refusal of [`HUMAN`] anywhere but `agon play`, naming the agents valid there.
pub fn human_outside_play() -> BadInput {
    BadInput::new(format!(
        "agent \"{HUMAN}\" reads moves from a person and plays only in agon play \
         (valid here: {}, {})",
        AgentKind::ALL.map(AgentKind::name).join(", "),
        ext_spec::NAME
    ))
}

/// The refusal of an outside program (`ext_spec::NAME`) where no game and run are
/// known to tell it.
pub fn external_needs_venue() -> BadInput {
    BadInput::new(format!(
        "agent \"{}\" (an outside program) plays only in tournament, run, balance, play \
         and analyse",
        ext_spec::NAME
    ))
}

/// Who makes the moves of an agent spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person typing moves ([`HUMAN`], `agon play` only).
    Human,
    /// A searching agent of the registry.
    Agent(AgentKind),
    /// An outside program speaking the text protocol (`ext_spec::NAME`).
    External,
}

impl Player {
    /// The name typed in a spec (`human`, `ab`, `ext`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Player::Human => HUMAN,
            Player::Agent(kind) => kind.name(),
            Player::External => ext_spec::NAME,
        }
    }
}

/// An agent spec: a registered agent (or [`HUMAN`]) and its complete parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    /// Who plays.
    pub player: Player,
    /// Every parameter, defaults and default budget filled in.
    pub params: Params,
    /// The rung of the game's ladder this spec was chosen as (`level:3` resolves to
    /// `L3=<spec>`), shown in its text and label; `None` for a spec typed out.
    pub level: Option<usize>,
}

impl AgentSpec {
    /// Parses an agent spec against the search registry; `human` is accepted only when
    /// `allow_human` (interactive play). A rung of a ladder already resolved,
    /// `L<k>=<spec>` (as records store it), parses to `<spec>` at level k; `level:k`
    /// needs the game and is refused here ([`AgentSpec::parse_for_game`] resolves it).
    pub fn parse(text: &str, allow_human: bool) -> Result<AgentSpec, BadInput> {
        if let Some((level, spec)) = ladder::split_resolved(text) {
            let mut parsed = AgentSpec::parse(spec, false)?;
            parsed.level = Some(level);
            return Ok(parsed);
        }
        if ladder::is_level(text) {
            return Err(BadInput::new(format!(
                "agent {:?}: a ladder level needs a game, and none is known here",
                text.trim()
            )));
        }
        let mut choices: Vec<(&'static str, &'static [ParamSpec])> = AgentKind::ALL
            .iter()
            .map(|kind| (kind.name(), kind.info().params))
            .collect();
        choices.push((ext_spec::NAME, ext_spec::PARAMS));
        if allow_human {
            choices.push((HUMAN, &[]));
        } else if text.split(':').next().map(str::trim) == Some(HUMAN) {
            return Err(human_outside_play());
        }
        let (name, mut params) = parse_with(text, "agent", &choices)?;
        let player = match AgentKind::from_name(name) {
            Ok(kind) => {
                registry::complete_params(kind, &mut params);
                Player::Agent(kind)
            }
            Err(_) if name == ext_spec::NAME => {
                if !params.contains("cmd") {
                    return Err(ext_spec::missing_cmd());
                }
                Player::External
            }
            // `parse_with` accepted the name, so it is the human's.
            Err(_) => Player::Human,
        };
        Ok(AgentSpec {
            player,
            params,
            level: None,
        })
    }

    /// The agent's name (`ab`, `human`, ...).
    pub fn name(&self) -> &'static str {
        self.player.name()
    }

    /// Whether this is the interactive [`HUMAN`] agent.
    pub fn is_human(&self) -> bool {
        self.player == Player::Human
    }

    /// Whether this is an outside program (`ext_spec::NAME`).
    pub fn is_external(&self) -> bool {
        self.player == Player::External
    }

    /// The registry's kind of this agent; `None` for a person or an outside program.
    pub fn kind(&self) -> Option<AgentKind> {
        match self.player {
            Player::Agent(kind) => Some(kind),
            Player::Human | Player::External => None,
        }
    }

    /// A short name for tables and records: the agent's name and only the parameters
    /// that differ from what the name alone would mean (`mcts:iters=2000`, `ab`,
    /// `ab:depth=4,time=50ms`). It is itself a spec that parses back to this one, so two
    /// different specs never share a label. Built by dropping, key by key in order,
    /// each parameter whose absence still parses to the same spec (a declared default,
    /// or the default budget that [`registry::complete_params`] adds back).
    /// A rung of a ladder is labelled `L<k>=<label>`; an outside program given a
    /// `name` is labelled with that name.
    pub fn label(&self) -> String {
        if let Some(name) = self.params.get("name").filter(|_| self.is_external()) {
            return name.to_string();
        }
        if let Some(level) = self.level {
            let plain = AgentSpec {
                level: None,
                ..self.clone()
            };
            return format!("L{level}={}", plain.label());
        }
        let mut kept = self.params.clone();
        for key in self.params.names() {
            let mut trial = kept.clone();
            trial.remove(key);
            let same = AgentSpec::parse(&canonical(self.name(), &trial), true)
                .is_ok_and(|spec| spec == *self);
            if same {
                kept = trial;
            }
        }
        canonical(self.name(), &kept)
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical text (`L<k>=` before it for a rung of a ladder).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(level) = self.level {
            write!(f, "L{level}=")?;
        }
        f.write_str(&canonical(self.name(), &self.params))
    }
}

/// `name` alone when there are no parameters, else `name:k=v,...` in key order.
fn canonical(name: &str, params: &Params) -> String {
    if params.is_empty() {
        name.to_string()
    } else {
        format!("{name}:{}", params.canonical())
    }
}

/// Splits `text` into a name and `key=value` pairs, finds the name among `choices`
/// (name, declared parameters) and checks the pairs against its declarations. `what`
/// (`game`, `agent`) names the kind of spec in errors.
pub(crate) fn parse_with(
    text: &str,
    what: &str,
    choices: &[(&'static str, &'static [ParamSpec])],
) -> Result<(&'static str, Params), BadInput> {
    let trimmed = text.trim();
    let (name, rest) = match trimmed.split_once(':') {
        Some((name, rest)) => (name.trim(), Some(rest)),
        None => (trimmed, None),
    };
    let valid = || {
        choices
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    };
    if name.is_empty() {
        return Err(BadInput::new(format!(
            "empty {what} spec {text:?} (valid: {})",
            valid()
        )));
    }
    let &(name, specs) = choices
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| BadInput::new(format!("unknown {what} {name:?} (valid: {})", valid())))?;

    let mut pairs: Vec<(&str, &str)> = Vec::new();
    if let Some(rest) = rest {
        for item in rest.split(',') {
            let pair = item
                .split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .filter(|(k, v)| !k.is_empty() && !v.is_empty())
                .ok_or_else(|| {
                    BadInput::new(format!(
                        "{what} {text:?}: expected key=value, got {:?}",
                        item.trim()
                    ))
                })?;
            if let Some(c) = pair.1.chars().find(|c| c.is_control()) {
                return Err(BadInput::new(format!(
                    "{what} {text:?}: parameter {:?} holds the control character {c:?} \
                     (a value is shown in labels, tables and records, so it must be \
                     printable text)",
                    pair.0
                )));
            }
            if pairs.iter().any(|(k, _)| *k == pair.0) {
                return Err(BadInput::new(format!(
                    "{what} {text:?}: parameter {:?} given twice",
                    pair.0
                )));
            }
            pairs.push(pair);
        }
    }
    let params =
        Params::parse(specs, &pairs).map_err(|e| BadInput::new(format!("{what} {text:?}: {e}")))?;
    Ok((name, params))
}

#[cfg(test)]
mod tests {
    use agon_engine::ParamKind;

    use super::*;

    /// A parameter without help text.
    const fn param(name: &'static str, kind: ParamKind, default: &'static str) -> ParamSpec {
        ParamSpec {
            name,
            kind,
            default: Some(default),
            omitted_at_default: false,
            help: "",
        }
    }

    const BOARD: &[ParamSpec] = &[
        param("width", ParamKind::Int { min: 1, max: 16 }, "8"),
        param("pie", ParamKind::Bool, "true"),
    ];
    const CHOICES: &[(&str, &[ParamSpec])] = &[("board", BOARD), ("bare", &[])];

    fn parse(text: &str) -> Result<String, String> {
        parse_with(text, "game", CHOICES)
            .map(|(name, params)| canonical(name, &params))
            .map_err(|e| e.0)
    }

    #[test]
    fn canonical_form_fills_defaults_and_sorts_keys() {
        assert_eq!(parse("board").unwrap(), "board:pie=true,width=8");
        assert_eq!(
            parse(" board: width = 5 ,pie=false").unwrap(),
            "board:pie=false,width=5"
        );
        assert_eq!(parse("bare").unwrap(), "bare");
    }

    #[test]
    fn errors_name_the_problem_and_the_choices() {
        assert_eq!(
            parse("chess").unwrap_err(),
            "unknown game \"chess\" (valid: board, bare)"
        );
        assert_eq!(
            parse("").unwrap_err(),
            "empty game spec \"\" (valid: board, bare)"
        );
        assert_eq!(
            parse("board:w=5").unwrap_err(),
            "game \"board:w=5\": unknown parameter \"w\" (valid: width, pie)"
        );
        assert_eq!(
            parse("board:width=99").unwrap_err(),
            "game \"board:width=99\": width=99 is not valid: expected integer 1..16"
        );
        assert_eq!(
            parse("board:width").unwrap_err(),
            "game \"board:width\": expected key=value, got \"width\""
        );
        assert_eq!(
            parse("board:").unwrap_err(),
            "game \"board:\": expected key=value, got \"\""
        );
        assert_eq!(
            parse("board:width=5,width=6").unwrap_err(),
            "game \"board:width=5,width=6\": parameter \"width\" given twice"
        );
        assert_eq!(
            parse("bare:x=1").unwrap_err(),
            "game \"bare:x=1\": unknown parameter \"x\" (valid: none)"
        );
    }

    #[test]
    fn a_value_with_a_control_character_is_refused_naming_its_parameter() {
        for (text, c) in [
            ("ext:cmd=bot,name=a\nb", "'\\n'"),
            ("ext:cmd=bot,name=\u{1b}[31mred", "'\\u{1b}'"),
            ("ext:cmd=bot,name=a\tb", "'\\t'"),
        ] {
            assert_eq!(
                AgentSpec::parse(text, false).unwrap_err().0,
                format!(
                    "agent {text:?}: parameter \"name\" holds the control character {c} (a \
                     value is shown in labels, tables and records, so it must be printable \
                     text)"
                )
            );
        }
        let err = AgentSpec::parse("greedy:eval=w\r.toml", false)
            .unwrap_err()
            .0;
        assert!(
            err.contains("parameter \"eval\" holds the control character '\\r'"),
            "{err}"
        );
        // Spaces around a value are trimmed, as before; printable text of any script
        // is kept.
        let spec = AgentSpec::parse("ext:cmd=bot,name= Zoë ", false).unwrap();
        assert_eq!(spec.label(), "Zoë");
    }
}

#[cfg(test)]
mod label_tests {
    use super::*;

    fn label(text: &str) -> String {
        AgentSpec::parse(text, true).unwrap().label()
    }

    #[test]
    fn a_label_is_the_name_and_the_parameters_that_differ_from_its_defaults() {
        assert_eq!(label("ab"), "ab");
        assert_eq!(label("ab:depth=4"), "ab");
        assert_eq!(label("ab:depth=6,hash=16,threads=1"), "ab:depth=6");
        assert_eq!(label("ab:hash=64,time=50ms"), "ab:hash=64,time=50ms");
        assert_eq!(label("mcts:iters=2000"), "mcts:iters=2000");
        assert_eq!(label("random"), "random");
        assert_eq!(label("human"), "human");
    }

    #[test]
    fn a_label_keeps_a_budget_that_matches_the_default_beside_another_budget() {
        // `ab:time=50ms` searches to any depth within the time; with `depth=4` (the
        // default depth) it stops at depth 4 as well: a different agent, another label.
        let timed = label("ab:time=50ms");
        let both = label("ab:depth=4,time=50ms");
        assert_eq!(timed, "ab:time=50ms");
        assert_eq!(both, "ab:depth=4,time=50ms");
    }

    #[test]
    fn every_label_parses_back_to_its_spec() {
        for text in [
            "ab:depth=4,time=50ms",
            "mcts:iters=20000,c=1.4,threads=1",
            "star2:depth=1,playouts=64,plies=80",
            "solve:wdl=true,hash=1024",
            "expectimax",
            "greedy",
        ] {
            let spec = AgentSpec::parse(text, false).unwrap();
            assert_eq!(
                AgentSpec::parse(&spec.label(), false).unwrap(),
                spec,
                "{text}"
            );
        }
    }
}

#[cfg(test)]
mod external_tests {
    use super::*;

    #[test]
    fn an_outside_program_is_labelled_by_its_name_and_needs_its_cmd() {
        let spec = AgentSpec::parse("ext:cmd=/bin/sh,name=bot,timeout=2s", false).unwrap();
        assert!(spec.is_external());
        assert_eq!(spec.kind(), None);
        assert_eq!(spec.label(), "bot");
        assert_eq!(
            spec.to_string(),
            "ext:cmd=/bin/sh,name=bot,timeout=2s",
            "the canonical spec keeps every parameter"
        );
        let unnamed = AgentSpec::parse("ext:cmd=/bin/sh,timeout=10s", false).unwrap();
        assert_eq!(
            unnamed.label(),
            "ext:cmd=/bin/sh",
            "the default timeout is dropped"
        );
        assert_eq!(
            AgentSpec::parse("ext", false).unwrap_err(),
            ext_spec::missing_cmd()
        );
    }
}
