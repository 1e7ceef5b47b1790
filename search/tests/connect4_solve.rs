//! The `solve` agent proves known Connect Four results.
//!
//! # The test vectors
//!
//! Pascal Pons' Connect Four benchmark sets (blog.gamesolver.org, "Solving Connect 4",
//! part 2 "Test protocol"; his solver is github.com/PascalPons/connect4). Each line is a
//! position, written as the columns played from the start (`1` is our `a`, `7` our
//! `g`), and its exact score under perfect play. The sets are named by how far into the
//! game the position is and how far from its end:
//!
//! - `Test_L3_R1` (end-easy): more than 28 stones, fewer than 14 plies to go;
//! - `Test_L2_R1` (middle-easy): 15 to 28 stones, fewer than 14 plies to go;
//! - `Test_L2_R2` (middle-medium): 15 to 28 stones, 14 to 27 plies to go.
//!
//! The lines below were copied unchanged (move string and score) from the copies of
//! these files in the public repositories RaoulLuque/connect-rust
//! (`benchmark/Test_L3_R1`, `benchmarks/src/benchmarks/Test_L2_R2`) and, for
//! `Test_L2_R1`, the first hundred lines quoted in another public solver's test script.
//! They are facts about the game, not code.
//!
//! # From Pons' score to ours
//!
//! Pons scores a position from the side to move's view: `0` for a draw; `22 - k` if the
//! side to move wins with its `k`-th stone (so `1` is a win with one's 21st and last
//! stone); `-(22 - k)` if the opponent wins with its `k`-th stone. The `solve` agent
//! reports `Win(n)` / `Loss(n)`, `n` being the plies until the game ends. With `s`
//! stones on the board the side to move has `s / 2` stones (rounded down) and the
//! opponent `s - s / 2`, so (see [`pons_value`]):
//!
//! - a win with the `k`-th stone: the side to move plays `k - s / 2` more stones, with
//!   an opponent's stone between each two: `n = 2 (k - s / 2) - 1`;
//! - a loss to the opponent's `k`-th stone: the opponent plays `k - (s - s / 2)` more
//!   stones, each after one of ours: `n = 2 (k - (s - s / 2))`.
//!
//! Both sides of the comparison rank results the same way (a faster win or a slower
//! loss is better), so the optimal distance is the same number under either scale. The
//! conversion is checked against a plain memoised negamax written here (a 7 × 6 array,
//! sharing no code with the engine or the search crate) on the positions with the
//! fewest empty cells.
//!
//! # What runs where
//!
//! - CI (every test run): at least 20 positions with 16 or more stones, wins, draws and
//!   losses, several won or lost only after 17 to 24 more plies. Each proof is a fresh
//!   agent built by the registry (`solve:hash=64`), as the CLI builds it.
//! - `#[ignore]`d: the slowest `Test_L2_R2` lines (seconds each), and the first-move
//!   facts: after `d` the second player loses, after `c` or `e` it is a draw, after any
//!   other first move the second player wins. Run them in release:
//!   `cargo test --release -p agon-search --test search -- --ignored --nocapture connect4_solve::`.

use std::collections::HashMap;
use std::time::Instant;

use agon_engine::games::connect4::{Connect4, Connect4Eval, Connect4State};
use agon_engine::{play_moves, Game, Params, State};
use agon_search::registry::build;
use agon_search::{Agent, AgentKind, AgentRng, SearchContext, SearchResult, Value};
use rand::SeedableRng;

/// `Test_L3_R1` (end-easy): (line of the file, moves, Pons' score), a mix of results.
const END_EASY: &[Vector] = &[
    (1, "2252576253462244111563365343671351441", -1),
    (2, "7422341735647741166133573473242566", 1),
    (3, "23163416124767223154467471272416755633", 0),
    (4, "71255763773133525731261364622167124446454", 0),
    (6, "52677675164321472411331752454", 0),
    (13, "67152117737262713366376314254", 6),
    (17, "427566236745127177115664464254", 2),
    (26, "12156756715535615116237724723", -2),
    (30, "5577777735365512235162362241426611", -3),
    (33, "3432357517256661231652672362571175", 3),
    (37, "24555313265147651622632244317534477", 3),
    (39, "27573772361321663724362213661574", 2),
];

