//! The games behind one object type each: [`DynGame`], [`DynState`] and [`DynAgent`]
//! erase the game type once, at the Python boundary, so that Python sees one `Game`,
//! one `State` and one `Agent` class for every game while the rules and searches inside
//! stay monomorphised (one virtual call per Python call, never per node).

use std::any::Any;
use std::sync::Arc;

use agon_cli::games::{dispatch, GameCommand, PlayableGame};
use agon_cli::spec::{AgentSpec, GameSpec};
use agon_cli::{agent_rng, BadInput, Venue};
use agon_engine::picture::Depict;
use agon_engine::{
    move_with_id, ActionSpace, Encode, Encoding, End, FastPlayout, Game, Seat, State, Turn,
};
use agon_search::{Agent, AgentRng, SearchContext, SearchInfo, SearchResult};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A configured game: builds states and agents.
pub trait DynGame: Send + Sync {
    /// The game's canonical spec.
    fn spec(&self) -> &GameSpec;
    /// Its dense id spaces and length bound.
    fn space(&self) -> ActionSpace;
    /// The position before the first move.
    fn new_state(&self) -> Box<dyn DynState>;
    /// An agent of `spec` for this game, its random stream seeded by `seed` as
    /// `agon analyse --seed` seeds it, readied to play from the initial state.
    fn new_agent(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn DynAgent>, BadInput>;
    /// What a network sees of the game's positions (the same at every state).
    fn encoding(&self) -> Encoding;
}

/// One position, with the moves that led to it (so that it can be undone and told).
pub trait DynState: Send {
    /// The canonical spec of the state's game.
    fn game_spec(&self) -> String;
    /// A copy, history included.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// The concrete state, for an agent of the same game.
    fn as_any(&self) -> &dyn Any;
    /// Who acts now.
    fn turn(&self) -> Turn;
    /// How the game ended, once it has.
    fn end(&self) -> Option<End>;
    /// The legal decisions in notation, in the game's order (empty unless a seat acts).
    fn legal_moves(&self) -> Vec<String>;
    /// The dense ids of the legal decisions, or of the chance outcomes at a chance node,
    /// sorted.
    fn legal_actions(&self) -> Vec<u32>;
    /// The pending chance event's outcomes: notation, dense id and integer weight.
    fn chance_outcomes(&self) -> Vec<(String, u32, u32)>;
    /// The pending chance event's outcomes as dense id and integer weight, sorted by id
    /// (without the notation: the fast way for callers that number moves).
    fn chance_weights(&self) -> Vec<(u32, u32)>;
    /// Plays a move in notation, checked.
    fn apply_text(&mut self, text: &str) -> Result<(), String>;
    /// Plays the legal move or outcome with this dense id; else says why not ([`no_id`]).
    fn apply_action(&mut self, id: u32) -> Result<(), String>;
    /// Why the integer `id` (as the caller wrote it, in or out of any id range) names no
    /// legal move or outcome here, with the ids that do ([`no_id`]).
    fn no_id(&self, id: &str) -> String;
    /// Takes back the last move; `false` at the initial state.
    fn undo(&mut self) -> bool;
    /// The notation of the move or outcome with this id here.
    fn action_to_move(&self, id: u32) -> Result<String, String>;
    /// The dense id of a legal move or outcome written in notation.
    fn move_to_action(&self, text: &str) -> Result<u32, String>;
    /// The moves from the start, in notation.
    fn history(&self) -> Vec<String>;
    /// The moves from ply `start` on as OpenSpiel records them: who played each (a seat,
    /// or -1 for chance, OpenSpiel's number) and its dense id.
    fn id_history(&self, start: usize) -> Vec<(i64, u32)>;
    /// Whether `other` is a state of the same game, parameters included, reached by the
    /// same moves from the start.
    fn same_line(&self, other: &dyn DynState) -> bool;
    /// The position's Zobrist key.
    fn hash(&self) -> u64;
    /// The board as text (the game's `Display`: its picture as text, with the legend).
    fn board(&self) -> String;
    /// Plies played from the start (the moves of [`DynState::history`]).
    fn ply(&self) -> u32;
    /// The side `seat` plays now.
    fn side(&self, seat: usize) -> &'static str;
    /// The position as a text picture (with the legend) and as an SVG document.
    fn pictures(&self) -> (String, String);
    /// The position's picture as data (what every renderer draws).
    fn picture_data(&self) -> agon_engine::picture::Picture;
    /// Plays uniformly random decisions and chance outcomes drawn by their weights to
    /// the end, from a ChaCha8 stream seeded by `seed`; returns the plies played.
    fn play_random(&mut self, seed: u64) -> u32;
    /// The game's encoding (the same at every state of the game).
    fn encoding(&self) -> Encoding;
    /// Appends the position's active binary features and its scalars as `view` sees it
    /// ([`Encode::features`], [`Encode::scalars`]), at any state, chance and terminal
    /// included.
    fn encode(&self, view: Seat, features: &mut Vec<u32>, scalars: &mut Vec<i32>);
}

/// An agent of one game.
pub trait DynAgent: Send {
    /// Searches `state` (a position of the agent's game, at a decision) and returns what
    /// it found, with every completed iteration.
    fn choose(&mut self, state: &dyn DynState) -> Result<Choice, String>;
}

/// One iteration or the final result of a search, with moves in notation.
#[derive(Clone, Debug)]
pub struct Line {
    /// Depth completed.
    pub depth: u32,
    /// The value, as `agon analyse` prints it.
    pub value: String,
    /// The value as a number from the mover's view: a score, a mean reward, or ±1 / 0
    /// for a proven result.
    pub number: f64,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds since the search started.
    pub seconds: f64,
    /// The principal variation.
    pub pv: Vec<String>,
}

/// What [`DynAgent::choose`] found.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The chosen move in notation.
    pub best: String,
    /// Its dense id.
    pub action: u32,
    /// The search's final line.
    pub result: Line,
    /// Each completed iteration, in order.
    pub iterations: Vec<Line>,
}

