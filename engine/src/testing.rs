//! The conformance suite every game must pass, as a reusable harness, plus a tiny chance
//! game ([`coin_nim`]) that exercises chance nodes and same-seat consecutive decisions.
//!
//! [`check_conformance`] plays seeded random playouts and checks, at every node, the
//! contracts documented on [`State`] (at chance nodes, also that
//! [`State::common_outcome`] gives one of the outcomes, with [`SeededLuck`], and that
//! [`FastPlayout::outcome_for_draw`](crate::game::FastPlayout::outcome_for_draw) gives the listed outcome for every draw value; at
//! decisions, that [`FastPlayout::move_for_draw`](crate::game::FastPlayout::move_for_draw) gives the listed move for every index and
//! that a pie swap is offered exactly at [`Game::pie_swap_decision`]), and over the
//! whole run that the game's declaration of chance ([`State::Chance`]) matches play. Failures come back as an `Err` naming the node (the
//! move list from the start) and the broken property, so a test can also show that the
//! harness catches a deliberately broken game.
//!
//! ```
//! use agon_engine::testing::{check_conformance, coin_nim::CoinNim, Conformance};
//! use agon_engine::Game;
//! let report = check_conformance(&CoinNim::default(), &Conformance { playouts: 50, ..Conformance::default() }).unwrap();
//! assert_eq!(report.playouts, 50);
//! ```

mod actions;
pub mod coin_nim;
mod encoding;
pub mod extreme_weights;
mod pictures;

pub use actions::{check_action_ids, play_with_ids, ActionReport};
pub use encoding::{check_encoding, check_move_changes, views, EncodingReport};
pub use pictures::{check_adjacency, check_pictures};

use std::fmt::Write as _;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{
    has_chance, sample_outcome, EndReason, Game, Move, Outcome, PieRule, State, Turn,
};
use crate::luck::{pick_weighted, uniform_below, EventId, Luck};

/// A [`Luck`] for tests: draw `d` of event `e` comes from the ChaCha8 generator keyed by
/// the little-endian words `seed`, `e`, 0, 0 at stream `d`, exactly uniform by rejection
/// of the 64-bit words at or above the largest multiple of `n`.
#[derive(Clone, Copy, Debug)]
pub struct SeededLuck(pub u64);

impl Luck for SeededLuck {
    fn below(&self, event: EventId, draw: u32, n: u64) -> u64 {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&self.0.to_le_bytes());
        key[8..16].copy_from_slice(&event.0.to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(u64::from(draw));
        uniform_below(&mut rng, n)
    }
}

/// How much checking [`check_conformance`] does.
#[derive(Clone, Debug)]
pub struct Conformance {
    /// Number of seeded random playouts, each from the initial state to the end.
    pub playouts: usize,
    /// Seed of the playouts' random choices.
    pub seed: u64,
    /// A playout longer than this many plies is a failure (the game must end).
    pub max_plies: u32,
    /// At how many nodes per playout (spread evenly) to look for transpositions: two
    /// move orders that reach the same position must give the same hash.
    pub transposition_probes: usize,
    /// The game's length cap, if it has one: every game it ends ([`EndReason::Cap`]) must have
    /// exactly its limit of what it counts ([`State::turns`], or the decisions played).
    pub cap: Option<Cap>,
    /// Whether this configuration of a game with chance may end every playout before any
    /// chance event (a degenerate size, such as one stone of Coin Nim), so that meeting
    /// none is not a failure. Off by default: a game declared with chance must meet it.
    pub chance_optional: bool,
}

/// A game's length cap, as [`check_conformance`] checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cap {
    /// What the cap counts.
    pub unit: CapUnit,
    /// How many of them end the game.
    pub limit: u32,
}

/// What a length cap counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapUnit {
    /// Turns, as [`State::turns`] counts them.
    Turns,
    /// Decisions of both seats (plies at `Turn::Seat`; chance outcomes not counted).
    Decisions,
}

impl Default for Conformance {
    fn default() -> Self {
        Conformance {
            playouts: 1000,
            seed: 1,
            max_plies: 100_000,
            transposition_probes: 4,
            cap: None,
            chance_optional: false,
        }
    }
}

