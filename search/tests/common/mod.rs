//! Tiny deterministic test games and reference searches, written for these tests only.
//!
//! - [`BonusNim`]: take 1, 2 or 3 stones, taking the last one wins; taking exactly 3
//!   and leaving an even pile earns another decision by the same seat (consecutive
//!   same-seat decisions, never two bonuses in a row); after `cap` decisions the game
//!   is drawn. Wins, losses, draws and transpositions.
//! - [`TicTacToe`]: the usual 3×3 game, with an evaluator counting open lines.
//!
//! The reference searches ([`minimax`], [`Memo`]) are deliberately plain: no pruning,
//! no table, no ordering, so that they share nothing with the search under test but the
//! meaning of a score (`agon_search::score`).

#![allow(dead_code)] // each test file uses a different part

use std::collections::HashMap;
use std::fmt;

use agon_engine::{
    Deterministic, End, Evaluator, Move, MoveError, NoChance, Outcome, Seat, State, Turn,
};
use agon_search::alphabeta::QUIESCENCE_PLIES;
use agon_search::score::{clamp_eval, MATE};
use agon_search::{
    Agent, AgentRng, AlphaBeta, AlphaBetaConfig, Budget, Enhancements, SolveConfig, Solver, Value,
};
// `mix`: a reproducible mix of a few fields into a 64-bit key.
use agon_engine::zobrist::splitmix64_mix as mix;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub mod tug;

// ---------------------------------------------------------------- Bonus Nim

/// Take this many stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Take(pub u8);

impl Move for Take {
    fn pack(self) -> u32 {
        u32::from(self.0)
    }
    fn unpack(code: u32) -> Option<Self> {
        (1..=3).contains(&code).then_some(Take(code as u8))
    }
}

/// A Bonus Nim position (see the module docs).
#[derive(Clone, Debug)]
pub struct BonusNim {
    pub pile: u8,
    pub mover: Seat,
    pub decisions: u8,
    pub cap: u8,
    pub winner: Option<Seat>,
    pub ply: u32,
}

impl BonusNim {
    pub fn new(pile: u8, cap: u8) -> Self {
        BonusNim {
            pile,
            mover: 0,
            decisions: 0,
            cap,
            winner: None,
            ply: 0,
        }
    }
}

impl PartialEq for BonusNim {
    fn eq(&self, o: &Self) -> bool {
        (self.pile, self.mover, self.decisions, self.cap, self.winner)
            == (o.pile, o.mover, o.decisions, o.cap, o.winner)
    }
}
impl Eq for BonusNim {}

impl fmt::Display for BonusNim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pile {} decisions {}/{} mover {} winner {:?}",
            self.pile, self.decisions, self.cap, self.mover, self.winner
        )
    }
}

impl State for BonusNim {
    type Chance = NoChance;
    type Move = Take;
    type Undo = BonusNim;

    fn turn(&self) -> Turn {
        if self.winner.is_some() || self.decisions >= self.cap {
            Turn::Over
        } else {
            Turn::Seat(self.mover)
        }
    }
    fn legal_moves(&self, out: &mut Vec<Take>) {
        if let Turn::Seat(_) = self.turn() {
            out.extend((1..=self.pile.min(3)).map(Take));
        }
    }
    fn max_moves(&self) -> usize {
        3
    }
    fn apply(&mut self, m: Take) -> BonusNim {
        let undo = self.clone();
        debug_assert!(m.0 >= 1 && m.0 <= self.pile.min(3) && self.turn() != Turn::Over);
        self.pile -= m.0;
        self.decisions += 1;
        self.ply += 1;
        if self.pile == 0 {
            self.winner = Some(self.mover);
        } else if !(m.0 == 3 && self.pile % 2 == 0) {
            self.mover = 1 - self.mover;
        }
        undo
    }
    fn undo(&mut self, undo: BonusNim) {
        *self = undo;
    }
    fn hash(&self) -> u64 {
        self.recompute_hash()
    }
    fn recompute_hash(&self) -> u64 {
        let w = self.winner.map_or(0, |w| w as u64 + 1);
        mix(u64::from(self.pile)
            | (self.mover as u64) << 8
            | u64::from(self.decisions) << 16
            | u64::from(self.cap) << 24
            | w << 32)
    }
    /// The decision count the cap reads is in the hash: no end by history.
    fn end(&self) -> Option<End> {
        match (self.turn(), self.winner) {
            (Turn::Over, Some(w)) => Some(End::win(w, "last-stone")),
            (Turn::Over, None) => Some(End::cap(Outcome::Draw, false)),
            _ => None,
        }
    }
    fn side(&self, seat: Seat) -> &'static str {
        ["first", "second"][seat]
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    /// The search tests never read turns; each decision counts as one.
    fn turns(&self) -> u32 {
        self.ply
    }
    fn format_move(&self, m: Take) -> String {
        format!("take{}", m.0)
    }
    fn parse_move(&self, text: &str) -> Result<Take, MoveError> {
        let m = match text {
            "take1" => Take(1),
            "take2" => Take(2),
            "take3" => Take(3),
            _ => return Err(MoveError::new(text, "expected take1, take2 or take3")),
        };
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.contains(&m) {
            Ok(m)
        } else {
            Err(MoveError::new(text, "not legal here"))
        }
    }
}

