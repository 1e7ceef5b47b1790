//! APV move generation and turn sequencing checked against counts and against an
//! independent implementation.
//!
//! - Every line of `tests/data/apv.perft` is checked against the engine's
//!   [`agon_engine::perft::perft`] (the `deep` lines only with `-- --ignored`), and against
//!   the naive reference implementation of `tests/naive_apv/`, which derived the counts.
//! - The naive implementation reproduces the rules spec's test vectors and first moves.
//! - Below the data file's middle games, orders fire, fizzle (also because an Axis's path
//!   is blocked by the time its order fires), end games, Limited Orders leaves only
//!   `no-order`, and the cap ends games: the naive implementation counts each event.
//! - Engine and naive agree at every node of seeded random playouts (same legal moves as
//!   sorted notation, same turn, result, end reason and ply), under every parameter
//!   combination, from the start and from hand-built positions (a fired order that shuts
//!   both Pivots in, an order that fizzles at the cap), and in a proptest over
//!   move-index sequences, so that a failure shrinks to the shortest line that shows it.
//! - The comparisons are sensitive: the naive implementation with a deliberately broken
//!   rule ([`naive_apv::Mutation`]) disagrees with the data file or with the engine.
//!
//! `naive_fill` (ignored) writes the data file with every count recomputed by the naive
//! generator; that is how the file's `naive` counts were made.

use crate::common;
use crate::naive_apv;

