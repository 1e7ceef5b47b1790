//! The chance agents against a plain expectimax written here: on random Pig and Coin Nim
//! positions at fixed depths, `expectimax`, `star1` and `star2` return exactly its value
//! (as fractions, bit for bit), choose a move of maximal value, and Star1/Star2 visit
//! fewer nodes in total than plain expectimax.

use agon_engine::games::pig::{Pig, PigEval, PigState};
use agon_engine::luck::pick_weighted;
use agon_engine::testing::coin_nim::{CoinNim, CoinNimEval, CoinNimMove, CoinNimState};
use agon_engine::{sample_outcome, Evaluator, Game, Params, Seat, State, Turn};
use agon_search::registry::{build, complete_params};
use agon_search::{
    Agent, AgentKind, AgentRng, Budget, ChanceMode, Expectimax, ExpectimaxConfig, Horizon,
    SearchContext, SearchResult, Value, QUIESCENCE_PLIES,
};
use rand::{Rng, SeedableRng};

/// A reduced fraction `(num, den)`, `den > 0`: the reference's own arithmetic.
type Frac = (i128, i128);

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

fn reduce((n, d): Frac) -> Frac {
    let g = gcd(n, d).max(1);
    (n / g, d / g)
}

fn less((a, b): Frac, (c, d): Frac) -> bool {
    a * d < c * b
}

/// Plain depth-limited expectimax from `view`'s side: decisions of `view` maximise,
/// the other seat's minimise, chance nodes average by weight and cost no depth; a
/// finished game scores the evaluator's bound (or 0 for a draw).
fn plain<S: State, E: Evaluator<S>>(s: &S, eval: &E, view: Seat, depth: u32) -> Frac {
    plain_with(s, eval, view, depth, &|c: &S| {
        (i128::from(eval.evaluate(c, view)), 1)
    })
}

/// [`plain`] with `horizon` valuing the decision nodes at the horizon.
fn plain_with<S: State, E: Evaluator<S>>(
    s: &S,
    eval: &E,
    view: Seat,
    depth: u32,
    horizon: &dyn Fn(&S) -> Frac,
) -> Frac {
    let (lower, upper) = eval.bounds();
    match s.turn() {
        Turn::Over => {
            let r = s.outcome().unwrap().score(view);
            let v = if r > 0 {
                upper
            } else if r < 0 {
                lower
            } else {
                0
            };
            (i128::from(v), 1)
        }
        Turn::Seat(_) if depth == 0 => horizon(s),
        Turn::Seat(mover) => {
            let mut moves = Vec::new();
            s.legal_moves(&mut moves);
            let values = moves.iter().map(|&m| {
                let mut c = s.clone();
                c.apply(m);
                plain_with(&c, eval, view, depth - 1, horizon)
            });
            values
                .reduce(|a, b| {
                    let b_better = if mover == view {
                        less(a, b)
                    } else {
                        less(b, a)
                    };
                    if b_better {
                        b
                    } else {
                        a
                    }
                })
                .unwrap()
        }
        Turn::Chance => chance_mean(s, &|c| plain_with(c, eval, view, depth, horizon)),
    }
}

/// A search to `depth` with a 1 MiB table, valuing its horizon as `horizon` says.
fn depth_config(depth: u32, mode: ChanceMode, horizon: Horizon, history: bool) -> ExpectimaxConfig {
    ExpectimaxConfig {
        budget: Budget {
            depth: Some(depth),
            ..Budget::default()
        },
        hash_mb: 1,
        mode,
        horizon,
        history,
    }
}

/// The weighted mean of `value` over the outcomes of the chance node `s`.
fn chance_mean<S: State>(s: &S, value: &dyn Fn(&S) -> Frac) -> Frac {
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    let total: i128 = outcomes.iter().map(|&(_, w)| i128::from(w)).sum();
    let mut sum: Frac = (0, 1);
    for &(o, w) in &outcomes {
        let mut c = s.clone();
        c.apply(o);
        let (n, d) = value(&c);
        sum = reduce((sum.0 * d + i128::from(w) * n * sum.1, sum.1 * d));
    }
    reduce((sum.0, sum.1 * total))
}

