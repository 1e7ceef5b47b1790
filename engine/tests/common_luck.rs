//! Common random numbers (`State::common_outcome` with a `Luck`) for the chance games:
//! exact distributions by enumerating every draw value, Hexstrat's reveals reading one
//! layout of the bag, and pairing: games that differ still get the same luck for the
//! same event.

use agon_engine::games::hexstrat::{HexMove, Hexstrat, HexstratState, Tile, LAYOUT_EVENT};
use agon_engine::games::hexstrat::{CELLS, TILE_CELLS};
use agon_engine::games::pig::{Pig, PigMove, PigState};
use agon_engine::games::threewill::{
    Phase, ThreeWill, ThreeWillMove, ThreeWillState, BLACK, EMPTY, WHITE,
};
use agon_engine::luck::pick_weighted;
use agon_engine::testing::SeededLuck;
use agon_engine::{play_moves, EventId, Game, Luck, State, Turn};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A luck whose draw 0 of every event is `value`: enumerating `value` over `0..total`
/// visits every outcome a uniform draw can give, each once.
struct Fixed(u64);

impl Luck for Fixed {
    fn below(&self, _: EventId, draw: u32, n: u64) -> u64 {
        assert_eq!(draw, 0, "one draw per event");
        assert!(self.0 < n, "{} is not below {n}", self.0);
        self.0
    }
}

/// Checks that over every value of a uniform draw, `common_outcome` at `s` gives each
/// chance outcome exactly as often as its weight, and that draw value `v` gives the
/// outcome whose weight interval holds `v` in `chance_outcomes`' order: the games draw
/// without building that list, and must still map every draw as the list would, or
/// recorded games would change.
fn exact_distribution<S: State>(s: &S) {
    assert_eq!(s.turn(), Turn::Chance, "{s}");
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
    let mut counts = vec![0u32; outcomes.len()];
    for v in 0..total {
        let m = s.common_outcome(&Fixed(v));
        assert_eq!(m, pick_weighted(&outcomes, v), "{s}: draw {v}");
        let i = outcomes.iter().position(|&(o, _)| o == m).unwrap();
        counts[i] += 1;
    }
    let weights: Vec<u32> = outcomes.iter().map(|&(_, w)| w).collect();
    assert_eq!(counts, weights, "{s}");
}

#[test]
fn pig_rolls_are_exactly_fair() {
    for die in [2, 6, 20] {
        let mut s = Pig::new(100, die, 1000).unwrap().initial_state();
        play_moves(&mut s, "roll").unwrap();
        exact_distribution(&s);
    }
}

#[test]
fn threewill_rolls_throws_and_reveals_have_exact_weights() {
    let game = ThreeWill::default();
    let mut s = game.initial_state();
    exact_distribution(&s); // a roll: 1 in 6 each
                            // The stacking line of the rules' tests: a throw (1 : 5), then a challenge reveal
                            // (64 : 1 per twin).
    let list = [
        (0, BLACK, EMPTY),
        (1, BLACK, EMPTY),
        (2, WHITE, EMPTY),
        (10, WHITE, BLACK),
        (16, WHITE, EMPTY),
        (47, BLACK, EMPTY),
    ];
    s = game.custom_state(&list, 0, [4, 4], [0, 0], false);
    play_moves(&mut s, "1 c1*c2").unwrap();
    assert!(matches!(s.phase(), Phase::Throw { .. }));
    exact_distribution(&s);
    play_moves(&mut s, "hit pick:c1").unwrap();
    assert!(matches!(s.phase(), Phase::Reveal { .. }));
    exact_distribution(&s);
}

