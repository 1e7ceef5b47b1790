//! The soundness check of random openings: a random opening is kept only if a short
//! search from the position after its last move (the *checker*, an ordinary registry
//! agent) finds no forced result within its horizon and values the position within a
//! window around even. It removes openings that a random move already decided (a piece
//! shut in, a stone left to be taken) and keeps openings that are merely unusual, as the
//! balanced opening books of chess engine testing do.
//!
//! **The judgement.** The checker searches the position once and reports a [`Value`]
//! from the side to move's view. The opening is *sound* when the value is an estimate
//! (`Score` in evaluator units, or `Reward` in `-1..=1` for `mcts`) whose magnitude is at
//! most the window; a proven win, loss or draw fails (the game is decided within the
//! checker's horizon), and so does an estimate beyond the window (one side is already
//! far ahead).
//!
//! **A pure function of the position.** The checker is built fresh for every opening
//! (no table carries over from one opening to the next), and its random stream is
//! seeded from the position's hash ([`check_rng`]), so the same opening gets the same
//! judgement in a tournament, a study and an openings book, whichever thread plays it.
//!
//! **Defaults.** Each game's profile names its checker and window
//! ([`GameProfile::opening_check`](crate::games::GameProfile::opening_check)): `ab` at a
//! depth that takes milliseconds on the games without chance, the chance searches at a
//! depth of two or three on the others. A study checks its random openings by default;
//! a tournament only when asked (`--opening-check default` or a spec), because the
//! committed tournament results were played without the check.

use agon_engine::State;
use agon_search::{SearchContext, Value};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::bad_input::BadInput;
use crate::external::Venue;
use crate::games::{self, PlayableGame};
use crate::spec::{AgentSpec, GameSpec};

/// The word that turns the check off (`--opening-check none`).
pub const NONE: &str = "none";

/// The word that asks for the game's default checker (`--opening-check default`).
pub const DEFAULT: &str = "default";

/// Second key word of the checkers' random streams (apart from the run's streams in
/// [`crate::seeds`], whose second words are small counters).
const CHECK_STREAM: u64 = 0x6368_6563_6b00_0001;

/// A soundness check: the checker and the window its value must lie within.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningCheck {
    /// The agent that searches the position after the opening.
    pub checker: AgentSpec,
    /// The largest magnitude of the checker's value that still counts as balanced.
    pub window: f64,
}

/// What the check found at one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// The checker's value, from the side to move's view.
    pub value: Value,
    /// Whether the opening passes (see the module docs).
    pub sound: bool,
}

impl OpeningCheck {
    /// The check asked for by `--opening-check` (`asked`) and `--opening-window`
    /// (`window`) on `game`: `none` turns it off; `default` or nothing (when `on_by_default`)
    /// gives the game's default (its profile's); anything else is an agent spec for the
    /// game.
    /// A window given alone applies to the default checker. Fails on an agent that is not
    /// a registry search (a person, an outside program), on a window that is not a
    /// number at least 0, on a window given with the check off, and on an `mcts`
    /// checker without a window (its rewards lie in -1..1, not in evaluator units).
    pub fn from_args(
        game: &GameSpec,
        asked: Option<&str>,
        window: Option<f64>,
        on_by_default: bool,
    ) -> Result<Option<OpeningCheck>, BadInput> {
        if let Some(w) = window {
            if !(w.is_finite() && w >= 0.0) {
                return Err(BadInput::new(format!(
                    "--opening-window {w}: the window must be a number at least 0 (the \
                     largest checker value counted as balanced)"
                )));
            }
        }
        let asked = asked.map(str::trim);
        let default = || default_check(game.name);
        let default_with_window = || {
            let (spec, window) = default();
            (spec, Some(window))
        };
        let (checker, default_window) = match asked {
            Some(NONE) => {
                return match window {
                    Some(_) => Err(BadInput::new(
                        "--opening-window needs an opening check, and --opening-check is none",
                    )),
                    None => Ok(None),
                }
            }
            Some(DEFAULT) => default_with_window(),
            None if on_by_default || window.is_some() => default_with_window(),
            None => return Ok(None),
            Some(text) => {
                let spec = AgentSpec::parse_for_game(text, game, false)
                    .map_err(|e| BadInput::new(format!("--opening-check: {}", e.0)))?;
                if spec.is_external() {
                    return Err(BadInput::new(format!(
                        "--opening-check {text}: the checker must be one of Agon's agents, \
                         not an outside program (valid: {NONE}, {DEFAULT}, or a spec such \
                         as {})",
                        default().0
                    )));
                }
                let window = (spec.name() != "mcts").then(|| default().1);
                (spec, window)
            }
        };
        let window = window.or(default_window).ok_or_else(|| {
            BadInput::new(format!(
                "--opening-check {}: an mcts checker reports mean rewards in -1..1, not \
                 evaluator units; give the window with --opening-window (e.g. 0.5)",
                checker
            ))
        })?;
        Ok(Some(OpeningCheck { checker, window }))
    }

