use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::float::Activations;
use super::*;
use crate::games::hexstrat::{Hexstrat, HexstratState};
use crate::games::romgon::Romgon;
use crate::games::threewill::ThreeWill;
use crate::{sample_outcome, Encode, Evaluator, Game, Seat, State, Turn};

/// A stand-in for the linear evaluator under the networks of these tests: a value in
/// -100..100 drawn from the position's hash, negated for seat 1.
#[derive(Clone, Debug)]
struct Hashed;

impl<S: State> Evaluator<S> for Hashed {
    fn heuristic(&self, state: &S, seat: Seat) -> i32 {
        let value = (state.hash() % 201) as i32 - 100;
        if seat == 0 {
            value
        } else {
            -value
        }
    }
    fn bounds(&self) -> (i32, i32) {
        (-101, 101)
    }
}

/// A network of random weights for `state`'s encoding; `spread` scales the first
/// layer so that accumulators cover the clipped range and beyond.
fn random_net<S: Encode>(state: &S, seed: u64) -> (FloatNet, Network) {
    let encoding = state.encoding();
    let shape = Shape {
        features: encoding.features() as usize,
        scalars: encoding.scalars.len(),
        hidden: 16,
        dense: 8,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cells = encoding.cells() as usize;
    let mut float = FloatNet::initial(&encoding.id, shape, cells, 0.01, &mut rng);
    for w in &mut float.plane_w1 {
        *w = rng.random_range(-0.2..0.2);
    }
    // Training starts the output layer at 0; a trained one is not.
    for w in &mut float.w3 {
        *w = rng.random_range(-0.5..0.5);
    }
    let max: Vec<i32> = encoding.scalars.iter().map(|s| s.max).collect();
    let net = Network::quantised(&float, &max, "test");
    (float, net)
}

/// The float network's value for the seat to move (seat 0 at chance), in evaluator
/// units, as [`NetEval`] computes it in integers.
fn float_score<S: Encode>(float: &FloatNet, state: &S) -> f32 {
    let viewer = match state.turn() {
        Turn::Seat(s) => s,
        _ => 0,
    };
    let encoding = state.encoding();
    let (mut mine, mut theirs, mut scalars) = (Vec::new(), Vec::new(), Vec::new());
    state.features(viewer, &mut mine);
    state.features(1 - viewer, &mut theirs);
    state.scalars(viewer, &mut scalars);
    let linear = Hashed.heuristic(state, viewer) as f32;
    let scaled: Vec<f32> = scalars
        .iter()
        .zip(&encoding.scalars)
        .map(|(&s, d)| s as f32 / d.max as f32)
        .collect();
    let z = float.forward(&mine, &theirs, &scaled, linear, &mut Activations::default());
    z * SCORE_PER_LOGIT as f32
}

/// A legal move or chance outcome at unfinished `state`, drawn from `rng`.
fn random_step<S: State>(state: &S, rng: &mut ChaCha8Rng) -> S::Move {
    if state.turn() == Turn::Chance {
        return sample_outcome(state, rng);
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves[rng.random_range(0..moves.len())]
}

/// Along random lines of `game` (moves applied through the evaluator, some undone
/// again, and some applied on the state behind its back), the incremental evaluator
/// agrees with a fresh one at every position, and the integer network with the float
/// one to within `tolerance` evaluator units. Returns the largest difference seen.
fn check_game<G: Game>(game: &G, seed: u64, tolerance: f32) -> f32
where
    G::State: Encode,
{
    let start = game.initial_state();
    let (float, net) = random_net(&start, seed);
    let net = Arc::new(net);
    let encoding = start.encoding();
    let fresh = NetEval::new(Arc::clone(&net), Hashed, &encoding).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut worst = 0.0f32;
    let mut followed = 0;
    for _ in 0..20 {
        let mut eval = fresh.clone();
        let mut state = start.clone();
        let mut undos = Vec::new();
        while state.turn() != Turn::Over && undos.len() < 200 {
            let m = random_step(&state, &mut rng);
            if rng.random_range(0..10) == 0 {
                // Behind the evaluator's back: its stack is stale from here.
                state.apply(m);
                undos.clear();
            } else {
                undos.push(eval.apply(&mut state, m));
                // A move through the evaluator leaves its accumulators on top.
                assert!(eval.follows(&state), "the stack lost the line");
                followed += 1;
            }
            if rng.random_range(0..4) == 0 {
                if let Some(undo) = undos.pop() {
                    eval.undo(&mut state, undo);
                }
            }
            if state.turn() == Turn::Over {
                break;
            }
            for seat in [0, 1] {
                assert_eq!(
                    eval.heuristic(&state, seat),
                    fresh.heuristic(&state, seat),
                    "incremental and fresh differ"
                );
            }
            let viewer = match state.turn() {
                Turn::Seat(s) => s,
                _ => 0,
            };
            let exact = float_score(&float, &state);
            let got = eval.heuristic(&state, viewer) as f32;
            worst = worst.max((got - exact).abs());
            assert_eq!(
                eval.heuristic(&state, 1 - viewer),
                -eval.heuristic(&state, viewer)
            );
        }
    }
    assert!(
        worst <= tolerance,
        "integer and float networks differ by {worst}"
    );
    assert!(
        followed > 100,
        "only {followed} moves went through the evaluator"
    );
    worst
}

#[test]
fn incremental_fresh_and_float_networks_agree_on_romgon() {
    check_game(&Romgon::default(), 1, 16.0);
}

#[test]
fn incremental_fresh_and_float_networks_agree_across_chance() {
    check_game(&Hexstrat::default(), 2, 16.0);
    check_game(&ThreeWill::default(), 3, 16.0);
}

#[test]
fn a_network_file_reads_back_and_damage_is_named() {
    let (_, net) = random_net(&Romgon::default().initial_state(), 4);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    let cut = Network::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err();
    assert_eq!(
        cut.to_string(),
        "not an Agon network file (it ends too soon)"
    );
    let mut longer = bytes.clone();
    longer.push(0);
    let extra = Network::from_bytes(&longer).unwrap_err();
    assert_eq!(
        extra.to_string(),
        "not an Agon network file (1 bytes follow the network)"
    );
    let wrong = Network::from_bytes(b"weights = 1\n").unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "not an Agon network file (it does not start with AGONNET1)"
    );
}

#[test]
fn a_network_refuses_another_encoding() {
    let romgon = Romgon::default().initial_state().encoding();
    let (_, net) = random_net(&Romgon::default().initial_state(), 5);
    let other = Hexstrat::default().initial_state().encoding();
    let refused = NetEval::<HexstratState, Hashed>::new(Arc::new(net), Hashed, &other);
    assert_eq!(
        refused.unwrap_err().to_string(),
        format!(
            "the network was trained on encoding {}, but this game's is {}",
            romgon.id, other.id
        )
    );
}