/// Builds the game of `spec`.
pub fn load(spec: &GameSpec) -> anyhow::Result<Arc<dyn DynGame>> {
    struct Load<'a>(&'a mut Option<Arc<dyn DynGame>>);
    impl GameCommand for Load<'_> {
        fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> anyhow::Result<()> {
            *self.0 = Some(Arc::new(Configured {
                game: Arc::new(game),
                spec: spec.clone(),
                spec_text: Arc::new(spec.to_string()),
            }));
            Ok(())
        }
    }
    let mut loaded = None;
    dispatch(spec, Load(&mut loaded))?;
    Ok(loaded.expect("dispatch runs the command"))
}

struct Configured<G> {
    game: Arc<G>,
    spec: GameSpec,
    /// `spec` as text, shared by every state (written once, not once a state).
    spec_text: Arc<String>,
}

impl<G: PlayableGame> DynGame for Configured<G> {
    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn space(&self) -> ActionSpace {
        self.game.action_space()
    }

    fn new_state(&self) -> Box<dyn DynState> {
        Box::new(Position {
            game: Arc::clone(&self.game),
            spec: Arc::clone(&self.spec_text),
            state: self.game.initial_state(),
            path: Vec::new(),
        })
    }

    fn new_agent(&self, spec: &AgentSpec, seed: u64) -> Result<Box<dyn DynAgent>, BadInput> {
        let venue = Venue {
            game: &self.spec,
            log: None,
        };
        let agent = G::build_agent_for(spec, &venue, &self.game.initial_state())?;
        Ok(Box::new(Player::<G> {
            game: Arc::clone(&self.game),
            agent,
            rng: agent_rng(seed, 0, 0),
        }))
    }

    fn encoding(&self) -> Encoding {
        self.game.initial_state().encoding()
    }
}

/// A state of game `G` with its path (each move and what undoes it).
struct Position<G: Game> {
    game: Arc<G>,
    spec: Arc<String>,
    state: G::State,
    path: Vec<(Mv<G>, <G::State as State>::Undo)>,
}

/// `current_player()` at a chance node (OpenSpiel's number for it), here because a
/// state's history of ids names the chance player too.
pub const CHANCE: i64 = -1;
/// `current_player()` once the game is over (OpenSpiel's number for it).
pub const TERMINAL: i64 = -4;

type Mv<G> = <<G as Game>::State as State>::Move;

impl<G: PlayableGame> Position<G> {
    fn play(&mut self, m: Mv<G>) {
        let undo = self.state.apply(m);
        self.path.push((m, undo));
    }