use agon_engine::games::apv::GEO;
use agon_engine::games::apv::{Apv, ApvState, Order, Unit};
use agon_engine::perft::perft as engine_perft;
use agon_engine::{play_moves, Game, Outcome, State, Turn};
use common::lockstep::{self, Lockstep};
use common::{naive_counts, PerftLine};
use naive_apv::{
    divide, perft, perft_events, Cell, Events, Kind, Mutation, NaiveMove, NaiveResult, NaiveTurn,
    Position, Rules,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One count of the data file.
type Entry = PerftLine<Apv>;

/// The spec's table and first-move list, typed in again here so that an edit of the
/// data file cannot silently change them.
const SPEC_COUNTS: [u64; 3] = [25, 507, 12527];
const SPEC_FIRST_MOVES: &str = "d7-f5 d7-d5 d7-b7 d7-b9 d7-d9 d8-c8 d8-b8 d8-a8 d8-c9 d8-d9 \
     e7-g6 e7-f5 e7-d6 e7-c8 e7-d9 e8-g7 e8-f6 e8-c9 e9-d9 f7-h5 f7-f5 f7-d9 f8-g7 f8-h6 f8-i5";

/// The naive kind of an engine unit type.
fn kind(unit: Unit) -> Kind {
    match unit {
        Unit::Pivot => Kind::Pivot,
        Unit::Axis => Kind::Axis,
        Unit::Veil => Kind::Veil,
        Unit::Turned => Kind::Turned,
    }
}

/// The naive rules matching an engine game.
fn naive_rules(game: &Apv) -> Rules {
    let k = game.knobs();
    Rules::new(game.orders(), game.limited_orders(), game.max_turns()).with_knobs(
        [k.axes, k.veils, k.turned_veils].map(usize::from),
        k.south_extra.map(kind),
        u32::from(k.order_delay),
    )
}

fn naive_position(e: &Entry, mutation: Mutation) -> Result<Position, String> {
    let mut p = naive_rules(&e.game).with(mutation).start();
    p.play(&e.moves)?;
    Ok(p)
}

/// Where engine and naive differ below `entry`'s position: the first moves whose divide
/// counts differ (and moves only one of them lists).
fn explain(entry: &Entry) -> String {
    let state = entry.engine_state();
    let naive = naive_position(entry, Mutation::None).expect("the naive rules accept the line");
    common::divide_differences(&state, entry.depth, divide(&naive, entry.depth))
}

/// Checks `entries` against the naive implementation under `mutation`.
fn check_naive(entries: &[Entry], mutation: Mutation) -> Vec<String> {
    naive_counts::check(entries, |e| {
        naive_position(e, mutation).map(|p| perft(&p, e.depth))
    })
}

/// The data file's quick lines small enough for the naive implementation on every run.
fn naive_quick() -> Vec<Entry> {
    load()
        .into_iter()
        .filter(|e| !e.deep && e.count.is_some_and(|c| c <= 3_000_000))
        .collect()
}

#[test]
fn data_file_is_well_formed_and_covers_what_is_required() {
    let entries = load();
    assert!(entries.len() >= 70, "{} lines", entries.len());
    for e in &entries {
        assert!(e.count.is_some(), "{}: placeholder count", e.label());
    }
    let start = |orders, limited, depth| {
        entries.iter().any(|e| {
            e.moves.is_empty()
                && (
                    e.game.orders(),
                    e.game.limited_orders(),
                    e.game.max_turns(),
                    e.depth,
                ) == (orders, limited, 500, depth)
        })
    };
    for depth in 1..=6 {
        assert!(start(true, false, depth), "orders on, depth {depth}");
        assert!(start(false, false, depth), "orders off, depth {depth}");
        assert!(start(true, true, depth), "limited orders, depth {depth}");
    }
    let midgame = |pred: &dyn Fn(&Apv) -> bool, depth| {
        entries
            .iter()
            .any(|e| !e.moves.is_empty() && pred(&e.game) && e.depth >= depth)
    };
    assert!(midgame(&|g| g.orders() && !g.limited_orders(), 6));
    assert!(midgame(&|g| g.limited_orders(), 6));
    assert!(midgame(&|g| !g.orders(), 6));
    assert!(midgame(&|g| g.max_turns() < 500, 6));
    assert_eq!(entries.iter().filter(|e| e.source == "spec").count(), 3);
    // Some count reaches zero: the cap ends every line.
    assert!(entries.iter().any(|e| e.count == Some(0)));
}

#[test]
fn data_file_spec_lines_are_the_spec_vectors() {
    let entries = load();
    for (d, count) in SPEC_COUNTS.into_iter().enumerate() {
        let depth = d as u32 + 1;
        let line = entries
            .iter()
            .find(|e| e.spec == "apv" && e.moves.is_empty() && e.depth == depth)
            .unwrap_or_else(|| panic!("depth {depth} missing"));
        assert_eq!(line.count, Some(count), "{}", line.label());
        assert_eq!(line.source, "spec", "{}", line.label());
        assert_eq!(line.game, Apv::default());
    }
}

#[test]
fn engine_and_naive_list_the_spec_first_moves() {
    let mut spec: Vec<&str> = SPEC_FIRST_MOVES.split_whitespace().collect();
    spec.sort();
    assert_eq!(spec.len(), 25);
    let s = Apv::default().initial_state();
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut engine: Vec<String> = moves.iter().map(|&m| s.format_move(m)).collect();
    engine.sort();
    assert_eq!(engine, spec);
    assert_eq!(Rules::new(true, false, 500).start().legal_texts(), spec);
    // Orders or not, the first decision is the same.
    assert_eq!(Rules::new(false, false, 500).start().legal_texts(), spec);
}

common::suite::perft_suite! {
    game: Apv, file: "apv.perft", sources: ["spec", "naive"],
    explain: |e| format!("divide:{}", explain(e)),
    naive: |e| naive_position(e, Mutation::None).map(|p| perft(&p, e.depth)),
    engine_deep: "deep perft: about 10 minutes (debug assertions on)",
    naive_deep: "naive perft of every line: about 20 minutes",
    fill: "generator of the data file's naive counts: about 20 minutes",
}

#[test]
fn naive_reproduces_the_spec_vectors() {
    let start = Rules::new(true, false, 500).start();
    for (d, count) in SPEC_COUNTS.into_iter().enumerate() {
        assert_eq!(perft(&start, d as u32 + 1), count, "depth {}", d + 1);
    }
    let d = divide(&start, 3);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), SPEC_COUNTS[2]);
}