/// A deliberately uneven heuristic, so that scores vary and ties are rare.
#[derive(Clone, Copy, Debug, Default)]
pub struct BonusNimEval;

impl Evaluator<BonusNim> for BonusNimEval {
    fn heuristic(&self, s: &BonusNim, seat: Seat) -> i32 {
        let p = i32::from(s.pile);
        let for_mover = match s.pile % 4 {
            0 => -40 - p,
            r => 13 * r as i32 - p + i32::from(s.decisions) * 3,
        };
        if seat == s.mover {
            for_mover
        } else {
            -for_mover
        }
    }
    fn bounds(&self) -> (i32, i32) {
        (-1000, 1000)
    }
    /// Taking `m` leaves the pile to the opponent (no win, no cap, no bonus) with at
    /// most three stones: it takes them all.
    fn opponent_wins_next(&self, s: &BonusNim, m: Take) -> bool {
        let pile = s.pile - m.0;
        let bonus = m.0 == 3 && pile % 2 == 0;
        pile > 0 && pile <= 3 && s.decisions + 1 < s.cap && !bonus
    }
    /// Prefers taking one stone (an arbitrary preference: ordering only).
    fn move_hint(&self, _s: &BonusNim, m: Take) -> u8 {
        4 - m.0
    }
}

// ---------------------------------------------------------------- Tic-tac-toe

/// Mark this cell (0..9, row by row from the top left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(pub u8);

impl Move for Cell {
    fn pack(self) -> u32 {
        u32::from(self.0)
    }
    fn unpack(code: u32) -> Option<Self> {
        (code < 9).then_some(Cell(code as u8))
    }
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A tic-tac-toe position: cells hold 0 (empty), 1 (seat 0) or 2 (seat 1).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TicTacToe {
    pub cells: [u8; 9],
    pub ply_count: u32,
}

impl TicTacToe {
    fn winner(&self) -> Option<Seat> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then(|| c as usize - 1)
        })
    }
    fn mover(&self) -> Seat {
        self.cells.iter().filter(|&&c| c != 0).count() % 2
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cells.iter().enumerate() {
            write!(f, "{}", ['.', 'x', 'o'][*c as usize])?;
            if i % 3 == 2 && i < 8 {
                write!(f, "/")?;
            }
        }
        Ok(())
    }
}

impl State for TicTacToe {
    type Chance = NoChance;
    type Move = Cell;
    type Undo = Cell;

    fn turn(&self) -> Turn {
        if self.winner().is_some() || self.cells.iter().all(|&c| c != 0) {
            Turn::Over
        } else {
            Turn::Seat(self.mover())
        }
    }
    fn legal_moves(&self, out: &mut Vec<Cell>) {
        if let Turn::Seat(_) = self.turn() {
            out.extend((0..9).filter(|&i| self.cells[i as usize] == 0).map(Cell));
        }
    }
    fn max_moves(&self) -> usize {
        9
    }
    fn apply(&mut self, m: Cell) -> Cell {
        debug_assert_eq!(self.cells[m.0 as usize], 0);
        self.cells[m.0 as usize] = self.mover() as u8 + 1;
        self.ply_count += 1;
        m
    }
    fn undo(&mut self, m: Cell) {
        self.cells[m.0 as usize] = 0;
        self.ply_count -= 1;
    }
    fn hash(&self) -> u64 {
        self.recompute_hash()
    }
    fn recompute_hash(&self) -> u64 {
        mix(self.cells.iter().fold(0u64, |h, &c| h * 3 + u64::from(c)))
    }
    fn end(&self) -> Option<End> {
        match (self.turn(), self.winner()) {
            (Turn::Over, Some(w)) => Some(End::win(w, "line")),
            (Turn::Over, None) => Some(End::rule(Outcome::Draw, "full")),
            _ => None,
        }
    }
    fn side(&self, seat: Seat) -> &'static str {
        ["x", "o"][seat]
    }
    fn ply(&self) -> u32 {
        self.ply_count
    }
    /// The search tests never read turns; each decision counts as one.
    fn turns(&self) -> u32 {
        self.ply_count
    }
    fn format_move(&self, m: Cell) -> String {
        format!("c{}", m.0)
    }
    fn parse_move(&self, text: &str) -> Result<Cell, MoveError> {
        let m = text
            .strip_prefix('c')
            .and_then(|d| d.parse::<u8>().ok())
            .filter(|&d| d < 9)
            .map(Cell)
            .ok_or_else(|| MoveError::new(text, "expected c0..c8"))?;
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.contains(&m) {
            Ok(m)
        } else {
            Err(MoveError::new(text, "not legal here"))
        }
    }
}