/// `Test_L2_R1` (middle-easy), 16 stones or more.
const MIDDLE_EASY: &[Vector] = &[
    (1, "5554224333234511764415115", 4),
    (3, "1233722555341451114725221333", -1),
    (5, "6672375354252731116762237724", -2),
    (10, "21253774536432517717274325", 2),
    (11, "715371563635542612576371", 3),
    (24, "1667675535724753771415352132", 1),
    (28, "7532455277545526", -10),
    (29, "2737772244262123677516643354", 0),
    (34, "6561461362133747245312317267", 0),
    (35, "3111642212167362762555645527", -2),
    (38, "3262221111647466", -12),
    (46, "16773414341241421774376322", -5),
    (53, "137616613112365341", 6),
];

/// `Test_L2_R2` (middle-medium) lines, 16 stones or more, that `solve` proves in about
/// a second or less each in the test profile.
const MIDDLE_MEDIUM: &[Vector] = &[
    (4, "37313333717124171162542", 3),
    (6, "24617524315172127", 2),
    (7, "6242432155656447531617622", 0),
    (10, "7441746225252552", 2),
    (11, "7225753363613131156611", -3),
    (12, "246767232112661771721576", 1),
    (15, "1113222154334225", 0),
    (18, "52446155614451175", -4),
    (19, "444712564755311374", 4),
    (21, "71324677554451437653", 0),
    (23, "11175617456367267331", 0),
    (24, "11163142533736577", 2),
    (25, "16633611716233262", -3),
    (26, "1644512363271225114", 0),
];

/// `Test_L2_R2` lines that take seconds each (the `#[ignore]`d test).
const MIDDLE_MEDIUM_SLOW: &[Vector] = &[
    (2, "5455174361263362", -1),
    (3, "2531276566711153", 2),
    (5, "6614446666373154", -4),
    (8, "4642332434166445", -2),
    (9, "165713352355467777", 3),
    (14, "6323454652623215", -2),
    (33, "2521714167472245144277371", 0),
    (47, "5444347311237447", -5),
    (59, "1743447634223242", -5),
    (62, "6332211531713335", 3),
    (63, "7714772136634341", -1),
];