/// What a passing run covered, so that a test can check that it checked something.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConformanceReport {
    /// Playouts run.
    pub playouts: usize,
    /// Nodes visited (every node was fully checked).
    pub nodes: u64,
    /// Chance nodes among them.
    pub chance_nodes: u64,
    /// Distinct move orders found to reach an equal position (all hashed equally).
    pub transpositions: u64,
    /// Longest playout, in plies.
    pub longest: u32,
    /// Finished games by end reason.
    pub end_reasons: Vec<(&'static str, u64)>,
}

/// Runs the conformance suite on `game`. See the module docs.
pub fn check_conformance<G: Game>(
    game: &G,
    cfg: &Conformance,
) -> Result<ConformanceReport, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut report = ConformanceReport::default();
    let mut pool: Vec<<G::State as State>::Move> = Vec::new();
    for playout in 0..cfg.playouts {
        let mut state = game.initial_state();
        let mut line: Vec<String> = Vec::new();
        let mut decisions = 0u32;
        if state.turns() != 0 {
            return Err(format!(
                "playout {playout}: the initial state has begun {} turns",
                state.turns()
            ));
        }
        let probe_every = (20 / cfg.transposition_probes.max(1)).max(1) as u32;
        loop {
            let at = |line: &[String]| format!("playout {playout}, after [{}]", line.join(" "));
            check_node(&state, &mut pool, &mut rng).map_err(|e| format!("{}: {e}", at(&line)))?;
            report.nodes += 1;
            if cfg.transposition_probes > 0 && state.ply() % probe_every == 0 && state.ply() < 20 {
                report.transpositions += check_transpositions(&state, &mut rng)
                    .map_err(|e| format!("{}: {e}", at(&line)))?;
            }
            let m = match state.turn() {
                Turn::Over => {
                    let reason = state.end_reason().expect("checked by check_node");
                    check_cap(cfg.cap, &state, reason, decisions)
                        .map_err(|e| format!("{}: {e}", at(&line)))?;
                    let reason = reason.word();
                    match report.end_reasons.iter_mut().find(|(r, _)| *r == reason) {
                        Some((_, n)) => *n += 1,
                        None => report.end_reasons.push((reason, 1)),
                    }
                    break;
                }
                Turn::Chance => {
                    report.chance_nodes += 1;
                    sample_outcome(&state, &mut rng)
                }
                Turn::Seat(_) => {
                    let mut moves = Vec::new();
                    state.legal_moves(&mut moves);
                    // The swap is offered exactly where the game says (and nowhere else).
                    let offered = moves.iter().any(|&m| state.is_pie_swap(m));
                    if offered != (game.pie_swap_decision() == Some(decisions)) {
                        return Err(format!(
                            "{}: after {decisions} decisions a pie swap is {}offered, but \
                             pie_swap_decision() is {:?}",
                            at(&line),
                            if offered { "" } else { "not " },
                            game.pie_swap_decision()
                        ));
                    }
                    decisions += 1;
                    moves[rng.random_range(0..moves.len())]
                }
            };
            line.push(state.format_move(m));
            state.apply(m);
            if state.ply() > cfg.max_plies {
                return Err(format!(
                    "{}: game not over after {} plies",
                    at(&line),
                    cfg.max_plies
                ));
            }
        }
        report.longest = report.longest.max(state.ply());
        report.playouts += 1;
    }
    check_chance_declaration(has_chance::<G::State>(), cfg.chance_optional, &report)?;
    report.end_reasons.sort();
    Ok(report)
}

/// The game's declaration of chance ([`State::Chance`]) against what its playouts met:
/// a game declared without chance must never reach a chance node (alpha-beta would be
/// compiled for it), and one declared with chance must reach one (else the declaration,
/// or the playouts, are wrong, and alpha-beta is refused for nothing), unless the
/// configuration may skip chance (`optional`).
fn check_chance_declaration(
    declared: bool,
    optional: bool,
    report: &ConformanceReport,
) -> Result<(), String> {
    match (declared, report.chance_nodes) {
        (false, met @ 1..) => Err(format!(
            "the game declares no chance (State::Chance = NoChance) but its playouts met \
             {met} chance nodes"
        )),
        (true, 0) if report.playouts > 0 && !optional => Err(format!(
            "the game declares chance (State::Chance = WithChance) but {} playouts met no \
             chance node",
            report.playouts
        )),
        _ => Ok(()),
    }
}