/// Open lines: a line holding only one seat's marks is worth 1, 4 or 9 to it
/// (by mark count), plus 2 for the centre.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToeEval;

impl Evaluator<TicTacToe> for TicTacToeEval {
    fn heuristic(&self, s: &TicTacToe, seat: Seat) -> i32 {
        let me = seat as u8 + 1;
        let mut v = 0;
        for l in LINES {
            let mine = l.iter().filter(|&&i| s.cells[i] == me).count() as i32;
            let theirs = l
                .iter()
                .filter(|&&i| s.cells[i] != 0 && s.cells[i] != me)
                .count() as i32;
            if theirs == 0 {
                v += mine * mine;
            } else if mine == 0 {
                v -= theirs * theirs;
            }
        }
        v + match s.cells[4] {
            0 => 0,
            c if c == me => 2,
            _ => -2,
        }
    }
    fn bounds(&self) -> (i32, i32) {
        (-100, 100)
    }
    /// After the mark (if it does not end the game), the opponent holds two of some line
    /// whose third cell is empty.
    fn opponent_wins_next(&self, s: &TicTacToe, m: Cell) -> bool {
        let mut after = s.clone();
        after.apply(m);
        if after.outcome().is_some() {
            return false;
        }
        let them = after.mover() as u8 + 1;
        LINES.iter().any(|l| {
            l.iter().filter(|&&i| after.cells[i] == them).count() == 2
                && l.iter().any(|&i| after.cells[i] == 0)
        })
    }
    /// Centre first, then corners, then edges.
    fn move_hint(&self, _s: &TicTacToe, m: Cell) -> u8 {
        match m.0 {
            4 => 2,
            0 | 2 | 6 | 8 => 1,
            _ => 0,
        }
    }
}

// ---------------------------------------------------------------- references

/// Plain fixed-depth minimax: the score of `s` (a decision node, `ply` plies from the
/// root) from its mover's view, with the scores of `agon_search::score`; at the horizon
/// the evaluator's score, or with `quiescence` the plain [`quiesce`] value.
pub fn minimax<S: State, E: Evaluator<S>>(
    s: &mut S,
    eval: &E,
    depth: u32,
    ply: i32,
    quiescence: bool,
) -> i32 {
    minimax_memo(s, eval, depth, ply, quiescence, &mut QuiesceMemo::new())
}

/// Quiescence values already computed, by key, ply (a win found below scores by its
/// distance from the root) and noisy plies left, checked by equality.
pub type QuiesceMemo<S> = HashMap<(u64, i32, u32), Vec<(S, i32)>>;

fn minimax_memo<S: State, E: Evaluator<S>>(
    s: &mut S,
    eval: &E,
    depth: u32,
    ply: i32,
    quiescence: bool,
    memo: &mut QuiesceMemo<S>,
) -> i32 {
    let Turn::Seat(mover) = s.turn() else {
        panic!("minimax on a node without a mover")
    };
    if depth == 0 {
        return if quiescence {
            quiesce(s, eval, QUIESCENCE_PLIES, ply, memo)
        } else {
            clamp_eval(eval.evaluate(s, mover))
        };
    }
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let undo = s.apply(m);
            let v = child_score(s, mover, ply + 1, |c| {
                minimax_memo(c, eval, depth - 1, ply + 1, quiescence, memo)
            });
            s.undo(undo);
            v
        })
        .max()
        .expect("a decision node has moves")
}

