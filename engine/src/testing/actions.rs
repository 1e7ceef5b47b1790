//! The contract of [`DenseActions`], checked along seeded random playouts.

use std::collections::HashMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::actions::{move_with_id, DenseActions};
use crate::game::{sample_outcome, Move, State, Turn};

/// What a passing [`check_action_ids`] saw, so that a test can check it checked
/// something.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionReport {
    /// Distinct decision ids met.
    pub decisions_seen: usize,
    /// Distinct chance outcome ids met.
    pub chance_outcomes_seen: usize,
    /// The longest playout, in plies.
    pub longest: u32,
    /// The most decisions made in one playout.
    pub most_decisions: u32,
}

/// Plays `playouts` seeded random games and checks [`DenseActions`] at every node:
/// - every legal decision's id is below `decisions`, every chance outcome's below
///   `chance_outcomes`;
/// - an id means one move and a move has one id over the whole run, per space (so ids
///   depend on the move alone, and legal moves never share one);
/// - [`move_with_id`] finds each listed move from its id;
/// - every game ends within `max_game_length` plies, with at most `max_decisions`
///   decisions (a bound no larger than the first).
///
/// Returns the first broken property with the moves that led to it.
pub fn check_action_ids<G: DenseActions>(
    game: &G,
    playouts: u32,
    seed: u64,
) -> Result<ActionReport, String> {
    let space = game.action_space();
    if space.max_decisions > space.max_game_length {
        return Err(format!(
            "max_decisions {} is above max_game_length {}",
            space.max_decisions, space.max_game_length
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Per space (0 decisions, 1 chance): id -> move code, and move code -> id.
    let mut by_id: [HashMap<u32, u32>; 2] = [HashMap::new(), HashMap::new()];
    let mut by_code: [HashMap<u32, u32>; 2] = [HashMap::new(), HashMap::new()];
    let mut report = ActionReport::default();
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    for _ in 0..playouts {
        let mut state = game.initial_state();
        let mut line: Vec<String> = Vec::new();
        let mut decisions = 0;
        loop {
            let (kind, limit, listed): (usize, u32, Vec<_>) = match state.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    outcomes.clear();
                    state.chance_outcomes(&mut outcomes);
                    (
                        1,
                        space.chance_outcomes,
                        outcomes.iter().map(|&(m, _)| m).collect(),
                    )
                }
                Turn::Seat(_) => {
                    moves.clear();
                    state.legal_moves(&mut moves);
                    (0, space.decisions, moves.clone())
                }
            };
            let space_name = ["decision", "chance outcome"][kind];
            for &m in &listed {
                let at = || format!("after `{}`: {space_name} {m:?}", line.join(" "));
                let id = game.action_id(m);
                if id >= limit {
                    return Err(format!("{}: id {id} is not below {limit}", at()));
                }
                let code = m.pack();
                if let Some(&other) = by_id[kind].get(&id).filter(|&&c| c != code) {
                    return Err(format!(
                        "{}: id {id} was already given to {:?}",
                        at(),
                        <<G::State as State>::Move as Move>::unpack(other)
                    ));
                }
                if let Some(&other) = by_code[kind].get(&code).filter(|&&i| i != id) {
                    return Err(format!("{}: id {id}, but elsewhere {other}", at()));
                }
                by_id[kind].insert(id, code);
                by_code[kind].insert(code, id);
                if move_with_id(game, &state, id) != Some(m) {
                    return Err(format!("{}: move_with_id({id}) does not find it", at()));
                }
            }
            let m = match state.turn() {
                Turn::Chance => sample_outcome(&state, &mut rng),
                _ => {
                    decisions += 1;
                    listed[rng.random_range(0..listed.len())]
                }
            };
            line.push(state.format_move(m));
            state.apply(m);
            if state.ply() > space.max_game_length {
                return Err(format!(
                    "after `{}`: the game goes on past max_game_length {}",
                    line.join(" "),
                    space.max_game_length
                ));
            }
            if decisions > space.max_decisions {
                return Err(format!(
                    "after `{}`: the game has more decisions than max_decisions {}",
                    line.join(" "),
                    space.max_decisions
                ));
            }
        }
        report.longest = report.longest.max(state.ply());
        report.most_decisions = report.most_decisions.max(decisions);
    }
    report.decisions_seen = by_id[0].len();
    report.chance_outcomes_seen = by_id[1].len();
    Ok(report)
}

/// Plays `line` from `state`, each move with the dense id it should have: parsed,
/// numbered, found again by [`move_with_id`], then applied. Panics at the first move that
/// does not parse or has another id, naming it (for tests that pin a game's ids).
pub fn play_with_ids<G: DenseActions>(game: &G, state: &mut G::State, line: &[(&str, u32)]) {
    for &(text, id) in line {
        let m = state
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.action_id(m), id, "the id of {text}");
        assert_eq!(
            move_with_id(game, state, id),
            Some(m),
            "the move of id {id}"
        );
        state.apply(m);
    }
}