/// [`State::turns`] after each move of `moves` (notation, space-separated) played from
/// `start`, each move checked: the per-game tests compare it with hand-counted turns.
pub fn turns_along<S: State>(start: &S, moves: &str) -> Result<Vec<u32>, crate::MoveError> {
    let mut state = start.clone();
    let mut turns = Vec::new();
    for text in moves.split_whitespace() {
        let m = state.parse_move(text)?;
        state.try_apply(m)?;
        turns.push(state.turns());
    }
    Ok(turns)
}

/// At the end of a game: a game ended by the cap has exactly the cap's count.
fn check_cap<S: State>(
    cap: Option<Cap>,
    state: &S,
    reason: EndReason,
    decisions: u32,
) -> Result<(), String> {
    let Some(cap) = cap.filter(|_| reason == EndReason::Cap) else {
        return Ok(());
    };
    let (count, unit) = match cap.unit {
        CapUnit::Turns => (state.turns(), "turns"),
        CapUnit::Decisions => (decisions, "decisions"),
    };
    if count == cap.limit {
        Ok(())
    } else {
        Err(format!(
            "ended by the cap ({reason}) after {count} {unit}, not {}",
            cap.limit
        ))
    }
}

/// [`LengthCap::cap_reset`](crate::game::LengthCap::cap_reset)'s contract at `state`, whose legal `moves` and chance `outcomes`
/// are given: a hash consistent with the reset position, its own reset, and (unless the
/// game is over) the same choices.
fn check_cap_reset<S: State>(
    state: &S,
    moves: &[S::Move],
    outcomes: &[(S::Move, u32)],
) -> Result<(), String> {
    let reset = state.cap_reset();
    if reset.hash() != reset.recompute_hash() || reset.cap_reset() != reset {
        return Err("cap_reset gives a state with a stale hash or is not its own reset".into());
    }
    if state.turn() != Turn::Over {
        let (mut reset_moves, mut reset_outcomes) = (Vec::new(), Vec::new());
        reset.legal_moves(&mut reset_moves);
        reset.chance_outcomes(&mut reset_outcomes);
        if reset.turn() != state.turn() || reset_moves != moves || reset_outcomes != outcomes {
            return Err("cap_reset changes the turn, the moves or the chance outcomes".into());
        }
    }
    Ok(())
}

/// [`NullMove::null_move`](crate::game::NullMove::null_move)'s contract at `state`: a pass
/// only at a decision, to the other seat, into a game not over, with a consistent hash,
/// and undone exactly.
fn check_null_move<S: State>(state: &S) -> Result<(), String> {
    let mut passed = state.clone();
    let Some(undo) = passed.null_move() else {
        return if passed == *state && passed.hash() == state.hash() {
            Ok(())
        } else {
            Err("null_move declined but changed the state".into())
        };
    };
    let Turn::Seat(mover) = state.turn() else {
        return Err(format!("null_move passed at {:?}", state.turn()));
    };
    if passed.turn() != Turn::Seat(1 - mover) {
        return Err(format!(
            "null_move by seat {mover} gave the turn to {:?}",
            passed.turn()
        ));
    }
    if passed.hash() != passed.recompute_hash() {
        return Err("null_move left a stale hash".into());
    }
    passed.undo(undo);
    if passed != *state || passed.hash() != state.hash() {
        return Err("undoing null_move does not restore the state".into());
    }
    Ok(())
}