/// Plain quiescence: the better of standing pat on the evaluator's score and the best
/// noisy move (while `depth`, the noisy moves still allowed, is above 0), each noisy
/// move's child scored the same way. No pruning; memoised, since the same captures in
/// another order reach the same position.
pub fn quiesce<S: State, E: Evaluator<S>>(
    s: &mut S,
    eval: &E,
    depth: u32,
    ply: i32,
    memo: &mut QuiesceMemo<S>,
) -> i32 {
    let Turn::Seat(mover) = s.turn() else {
        panic!("quiescence on a node without a mover")
    };
    if depth == 0 {
        return clamp_eval(eval.evaluate(s, mover));
    }
    if let Some(&(_, v)) = memo
        .get(&(s.hash(), ply, depth))
        .and_then(|seen| seen.iter().find(|(t, _)| t == s))
    {
        return v;
    }
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut best = clamp_eval(eval.evaluate(s, mover));
    for m in moves {
        if eval.is_noisy(s, m) {
            let undo = s.apply(m);
            let v = child_score(s, mover, ply + 1, |c| {
                quiesce(c, eval, depth - 1, ply + 1, memo)
            });
            best = best.max(v);
            s.undo(undo);
        }
    }
    memo.entry((s.hash(), ply, depth))
        .or_default()
        .push((s.clone(), best));
    best
}

/// The score from `mover`'s view of the child `c` (`ply` plies from the root), given
/// how to score a child that is a decision node from its own mover's view.
pub fn child_score<S: State>(
    c: &mut S,
    mover: Seat,
    ply: i32,
    search: impl FnOnce(&mut S) -> i32,
) -> i32 {
    match c.turn() {
        Turn::Over => match c.outcome().unwrap().score(mover) {
            0 => 0,
            r if r > 0 => MATE - ply,
            _ => -(MATE - ply),
        },
        Turn::Seat(next) => {
            let v = search(c);
            if next == mover {
                v
            } else {
                -v
            }
        }
        Turn::Chance => panic!("no chance in these tests"),
    }
}

/// The integer score an agent's value stands for.
pub fn value_score(v: Value) -> i32 {
    match v {
        Value::Score(x) => {
            assert_eq!(x.fract(), 0.0, "alpha-beta scores are integers");
            x as i32
        }
        Value::Win(n) => MATE - n as i32,
        Value::Loss(n) => -(MATE - n as i32),
        Value::Draw => 0,
        Value::Reward(_) => panic!("no rewards from alpha-beta"),
    }
}

/// Plain memoised exact solver: the game value of a position from its mover's view as
/// `MATE - n` (win in `n` plies), `-(MATE - n)` (loss in `n`) or 0 (draw), fastest win
/// and slowest loss preferred. Memoised by key, checked by equality.
#[derive(Default)]
pub struct Memo<S> {
    table: HashMap<u64, Vec<(S, i32)>>,
}

impl<S: State> Memo<S> {
    pub fn new() -> Self {
        Memo {
            table: HashMap::new(),
        }
    }

    pub fn positions(&self) -> usize {
        self.table.values().map(Vec::len).sum()
    }

    pub fn value(&mut self, s: &mut S) -> i32 {
        if let Some(&(_, v)) = self
            .table
            .get(&s.hash())
            .and_then(|b| b.iter().find(|(t, _)| t == s))
        {
            return v;
        }
        let Turn::Seat(mover) = s.turn() else {
            panic!("value of a node without a mover")
        };
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let mut best = i32::MIN;
        for m in moves {
            let undo = s.apply(m);
            // Node-relative: the child's own value, one ply further from here.
            let v = child_score(s, mover, 1, |c| {
                let v = self.value(c);
                v - v.signum()
            });
            s.undo(undo);
            best = best.max(v);
        }
        self.table
            .entry(s.hash())
            .or_default()
            .push((s.clone(), best));
        best
    }
}

/// A position reached by `plies` random decisions from `start` (fewer if the game
/// ends first; then the last decision node on the way).
pub fn random_position<S: State>(start: &S, plies: usize, rng: &mut ChaCha8Rng) -> S {
    let mut s = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        s.legal_moves(&mut moves);
        let m = moves[rng.random_range(0..moves.len())];
        let undo = s.apply(m);
        if s.turn() == Turn::Over {
            s.undo(undo);
            break;
        }
    }
    s
}

/// A generator for test `seed`.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

// ---------------------------------------------------------------- shared checks

/// `ab` at exactly `depth` with `enhancements`, in exact-depth mode, with a small table.
pub fn fixed_depth_with(depth: u32, enhancements: Enhancements) -> AlphaBetaConfig {
    AlphaBetaConfig {
        budget: Budget {
            depth: Some(depth),
            ..Budget::default()
        },
        hash_mb: 1,
        threads: 1,
        enhancements,
        exact_depth_cutoffs: true,
    }
}

/// `ab` at exactly `depth` with every enhancement, in exact-depth mode.
pub fn fixed_depth(depth: u32) -> AlphaBetaConfig {
    fixed_depth_with(depth, Enhancements::ALL)
}