/// Plays `s` to the end: decisions by `choose` (given the legal moves), chance by
/// `common_outcome` with `luck`; returns, per turn number from `turn_of`, the chance
/// outcomes met in that turn, in order.
fn play_out<S: State>(
    mut s: S,
    luck: &impl Luck,
    choose: impl Fn(&S, &[S::Move]) -> S::Move,
    turn_of: impl Fn(&S) -> u32,
    max_plies: u32,
) -> (S, Vec<Vec<S::Move>>) {
    let mut per_turn: Vec<Vec<S::Move>> = Vec::new();
    let mut moves = Vec::new();
    while s.turn() != Turn::Over && s.ply() < max_plies {
        let m = if s.turn() == Turn::Chance {
            let m = s.common_outcome(luck);
            let t = turn_of(&s) as usize;
            per_turn.resize(per_turn.len().max(t + 1), Vec::new());
            per_turn[t].push(m);
            m
        } else {
            moves.clear();
            s.legal_moves(&mut moves);
            choose(&s, &moves)
        };
        s.try_apply(m).unwrap();
    }
    (s, per_turn)
}

#[test]
fn pig_games_that_differ_read_the_same_dice_on_the_same_turn() {
    // Two games with one luck: seat 0 rolls while its turn total is below 10 in game A
    // and always holds at once in game B; seat 1 rolls while below 8 in both. The games
    // differ (B's seat 0 never scores), yet seat 1's turns, which have the same numbers
    // (odd) in both, read the same faces in the same order: a single running stream
    // would have shifted them by A's extra rolls.
    let game = Pig::new(100, 6, 200).unwrap();
    let policy = |seat0_limit: u32| {
        move |s: &PigState, legal: &[PigMove]| {
            let limit = if s.mover() == 0 { seat0_limit } else { 8 };
            if legal.contains(&PigMove::Roll) && s.turn_total() < limit {
                PigMove::Roll
            } else {
                PigMove::Hold
            }
        }
    };
    let turn_of = |s: &PigState| s.turns_completed();
    let mut compared = 0;
    for seed in 0..20 {
        let luck = SeededLuck(seed);
        let (a, dice_a) = play_out(game.initial_state(), &luck, policy(10), turn_of, 10_000);
        let (b, dice_b) = play_out(game.initial_state(), &luck, policy(0), turn_of, 10_000);
        assert_ne!(a.score(0), b.score(0), "seed {seed}: the games differ");
        // Every complete turn of seat 1 reached by both games (the last turn of a game
        // may be cut short by its end).
        let both = dice_a.len().min(dice_b.len()).saturating_sub(1);
        for t in (1..both).step_by(2) {
            assert_eq!(dice_a[t], dice_b[t], "seed {seed}, turn {t}");
            assert!(!dice_a[t].is_empty());
            compared += 1;
        }
        // Seat 0's turns differ: B never rolls.
        assert!(dice_b.iter().step_by(2).all(Vec::is_empty));
    }
    assert!(compared > 100, "{compared} turns compared");
}

#[test]
fn threewill_games_that_differ_roll_the_same_die_at_the_start_of_each_turn() {
    // One luck, two policies (first legal decision, last legal decision): the games
    // differ, yet the first chance event of every turn both reach, the turn's roll, has
    // the same face.
    let game = ThreeWill::new(60).unwrap();
    let turn_of = |s: &ThreeWillState| s.turns_completed();
    for seed in 0..10 {
        let luck = SeededLuck(seed);
        let first = |_: &ThreeWillState, legal: &[ThreeWillMove]| legal[0];
        let last = |_: &ThreeWillState, legal: &[ThreeWillMove]| legal[legal.len() - 1];
        let (a, chance_a) = play_out(game.initial_state(), &luck, first, turn_of, 100_000);
        let (b, chance_b) = play_out(game.initial_state(), &luck, last, turn_of, 100_000);
        assert_ne!(a.board(), b.board(), "seed {seed}: the games differ");
        let both = chance_a.len().min(chance_b.len());
        assert!(both >= 10, "seed {seed}: {both} turns");
        for t in 0..both {
            let (ra, rb) = (chance_a[t][0], chance_b[t][0]);
            assert!(matches!(ra, ThreeWillMove::Face(_)), "{ra:?}");
            assert_eq!(ra, rb, "seed {seed}, turn {t}");
        }
    }
}