/// Every per-node property; `pool` collects moves seen elsewhere to try as illegal moves.
fn check_node<S: State>(
    state: &S,
    pool: &mut Vec<S::Move>,
    rng: &mut ChaCha8Rng,
) -> Result<(), String> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut outcomes = Vec::new();
    state.chance_outcomes(&mut outcomes);
    if state.hash() != state.recompute_hash() {
        return Err(format!(
            "hash {:#x} != recompute_hash {:#x}",
            state.hash(),
            state.recompute_hash()
        ));
    }
    check_cap_reset(state, &moves, &outcomes)?;
    check_null_move(state)?;
    let (sides0, sides1) = (state.side(0), state.side(1));
    if sides0.is_empty() || sides0 == sides1 {
        return Err(format!("seats play sides {sides0:?} and {sides1:?}"));
    }
    let turn = state.turn();
    let over = turn == Turn::Over;
    if state.end().is_some() != over {
        return Err(format!("turn {turn:?} but end {:?}", state.end()));
    }
    if let Some(outcome) = state.outcome() {
        if outcome.score(0) + outcome.score(1) != 0 {
            return Err(format!("outcome {outcome:?} does not sum to zero"));
        }
    }
    let choices: Vec<S::Move> = match turn {
        Turn::Over => {
            if !moves.is_empty() || !outcomes.is_empty() {
                return Err("a finished game offers moves or chance outcomes".into());
            }
            Vec::new()
        }
        Turn::Seat(seat) => {
            if seat > 1 {
                return Err(format!("seat {seat} to move"));
            }
            if moves.is_empty() || !outcomes.is_empty() {
                return Err(format!(
                    "a decision node has {} moves and {} chance outcomes",
                    moves.len(),
                    outcomes.len()
                ));
            }
            check_moves_for_draws(state, &moves)?;
            moves.clone()
        }
        Turn::Chance => {
            if outcomes.is_empty() || !moves.is_empty() {
                return Err(format!(
                    "a chance node has {} chance outcomes and {} moves",
                    outcomes.len(),
                    moves.len()
                ));
            }
            if let Some(&(m, w)) = outcomes.iter().find(|&&(_, w)| w == 0) {
                return Err(format!(
                    "chance outcome {} has weight {w}",
                    state.format_move(m)
                ));
            }
            // Common random numbers give one of the outcomes (a luck keyed by the
            // position, so the playout's own stream is untouched).
            let common = state.common_outcome(&SeededLuck(state.hash()));
            if !outcomes.iter().any(|&(m, _)| m == common) {
                return Err(format!(
                    "common_outcome gives {}, not a chance outcome here",
                    state.format_move(common)
                ));
            }
            check_outcomes_for_draws(state, &outcomes)?;
            outcomes.iter().map(|&(m, _)| m).collect()
        }
    };
    if choices.len() > state.max_moves() {
        return Err(format!(
            "{} choices exceed max_moves {}",
            choices.len(),
            state.max_moves()
        ));
    }
    let mut sorted = choices.clone();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("move {} listed twice", state.format_move(w[0])));
    }
    let debug_before = format!("{state:?}");
    let checked_for_debug = if choices.is_empty() {
        0
    } else {
        rng.random_range(0..choices.len())
    };
    let mut possible_wins = moves.clone();
    if !possible_wins.is_empty() {
        state.retain_possible_wins(&mut possible_wins);
    }
    let promises = NodePromises {
        possible_wins: &possible_wins,
        may_end: state.any_move_may_end_game(),
        may_win: state.may_win_now(),
    };
    for (i, &m) in choices.iter().enumerate() {
        check_move(state, m, &promises, i == checked_for_debug, &debug_before)?;
        pool.push(m);
    }
    // Moves legal elsewhere but not here must be refused without changing the state.
    let pool_len = pool.len();
    for _ in 0..pool_len.min(8) {
        let m = pool[rng.random_range(0..pool_len)];
        if sorted.binary_search(&m).is_ok() {
            continue;
        }
        let mut copy = state.clone();
        if copy.try_apply(m).is_ok() {
            return Err(format!(
                "try_apply accepted {} which is not listed as legal",
                state.format_move(m)
            ));
        }
        if copy != *state || copy.hash() != state.hash() || format!("{copy:?}") != debug_before {
            return Err(format!(
                "a refused try_apply({}) changed the state",
                state.format_move(m)
            ));
        }
    }
    if pool.len() > 4096 {
        pool.drain(..2048);
    }
    check_parse_never_panics(state, &choices, rng)
}