#[test]
fn naive_matches_data_file() {
    let failures = check_naive(&naive_quick(), Mutation::None);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn midgames_show_the_rare_events() {
    // The events below each middle game of the file, at the depth given (the naive
    // generator counts them while it walks the tree).
    let mut total = Events::default();
    let mut lines = 0;
    for e in load() {
        if e.moves.is_empty() || e.deep || e.depth < 4 || e.expected() > 1_000_000 {
            continue;
        }
        let mut ev = Events::default();
        let p = naive_position(&e, Mutation::None).unwrap();
        assert_eq!(perft_events(&p, e.depth, &mut ev), e.expected());
        lines += 1;
        if e.game.orders() && !e.game.limited_orders() {
            assert!(ev.fired > 0 && ev.fizzled > 0, "{}: {ev:?}", e.label());
        }
        if e.game.limited_orders() && e.depth >= 5 {
            assert!(ev.limited > 0, "{}: {ev:?}", e.label());
        }
        if e.game.max_turns() < 500 {
            assert!(ev.capped > 0, "{}: {ev:?}", e.label());
        }
        total.fired += ev.fired;
        total.fizzled += ev.fizzled;
        total.axis_blocked += ev.axis_blocked;
        total.limited += ev.limited;
        total.ended_by_order += ev.ended_by_order;
        total.capped += ev.capped;
        total.won += ev.won;
    }
    assert!(lines >= 6, "{lines} lines");
    for (what, n) in [
        ("fired orders", total.fired),
        ("fizzled orders", total.fizzled),
        ("Axis orders blocked on the way", total.axis_blocked),
        ("Limited Orders refusals", total.limited),
        ("games ended by a fired order", total.ended_by_order),
        ("games ended by the cap", total.capped),
        ("games won", total.won),
    ] {
        assert!(n > 0, "no {what} below the middle games: {total:?}");
    }
}

impl Lockstep for Position {
    type State = ApvState;
    type Choice = (String, NaiveMove);

    /// Engine and naive agree on whose turn it is, the result and its reason, the ply,
    /// the turns, the sides and the legal moves; the choices are the naive legal moves
    /// sorted by notation.
    fn compare(&self, state: &ApvState) -> Result<Vec<Self::Choice>, String> {
        let turn = match self.turn() {
            NaiveTurn::Seat(s) => Turn::Seat(s),
            NaiveTurn::Over => Turn::Over,
        };
        lockstep::same_turn(state.turn(), turn)?;
        let end = self.result.map(|r| match r {
            NaiveResult::Win(s) => (Outcome::Win(s), "immobilised"),
            NaiveResult::BothShut => (Outcome::Draw, "both-immobilised"),
            NaiveResult::Cap => (Outcome::Draw, "cap"),
        });
        lockstep::same_end(state, end.map(|e| e.0), end.map(|e| e.1))?;
        if state.ply() as usize != self.plies {
            return Err(format!("ply: engine {}, naive {}", state.ply(), self.plies));
        }
        if state.turns_completed() != self.turns {
            return Err(format!(
                "turns: engine {}, naive {}",
                state.turns_completed(),
                self.turns
            ));
        }
        if (state.side(0), state.side(1)) != ("north", "south") {
            return Err("seat 0 plays North, seat 1 South".into());
        }
        for side in 0..2 {
            let engine = state.order(side).map(|o| {
                let at = |c: u8| (i32::from(GEO.q[c as usize]), i32::from(GEO.r[c as usize]));
                (at(o.from), at(o.to), u32::from(state.order_wait(side)))
            });
            let naive = self.pending[side].map(|(a, b)| (a, b, self.waits[side]));
            if engine != naive {
                return Err(format!(
                    "side {side}'s pending order and wait: engine {engine:?}, naive {naive:?}"
                ));
            }
        }
        let choices = self.legal_moves().into_iter().map(|m| (m.to_string(), m));
        lockstep::sorted_choices(state, choices.collect(), "legal moves")
    }

    fn notation(choice: &Self::Choice) -> &str {
        &choice.0
    }

    fn take(&mut self, choice: &Self::Choice) {
        self.apply(choice.1);
    }
}

/// Plays one game in both implementations from the given positions (see
/// [`lockstep::cross_check`]); returns the number of nodes compared.
fn cross_check_from(
    state: ApvState,
    naive: Position,
    label: &str,
    mut pick: impl FnMut(usize) -> Option<usize>,
) -> Result<u64, String> {
    lockstep::cross_check(state, naive, label, |_, c| pick(c.len())).map(|(nodes, _)| nodes)
}

/// [`cross_check_from`] the start of `game`.
fn cross_check(
    game: Apv,
    mutation: Mutation,
    pick: impl FnMut(usize) -> Option<usize>,
) -> Result<u64, String> {
    let naive = naive_rules(&game).with(mutation).start();
    cross_check_from(game.initial_state(), naive, &format!("{game:?}"), pick)
}

/// Every parameter combination worth a look, with short caps so that capped games are
/// compared too.
fn configs() -> Vec<Apv> {
    let mut out = Vec::new();
    for (orders, limited) in [(true, false), (false, false), (true, true)] {
        for max_turns in [500, 7, 30, 1] {
            out.push(Apv::new(orders, limited, max_turns).unwrap());
        }
    }
    out
}

/// Random playouts in both implementations under every configuration.
fn random_playouts(mutation: Mutation, games: usize, seed: u64) -> Result<u64, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut nodes = 0;
    for game in configs() {
        for _ in 0..games {
            nodes += cross_check(game, mutation, |n| Some(rng.random_range(0..n)))?;
        }
    }
    Ok(nodes)
}