/// Hexstrat's layout of `luck` computed from its definition: the tile cells in the
/// order of the shuffle of every cell, receiving 15 Plains, then 10 Forest, then 10
/// Mountain.
fn layout(luck: &impl Luck) -> Vec<Option<Tile>> {
    let mut order: Vec<u8> = (0..CELLS as u8).collect();
    luck.shuffle(LAYOUT_EVENT, &mut order);
    let bag = [Tile::Plains; 15]
        .into_iter()
        .chain([Tile::Forest; 10])
        .chain([Tile::Mountain; 10]);
    let mut tiles = vec![None; CELLS];
    let cells = order.iter().filter(|&&c| TILE_CELLS & 1 << c != 0);
    for (&c, t) in cells.zip(bag) {
        tiles[c as usize] = Some(t);
    }
    tiles
}

/// Plays a Hexstrat game: decisions by a seeded uniform choice, reveals from `luck`;
/// returns each revealed cell with its tile.
fn hexstrat_reveals(luck: &impl Luck, decisions: u64) -> Vec<(usize, Tile)> {
    let mut rng = ChaCha8Rng::seed_from_u64(decisions);
    let mut s: HexstratState = Hexstrat::default().initial_state();
    let (mut reveals, mut moves) = (Vec::new(), Vec::new());
    while s.turn() != Turn::Over {
        let m = if s.turn() == Turn::Chance {
            let m = s.common_outcome(luck);
            let HexMove::Reveal(t) = m else {
                panic!("{m:?}")
            };
            reveals.push((s.pending_reveal().unwrap().2, t));
            m
        } else {
            moves.clear();
            s.legal_moves(&mut moves);
            moves[(rng.next_u64() % moves.len() as u64) as usize]
        };
        s.try_apply(m).unwrap();
    }
    reveals
}

#[test]
fn hexstrat_reveals_read_one_layout_of_the_bag_in_every_game_of_a_luck() {
    let mut revealed = 0;
    for seed in 0..10 {
        let luck = SeededLuck(seed);
        let expected = layout(&luck);
        let counted = |t: Tile| expected.iter().filter(|&&x| x == Some(t)).count();
        assert_eq!(
            [Tile::Plains, Tile::Forest, Tile::Mountain].map(counted),
            [15, 10, 10]
        );
        // Two games with different decisions: each reveal shows the layout's tile, so
        // a cell revealed in both shows the same tile, and the reveals of a game are a
        // part of a permutation of the bag.
        for decisions in [seed * 2, seed * 2 + 1] {
            let reveals = hexstrat_reveals(&luck, decisions);
            for &(cell, tile) in &reveals {
                assert_eq!(expected[cell], Some(tile), "seed {seed}, cell {cell}");
            }
            let mut cells: Vec<usize> = reveals.iter().map(|&(c, _)| c).collect();
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len(), reveals.len(), "a cell is revealed once");
            revealed += reveals.len();
        }
    }
    assert!(revealed > 100, "{revealed} reveals");
}

#[test]
fn hexstrat_first_reveal_follows_the_bag_weights() {
    // The first reveal of a fixed line, over 3500 lucks: expected 1500 Plains, 1000
    // Forest, 1000 Mountain. Pearson's statistic with 2 degrees of freedom stays below
    // 13.82 (the 0.999 quantile) for a correct sampler; the lucks are fixed, so the test
    // is deterministic.
    let mut s: HexstratState = Hexstrat::default().initial_state();
    let mut moves = Vec::new();
    while s.turn() != Turn::Chance {
        moves.clear();
        s.legal_moves(&mut moves);
        let m = *moves
            .iter()
            .find(|m| matches!(m, HexMove::Go { .. }))
            .unwrap();
        s.apply(m);
    }
    let mut counts = [0u32; 3];
    for seed in 0..3500 {
        let HexMove::Reveal(t) = s.common_outcome(&SeededLuck(seed)) else {
            unreachable!()
        };
        counts[t as usize] += 1;
    }
    let expected = [1500.0, 1000.0, 1000.0];
    let chi2: f64 = counts
        .iter()
        .zip(expected)
        .map(|(&c, e)| (f64::from(c) - e).powi(2) / e)
        .sum();
    assert!(chi2 < 13.82, "{counts:?}: chi-square {chi2}");
}