/// [`FastPlayout::outcome_for_draw`](crate::game::FastPlayout::outcome_for_draw) asks for one draw below the total weight and, for every
/// draw value, gives the outcome that [`pick_weighted`] over `outcomes` gives.
fn check_outcomes_for_draws<S: State>(
    state: &S,
    outcomes: &[(S::Move, u32)],
) -> Result<(), String> {
    let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
    let mut scratch = Vec::new();
    for pick in 0..total {
        let mut asked = Vec::new();
        let m = state.outcome_for_draw(
            |n| {
                asked.push(n);
                pick
            },
            &mut scratch,
        );
        if asked != [total] {
            return Err(format!(
                "outcome_for_draw asked for draws below {asked:?}, not once below the total \
                 weight {total}"
            ));
        }
        let expected = pick_weighted(outcomes, pick);
        if m != expected {
            return Err(format!(
                "outcome_for_draw gives {} for draw {pick}, the weights give {}",
                state.format_move(m),
                state.format_move(expected)
            ));
        }
    }
    Ok(())
}

/// What a node's own tests promise about all its moves at once: the moves
/// `retain_possible_wins` kept, and the answers of `any_move_may_end_game` and
/// `may_win_now`.
struct NodePromises<'a, M> {
    possible_wins: &'a [M],
    may_end: bool,
    may_win: bool,
}

/// [`FastPlayout::move_for_draw`](crate::game::FastPlayout::move_for_draw) asks for one draw below the number of legal moves and, for
/// every index, gives the legal move there.
fn check_moves_for_draws<S: State>(state: &S, moves: &[S::Move]) -> Result<(), String> {
    let mut scratch = Vec::new();
    for (index, &expected) in (0u32..).zip(moves) {
        let mut asked = Vec::new();
        let m = state.move_for_draw(
            |n| {
                asked.push(n);
                index
            },
            &mut scratch,
        );
        if asked != [moves.len() as u32] {
            return Err(format!(
                "move_for_draw asked for draws below {asked:?}, not once below the {} legal \
                 moves",
                moves.len()
            ));
        }
        if m != expected {
            return Err(format!(
                "move_for_draw gives {} for index {index}, legal_moves has {} there",
                state.format_move(m),
                state.format_move(expected)
            ));
        }
    }
    Ok(())
}

/// One legal move or outcome `m` of `state`: notation round trip, `try_apply` agrees
/// with `apply`, hashes stay consistent, a decision `may_end_game` rules out as an end
/// does not end the game, nor does any where `any_move_may_end_game` said no, one
/// missing from `retain_possible_wins`'s or where `may_win_now` said no does not win
/// it, and `undo` restores everything.
fn check_move<S: State>(
    state: &S,
    m: S::Move,
    promises: &NodePromises<'_, S::Move>,
    compare_debug: bool,
    debug_before: &str,
) -> Result<(), String> {
    let text = state.format_move(m);
    if text.is_empty() || text.contains(char::is_whitespace) {
        return Err(format!("move {m:?} prints as {text:?}"));
    }
    match state.parse_move(&text) {
        Ok(back) if back == m => {}
        Ok(back) => return Err(format!("{text:?} parses back as {back:?}, not {m:?}")),
        Err(e) => return Err(format!("printed move does not parse: {e}")),
    }
    if <S::Move as Move>::unpack(m.pack()) != Some(m) {
        return Err(format!("move {text} does not survive pack/unpack"));
    }
    let mut applied = state.clone();
    let undo = applied.apply(m);
    let mut tried = state.clone();
    if let Err(e) = tried.try_apply(m) {
        return Err(format!("try_apply refused a legal move: {e}"));
    }
    if tried != applied || tried.hash() != applied.hash() {
        return Err(format!("try_apply({text}) and apply({text}) disagree"));
    }
    if applied.ply() != state.ply() + 1 {
        return Err(format!(
            "apply({text}) moved ply from {} to {}",
            state.ply(),
            applied.ply()
        ));
    }
    if applied.hash() != applied.recompute_hash() {
        return Err(format!("after {text}: hash != recompute_hash"));
    }
    let decision = matches!(state.turn(), Turn::Seat(_));
    if decision && applied.turn() == Turn::Over && !state.may_end_game(m) {
        return Err(format!(
            "may_end_game({text}) said no, but the move ends the game ({:?})",
            applied.end()
        ));
    }
    if decision && applied.turn() == Turn::Over && !promises.may_end {
        return Err(format!(
            "any_move_may_end_game said no, but {text} ends the game ({:?})",
            applied.end()
        ));
    }
    if let Turn::Seat(mover) = state.turn() {
        if applied.outcome() == Some(Outcome::Win(mover)) {
            if !promises.possible_wins.contains(&m) {
                return Err(format!(
                    "retain_possible_wins removed {text}, but the move wins the game ({:?})",
                    applied.end()
                ));
            }
            if !promises.may_win {
                return Err(format!(
                    "may_win_now said no, but {text} wins the game ({:?})",
                    applied.end()
                ));
            }
        }
    }
    let (before, after) = (state.turns(), applied.turns());
    if after < before.max(1) || after > before + 1 || after > applied.ply() {
        return Err(format!(
            "apply({text}) moved turns from {before} to {after} (ply {})",
            applied.ply()
        ));
    }
    applied.undo(undo);
    if applied != *state
        || applied.hash() != state.hash()
        || applied.ply() != state.ply()
        || applied.turns() != state.turns()
    {
        return Err(format!("undo({text}) did not restore the position"));
    }
    if compare_debug && format!("{applied:?}") != debug_before {
        return Err(format!("undo({text}) did not restore every field"));
    }
    Ok(())
}