/// Settings of the designer's knobs worth a look: every knob away from its default,
/// alone and together with the others and with the rulebook's switches.
fn knob_configs() -> Vec<Apv> {
    [
        "apv:axes=3",
        "apv:axes=0,veils=3,turned_veils=1",
        "apv:veils=1,turned_veils=3,max_turns=60",
        "apv:axes=0,veils=0,turned_veils=0,max_turns=40",
        "apv:order_delay=2",
        "apv:order_delay=3,limited_orders=true,max_turns=30",
        "apv:south_extra=axis",
        "apv:south_extra=veil,axes=3,veils=3,turned_veils=3,order_delay=2",
        "apv:south_extra=turned-veil,orders=false",
    ]
    .into_iter()
    .map(|spec| common::parse_game(spec).unwrap_or_else(|e| panic!("{spec}: {e}")))
    .collect()
}

/// Random playouts in both implementations under every knob setting.
fn knob_playouts(mutation: Mutation, games: usize, seed: u64) -> Result<u64, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut nodes = 0;
    for game in knob_configs() {
        for _ in 0..games {
            nodes += cross_check(game, mutation, |n| Some(rng.random_range(0..n)))?;
        }
    }
    Ok(nodes)
}

#[test]
fn engine_and_naive_agree_under_the_knobs() {
    let nodes = knob_playouts(Mutation::None, 12, 77).unwrap_or_else(|e| panic!("{e}"));
    assert!(nodes > 20_000, "only {nodes} nodes compared");
}

/// Each knob's rule, broken in the naive implementation, makes the two disagree.
#[test]
fn a_broken_knob_is_caught() {
    for mutation in [
        Mutation::DelayIgnored,
        Mutation::OrderOutlivesItsUnit,
        Mutation::ExtraIgnored,
    ] {
        let found = knob_playouts(mutation, 12, 77);
        assert!(found.is_err(), "{mutation:?} goes unnoticed");
        eprintln!("{mutation:?}: {}", found.unwrap_err());
    }
}

#[test]
fn engine_and_naive_agree_on_random_playouts() {
    let nodes = random_playouts(Mutation::None, 40, 2025).unwrap_or_else(|e| panic!("{e}"));
    assert!(nodes > 20_000, "only {nodes} nodes compared");
}