    /// Builds and readies the checker for `game` once, so that a spec the game cannot
    /// use fails before anything is written.
    pub fn ready<G: PlayableGame>(&self, game: &G, spec: &GameSpec) -> Result<(), BadInput> {
        let venue = Venue {
            game: spec,
            log: None,
        };
        G::build_agent_for(&self.checker, &venue, &game.initial_state())
            .map(drop)
            .map_err(|e| BadInput::new(format!("--opening-check {}: {}", self.checker, e.0)))
    }

    /// Judges the position `state` after an opening (a decision node): searches it with
    /// a fresh checker (see the module docs). Fails only if the checker cannot be built
    /// ([`OpeningCheck::ready`] tells that before play).
    pub fn judge<G: PlayableGame>(&self, state: &G::State) -> Result<Judged, BadInput> {
        let mut agent = G::build_agent(&self.checker, state)?;
        let mut rng = check_rng(state.hash());
        let value = agent
            .search(state, SearchContext::new(&mut rng, &mut |_| {}))
            .value;
        let sound = match value {
            Value::Score(v) | Value::Reward(v) => v.abs() <= self.window,
            Value::Win(_) | Value::Loss(_) | Value::Draw => false,
        };
        Ok(Judged { value, sound })
    }

    /// The check in words, as meta.csv and study.csv record it, the checker's spec in
    /// full: `ab:depth=4,hash=1,threads=1 within 300`.
    pub fn describe(&self) -> String {
        format!("{} within {}", self.checker, self.window)
    }
}

/// The default checker and window of the game named `name`, from its profile.
///
/// # Panics
/// If `name` is not a registered game or its default spec does not parse: both are
/// fixed in the game's profile, and a test parses every game's.
fn default_check(name: &str) -> (AgentSpec, f64) {
    let check = games::profile(name)
        .unwrap_or_else(|| panic!("no profile for the game {name}"))
        .opening_check;
    let spec = AgentSpec::parse(check.checker, false).expect("the default checkers parse");
    (spec, check.window)
}

