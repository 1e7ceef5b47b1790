//! The registry of games: which games the command line knows, and the generic dispatch
//! that monomorphises every command for each of them.
//!
//! A command is a [`GameCommand`]: one generic method `run::<G>`. [`dispatch`] builds the
//! game named by a [`GameSpec`] (checking what spans several parameters, such as a board
//! size, with the game's own `from_params`) and calls the command with it, so the search
//! inside runs with static dispatch, specialised for that game. Adding a game is one line
//! in the `register_games!` list at the bottom, `Game => Evaluator, PROFILE;`, and its
//! [`GameProfile`] in [`profiles`] (its ladder, default opening check and bench
//! searches): whether it has chance (and so which agents it gets, [`registry::build`]) is
//! the game's own declaration, `State::Chance`.

pub mod profiles;

use agon_engine::games::apv::{Apv, ApvEval};
use agon_engine::games::connect4::{Connect4, Connect4Eval};
use agon_engine::games::hexstrat::{Hexstrat, HexstratEval};
use agon_engine::games::invector::{Invector, InvectorEval};
use agon_engine::games::pig::{Pig, PigEval};
use agon_engine::games::romgon::{Romgon, RomgonEval};
use agon_engine::games::threewill::{ThreeWill, ThreeWillEval};
use agon_engine::network::NetEval;
use agon_engine::picture::Depict;
use agon_engine::{has_chance, DenseActions, Encode, Game, ParamSpec, State, Tunable};
use agon_search::registry::{self, BuildAgents};
use agon_search::Agent;

pub use profiles::{BenchCase, GameProfile, OpeningDefault};

use crate::bad_input::BadInput;
use crate::external::{ExtAgent, Venue};
use crate::ladder;
use crate::spec::{
    external_needs_venue, human_outside_play, parse_with, AgentSpec, GameSpec, Player,
};
use crate::{network_file, weights_file};

impl GameSpec {
    /// Parses a game spec against the registered games (here, beside their
    /// registry, so that the spec module needs no game).
    pub fn parse(text: &str) -> Result<GameSpec, BadInput> {
        let choices: Vec<_> = GAMES.iter().map(|g| (g.name, (g.params)())).collect();
        let (name, params) = parse_with(text, "game", &choices)?;
        Ok(GameSpec { name, params })
    }
}

impl AgentSpec {
    /// [`AgentSpec::parse`], with `level:k` resolved to rung k of `game`'s ladder
    /// ([`ladder::resolve`]; here, beside the registry that holds the ladders, so that the
    /// spec module needs no game).
    pub fn parse_for_game(
        text: &str,
        game: &GameSpec,
        allow_human: bool,
    ) -> Result<AgentSpec, BadInput> {
        match ladder::resolve(text, game.name, self::ladder(game.name))? {
            Some(resolved) => AgentSpec::parse(&resolved, false),
            None => AgentSpec::parse(text, allow_human),
        }
    }
}

/// The profile of the registered game called `name`, if there is one.
pub fn profile(name: &str) -> Option<&'static GameProfile> {
    GAMES.iter().find(|g| g.name == name).map(|g| g.profile)
}

/// The ladder of the game called `name`, weakest first (empty for a name no game has).
pub fn ladder(name: &str) -> &'static [&'static str] {
    profile(name).map_or(&[], |p| p.ladder)
}