/// A hand-built position, as an engine state and a naive position.
struct Setup {
    name: &'static str,
    /// `P`/`A`/`V`/`T` then a cell, upper case for North and lower case for South.
    units: &'static str,
    /// Pending orders (`d7-d5`) of North and South, or empty.
    orders: [&'static str; 2],
    to_move: usize,
}

fn cell_of(name: &str) -> (usize, Cell) {
    let b = name.as_bytes();
    let (q, r) = (
        i32::from(b[0]) - i32::from(b'e'),
        i32::from(b[1]) - i32::from(b'5'),
    );
    (GEO.cell(q, r).expect("a cell"), (q, r))
}

impl Setup {
    fn build(&self, game: Apv, mutation: Mutation) -> Result<(ApvState, Position), String> {
        let mut bitboards = [[0u64; 4]; 2];
        let mut units = Vec::new();
        for token in self.units.split_whitespace() {
            let letter = token.chars().next().unwrap();
            let side = usize::from(letter.is_ascii_lowercase());
            let (unit, kind) = match letter.to_ascii_uppercase() {
                'P' => (Unit::Pivot, Kind::Pivot),
                'A' => (Unit::Axis, Kind::Axis),
                'V' => (Unit::Veil, Kind::Veil),
                _ => (Unit::Turned, Kind::Turned),
            };
            let (i, c) = cell_of(&token[1..]);
            bitboards[side][unit as usize] |= 1 << i;
            units.push((side, kind, c));
        }
        let mut orders = [None; 2];
        let mut pending = [None; 2];
        for side in 0..2 {
            if let Some((a, b)) = self.orders[side].split_once('-') {
                let ((fa, ca), (fb, cb)) = (cell_of(a), cell_of(b));
                orders[side] = Some(Order {
                    from: fa as u8,
                    to: fb as u8,
                });
                pending[side] = Some((ca, cb));
            }
        }
        let state = game.position(bitboards, self.to_move, orders)?;
        let naive = Position::custom(
            naive_rules(&game).with(mutation),
            &units,
            pending,
            self.to_move,
        );
        Ok((state, naive))
    }
}

/// Positions where the rare rules decide: each is played out at random many times in
/// both implementations, under every configuration (those without orders skip the
/// setups that have some).
const SETUPS: &[Setup] = &[
    // North's Pivot in the e9 corner has one liberty, d9, and North's pending order
    // sends its Veil d7 there: unless South ends the game first, North shuts its own
    // Pivot in when the order fires. With a cap of one turn, the game is drawn before.
    Setup {
        name: "own order shuts own pivot",
        units: "Pe9 Te8 Af8 Vd7 pe1 ad2 te2 vf3",
        orders: ["d7-d9", ""],
        to_move: 1,
    },
    // Both Pivots' last liberty is d9 (North's on e9, South's on c9 with b9, c8 and d8
    // taken), and North's order fills it as North's turn begins: a draw at once.
    Setup {
        name: "fired order shuts both pivots",
        units: "Pe9 Af8 Te8 Vd7 Ad8 pc9 ab9 vc8 ae1",
        orders: ["d7-d9", ""],
        to_move: 0,
    },
    // The same shared liberty, and South's Turned Veil on e7 can jump to d9 as its
    // primary move: both Pivots shut in by one primary move, a draw.
    Setup {
        name: "shared last liberty, South to move",
        units: "Pe9 Af8 Te8 Ad8 pc9 ab9 vc8 te7 ae1",
        orders: ["", ""],
        to_move: 1,
    },
    // North's Axis on a5 is ordered to a8; South's Veil on c4 can land on a6 first, so
    // the order finds its path blocked when it fires.
    Setup {
        name: "axis order blocked on the way",
        units: "Pe5 Aa5 Vd5 pi1 ab4 vc4 tc3 ah1",
        orders: ["a5-a8", ""],
        to_move: 1,
    },
];

/// Ten random playouts in both implementations from every setup under every
/// configuration (those without orders skip the setups that have some), one generator
/// seeded 77 for all; returns the nodes compared, or the first disagreement.
fn setup_playouts(mutation: Mutation) -> Result<u64, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut nodes = 0;
    for setup in SETUPS {
        for game in configs() {
            let (state, naive) = match setup.build(game, mutation) {
                Ok(b) => b,
                // Orders in a setup under rules without them.
                Err(_) if !game.orders() => continue,
                Err(e) => return Err(format!("{}: {e}", setup.name)),
            };
            for _ in 0..10 {
                nodes += cross_check_from(state.clone(), naive.clone(), setup.name, |n| {
                    Some(rng.random_range(0..n))
                })?;
            }
        }
    }
    Ok(nodes)
}

