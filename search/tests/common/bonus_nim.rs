//! Bonus Nim: take 1, 2 or 3 stones, taking the last one wins; taking exactly 3 and
//! leaving an even pile earns another decision by the same seat (consecutive same-seat
//! decisions, never two bonuses in a row); after `cap` decisions the game is drawn.
//! Wins, losses, draws and transpositions.

use std::fmt;

// `mix`: a reproducible mix of a few fields into a 64-bit key.
use agon_engine::zobrist::splitmix64_mix as mix;
use agon_engine::{
    End, Evaluator, FastPlayout, LengthCap, Move, MoveError, NoChance, NullMove, Outcome, PieRule,
    Seat, State, Symmetries, Turn,
};

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
        super::legal_here(self, m, text)
    }
}

impl FastPlayout for BonusNim {}

impl Symmetries for BonusNim {}

impl PieRule for BonusNim {}

/// A pass hands the pile to the other seat and counts as a decision towards the cap.
/// Nim is all zugzwang (a pile of four is lost only because the mover must take), so a
/// search that trusts the pass is misled: the null-move tests use it for that.
impl NullMove for BonusNim {
    fn null_move(&mut self) -> Option<BonusNim> {
        if self.turn() == Turn::Over || self.decisions + 1 >= self.cap {
            return None;
        }
        let undo = self.clone();
        self.mover = 1 - self.mover;
        self.decisions += 1;
        self.ply += 1;
        Some(undo)
    }
}

impl LengthCap for BonusNim {}

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
