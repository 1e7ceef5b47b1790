//! Playouts: playing a game forward by a fixed policy, with chance outcomes drawn by
//! their weights. MCTS values its new leaves this way, and the chance searches can
//! value their horizon leaves this way (`playouts=N`).
//!
//! The two policies are uniformly random decisions and greedy ones: each decision the
//! move after which the evaluator scores the position best for the mover, equal scores
//! broken at random. Greedy playouts follow a sensible base policy, the one that
//! rollout search improves on (Tesauro and Galperin, "On-line policy improvement using
//! Monte-Carlo search", 1996).
//!
//! What makes a random playout fast: a ply is one draw and one `apply`. The playout
//! makes each draw itself (one uniform draw below the number of moves or the total
//! weight, the same draws whatever the game) and asks the game which decision or
//! outcome it selects
//! ([`FastPlayout::move_for_draw`](agon_engine::FastPlayout::move_for_draw),
//! [`FastPlayout::outcome_for_draw`](agon_engine::FastPlayout::outcome_for_draw)), so a
//! game that answers in closed form (Pig's die, 3Will's dice and throws, Hexstrat's
//! bag) lists, sums and walks nothing at that ply, while the random stream, and with
//! it every result, stays exactly that of listing and picking. Draws from the playout's
//! own generator below a power of two (a coin flip, a forced move) spend its words a
//! few bits at a time ([`Frugal`]), and chance outcomes 16 bits at a time, so one word
//! serves many plies (a separate generator of chance draws, for common random numbers,
//! is drawn from as its users document).
//! A random playout that keeps no undo tokens plays on a local copy of the position,
//! which the compiler can keep in registers (through `&mut` it stores every counter
//! back at each ply); the undo token is only built when the caller keeps it, so a game
//! whose `apply` inlines need not copy its state at every ply. What remains per ply is
//! the game's own `turn` and `apply`, and the branch a random choice makes
//! unpredictable; a game can remove that too by playing stretches of the playout in a
//! loop of its own
//! ([`FastPlayout::fast_random_plies`](agon_engine::FastPlayout::fast_random_plies),
//! Pig's decision and die at once), which this loop hands every ply it can.

use std::time::{Duration, Instant};

use agon_engine::{Evaluator, Seat, State, Turn};
use rand::Rng;

use crate::agent::AgentRng;
use crate::draws::Frugal;

/// The reused buffers of one thread's playouts.
#[derive(Clone, Debug)]
pub(crate) struct Scratch<M> {
    moves: Vec<M>,
    outcomes: Vec<(M, u32)>,
}

impl<M> Scratch<M> {
    /// Empty buffers (they grow to the game's largest move list once).
    pub(crate) fn new() -> Self {
        Scratch {
            moves: Vec::new(),
            outcomes: Vec::new(),
        }
    }
}

/// How a playout chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Policy {
    /// Greedy decisions, or uniformly random ones.
    pub greedy: bool,
    /// Plies after which the playout stops (`None`: the end of the game).
    pub plies: Option<u32>,
}

/// Plays `state` forward as `policy` says until the game ends or the policy's plies
/// were played. `state` is left where the playout stopped: finished, or exactly that
/// many plies on. Decisions' random choices (random moves, greedy tie-breaks) come from
/// `rng`; chance outcomes, drawn by their integer weights with one uniform draw below
/// the total weight each, come from `dice` if given, else from `rng` too. Random moves,
/// and chance outcomes drawn from `rng`, take the bits of a fresh [`Frugal`] over it, so
/// a playout is a function of the generators' states alone; a chance outcome drawn from
/// `dice` is one `random_range(0..total weight)`, so that playouts from different
/// positions given generators in the same state read the same `k`-th chance draw
/// whatever the decisions in between (common random numbers), as the chance searches'
/// playout horizon documents. With `undos`, each ply's undo token is pushed there, so
/// the caller can take the playout back without copying the state.
pub(crate) fn play_out<S: State, E: Evaluator<S>>(
    state: &mut S,
    eval: &E,
    policy: Policy,
    rng: &mut AgentRng,
    mut dice: Option<&mut AgentRng>,
    scratch: &mut Scratch<S::Move>,
    mut undos: Option<&mut Vec<S::Undo>>,
) {
    let mut left = policy.plies.unwrap_or(u32::MAX);
    let mut decisions = Frugal::new();
    if !policy.greedy && undos.is_none() && dice.is_none() {
        let mut local = state.clone();
        random_plies(&mut local, left, rng, &mut decisions, scratch);
        *state = local;
        return;
    }
    while left > 0 {
        let m = match state.turn() {
            Turn::Over => return,
            Turn::Seat(mover) => {
                if policy.greedy {
                    scratch.moves.clear();
                    state.legal_moves(&mut scratch.moves);
                    greedy_move(state, eval, mover, rng, &scratch.moves)
                } else {
                    random_decision(state, rng, &mut decisions, scratch)
                }
            }
            Turn::Chance => match dice.as_deref_mut() {
                Some(dice) => {
                    let draw = |total| dice.random_range(0..total);
                    state.outcome_for_draw(draw, &mut scratch.outcomes)
                }
                None => random_outcome(state, rng, &mut decisions, scratch),
            },
        };
        // Two calls, so that without `undos` the token is visibly unused and a game
        // whose `apply` inlines need not build it.
        match undos.as_deref_mut() {
            Some(undos) => undos.push(state.apply(m)),
            None => {
                state.apply(m);
            }
        }
        left -= 1;
    }
}