/// Positions reached by seeded random play from `start`, stopping at random plies
/// before the end (decision and chance nodes alike).
fn positions<S: State>(start: &S, count: usize, seed: u64) -> Vec<S> {
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut s = start.clone();
        let plies = rng.random_range(0..12);
        for _ in 0..plies {
            let m = match s.turn() {
                Turn::Over => break,
                Turn::Chance => sample_outcome(&s, &mut rng),
                Turn::Seat(_) => {
                    let mut moves = Vec::new();
                    s.legal_moves(&mut moves);
                    moves[rng.random_range(0..moves.len())]
                }
            };
            s.apply(m);
        }
        if s.turn() != Turn::Over {
            out.push(s);
        }
    }
    out
}

fn pig_positions() -> Vec<PigState> {
    let mut rng = AgentRng::seed_from_u64(7);
    let mut out = Vec::new();
    for i in 0..24 {
        let rules = Pig::new(
            rng.random_range(10..=20),
            rng.random_range(3..=6),
            rng.random_range(4..=30),
        )
        .unwrap();
        out.extend(positions(&rules.initial_state(), 1, i));
    }
    out
}

fn coin_nim_positions() -> Vec<CoinNimState> {
    let mut out = Vec::new();
    for (stones, cap) in [(4, 10), (5, 12), (6, 8), (7, 6), (10, 9)] {
        out.extend(positions(
            &CoinNim { stones, cap }.initial_state(),
            4,
            u64::from(stones),
        ));
    }
    out
}

fn agent<S: State, E: Evaluator<S>>(eval: E, mode: ChanceMode, budget: Budget) -> Expectimax<S, E> {
    ordered_agent(eval, mode, false, budget)
}

fn ordered_agent<S: State, E: Evaluator<S>>(
    eval: E,
    mode: ChanceMode,
    history: bool,
    budget: Budget,
) -> Expectimax<S, E> {
    let config = ExpectimaxConfig {
        budget,
        hash_mb: 1,
        mode,
        history,
        ..ExpectimaxConfig::default()
    };
    Expectimax::new(eval, config)
}

const MODES: [ChanceMode; 3] = [ChanceMode::Expectimax, ChanceMode::Star1, ChanceMode::Star2];

/// The searches the differential test checks: each mode, and Star2 ordered by killers
/// and history too (order changes no value).
const SEARCHES: [(ChanceMode, bool); 4] = [
    (ChanceMode::Expectimax, false),
    (ChanceMode::Star1, false),
    (ChanceMode::Star2, false),
    (ChanceMode::Star2, true),
];

/// Checks every search of [`SEARCHES`] against the reference on `states` at depths
/// 1..=4; returns the node totals per search.
fn check_all<S: State, E: Evaluator<S>>(states: &[S], eval: E) -> [u64; 4] {
    let mut totals = [0; 4];
    let mut rng = AgentRng::seed_from_u64(0);
    for s in states {
        let (view, decision) = match s.turn() {
            Turn::Seat(p) => (p, true),
            _ => (0, false),
        };
        for depth in 1..=4 {
            let expected = plain(s, &eval, view, depth);
            for (k, &(mode, history)) in SEARCHES.iter().enumerate() {
                let budget = Budget {
                    depth: Some(depth),
                    ..Budget::default()
                };
                let mut a = ordered_agent(eval.clone(), mode, history, budget);
                let mut infos = 0;
                let r: SearchResult<S::Move> =
                    a.search(s, SearchContext::new(&mut rng, &mut |_| infos += 1));
                // Deepening stops early once the value is the exact game value.
                assert_eq!(infos, r.depth, "one info per iteration");
                assert!(r.depth == depth || (1..depth).contains(&r.depth));
                let exact = a.exact_value().expect("completed");
                assert_eq!(
                    (exact.num(), exact.den()),
                    expected,
                    "{mode:?} (history {history}) depth {depth} at {s}"
                );
                assert_eq!(r.value, Value::Score(expected.0 as f64 / expected.1 as f64));
                totals[k] += r.nodes;
                match r.best {
                    Some(m) => {
                        assert!(decision);
                        let mut c = s.clone();
                        c.try_apply(m).expect("legal");
                        assert_eq!(
                            plain(&c, &eval, view, depth - 1),
                            expected,
                            "{mode:?} plays a move of maximal value"
                        );
                    }
                    None => assert!(!decision),
                }
            }
        }
    }
    totals
}