/// For every combination of enhancements, `ab` at fixed depth in exact-depth mode
/// returns the plain-minimax score (with the same quiescence), and its move scores that
/// much. One agent per combination and depth searches every position in turn, so its
/// table, killers and history also carry over from earlier searches into later ones.
/// Returns the number of searches checked.
pub fn differential<S: State + agon_engine::Deterministic, E: Evaluator<S>>(
    positions: &[S],
    eval: &E,
    depths: std::ops::RangeInclusive<u32>,
) -> usize {
    differential_with(positions, eval, depths, true)
}

/// [`differential`], over the 32 combinations without quiescence only unless
/// `quiescence`: plain quiescence (no pruning) follows every sequence of noisy moves,
/// which on a large board is far too many for a test.
pub fn differential_with<S: State + agon_engine::Deterministic, E: Evaluator<S>>(
    positions: &[S],
    eval: &E,
    depths: std::ops::RangeInclusive<u32>,
    quiescence: bool,
) -> usize {
    let mut checked = 0;
    let mut rng = AgentRng::seed_from_u64(0);
    for depth in depths {
        // expected[q][i]: the minimax score of position i, with quiescence if q == 1.
        let expected: [Vec<Option<i32>>; 2] = [false, true].map(|q| {
            positions
                .iter()
                .map(|p| match p.turn() {
                    Turn::Seat(_) if quiescence || !q => {
                        Some(minimax(&mut p.clone(), eval, depth, 0, q))
                    }
                    _ => None,
                })
                .collect()
        });
        for enhancements in Enhancements::combinations().filter(|e| quiescence || !e.quiescence) {
            let q = enhancements.quiescence;
            let mut agent = AlphaBeta::new(eval.clone(), fixed_depth_with(depth, enhancements));
            for (i, start) in positions.iter().enumerate() {
                let (Turn::Seat(mover), Some(expected)) = (start.turn(), expected[q as usize][i])
                else {
                    continue;
                };
                let at = format!("position {i} ({start}) at depth {depth} with {enhancements:?}");
                let result = agent.search(start, &mut rng, &mut |_| {});
                assert_eq!(value_score(result.value), expected, "{at}");
                let mut s = start.clone();
                s.apply(result.best.expect("a move"));
                let chosen = child_score(&mut s, mover, 1, |c| minimax(c, eval, depth - 1, 1, q));
                assert_eq!(chosen, expected, "move of {at}");
                assert!(result.depth <= depth && result.depth >= 1);
                checked += 1;
            }
        }
    }
    checked
}

/// `solve` without a budget, with a small table.
pub fn solver<S: Deterministic, E: Evaluator<S>>(eval: E) -> Solver<S, E> {
    Solver::new(
        eval,
        SolveConfig {
            budget: Budget::default(),
            hash_mb: 1,
            ..SolveConfig::default()
        },
    )
}

/// Solves every position with one solver (so proofs carry over between searches, as in
/// a game) and checks value, distance and move against `memo`.
pub fn cross_check<S: Deterministic, E: Evaluator<S>>(positions: &[S], eval: E) {
    let mut agent = solver(eval);
    let mut memo = Memo::new();
    let mut rng = AgentRng::seed_from_u64(0);
    for (i, start) in positions.iter().enumerate() {
        let Turn::Seat(mover) = start.turn() else {
            continue;
        };
        let mut s = start.clone();
        let expected = memo.value(&mut s);
        let r = agent.search(start, &mut rng, &mut |_| {});
        assert!(r.value.is_proven(), "position {i} ({start}): {:?}", r.value);
        assert_eq!(value_score(r.value), expected, "position {i} ({start})");
        // The move played keeps the value: fastest win, slowest loss.
        let undo = s.apply(r.best.unwrap());
        let after = child_score(&mut s, mover, 1, |c| {
            let v = memo.value(c);
            v - v.signum()
        });
        s.undo(undo);
        assert_eq!(after, expected, "move of position {i} ({start})");
        // The PV is legal; for a decided game it may stop short of the end (where a
        // table cut-off answered), but if it reaches the end, it does so at the stated
        // distance.
        let mut line = start.clone();
        for &m in &r.pv {
            line.try_apply(m).expect("legal PV");
        }
        if let Value::Win(n) | Value::Loss(n) = r.value {
            assert!(r.pv.len() as u32 <= n, "PV of {start} is too long");
            if line.turn() == Turn::Over {
                assert_eq!(r.pv.len() as u32, n, "PV length of {start}");
            }
        }
    }
}