/// The random stream of the checker at the position whose hash is `hash`.
pub fn check_rng(hash: u64) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(agon_engine::luck::chacha_key([hash, CHECK_STREAM, 0, 0]))
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::Connect4;
    use agon_engine::Game;

    use super::*;
    use crate::position::play_notated;

    fn spec(text: &str) -> GameSpec {
        GameSpec::parse(text).unwrap()
    }

    #[test]
    fn every_game_has_a_default_check_that_builds() {
        for info in crate::games::GAMES {
            let game = spec(info.name);
            let check = OpeningCheck::from_args(&game, None, None, true)
                .unwrap()
                .unwrap();
            let default = info.profile.opening_check;
            assert_eq!(check.window, default.window);
            assert_eq!(
                check.checker,
                AgentSpec::parse(default.checker, false).unwrap()
            );
            crate::games::dispatch(&game, Ready(&check)).unwrap();
        }
    }

    struct Ready<'a>(&'a OpeningCheck);

    impl crate::games::GameCommand for Ready<'_> {
        fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> anyhow::Result<()> {
            self.0.ready(&game, spec)?;
            Ok(())
        }
    }

    #[test]
    fn the_arguments_resolve_as_documented() {
        let c4 = spec("connect4");
        let off = OpeningCheck::from_args(&c4, None, None, false).unwrap();
        assert_eq!(off, None);
        let on = OpeningCheck::from_args(&c4, None, None, true)
            .unwrap()
            .unwrap();
        assert_eq!(on.describe(), "ab:depth=8,hash=1,threads=1 within 60");
        let asked = OpeningCheck::from_args(&c4, Some("default"), Some(12.5), false)
            .unwrap()
            .unwrap();
        assert_eq!(asked.describe(), "ab:depth=8,hash=1,threads=1 within 12.5");
        // A window alone turns the default checker on.
        let window = OpeningCheck::from_args(&c4, None, Some(7.0), false).unwrap();
        assert_eq!(
            window.unwrap().describe(),
            "ab:depth=8,hash=1,threads=1 within 7"
        );
        let other = OpeningCheck::from_args(&c4, Some("ab:depth=2"), None, true)
            .unwrap()
            .unwrap();
        assert_eq!(other.describe(), "ab:depth=2,hash=16,threads=1 within 60");
        assert_eq!(
            OpeningCheck::from_args(&c4, Some("none"), None, true).unwrap(),
            None
        );
        let errors = [
            (Some("none"), Some(3.0), "--opening-window needs an opening check, and --opening-check is none"),
            (Some("mcts:iters=100"), None, "--opening-check mcts:c=1.4,iters=100,parallel=tree,reuse=true,rollout=random,solver=true,threads=1: an mcts checker reports mean rewards in -1..1, not evaluator units; give the window with --opening-window (e.g. 0.5)"),
            (None, Some(-1.0), "--opening-window -1: the window must be a number at least 0 (the largest checker value counted as balanced)"),
            (Some("ext:cmd=/bin/true"), None, "--opening-check ext:cmd=/bin/true: the checker must be one of Agon's agents, not an outside program (valid: none, default, or a spec such as ab:depth=8,hash=1,threads=1)"),
        ];
        for (asked, window, message) in errors {
            let err = OpeningCheck::from_args(&c4, asked, window, true).unwrap_err();
            assert_eq!(err.0, message);
        }
        let unknown = OpeningCheck::from_args(&c4, Some("deep"), None, true).unwrap_err();
        assert!(unknown.0.starts_with("--opening-check: "), "{}", unknown.0);
    }

    #[test]
    fn a_decided_opening_fails_and_a_quiet_one_passes() {
        // Connect Four after a b a b a b: the side to move (first player) wins at once
        // with a; after d d the position is quiet.
        let check = OpeningCheck::from_args(&spec("connect4"), None, None, true)
            .unwrap()
            .unwrap();
        let mut won = Connect4.initial_state();
        for m in ["a", "b", "a", "b", "a", "b"] {
            play_notated(&mut won, m, "test").unwrap();
        }
        let judged = check.judge::<Connect4>(&won).unwrap();
        assert_eq!(judged.value, Value::Win(1));
        assert!(!judged.sound);
        let mut quiet = Connect4.initial_state();
        for m in ["d", "d"] {
            play_notated(&mut quiet, m, "test").unwrap();
        }
        let judged = check.judge::<Connect4>(&quiet).unwrap();
        let Value::Score(v) = judged.value else {
            panic!("{:?}", judged.value)
        };
        assert!(v.abs() <= 60.0 && judged.sound, "{v}");
        // The same position judged again gives the same value (a fresh checker).
        assert_eq!(check.judge::<Connect4>(&quiet).unwrap(), judged);
        // A window of 0 keeps only a position valued exactly even.
        let strict = OpeningCheck {
            window: 0.0,
            ..check
        };
        assert_eq!(strict.judge::<Connect4>(&quiet).unwrap().sound, v == 0.0);
    }
}