fn report(game: &str, totals: [u64; 4]) {
    let [ex, s1, s2, s2h] = totals;
    let pct = |n: u64| 100.0 * (ex as f64 - n as f64) / ex as f64;
    println!(
        "{game}: nodes expectimax {ex}, star1 {s1} ({:+.1}% saved), star2 {s2} ({:+.1}% saved), \
         star2 with history {s2h} ({:+.1}% saved)",
        pct(s1),
        pct(s2),
        pct(s2h)
    );
}

/// The differential test over the whole set (Pig and Coin Nim positions, depths 1..=4).
/// The node saving is asserted over the set and on Pig alone; on Coin Nim alone the
/// evaluator's bounds (±100 against heuristic values of ±10) leave Star1 little to prune,
/// while plain expectimax's table holds only exact values and so answers more
/// transpositions, so there the totals may go either way (they are printed).
#[test]
fn star1_and_star2_return_exactly_the_expectimax_value_with_fewer_nodes() {
    let pig = pig_positions();
    assert!(pig.iter().any(|s| s.turn() == Turn::Chance));
    let coin = coin_nim_positions();
    assert!(coin.iter().any(|s| s.turn() == Turn::Chance));
    let on_pig = check_all(&pig, PigEval::default());
    let on_coin = check_all(&coin, CoinNimEval::default());
    report("pig", on_pig);
    report("coin-nim", on_coin);
    let all: [u64; 4] = std::array::from_fn(|k| on_pig[k] + on_coin[k]);
    report("all", all);
    assert!(on_pig[1] < on_pig[0] && on_pig[2] < on_pig[0], "{on_pig:?}");
    assert!(all[1] < all[0] && all[2] < all[0], "{all:?}");
}

#[test]
fn node_budgets_return_a_legal_move_within_the_limit() {
    let mut rng = AgentRng::seed_from_u64(3);
    for s in pig_positions()
        .into_iter()
        .filter(|s| matches!(s.turn(), Turn::Seat(_)))
    {
        for mode in MODES {
            for nodes in [1, 5, 40, 300] {
                let budget = Budget {
                    nodes: Some(nodes),
                    ..Budget::default()
                };
                let mut a = agent(PigEval::default(), mode, budget);
                let r = a.search(&s, SearchContext::new(&mut rng, &mut |_| {}));
                assert!(r.nodes <= nodes);
                assert!(s.clone().try_apply(r.best.unwrap()).is_ok());
            }
        }
    }
}