/// [`play_out`]'s commonest case, a uniformly random playout with no undo tokens and
/// one generator: the same plies and draws as its general loop, in a loop of their
/// own, which the compiler keeps tight when `state` is a local copy. Always inlined
/// into its one caller, where that copy lives.
#[inline(always)]
fn random_plies<S: State>(
    state: &mut S,
    mut left: u32,
    rng: &mut AgentRng,
    decisions: &mut Frugal,
    scratch: &mut Scratch<S::Move>,
) {
    while left > 0 {
        left -= state.fast_random_plies(left, |n| decisions.below_from_bits(rng, n));
        if left == 0 {
            return;
        }
        let m = match state.turn() {
            Turn::Over => return,
            Turn::Seat(_) => random_decision(state, rng, decisions, scratch),
            Turn::Chance => random_outcome(state, rng, decisions, scratch),
        };
        state.apply(m);
        left -= 1;
    }
}

/// A uniformly random decision at `state` (a seat to move), drawn by `decisions` over
/// `rng`.
#[inline(always)]
fn random_decision<S: State>(
    state: &S,
    rng: &mut AgentRng,
    decisions: &mut Frugal,
    scratch: &mut Scratch<S::Move>,
) -> S::Move {
    let draw = |n| decisions.below(rng, u64::from(n)) as u32;
    state.move_for_draw(draw, &mut scratch.moves)
}

/// A chance outcome at `state` drawn by its weight, by `decisions` over `rng`.
#[inline(always)]
fn random_outcome<S: State>(
    state: &S,
    rng: &mut AgentRng,
    decisions: &mut Frugal,
    scratch: &mut Scratch<S::Move>,
) -> S::Move {
    let draw = |total| decisions.below_from_bits(rng, total);
    state.outcome_for_draw(draw, &mut scratch.outcomes)
}

/// Plays uniformly random playouts from `start` (each on a fresh copy, to the end of
/// the game, chance outcomes drawn by their weights: exactly MCTS's random rollout)
/// until `max_plies` plies were played or `max_time` has passed, checked between
/// playouts; the last playout is cut short at `max_plies`. Returns the plies played and
/// the time they took (copies of `start` included), so their ratio is the mean cost of
/// a playout ply, the unit in which a game's rollouts are cheap or dear. A finished
/// `start` plays nothing.
pub fn time_random_playouts<S: State>(
    start: &S,
    max_plies: u64,
    max_time: Duration,
    rng: &mut AgentRng,
) -> (u64, Duration) {
    let mut scratch = Scratch::new();
    let began = Instant::now();
    let mut plies = 0u64;
    while plies < max_plies && began.elapsed() < max_time {
        let mut state = start.clone();
        let left = u32::try_from(max_plies - plies).unwrap_or(u32::MAX);
        let policy = Policy {
            greedy: false,
            plies: Some(left),
        };
        play_out(&mut state, &NoEval, policy, rng, None, &mut scratch, None);
        let played = u64::from(state.ply() - start.ply());
        if played == 0 {
            break;
        }
        plies += played;
    }
    (plies, began.elapsed())
}