/// A game the command line can run: two seats, zero-sum, with an evaluator, a way to
/// build agents for it, pictures of its positions and dense action ids (for the Python
/// bindings and OpenSpiel).
pub trait PlayableGame:
    Game<State: State<Chance: BuildAgents> + Depict + Encode> + DenseActions
{
    /// The game's heuristic evaluator, given to every searching agent: its declared
    /// weights, or those of the spec's `eval=FILE`.
    type Eval: Tunable<Self::State>;

    /// The evaluator an agent of `spec` scores with: the weights of its `eval=FILE`
    /// (`weights_file::load`), else the defaults. Fails on an unreadable file, an
    /// unknown weight or a value out of range.
    fn evaluator(spec: &AgentSpec) -> Result<Self::Eval, BadInput> {
        match spec.params.file("eval") {
            Some(path) => Ok(Self::Eval::with_weights(weights_file::load(path)?)),
            None => Ok(Self::Eval::default()),
        }
    }

    /// The fingerprint meta.csv records of what `spec` scores with: the
    /// `weights_file::digest` of its `eval=FILE`'s weights, or the
    /// `network_file::digest` of its `net=FILE`; `None` for an agent with neither.
    fn eval_digest(spec: &AgentSpec) -> Result<Option<String>, BadInput> {
        if let Some(path) = spec.params.file("net") {
            return Ok(Some(network_file::digest(&*network_file::load(path)?)));
        }
        spec.params
            .file("eval")
            .map(|_| Ok(weights_file::digest(Self::evaluator(spec)?.weights())))
            .transpose()
    }

    /// A fresh agent of the registry from its spec, for positions like `start` (any
    /// position of the game it will play, whose encoding a `net=FILE` must read). Fails
    /// if the agent cannot play this game (e.g. `solve` on a chance game) or its
    /// `eval=FILE` or `net=FILE` cannot be used. The human player is built by `agon
    /// play` itself, an outside program by [`PlayableGame::build_agent_in`].
    fn build_agent(
        spec: &AgentSpec,
        start: &Self::State,
    ) -> Result<Box<dyn Agent<Self::State>>, BadInput> {
        let built = match (spec.player, spec.params.file("net")) {
            (Player::Agent(kind), Some(path)) => {
                registry::build(kind, &spec.params, Self::network(spec, path, start)?)
            }
            (Player::Agent(kind), None) => {
                registry::build(kind, &spec.params, Self::evaluator(spec)?)
            }
            (Player::Human, _) => return Err(human_outside_play()),
            (Player::External, _) => return Err(external_needs_venue()),
        };
        built.map_err(|e| BadInput::new(e.to_string()))
    }

    /// The learned evaluator of `spec`'s `net=FILE` (`path`) for positions like
    /// `start`, over the game's linear evaluator with its default weights. Fails on an
    /// unreadable file, a network made for another encoding, or an `eval=FILE` beside
    /// it (the two would both choose the evaluator).
    fn network(
        spec: &AgentSpec,
        path: &str,
        start: &Self::State,
    ) -> Result<NetEval<Self::State, Self::Eval>, BadInput> {
        if spec.params.file("eval").is_some() {
            return Err(BadInput::new(format!(
                "agent {spec}: eval and net both choose the evaluator; give one"
            )));
        }
        NetEval::new(
            network_file::load(path)?,
            Self::Eval::default(),
            &start.encoding(),
        )
        .map_err(|e| BadInput::new(format!("network file {path:?}: {e}")))
    }

    /// A fresh agent from its spec to play in `venue`: an outside program
    /// (`ExtAgent`, told the venue's game), or [`PlayableGame::build_agent`]'s.
    fn build_agent_in(
        spec: &AgentSpec,
        venue: &Venue<'_>,
    ) -> Result<Box<dyn Agent<Self::State>>, BadInput> {
        let start = Self::from_params(&venue.game.params)
            .map_err(|e| BadInput::new(format!("game {:?}: {e}", venue.game.to_string())))?
            .initial_state();
        if !spec.is_external() {
            return Self::build_agent(spec, &start);
        }
        let agent = ExtAgent::new(spec, venue.game.to_string(), start, venue.log.clone())?;
        Ok(Box::new(agent))
    }

    /// [`PlayableGame::build_agent_in`], readied to play from `state`
    /// ([`Agent::prepare`]): an agent that cannot play this game (the optimal agent's
    /// table would be too large, an outside program is not there) is refused here,
    /// before any play.
    fn build_agent_for(
        spec: &AgentSpec,
        venue: &Venue<'_>,
        state: &Self::State,
    ) -> Result<Box<dyn Agent<Self::State>>, BadInput> {
        let mut agent = Self::build_agent_in(spec, venue)?;
        prepare(agent.as_mut(), state)?;
        Ok(agent)
    }
}

/// A command generic over the game; [`dispatch`] calls it with the game of a spec.
pub trait GameCommand {
    /// Runs the command on `game`, built from `spec`.
    fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> anyhow::Result<()>;
}

/// Readies `agent` to play from `state` ([`Agent::prepare`]); its refusal is bad input.
pub fn prepare<S: State>(agent: &mut dyn Agent<S>, state: &S) -> Result<(), BadInput> {
    agent
        .prepare(state)
        .map_err(|e| BadInput::new(e.to_string()))
}

/// What `agon games` lists and [`GameSpec::parse`] checks against.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The name typed in a spec.
    pub name: &'static str,
    /// One line describing the game.
    pub about: &'static str,
    /// The declared parameters with their defaults.
    pub params: fn() -> &'static [ParamSpec],
    /// Whether the game has chance events (dice, tile draws).
    pub has_chance: bool,
    /// Whether information is hidden from both players.
    pub has_hidden_information: bool,
    /// The game's ladder, default opening check and bench searches.
    pub profile: &'static GameProfile,
}