#[test]
fn registry_builds_the_chance_agents_with_their_parameters() {
    let pig = Pig::new(20, 6, 100).unwrap();
    let s = pig.initial_state();
    let mut rng = AgentRng::seed_from_u64(1);
    for kind in [AgentKind::Expectimax, AgentKind::Star1, AgentKind::Star2] {
        let info = kind.info();
        assert!(!kind.needs_deterministic());
        let mut p = Params::parse(info.params, &[("depth", "3")]).unwrap();
        complete_params(kind, &mut p);
        let mut agent = build::<PigState, _>(kind, &p, PigEval::default()).unwrap();
        let r = agent.search(&s, SearchContext::new(&mut rng, &mut |_| {}));
        assert_eq!(r.depth, 3);
        assert!(s.clone().try_apply(r.best.unwrap()).is_ok());

        let mut p = Params::parse(info.params, &[]).unwrap();
        complete_params(kind, &mut p);
        assert_eq!(p.canonical(), "depth=4,hash=16");

        // At a chance node: no move, the expected value from seat 0's view.
        let mut rolled = s;
        rolled.apply(rolled.parse_move("roll").unwrap());
        let r = agent.search(&rolled, SearchContext::new(&mut rng, &mut |_| {}));
        assert_eq!(r.best, None);
        assert!(matches!(r.value, Value::Score(_)));
    }
    // Playout horizons: the same seed gives the same search, move and value.
    let p = Params::parse(
        AgentKind::Star2.info().params,
        &[("depth", "2"), ("playouts", "4"), ("plies", "6")],
    )
    .unwrap();
    let mut runs = (0..2).map(|_| {
        let mut agent = build::<PigState, _>(AgentKind::Star2, &p, PigEval::default()).unwrap();
        agent.search(
            &s,
            SearchContext::new(&mut AgentRng::seed_from_u64(9), &mut |_| {}),
        )
    });
    let (first, second) = (runs.next().unwrap(), runs.next().unwrap());
    assert_eq!((first.best, first.value), (second.best, second.value));
    assert!(s.clone().try_apply(first.best.unwrap()).is_ok());

    // `quiesce` builds, and refuses playouts beside it.
    let star2 = |pairs: &[(&str, &str)]| {
        let p = Params::parse(AgentKind::Star2.info().params, pairs).unwrap();
        build::<PigState, _>(AgentKind::Star2, &p, PigEval::default()).map(drop)
    };
    assert!(star2(&[("depth", "2"), ("quiesce", "true")]).is_ok());
    let err = star2(&[("quiesce", "true"), ("playouts", "4")]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "agent \"star2\": quiesce and playouts are two ways to value the horizon (give one)"
    );

    let coin = CoinNim::default().initial_state();
    let p = Params::parse(AgentKind::Star2.info().params, &[("nodes", "50")]).unwrap();
    let mut agent = build::<CoinNimState, _>(AgentKind::Star2, &p, CoinNimEval::default()).unwrap();
    let r = agent.search(&coin, SearchContext::new(&mut rng, &mut |_| {}));
    assert!(r.nodes <= 50);
}

#[test]
fn unlimited_deepening_stops_before_exact_fractions_overflow() {
    // 60 decisions, each followed by a coin (total weight 3): 3⁶⁰ would overflow the
    // comparisons of i128 fractions; the search must stop deepening in time, not panic.
    let s = CoinNim {
        stones: 60,
        cap: 60,
    }
    .initial_state();
    let mut rng = AgentRng::seed_from_u64(5);
    for mode in [ChanceMode::Star1, ChanceMode::Star2] {
        let mut a = agent(CoinNimEval::default(), mode, Budget::default());
        let r = a.search(&s, SearchContext::new(&mut rng, &mut |_| {}));
        assert!(r.depth > 10 && r.depth < 60, "depth {}", r.depth);
        assert!(a.exact_value().is_some());
    }
}

/// Deeper searches on full-size Pig (target 100, a d6), from the start and from a
/// middle game at a decision and at a chance node: the three agents agree exactly at
/// every depth, and the node counts are printed (for comparing the three agents' costs).
/// Heavy: run with
/// `cargo test --release -p agon-search --test search -- --ignored --nocapture expectimax::`.
#[test]
#[ignore]
fn deeper_pig_searches_agree_and_report_nodes() {
    let rules = Pig::default();
    let mut positions = Vec::new();
    for line in [
        "",
        "roll 5 roll 4 hold roll 6 roll 1 roll 3 roll 6",
        "roll 2 hold roll",
    ] {
        let mut s = rules.initial_state();
        for m in line.split_whitespace() {
            s.apply(s.parse_move(m).unwrap());
        }
        positions.push((line, s));
    }
    let mut rng = AgentRng::seed_from_u64(0);
    let mut grand = [0u64; 4];
    for (line, s) in &positions {
        for depth in [6, 8, 10] {
            let mut nodes = [0u64; 4];
            let mut values = Vec::new();
            for (k, &(mode, history)) in SEARCHES.iter().enumerate() {
                let budget = Budget {
                    depth: Some(depth),
                    ..Budget::default()
                };
                let config = ExpectimaxConfig {
                    budget,
                    hash_mb: 16,
                    mode,
                    history,
                    ..ExpectimaxConfig::default()
                };
                let mut a = Expectimax::new(PigEval::default(), config);
                nodes[k] = a.search(s, SearchContext::new(&mut rng, &mut |_| {})).nodes;
                values.push(a.exact_value().unwrap());
            }
            assert!(values.iter().all(|&v| v == values[0]), "{values:?}");
            println!(
                "pig [{line}] depth {depth}: expectimax {} star1 {} ({:.2}x) star2 {} ({:.2}x)",
                nodes[0],
                nodes[1],
                nodes[0] as f64 / nodes[1] as f64,
                nodes[2],
                nodes[0] as f64 / nodes[2] as f64
            );
            for k in 0..4 {
                grand[k] += nodes[k];
            }
        }
    }
    report("deeper pig", grand);
}