    fn listed(&self) -> Vec<Mv<G>> {
        match self.state.turn() {
            Turn::Over => Vec::new(),
            Turn::Chance => {
                let mut outcomes = Vec::new();
                self.state.chance_outcomes(&mut outcomes);
                outcomes.into_iter().map(|(m, _)| m).collect()
            }
            Turn::Seat(_) => {
                let mut moves = Vec::new();
                self.state.legal_moves(&mut moves);
                moves
            }
        }
    }
}

/// Why the integer `id` (as the caller wrote it) names no legal move at a node where
/// `turn` acts and `legal` are the ids that do: one line, listing them.
pub fn no_id(turn: Turn, id: &str, legal: &[u32]) -> String {
    let valid = legal
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    match turn {
        Turn::Over => format!("{id} is not the id of a legal move: the game is over"),
        Turn::Chance => {
            format!("{id} is not the id of an outcome of this chance event (valid: {valid})")
        }
        Turn::Seat(_) => format!("{id} is not the id of a legal move here (valid: {valid})"),
    }
}

impl<G: PlayableGame> DynState for Position<G> {
    fn game_spec(&self) -> String {
        self.spec.to_string()
    }

    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(Position {
            game: Arc::clone(&self.game),
            spec: Arc::clone(&self.spec),
            state: self.state.clone(),
            path: self.path.clone(),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn turn(&self) -> Turn {
        self.state.turn()
    }

    fn end(&self) -> Option<End> {
        self.state.end()
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.state.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|m| self.state.format_move(m))
            .collect()
    }

    fn legal_actions(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self
            .listed()
            .into_iter()
            .map(|m| self.game.action_id(m))
            .collect();
        ids.sort_unstable();
        ids
    }

    fn chance_outcomes(&self) -> Vec<(String, u32, u32)> {
        let mut outcomes = Vec::new();
        self.state.chance_outcomes(&mut outcomes);
        outcomes
            .into_iter()
            .map(|(m, w)| (self.state.format_move(m), self.game.action_id(m), w))
            .collect()
    }

    fn chance_weights(&self) -> Vec<(u32, u32)> {
        let mut outcomes = Vec::new();
        self.state.chance_outcomes(&mut outcomes);
        let mut weights: Vec<(u32, u32)> = outcomes
            .into_iter()
            .map(|(m, w)| (self.game.action_id(m), w))
            .collect();
        weights.sort_unstable_by_key(|&(id, _)| id);
        weights
    }

    fn apply_text(&mut self, text: &str) -> Result<(), String> {
        let m = self.state.parse_move(text).map_err(|e| e.to_string())?;
        let undo = self.state.try_apply(m).map_err(|e| e.to_string())?;
        self.path.push((m, undo));
        Ok(())
    }

    fn apply_action(&mut self, id: u32) -> Result<(), String> {
        let m = move_with_id(&*self.game, &self.state, id)
            .ok_or_else(|| self.no_id(&id.to_string()))?;
        self.play(m);
        Ok(())
    }

    fn no_id(&self, id: &str) -> String {
        no_id(self.state.turn(), id, &self.legal_actions())
    }

    fn undo(&mut self) -> bool {
        match self.path.pop() {
            Some((_, undo)) => {
                self.state.undo(undo);
                true
            }
            None => false,
        }
    }

    fn action_to_move(&self, id: u32) -> Result<String, String> {
        let m = move_with_id(&*self.game, &self.state, id)
            .ok_or_else(|| self.no_id(&id.to_string()))?;
        Ok(self.state.format_move(m))
    }

    fn move_to_action(&self, text: &str) -> Result<u32, String> {
        let m = self.state.parse_move(text).map_err(|e| e.to_string())?;
        Ok(self.game.action_id(m))
    }

    fn history(&self) -> Vec<String> {
        // Each move is told in the position it was played from, as the game's notation
        // is defined.
        let mut state = self.game.initial_state();
        self.path
            .iter()
            .map(|&(m, _)| {
                let text = state.format_move(m);
                state.apply(m);
                text
            })
            .collect()
    }

    fn id_history(&self, start: usize) -> Vec<(i64, u32)> {
        let mut state = self.game.initial_state();
        let mut told = Vec::with_capacity(self.path.len().saturating_sub(start));
        for (k, &(m, _)) in self.path.iter().enumerate() {
            if k >= start {
                let player = match state.turn() {
                    Turn::Seat(s) => s as i64,
                    _ => CHANCE,
                };
                told.push((player, self.game.action_id(m)));
            }
            state.apply(m);
        }
        told
    }

    fn same_line(&self, other: &dyn DynState) -> bool {
        other
            .as_any()
            .downcast_ref::<Position<G>>()
            .is_some_and(|other| {
                self.spec == other.spec
                    && self.path.len() == other.path.len()
                    && self.path.iter().zip(&other.path).all(|(a, b)| a.0 == b.0)
            })
    }

    fn hash(&self) -> u64 {
        self.state.hash()
    }

    fn board(&self) -> String {
        self.state.to_string()
    }

    fn ply(&self) -> u32 {
        self.path.len() as u32
    }

    fn side(&self, seat: usize) -> &'static str {
        self.state.side(seat)
    }