/// One test vector: its line in Pons' file, the columns played (`1`-`7`), his score.
type Vector = (u32, &'static str, i32);

/// Table size for the CI proofs: the hardest of them fills a fraction of it.
const CI_HASH_MB: i64 = 64;

/// The position after Pons' column digits `1`-`7`, played by the engine (each move
/// checked).
fn position(digits: &str) -> Connect4State {
    let moves: Vec<String> = digits
        .chars()
        .map(|c| {
            let column = c.to_digit(10).filter(|d| (1..=7).contains(d));
            let column = column.unwrap_or_else(|| panic!("{digits}: bad column {c:?}"));
            char::from(b'a' + column as u8 - 1).to_string()
        })
        .collect();
    let mut state = Connect4.initial_state();
    play_moves(&mut state, &moves.join(" ")).unwrap_or_else(|e| panic!("{digits}: {e}"));
    state
}

/// Pons' score of a position with `stones` stones, as the value the `solve` agent
/// reports (see the module docs).
fn pons_value(score: i32, stones: u32) -> Value {
    let stones = stones as i32;
    let mine = stones / 2;
    let theirs = stones - mine;
    match score {
        0 => Value::Draw,
        s if s > 0 => Value::Win((2 * (22 - s - mine) - 1) as u32),
        s => Value::Loss((2 * (22 + s - theirs)) as u32),
    }
}

/// A `solve` agent built by the registry, as the CLI builds
/// `solve:hash=<hash_mb>[,time=<time>][,wdl=true]`.
fn solver(hash_mb: i64, time: Option<&str>, wdl: bool) -> Box<dyn Agent<Connect4State>> {
    let hash = hash_mb.to_string();
    let mut overrides = vec![
        ("hash", hash.as_str()),
        ("wdl", if wdl { "true" } else { "false" }),
    ];
    overrides.extend(time.map(|t| ("time", t)));
    let params =
        Params::parse(AgentKind::Solve.info().params, &overrides).expect("valid parameters");
    build(AgentKind::Solve, &params, Connect4Eval::default()).expect("solve builds")
}

/// Proves `digits` with a fresh agent; prints the result and its time.
fn prove(digits: &str, hash_mb: i64) -> SearchResult<<Connect4State as State>::Move> {
    let state = position(digits);
    let t = Instant::now();
    let mut agent = solver(hash_mb, None, false);
    let r = agent.search(
        &state,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
    );
    eprintln!(
        "{digits} ({} stones): {} in {:.2?}, {} nodes",
        digits.len(),
        r.value,
        t.elapsed(),
        r.nodes
    );
    r
}

/// Proves every line of `set` and compares with Pons' score; returns the failures.
fn check_set(set: &[Vector], hash_mb: i64) -> Vec<String> {
    let mut failures = Vec::new();
    for &(line, digits, score) in set {
        let expected = pons_value(score, digits.len() as u32);
        let r = prove(digits, hash_mb);
        let state = position(digits);
        let legal = r.best.is_some_and(|m| state.clone().try_apply(m).is_ok());
        if r.value != expected || !legal {
            failures.push(format!(
                "line {line}, {digits} (Pons {score}): expected {expected}, solve says {} with move {:?}",
                r.value, r.best
            ));
        }
    }
    failures
}

#[test]
fn pons_scores_convert_to_plies() {
    // Wins and losses at once: 1 ply to a win with the next stone, 2 plies to a loss to
    // the opponent's next stone.
    assert_eq!(pons_value(21 - 20, 40), Value::Win(1)); // 21st stone, red to move
    assert_eq!(pons_value(22 - 21, 41), Value::Win(1)); // 21st stone, yellow to move
    assert_eq!(pons_value(-(22 - 21), 40), Value::Loss(2));
    assert_eq!(pons_value(-(22 - 20), 37), Value::Loss(2));
    // A game that fills the board: red's 21st stone is the 41st on the board.
    assert_eq!(pons_value(1, 0), Value::Win(41));
    assert_eq!(pons_value(-1, 1), Value::Loss(40));
    assert_eq!(pons_value(0, 17), Value::Draw);
    // The brute force below reproduces the conversion on the easiest positions of every
    // set (at most 13 empty cells).
    let mut checked = 0;
    for &(_, digits, score) in END_EASY.iter().chain(MIDDLE_EASY) {
        if digits.len() < 29 {
            continue;
        }
        let brute = Brute::from_digits(digits).value(&mut HashMap::new());
        assert_eq!(
            brute,
            pons_value(score, digits.len() as u32),
            "{digits} (Pons {score})"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} positions brute-forced");
}

#[test]
fn the_ci_set_is_what_the_issue_asks_for() {
    let all: Vec<Vector> = [END_EASY, MIDDLE_EASY, MIDDLE_MEDIUM].concat();
    assert!(all.len() >= 20, "{} positions", all.len());
    assert!(all.iter().all(|(_, d, _)| d.len() >= 16));
    let values: Vec<Value> = all
        .iter()
        .map(|&(_, d, s)| pons_value(s, d.len() as u32))
        .collect();
    let wins = values.iter().filter(|v| matches!(v, Value::Win(_))).count();
    let losses = values
        .iter()
        .filter(|v| matches!(v, Value::Loss(_)))
        .count();
    let draws = values.iter().filter(|v| **v == Value::Draw).count();
    assert!(
        wins >= 8 && losses >= 8 && draws >= 8,
        "{wins} {losses} {draws}"
    );
    let distant = values
        .iter()
        .filter(|v| matches!(v, Value::Win(n) | Value::Loss(n) if *n >= 17))
        .count();
    assert!(distant >= 5, "{distant} distant results");
    // Every line is a legal game that is not over.
    for &(_, d, _) in &all {
        assert!(position(d).outcome().is_none(), "{d}");
    }
}

#[test]
fn solve_proves_end_easy_positions() {
    let failures = check_set(END_EASY, CI_HASH_MB);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn solve_proves_middle_easy_positions() {
    let failures = check_set(MIDDLE_EASY, CI_HASH_MB);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn solve_proves_middle_medium_positions() {
    let failures = check_set(MIDDLE_MEDIUM, CI_HASH_MB);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
#[ignore = "Test_L2_R2 lines of seconds each: about 30 seconds in release"]
fn solve_proves_slow_middle_medium_positions() {
    let failures = check_set(MIDDLE_MEDIUM_SLOW, 1024);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Table size for the first-move proofs (MiB): as large as the 24 GiB test machine
/// comfortably holds next to other work; a proof of this size visits far more
/// positions than any table holds, so more is better.
const FIRST_MOVE_HASH_MB: i64 = 4096;

/// Proves the result (win, draw or loss) of the position
/// after the first move `column` for the second player, to move there, with the
/// solver's `wdl` mode. The expected results come from Pons' solver's scores of the
/// seven first moves, -2 -1 0 1 0 -1 -2 for `a` to `g` from the first player's view
/// (connect4.gamesolver.org's analysis of the empty board), converted as for the test
/// sets; `wdl` reports a win or loss within some number of plies, not the exact
/// distance, so only the kind of result is compared.
///
/// With `AGON_PROOF_TIME` set (a duration such as `1200s`) the search stops there and,
/// unproven, fails with how far it got (prints every completed iteration on the way).
fn first_move(column: char, expected: Value) {
    let digit = char::from(b'1' + (column as u8 - b'a'));
    let state = position(&digit.to_string());
    let time = std::env::var("AGON_PROOF_TIME").ok();
    let mut agent = solver(FIRST_MOVE_HASH_MB, time.as_deref(), true);
    let t = Instant::now();
    let r = agent.search(
        &state,
        SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |i| {
            eprintln!(
                "after {column}: depth {} value {} nodes {} at {:.1?}",
                i.depth, i.value, i.nodes, i.time
            );
        }),
    );
    eprintln!(
        "after {column}: {} in {:.1?}, {} nodes",
        r.value,
        t.elapsed(),
        r.nodes
    );
    assert_eq!(
        result_kind(r.value),
        result_kind(expected),
        "after {column}: {} at depth {}, {} nodes in {:.1?}",
        r.value,
        r.depth,
        r.nodes,
        r.time
    );
}

/// `1` for a win, `0` for a draw, `-1` for a loss; `None` for an unproven value.
fn result_kind(v: Value) -> Option<i32> {
    match v {
        Value::Win(_) => Some(1),
        Value::Draw => Some(0),
        Value::Loss(_) => Some(-1),
        Value::Score(_) | Value::Reward(_) => None,
    }
}

#[test]
fn wdl_mode_finds_the_same_results_with_bounded_distances() {
    // `wdl=true` proves the kind of result only, with a bound on the distance: a win
    // within n plies (so n is at least the fastest win) or a loss within n plies (the
    // opponent wins within n whatever we do, so n is at least the slowest loss).
    for &(line, digits, score) in END_EASY.iter().chain(MIDDLE_EASY) {
        let exact = pons_value(score, digits.len() as u32);
        let mut agent = solver(CI_HASH_MB, None, true);
        let r = agent.search(
            &position(digits),
            SearchContext::new(&mut AgentRng::seed_from_u64(0), &mut |_| {}),
        );
        let at = format!("line {line}, {digits}: exact {exact}, wdl {}", r.value);
        assert_eq!(result_kind(r.value), result_kind(exact), "{at}");
        // A lost position fails low at the root, but a move is still played.
        let legal = r
            .best
            .is_some_and(|m| position(digits).try_apply(m).is_ok());
        assert!(legal, "{at}: move {:?}", r.best);
        match (r.value, exact) {
            (Value::Win(n), Value::Win(fastest)) => assert!(n >= fastest, "{at}"),
            (Value::Loss(n), Value::Loss(slowest)) => assert!(n >= slowest, "{at}"),
            _ => {}
        }
    }
}

#[test]
fn first_move_scores_convert_as_expected() {
    // The second player's view after each first move, as the ignored proofs assert.
    let scores = [-2, -1, 0, 1, 0, -1, -2];
    let values: Vec<Value> = scores.iter().map(|&s| pons_value(-s, 1)).collect();
    assert_eq!(
        values,
        [
            Value::Win(39),
            Value::Win(41),
            Value::Draw,
            Value::Loss(40),
            Value::Draw,
            Value::Win(41),
            Value::Win(39),
        ]
    );
}

#[test]
#[ignore = "a full Connect Four proof (wdl): release build, hash=4096, long"]
fn after_a_the_second_player_wins() {
    first_move('a', Value::Win(39));
}

#[test]
#[ignore = "a full Connect Four proof (wdl): release build, hash=4096, long"]
fn after_b_the_second_player_wins() {
    first_move('b', Value::Win(41));
}

#[test]
#[ignore = "a full Connect Four proof (wdl): release build, hash=4096, long"]
fn after_c_it_is_a_draw() {
    first_move('c', Value::Draw);
}

#[test]
#[ignore = "a full Connect Four proof (wdl): release build, hash=4096, long"]
fn after_d_the_second_player_loses() {
    first_move('d', Value::Loss(40));
}

#[test]
#[ignore = "a full Connect Four proof (wdl): release build, hash=4096, long"]
fn after_e_it_is_a_draw() {
    first_move('e', Value::Draw);
}

#[test]
#[ignore = "a full Connect Four proof (wdl): release build, hash=4096, long"]
fn after_f_the_second_player_wins() {
    first_move('f', Value::Win(41));
}

#[test]
#[ignore = "a full Connect Four proof (wdl): release build, hash=4096, long"]
fn after_g_the_second_player_wins() {
    first_move('g', Value::Win(39));
}

/// The independent reference: a plain 7 × 6 array (`cells[column][row]`, row 0 at the
/// bottom; 0 empty, 1 the first player, 2 the second) and a memoised negamax over it
/// with no pruning and no move ordering.
#[derive(Clone)]
struct Brute {
    cells: [[u8; 6]; 7],
    stones: usize,
}

/// A brute-force score: `WIN - n` for a win in `n` plies, `-(WIN - n)` for a loss in
/// `n`, 0 for a draw (`n` is at most 42, so the three never meet).
const WIN: i32 = 100;

impl Brute {
    /// The position after Pons' digits; panics on a full column or a finished game.
    fn from_digits(digits: &str) -> Brute {
        let mut b = Brute {
            cells: [[0; 6]; 7],
            stones: 0,
        };
        for c in digits.chars() {
            let column = c.to_digit(10).expect("a digit") as usize - 1;
            let row = b.height(column);
            assert!(row < 6, "{digits}: column {c} is full");
            assert!(!b.drop_wins(column, row), "{digits}: the game is over");
            b.cells[column][row] = b.mover();
            b.stones += 1;
        }
        b
    }

    fn height(&self, column: usize) -> usize {
        self.cells[column].iter().take_while(|&&c| c != 0).count()
    }

    /// The colour to move (1 or 2).
    fn mover(&self) -> u8 {
        1 + (self.stones % 2) as u8
    }

    /// Whether the mover's stone at `(column, row)` would make four in a row: for each
    /// of the four lines through it, the run of the mover's stones on both sides.
    fn drop_wins(&self, column: usize, row: usize) -> bool {
        let me = self.mover();
        let run = |dc: i32, dr: i32| {
            let mut n = 0;
            let (mut c, mut r) = (column as i32 + dc, row as i32 + dr);
            while (0..7).contains(&c)
                && (0..6).contains(&r)
                && self.cells[c as usize][r as usize] == me
            {
                n += 1;
                c += dc;
                r += dr;
            }
            n
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dc, dr)| 1 + run(dc, dr) + run(-dc, -dr) >= 4)
    }

    /// The position's key for the memo: two bits per cell.
    fn key(&self) -> u128 {
        let mut k = 0u128;
        for column in &self.cells {
            for &cell in column {
                k = k << 2 | u128::from(cell);
            }
        }
        k
    }

    /// The exact value for the side to move, as a [`Value`].
    fn value(&self, memo: &mut HashMap<u128, i32>) -> Value {
        match self.score(memo) {
            0 => Value::Draw,
            s if s > 0 => Value::Win((WIN - s) as u32),
            s => Value::Loss((WIN + s) as u32),
        }
    }

    /// Negamax score (see [`WIN`]) of a position where the game goes on.
    fn score(&self, memo: &mut HashMap<u128, i32>) -> i32 {
        if let Some(&s) = memo.get(&self.key()) {
            return s;
        }
        let mut best = -WIN;
        for column in 0..7 {
            let row = self.height(column);
            if row == 6 {
                continue;
            }
            let s = if self.drop_wins(column, row) {
                WIN - 1
            } else if self.stones == 41 {
                0
            } else {
                let mut next = self.clone();
                next.cells[column][row] = self.mover();
                next.stones += 1;
                // One ply further from the end, from the other side's view.
                let child = next.score(memo);
                -child + child.signum()
            };
            best = best.max(s);
        }
        memo.insert(self.key(), best);
        best
    }
}