/// The evaluator of [`time_random_playouts`]: random decisions never consult one, so it
/// is the neutral score, which keeps the timing free of any game's evaluator.
#[derive(Clone, Copy, Debug)]
struct NoEval;

impl<S: State> Evaluator<S> for NoEval {
    fn heuristic(&self, _: &S, _: Seat) -> i32 {
        0
    }

    fn bounds(&self) -> (i32, i32) {
        (0, 0)
    }
}

/// The move of `moves` (legal at `state`, `mover` to decide) after which `eval` scores
/// the position best from `mover`'s view; among equal scores, one uniformly at random
/// (reservoir sampling: the k-th tie replaces the pick with probability 1/k).
pub(crate) fn greedy_move<S: State, E: Evaluator<S>>(
    state: &mut S,
    eval: &E,
    mover: Seat,
    rng: &mut AgentRng,
    moves: &[S::Move],
) -> S::Move {
    let (mut best, mut pick, mut ties) = (i32::MIN, moves[0], 0u32);
    for &m in moves {
        let undo = state.apply(m);
        let value = eval.evaluate(state, mover);
        state.undo(undo);
        if value > best {
            (best, pick, ties) = (value, m, 1);
        } else if value == best {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                pick = m;
            }
        }
    }
    pick
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::{Connect4, Connect4Eval};
    use agon_engine::games::pig::{Pig, PigEval};
    use agon_engine::{play_moves, Game, Outcome};
    use rand::SeedableRng;

    use super::*;

    fn rng() -> AgentRng {
        AgentRng::seed_from_u64(7)
    }

    fn policy(greedy: bool, plies: Option<u32>) -> Policy {
        Policy { greedy, plies }
    }

    #[test]
    fn a_greedy_decision_takes_the_immediate_win() {
        // Red has three in column a; dropping in `a` wins, and only that move does.
        let mut s = Connect4.initial_state();
        play_moves(&mut s, "a b a b a b").unwrap();
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let before = s.clone();
        let pick = greedy_move(&mut s, &Connect4Eval::default(), 0, &mut rng(), &moves);
        assert_eq!(s, before, "the state is restored");
        assert_eq!(s.format_move(pick), "a");
    }

    #[test]
    fn playouts_stop_at_the_end_or_after_their_plies() {
        let start = Connect4.initial_state();
        let mut scratch = Scratch::new();
        for greedy in [false, true] {
            let mut s = start.clone();
            play_out(
                &mut s,
                &Connect4Eval::default(),
                policy(greedy, None),
                &mut rng(),
                None,
                &mut scratch,
                None,
            );
            assert!(s.outcome().is_some(), "no plies: to the end of the game");
            let mut s = start.clone();
            play_out(
                &mut s,
                &Connect4Eval::default(),
                policy(greedy, Some(5)),
                &mut rng(),
                None,
                &mut scratch,
                None,
            );
            assert_eq!(s.ply(), 5);
            let mut s = start.clone();
            play_out(
                &mut s,
                &Connect4Eval::default(),
                policy(greedy, Some(0)),
                &mut rng(),
                None,
                &mut scratch,
                None,
            );
            assert_eq!(s, start, "no plies: the state itself");
            // Recorded undo tokens take a playout back to where it started.
            let mut s = start.clone();
            let mut undos = Vec::new();
            play_out(
                &mut s,
                &Connect4Eval::default(),
                policy(greedy, Some(9)),
                &mut rng(),
                None,
                &mut scratch,
                Some(&mut undos),
            );
            assert_eq!(undos.len(), 9);
            while let Some(undo) = undos.pop() {
                s.undo(undo);
            }
            assert_eq!(s, start);
        }
    }

    #[test]
    fn the_fast_random_loop_plays_what_the_general_loop_plays() {
        // Without undo tokens a random playout takes its own loop; with them, the
        // general one. For a game without a loop of its own (Connect Four) both must
        // draw alike and stop alike: the same position after the same plies.
        let start = Connect4.initial_state();
        let eval = Connect4Eval::default();
        let mut scratch = Scratch::new();
        for (seed, plies) in [(1, None), (2, Some(0)), (3, Some(7)), (4, None)] {
            let mut fast = start.clone();
            let mut rng_fast = AgentRng::seed_from_u64(seed);
            let random = policy(false, plies);
            play_out(
                &mut fast,
                &eval,
                random,
                &mut rng_fast,
                None,
                &mut scratch,
                None,
            );
            let mut general = start.clone();
            let mut rng_general = AgentRng::seed_from_u64(seed);
            let mut undos = Vec::new();
            let keep = Some(&mut undos);
            play_out(
                &mut general,
                &eval,
                random,
                &mut rng_general,
                None,
                &mut scratch,
                keep,
            );
            assert!(fast == general, "seed {seed}");
            assert_eq!(fast.ply(), general.ply(), "seed {seed}");
            assert_eq!(rng_fast, rng_general, "the same words drawn, seed {seed}");
            match plies {
                Some(n) => assert_eq!(undos.len(), n as usize),
                None => assert!(fast.outcome().is_some()),
            }
        }
    }

    #[test]
    fn a_games_own_playout_loop_plays_the_general_loops_games() {
        // Pig's own loop (`FastPlayout::fast_random_plies`) draws differently from the
        // general loop, so the two agree in law, not draw by draw: over many playouts
        // from the start and from a midgame position (its turn total at risk), to the
        // end and cut short, the first seat's wins, the draws at the horizon and the
        // mean length must agree within four and a half standard errors, and a cut
        // playout must stop exactly at its plies.
        let rules = Pig::new(30, 6, 60).unwrap();
        let mut midgame = rules.initial_state();
        play_moves(&mut midgame, "roll 5 roll 6 hold roll 4 roll 3").unwrap();
        let eval = PigEval::default();
        let mut scratch = Scratch::new();
        let runs = 20_000;
        for start in [rules.initial_state(), midgame] {
            for plies in [None, Some(9)] {
                let random = policy(false, plies);
                let mut tally = |keep_undos: bool, seed: u64| {
                    let mut rng = AgentRng::seed_from_u64(seed);
                    let (mut wins, mut draws, mut length) = (0.0, 0.0, Vec::new());
                    let mut undos = Vec::new();
                    for _ in 0..runs {
                        let mut s = start;
                        undos.clear();
                        let keep = keep_undos.then_some(&mut undos);
                        play_out(&mut s, &eval, random, &mut rng, None, &mut scratch, keep);
                        let played = s.ply() - start.ply();
                        match plies {
                            Some(n) => assert!(played == n || s.outcome().is_some()),
                            None => assert!(s.outcome().is_some()),
                        }
                        wins += f64::from(u8::from(s.outcome() == Some(Outcome::Win(0))));
                        draws += f64::from(u8::from(s.outcome() == Some(Outcome::Draw)));
                        length.push(f64::from(played));
                    }
                    (wins / runs as f64, draws / runs as f64, length)
                };
                let (fast_wins, fast_draws, fast_length) = tally(false, 5);
                let (general_wins, general_draws, general_length) = tally(true, 6);
                let agree = |a: f64, b: f64, sd: f64, what: &str| {
                    let se = sd * (2.0 / runs as f64).sqrt();
                    assert!(
                        (a - b).abs() <= 4.5 * se,
                        "{what}: {a} against {b} (se {se})"
                    );
                };
                let binomial = |p: f64| (p * (1.0 - p)).sqrt().max(1e-3);
                agree(
                    fast_wins,
                    general_wins,
                    binomial(general_wins),
                    "first seat's wins",
                );
                agree(fast_draws, general_draws, binomial(general_draws), "draws");
                let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
                let m = mean(&general_length);
                let sd = (general_length.iter().map(|x| (x - m).powi(2)).sum::<f64>()
                    / runs as f64)
                    .sqrt()
                    .max(1e-3);
                agree(mean(&fast_length), m, sd, "mean length");
            }
        }
    }

    #[test]
    fn timed_playouts_stop_at_their_plies_and_leave_a_finished_start_alone() {
        let start = Connect4.initial_state();
        let (plies, _) = time_random_playouts(&start, 100, Duration::from_secs(60), &mut rng());
        assert_eq!(plies, 100, "cut short at the ply budget, not the time");
        let (plies, _) = time_random_playouts(&start, 1000, Duration::ZERO, &mut rng());
        assert_eq!(plies, 0, "no time: no playout");
        let mut over = start.clone();
        play_moves(&mut over, "a b a b a b a").unwrap();
        let (plies, _) = time_random_playouts(&over, 100, Duration::from_secs(60), &mut rng());
        assert_eq!(plies, 0);
    }
}