    fn pictures(&self) -> (String, String) {
        let picture = self.state.picture();
        let changed = match self.path.last() {
            Some((_, undo)) => {
                let mut before = self.state.clone();
                before.undo(undo.clone());
                agon_cli::picture::svg::changed_cells(&before.picture(), &picture)
            }
            None => Vec::new(),
        };
        let text = format!(
            "{}{}",
            agon_engine::picture::text::draw(&picture, &changed),
            agon_engine::picture::text::legend(&picture)
        );
        (text, agon_cli::picture::svg::document(&picture, &changed))
    }

    fn picture_data(&self) -> agon_engine::picture::Picture {
        self.state.picture()
    }

    fn play_random(&mut self, seed: u64) -> u32 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut moves = Vec::new();
        let mut outcomes = Vec::new();
        let start = self.path.len();
        loop {
            let m = match self.state.turn() {
                Turn::Over => break,
                Turn::Chance => self
                    .state
                    .outcome_for_draw(|total| rng.random_range(0..total), &mut outcomes),
                Turn::Seat(_) => self
                    .state
                    .move_for_draw(|n| rng.random_range(0..n), &mut moves),
            };
            self.play(m);
        }
        (self.path.len() - start) as u32
    }

    fn encoding(&self) -> Encoding {
        self.state.encoding()
    }

    fn encode(&self, view: Seat, features: &mut Vec<u32>, scalars: &mut Vec<i32>) {
        self.state.features(view, features);
        self.state.scalars(view, scalars);
    }
}

/// An agent of game `G` with its own random stream.
struct Player<G: Game> {
    game: Arc<G>,
    agent: Box<dyn Agent<G::State>>,
    rng: AgentRng,
}

impl<G: PlayableGame> DynAgent for Player<G> {
    fn choose(&mut self, state: &dyn DynState) -> Result<Choice, String> {
        let position = state
            .as_any()
            .downcast_ref::<Position<G>>()
            .ok_or_else(|| format!("the state is not a position of {}", G::NAME))?;
        let state = &position.state;
        match state.turn() {
            Turn::Seat(_) => {}
            Turn::Chance => return Err("an agent chooses decisions, not chance outcomes".into()),
            Turn::Over => return Err("the game is over".into()),
        }
        let history = position.history();
        let mut iterations = Vec::new();
        let result = self.agent.search(
            state,
            SearchContext::new(&mut self.rng, &mut |info: &SearchInfo<Mv<G>>| {
                iterations.push(told(
                    state, info.depth, info.value, info.nodes, info.time, &info.pv,
                ));
            })
            .with_line(&history),
        );
        let SearchResult {
            best,
            value,
            depth,
            nodes,
            time,
            ref pv,
            ..
        } = result;
        let best = best.ok_or("the agent chose no move")?;
        Ok(Choice {
            best: state.format_move(best),
            action: self.game.action_id(best),
            result: told(state, depth, value, nodes, time, pv),
            iterations,
        })
    }
}

/// A search line with its moves told along the line from `state` (up to the first
/// that is not legal, as `agon analyse` tells it).
fn told<S: State>(
    state: &S,
    depth: u32,
    value: agon_search::Value,
    nodes: u64,
    time: std::time::Duration,
    pv: &[S::Move],
) -> Line {
    Line {
        depth,
        value: value.to_string(),
        number: number(value),
        nodes,
        seconds: time.as_secs_f64(),
        pv: agon_cli::notate_line(state, pv),
    }
}

/// A search value as one number from the mover's view.
fn number(value: agon_search::Value) -> f64 {
    use agon_search::Value;
    match value {
        Value::Score(v) | Value::Reward(v) => v,
        Value::Win(_) => 1.0,
        Value::Loss(_) => -1.0,
        Value::Draw => 0.0,
    }
}