/// The playout horizon as `Horizon::Playouts` documents it, written out again: one
/// ChaCha8 generator keyed by the little-endian words `salt, hash, 0, 0` serves the
/// node's playouts in turn for tie-breaks; each decision is the move after which the
/// evaluator scores best for the mover, ties broken by reservoir sampling; playout `i`
/// draws each chance outcome by weight from the generator keyed `salt, 0, i, 1`; a
/// playout stops after `plies` plies or at the end and scores the evaluator there, or
/// the outcome (the bounds or 0). The value is the mean, rounded half up.
fn reference_playouts<S: State, E: Evaluator<S>>(
    s: &S,
    eval: &E,
    view: Seat,
    (salt, count, plies): (u64, u32, u32),
) -> i128 {
    let key = |words: [u64; 4]| {
        let mut key = [0u8; 32];
        for (k, word) in words.iter().enumerate() {
            key[8 * k..8 * k + 8].copy_from_slice(&word.to_le_bytes());
        }
        key
    };
    let mut rng = AgentRng::from_seed(key([salt, s.hash(), 0, 0]));
    let (lower, upper) = eval.bounds();
    let mut sum = 0i128;
    for i in 0..count {
        let mut dice = AgentRng::from_seed(key([salt, 0, u64::from(i), 1]));
        let mut c = s.clone();
        for _ in 0..plies {
            let m = match c.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let mut outcomes = Vec::new();
                    c.chance_outcomes(&mut outcomes);
                    let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
                    pick_weighted(&outcomes, dice.random_range(0..total))
                }
                Turn::Seat(mover) => {
                    let mut moves = Vec::new();
                    c.legal_moves(&mut moves);
                    let (mut best, mut pick, mut tied) = (i32::MIN, moves[0], 0u32);
                    for &m in &moves {
                        let mut after = c.clone();
                        after.apply(m);
                        let v = eval.evaluate(&after, mover);
                        if v > best {
                            (best, pick, tied) = (v, m, 1);
                        } else if v == best {
                            tied += 1;
                            if rng.random_range(0..tied) == 0 {
                                pick = m;
                            }
                        }
                    }
                    pick
                }
            };
            c.apply(m);
        }
        sum += i128::from(match c.outcome() {
            Some(o) if o.score(view) > 0 => upper,
            Some(o) if o.score(view) < 0 => lower,
            Some(_) => 0,
            None => eval.evaluate(&c, view),
        });
    }
    let count = i128::from(count);
    (2 * sum + count).div_euclid(2 * count)
}