#[test]
fn engine_and_naive_agree_from_hand_built_positions() {
    let nodes = setup_playouts(Mutation::None).unwrap_or_else(|e| panic!("{e}"));
    assert!(nodes > 2_000, "{nodes}");
}

#[test]
fn engine_and_naive_agree_on_divides() {
    for (spec, moves, depth) in [
        ("apv", "", 3),
        ("apv", "d8-a8", 3),
        ("apv:orders=false", "d8-a8", 3),
        (
            "apv:limited_orders=true",
            "d8-a8 order:d7-d5 d2-a5 order:d3-d5 a8-a6",
            3,
        ),
        ("apv:max_turns=3", "d8-a8 order:d7-d5 d2-a5 no-order", 3),
        ("apv:axes=3,veils=1,turned_veils=0,south_extra=veil", "", 3),
        (
            "apv:order_delay=2",
            "d8-a8 order:d7-d5 d2-a5 order:d3-d5 e9-d9",
            4,
        ),
    ] {
        let game: Apv = common::parse_game(spec).unwrap();
        let mut state = game.initial_state();
        play_moves(&mut state, moves).unwrap();
        let mut engine = naive_counts::engine_divide(&state, depth);
        let mut naive = naive_rules(&game).start();
        naive.play(moves).unwrap();
        let mut reference = divide(&naive, depth);
        engine.sort();
        reference.sort();
        assert_eq!(engine, reference, "{spec} [{moves}] depth {depth}");
    }
}

/// For each broken rule: the data file's counts or the node-by-node comparison with the
/// engine (from the start or from the hand-built positions) notice it. Shows that these
/// checks would not let such a bug pass.
#[test]
fn a_broken_rule_is_caught() {
    let entries: Vec<Entry> = naive_quick()
        .into_iter()
        .filter(|e| e.count.is_some_and(|c| c <= 1_000_000))
        .collect();
    for mutation in [
        Mutation::AxisJumps,
        Mutation::FiringIgnoresPath,
        Mutation::OrderJustMoved,
        Mutation::NoEndCheckAfterFiring,
        Mutation::BothImmobilisedMoverWins,
        Mutation::LimitedIgnored,
        Mutation::CapAfterFiring,
    ] {
        let by_perft = entries
            .iter()
            .find(|e| !check_naive(std::slice::from_ref(e), mutation).is_empty())
            .map(|e| e.label());
        let by_playouts = random_playouts(mutation, 15, 2025).err();
        let by_setups = setup_playouts(mutation).err();
        assert!(
            by_perft.is_some() || by_playouts.is_some() || by_setups.is_some(),
            "{mutation:?} goes unnoticed"
        );
        eprintln!(
            "{mutation:?}: perft {by_perft:?}; playouts {by_playouts:?}; setups {by_setups:?}"
        );
    }
}

proptest! {
    // No regression files: a failure prints the shrunk line, which belongs in the data
    // file or in a named test rather than in a file of seeds.
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Engine and naive agree along any line; a failure shrinks to the shortest line.
    #[test]
    fn engine_and_naive_agree_along_any_line(
        config in 0..12usize,
        picks in proptest::collection::vec(any::<u16>(), 0..200),
    ) {
        let game = configs()[config];
        let mut it = picks.iter();
        let result = cross_check(game, Mutation::None, |_| it.next().map(|&i| usize::from(i)));
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}

#[test]
fn perft_counts_every_decision_and_nothing_after_the_end() {
    // North's d8-d9 fills its own Pivot's only liberty: a finished game, nothing below.
    let mut s = Apv::default().initial_state();
    play_moves(&mut s, "d8-d9").unwrap();
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(engine_perft(&s, 3), 0);
    assert_eq!(engine_perft(&s, 0), 1);
}