/// Mangled and random texts must give errors (or legal moves), never panics.
fn check_parse_never_panics<S: State>(
    state: &S,
    choices: &[S::Move],
    rng: &mut ChaCha8Rng,
) -> Result<(), String> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789-x*~:+ ";
    let mut texts: Vec<String> = vec![String::new(), "pass".into(), "swap".into(), "zz99".into()];
    for _ in 0..3 {
        let mut t = String::new();
        for _ in 0..rng.random_range(1..8) {
            t.push(ALPHABET[rng.random_range(0..ALPHABET.len())] as char);
        }
        texts.push(t);
    }
    if let Some(&m) = choices.first() {
        let good = state.format_move(m);
        texts.push(format!("{good}{good}"));
        let mut chars: Vec<char> = good.chars().collect();
        let i = rng.random_range(0..chars.len());
        chars[i] = ALPHABET[rng.random_range(0..ALPHABET.len())] as char;
        texts.push(chars.into_iter().collect());
        texts.push(good[..good.len() - 1].to_string());
    }
    for text in texts {
        let parsed =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| state.parse_move(&text)));
        match parsed {
            Err(_) => return Err(format!("parse_move({text:?}) panicked")),
            Ok(Ok(m)) if !choices.contains(&m) => {
                return Err(format!(
                    "parse_move({text:?}) accepted an illegal move {m:?}"
                ));
            }
            Ok(Err(e)) if e.reason.is_empty() => {
                return Err(format!("parse_move({text:?}) gave no reason"))
            }
            Ok(_) => {}
        }
    }
    Ok(())
}

/// Looks for two orders of the same moves reaching an equal position (`a x b` against
/// `b x a`, and `a b` against `b a` for same-seat turns) and checks that equal positions
/// hash equally and, conversely, that unequal positions reached here hash differently.
/// Returns how many transpositions it found.
fn check_transpositions<S: State>(state: &S, rng: &mut ChaCha8Rng) -> Result<u64, String> {
    let mut found = 0;
    let first = choices_of(state);
    if first.len() < 2 {
        return Ok(0);
    }
    let mut reached: Vec<(S, String)> = Vec::new();
    for _ in 0..6 {
        let a = first[rng.random_range(0..first.len())];
        let b = first[rng.random_range(0..first.len())];
        if a == b {
            continue;
        }
        for line in [[a, b].as_slice(), [b, a].as_slice()] {
            if let Some(s) = play_line(state, line) {
                reached.push(s);
            }
        }
    }
    for i in 0..reached.len() {
        for j in i + 1..reached.len() {
            let (si, li) = &reached[i];
            let (sj, lj) = &reached[j];
            let equal = si == sj;
            if equal != (si.hash() == sj.hash()) {
                return Err(format!(
                    "[{li}] and [{lj}] reach {} positions with {} hashes",
                    if equal { "equal" } else { "different" },
                    if equal { "different" } else { "equal" }
                ));
            }
            if equal && li != lj {
                found += 1;
            }
        }
    }
    Ok(found)
}