/// With `playouts`, every mode returns exactly plain expectimax over the documented
/// playout values (so pruning and the table stay exact with a noisy horizon), on Pig
/// and Coin Nim at depths 1..=3. The salt is the agent's generator's next `u64`.
#[test]
fn playout_horizons_are_the_documented_means_and_every_mode_agrees() {
    let (count, plies) = (3, 7);
    let mut rng = AgentRng::seed_from_u64(11);
    fn run<S: State, E: Evaluator<S>>(
        states: &[S],
        eval: E,
        rng: &mut AgentRng,
        (count, plies): (u32, u32),
    ) {
        for s in states {
            let view = s.turn().seat().unwrap_or(0);
            for depth in 1..=3 {
                for mode in MODES {
                    let salt = rng.clone().random::<u64>();
                    let horizon =
                        |c: &S| (reference_playouts(c, &eval, view, (salt, count, plies)), 1);
                    let expected = plain_with(s, &eval, view, depth, &horizon);
                    let horizon = Horizon::Playouts {
                        count,
                        plies: Some(plies),
                    };
                    let config = depth_config(depth, mode, horizon, false);
                    let mut a = Expectimax::new(eval.clone(), config);
                    let r = a.search(s, SearchContext::new(rng, &mut |_| {}));
                    let exact = a.exact_value().expect("completed");
                    assert_eq!(
                        (exact.num(), exact.den()),
                        expected,
                        "{mode:?} depth {depth} at {s}"
                    );
                    assert!(r.depth <= depth);
                }
            }
        }
    }
    run(
        &pig_positions()[..10],
        PigEval::default(),
        &mut rng,
        (count, plies),
    );
    run(
        &coin_nim_positions()[..8],
        CoinNimEval::default(),
        &mut rng,
        (count, plies),
    );
}

/// Without playouts the chance searches never draw from the agent's generator, so
/// adding the option changed no earlier game.
#[test]
fn the_evaluator_horizon_leaves_the_generator_untouched() {
    let mut rng = AgentRng::seed_from_u64(2);
    let before = rng.clone();
    for s in pig_positions().iter().take(6) {
        for mode in MODES {
            let budget = Budget {
                depth: Some(3),
                ..Budget::default()
            };
            agent(PigEval::default(), mode, budget)
                .search(s, SearchContext::new(&mut rng, &mut |_| {}));
        }
    }
    assert_eq!(rng, before);
}

#[test]
fn a_chance_spec_orders_by_history_only_when_it_says_so() {
    // Through the registry: without `history` the search is the one `history=false`
    // names (same nodes, move and value); `history=true` reorders Hexstrat's decisions,
    // changing how much Star2 prunes but not the value or the move's worth.
    use agon_engine::games::hexstrat::{Hexstrat, HexstratEval, HexstratState, MIDGAME};
    let mut start = Hexstrat::default().initial_state();
    agon_engine::play_moves(&mut start, MIDGAME).expect("legal");
    let run = |pairs: &[(&str, &str)]| {
        let kind = AgentKind::Star2;
        let params = Params::parse(kind.info().params, pairs).expect("valid parameters");
        let mut agent =
            build::<HexstratState, _>(kind, &params, HexstratEval::default()).expect("builds");
        let r = agent.search(
            &start,
            SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
        );
        (r.nodes, r.best, r.value)
    };
    let absent = run(&[("depth", "3"), ("hash", "1")]);
    let off = run(&[("depth", "3"), ("hash", "1"), ("history", "false")]);
    let on = run(&[("depth", "3"), ("hash", "1"), ("history", "true")]);
    assert_eq!(absent, off);
    assert_ne!(on.0, off.0, "history=true searched the same tree");
    assert_eq!(on.2, off.2, "order changed the value");
}

/// The quiescence horizon as `Horizon::Quiescence` documents it, written out again:
/// the side to move takes the better of the evaluator's score and each noisy move's
/// value, `left` plies deep at most; a chance node is the weighted mean of its
/// outcomes; a finished game scores the bounds or 0.
fn reference_quiescence<S: State, E: Evaluator<S>>(s: &S, eval: &E, view: Seat, left: u32) -> Frac {
    let (lower, upper) = eval.bounds();
    match s.turn() {
        Turn::Over => {
            let r = s.outcome().unwrap().score(view);
            (
                i128::from(if r > 0 {
                    upper
                } else if r < 0 {
                    lower
                } else {
                    0
                }),
                1,
            )
        }
        Turn::Chance => chance_mean(s, &|c| reference_quiescence(c, eval, view, left)),
        Turn::Seat(mover) => {
            let mut best = (i128::from(eval.evaluate(s, view)), 1);
            if left == 0 {
                return best;
            }
            let mut moves = Vec::new();
            s.legal_moves(&mut moves);
            for m in moves.into_iter().filter(|&m| eval.is_noisy(s, m)) {
                let mut c = s.clone();
                c.apply(m);
                let v = reference_quiescence(&c, eval, view, left - 1);
                let better = if mover == view {
                    less(best, v)
                } else {
                    less(v, best)
                };
                if better {
                    best = v;
                }
            }
            best
        }
    }
}