/// Declares the user-facing games: [`GAMES`], [`dispatch`] and each game's
/// [`PlayableGame`] implementation, from one `Game => Evaluator, PROFILE;` line per game.
macro_rules! register_games {
    ($($game:ty => $eval:ty, $profile:path;)+) => {
        /// Every game the command line knows, in listing order.
        pub const GAMES: &[GameInfo] = &[$(GameInfo {
            name: <$game as Game>::NAME,
            about: <$game as Game>::ABOUT,
            params: <$game as Game>::param_specs,
            has_chance: has_chance::<<$game as Game>::State>(),
            has_hidden_information: <$game as Game>::HAS_HIDDEN_INFORMATION,
            profile: &$profile,
        }),+];

        /// Builds the game of `spec` and runs `command` on it. The game's own check of
        /// its parameters (e.g. an illegal board size) is a [`BadInput`].
        pub fn dispatch<C: GameCommand>(spec: &GameSpec, command: C) -> anyhow::Result<()> {
            $(
                if spec.name == <$game as Game>::NAME {
                    let game = <$game as Game>::from_params(&spec.params)
                        .map_err(|e| BadInput::new(format!("game {:?}: {e}", spec.to_string())))?;
                    return command.run(game, spec);
                }
            )+
            // A GameSpec is only ever parsed against GAMES, so its name is one of these.
            unreachable!("game spec {spec} names no registered game")
        }

        $(impl PlayableGame for $game {
            type Eval = $eval;
        })+
    };
}

/// Whether `game`, as configured, has a pie rule: the engine's own answer,
/// [`Game::pie_swap_decision`], the one source of the rule.
pub fn offers_pie_swap<G: Game>(game: &G) -> bool {
    game.pie_swap_decision().is_some()
}

/// [`offers_pie_swap`] for the game of a spec.
pub fn offers_pie_rule(spec: &GameSpec) -> anyhow::Result<bool> {
    struct Probe<'a>(&'a mut bool);
    impl GameCommand for Probe<'_> {
        fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> anyhow::Result<()> {
            *self.0 = offers_pie_swap(&game);
            Ok(())
        }
    }
    let mut offered = false;
    dispatch(spec, Probe(&mut offered))?;
    Ok(offered)
}

register_games! {
    Invector => InvectorEval, profiles::INVECTOR;
    Connect4 => Connect4Eval, profiles::CONNECT4;
    Pig => PigEval, profiles::PIG;
    Apv => ApvEval, profiles::APV;
    Romgon => RomgonEval, profiles::ROMGON;
    ThreeWill => ThreeWillEval, profiles::THREEWILL;
    Hexstrat => HexstratEval, profiles::HEXSTRAT;
}

#[cfg(test)]
pub(crate) mod test_games {
    //! Coin Nim (the engine's chance test game) as a playable game, so that the generic
    //! commands are tested on chance nodes too; it is not a user-facing game.
    use agon_engine::testing::coin_nim::{CoinNim, CoinNimEval};

    use super::*;

    impl PlayableGame for CoinNim {
        type Eval = CoinNimEval;
    }

    #[test]
    fn every_game_profile_holds_only_its_own_game_and_benches_a_middle_game() {
        for info in GAMES {
            let cases = info.profile.bench;
            for case in cases {
                let spec = GameSpec::parse(case.game).unwrap();
                assert_eq!(spec.name, info.name, "{case:?}");
            }
            assert!(
                cases.iter().any(|c| c.moves.is_empty())
                    && cases.iter().any(|c| c.label.ends_with("midgame")),
                "{}: the bench searches the start and a middle game",
                info.name
            );
            assert!(!info.profile.ladder.is_empty(), "{}", info.name);
        }
        let midgame = |name: &str| profile(name).unwrap().bench[1].moves;
        assert_eq!(midgame("hexstrat"), agon_engine::games::hexstrat::MIDGAME);
        assert_eq!(ladder("pig"), profiles::PIG.ladder);
        assert!(profile("chess").is_none() && ladder("chess").is_empty());
    }

    #[test]
    fn the_pie_rule_is_seen_where_the_game_offers_it() {
        let offered = |text: &str| offers_pie_rule(&GameSpec::parse(text).unwrap()).unwrap();
        assert!(offered("invector"));
        assert!(!offered("invector:pie=false"));
        for game in ["connect4", "pig", "apv", "romgon", "threewill", "hexstrat"] {
            assert!(!offered(game), "{game}");
        }
    }
}