/// Plays `line` from `state`, inserting one fixed reply by the other side between two
/// moves of a seat whose turn has ended (so `a x b` tests a real transposition). `None`
/// if a move of the line is not legal on the way.
fn play_line<S: State>(state: &S, line: &[S::Move]) -> Option<(S, String)> {
    let mut s = state.clone();
    let mover = s.turn();
    let mut text = String::new();
    for (k, &m) in line.iter().enumerate() {
        if k > 0 && s.turn() != mover {
            let replies = choices_of(&s);
            if replies.is_empty() {
                return None;
            }
            // The same rule picks the reply in both orders: the lowest move.
            let x = *replies.iter().min().expect("non-empty");
            let _ = write!(text, "{} ", s.format_move(x));
            s.apply(x);
        }
        if s.turn() != mover || !choices_of(&s).contains(&m) {
            return None;
        }
        let _ = write!(text, "{} ", s.format_move(m));
        s.apply(m);
    }
    Some((s, text.trim_end().to_string()))
}

/// Legal decisions, or chance outcomes, of `state`.
fn choices_of<S: State>(state: &S) -> Vec<S::Move> {
    let mut out = Vec::new();
    match state.turn() {
        Turn::Seat(_) => state.legal_moves(&mut out),
        Turn::Chance => {
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            out.extend(outcomes.into_iter().map(|(m, _)| m));
        }
        Turn::Over => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pig::{Pig, PigMove};
    use crate::play_moves;

    #[test]
    fn draws_answered_unlike_the_lists_are_caught() {
        let mut s = Pig::default().initial_state();
        assert_eq!(
            check_moves_for_draws(&s, &[PigMove::Roll, PigMove::Hold]),
            Ok(())
        );
        let swapped = check_moves_for_draws(&s, &[PigMove::Hold, PigMove::Roll]);
        assert!(swapped.unwrap_err().contains("for index 0"));
        let more = check_moves_for_draws(&s, &[PigMove::Roll, PigMove::Hold, PigMove::Face(2)]);
        assert!(more
            .unwrap_err()
            .contains("not once below the 3 legal moves"));
        play_moves(&mut s, "roll").unwrap();
        let faces: Vec<(PigMove, u32)> = (1..=6).map(|f| (PigMove::Face(f), 1)).collect();
        assert_eq!(check_outcomes_for_draws(&s, &faces), Ok(()));
        let reversed: Vec<(PigMove, u32)> = faces.iter().rev().copied().collect();
        let err = check_outcomes_for_draws(&s, &reversed).unwrap_err();
        assert!(
            err.contains("gives 1 for draw 0, the weights give 6"),
            "{err}"
        );
        let mut heavier = faces.clone();
        heavier[5].1 = 2;
        let err = check_outcomes_for_draws(&s, &heavier).unwrap_err();
        assert!(err.contains("not once below the total weight 7"), "{err}");
    }

    #[test]
    fn a_chance_declaration_that_play_contradicts_is_caught() {
        let met = |playouts, chance_nodes| ConformanceReport {
            playouts,
            chance_nodes,
            ..ConformanceReport::default()
        };
        assert_eq!(check_chance_declaration(false, false, &met(10, 0)), Ok(()));
        assert_eq!(check_chance_declaration(true, false, &met(10, 3)), Ok(()));
        assert_eq!(check_chance_declaration(true, false, &met(0, 0)), Ok(()));
        assert_eq!(check_chance_declaration(true, true, &met(10, 0)), Ok(()));
        assert_eq!(
            check_chance_declaration(false, true, &met(10, 3)),
            Err(
                "the game declares no chance (State::Chance = NoChance) but its playouts met \
                 3 chance nodes"
                    .to_string()
            )
        );
        assert_eq!(
            check_chance_declaration(true, false, &met(10, 0)),
            Err(
                "the game declares chance (State::Chance = WithChance) but 10 playouts met no \
                 chance node"
                    .to_string()
            )
        );
    }
}