/// Coin Nim's evaluator, calling every take of two noisy: each leads to a coin toss, so
/// a quiescence search over it meets chance nodes.
#[derive(Clone)]
struct TakeTwoIsNoisy(CoinNimEval);

impl Evaluator<CoinNimState> for TakeTwoIsNoisy {
    fn heuristic(&self, s: &CoinNimState, seat: Seat) -> i32 {
        self.0.heuristic(s, seat)
    }
    fn bounds(&self) -> (i32, i32) {
        self.0.bounds()
    }
    fn is_noisy(&self, _: &CoinNimState, m: CoinNimMove) -> bool {
        m == CoinNimMove::Take(2)
    }
}

/// Checks every search of [`SEARCHES`] with `quiesce` against plain expectimax over
/// the documented quiescence values, on `states` at depths 1 to 3; returns how many
/// values the quiescence search changed and how many horizon values were fractions
/// (chance below the horizon).
fn check_quiescence<S: State, E: Evaluator<S>>(states: &[S], eval: &E) -> (usize, usize) {
    let mut rng = AgentRng::seed_from_u64(5);
    let fractions = std::cell::Cell::new(0);
    let mut changed = 0;
    for s in states {
        let view = s.turn().seat().unwrap_or(0);
        for depth in 1..=3 {
            let horizon = |c: &S| {
                let v = reference_quiescence(c, eval, view, QUIESCENCE_PLIES);
                fractions.set(fractions.get() + usize::from(v.1 != 1));
                v
            };
            let expected = plain_with(s, eval, view, depth, &horizon);
            if expected != plain(s, eval, view, depth) {
                changed += 1;
            }
            for (mode, history) in SEARCHES {
                let config = depth_config(depth, mode, Horizon::Quiescence, history);
                let mut a = Expectimax::new(eval.clone(), config);
                a.search(s, SearchContext::new(&mut rng, &mut |_| {}));
                let exact = a.exact_value().expect("completed");
                assert_eq!(
                    (exact.num(), exact.den()),
                    expected,
                    "{mode:?} (history {history}) depth {depth} at {s}"
                );
            }
        }
    }
    (changed, fractions.get())
}

/// With `quiesce`, every search returns exactly plain expectimax over the documented
/// quiescence values: on Hexstrat positions around its middle game (where squads stand
/// next to enemy ones and attacks are noisy), and on Coin Nim with an evaluator whose
/// noisy moves lead to chance nodes; on both the quiescence search changes some
/// values, and on Coin Nim chance below the horizon makes some of them fractions.
#[test]
fn quiescence_horizons_are_the_reference_values_and_every_mode_agrees() {
    use agon_engine::games::hexstrat::{Hexstrat, HexstratEval, MIDGAME};
    let mut start = Hexstrat::default().initial_state();
    agon_engine::play_moves(&mut start, MIDGAME).expect("legal");
    let (changed, fractions) =
        check_quiescence(&positions(&start, 12, 3), &HexstratEval::default());
    assert!(
        changed > 0,
        "no Hexstrat position where quiescence changed a value"
    );
    assert_eq!(fractions, 0, "no chance below a Hexstrat attack");
    let eval = TakeTwoIsNoisy(CoinNimEval::default());
    let (changed, fractions) = check_quiescence(&coin_nim_positions(), &eval);
    assert!(
        changed > 0,
        "no Coin Nim position where quiescence changed a value"
    );
    assert!(fractions > 0, "no chance met below a Coin Nim horizon");
}
