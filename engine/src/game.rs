//! The game API: [`Game`] (immutable rules and parameters) and [`State`] (one node of
//! the game tree, the hot path of every search).
//!
//! The split follows OpenSpiel's Game/State, made static: search is generic over
//! `S: State` and monomorphised per game, so no call here is virtual.

use std::fmt;
use std::hash::Hash;

use crate::luck::{pick_weighted, EventId, Luck};
use crate::params::{ConfigError, ParamSpec, Params};

/// A seat at the table: `0` or `1`. Seat 0 always makes the first decision of a game.
pub type Seat = usize;

/// The other seat of a two-seat game.
#[inline]
pub const fn opponent(seat: Seat) -> Seat {
    1 - seat
}

/// Who acts at a node of the game tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// A decision by this seat.
    Seat(Seat),
    /// A chance event: one of [`State::chance_outcomes`] happens, by weight.
    Chance,
    /// The game is over; [`State::end`] says who won and why.
    Over,
}

impl Turn {
    /// The seat that decides here, or `None` at a chance node or once the game is over.
    #[inline]
    pub const fn seat(self) -> Option<Seat> {
        match self {
            Turn::Seat(s) => Some(s),
            Turn::Chance | Turn::Over => None,
        }
    }
}

/// The result of a finished two-seat game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This seat won, the other lost.
    Win(Seat),
    /// Neither won.
    Draw,
}

impl Outcome {
    /// The result for `seat`: +1 win, 0 draw, -1 loss. The two seats' results sum to zero.
    #[inline]
    pub const fn score(self, seat: Seat) -> i32 {
        match self {
            Outcome::Draw => 0,
            Outcome::Win(w) if w == seat => 1,
            Outcome::Win(_) => -1,
        }
    }
}

/// Why a game ended.
///
/// Every game names its ends with the same two kinds of reason, so that studies can
/// count draws by the length cap without knowing the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The game's length cap (on plies, turns, actions or decisions): the one reason
    /// printed `cap` in every game.
    Cap,
    /// Any other rule of the game, as a short fixed lower-case word (`elimination`,
    /// `four-in-a-row`, `repetition`, ...). Never `cap`, which is [`EndReason::Cap`].
    Rule(&'static str),
}

impl EndReason {
    /// The reason as the one word records and reports print.
    #[inline]
    pub const fn word(self) -> &'static str {
        match self {
            EndReason::Cap => "cap",
            EndReason::Rule(word) => word,
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// How a finished game ended: its result, why, and whether the path decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct End {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// The rule that ended the game.
    pub reason: EndReason,
    /// Whether the game ended because of the path that led here, beyond what
    /// [`State::hash`] and `Eq` describe: a repetition rule that counts earlier
    /// positions, or a length cap that counts turns (or plies) the hash leaves out. The
    /// same position reached by another path might go on, so search must not store in a
    /// transposition table any value that depended on such a node.
    pub by_history: bool,
}

impl End {
    /// An end by a rule of the position alone (not by history).
    #[inline]
    pub const fn rule(outcome: Outcome, word: &'static str) -> Self {
        End {
            outcome,
            reason: EndReason::Rule(word),
            by_history: false,
        }
    }

    /// A win for `seat` by a rule of the position alone.
    #[inline]
    pub const fn win(seat: Seat, word: &'static str) -> Self {
        End::rule(Outcome::Win(seat), word)
    }

    /// An end by a rule that reads the path (repetition): `by_history` is set.
    #[inline]
    pub const fn by_history(outcome: Outcome, word: &'static str) -> Self {
        End {
            outcome,
            reason: EndReason::Rule(word),
            by_history: true,
        }
    }

    /// An end by the length cap. `by_history` says whether the counter the cap reads is
    /// left out of the hash (a plain ply or turn counter) or is part of the position.
    #[inline]
    pub const fn cap(outcome: Outcome, by_history: bool) -> Self {
        End {
            outcome,
            reason: EndReason::Cap,
            by_history,
        }
    }
}

/// A move (a decision or a chance outcome) of some game.
///
/// Moves are small plain values. [`Move::pack`] gives a compact code that search stores
/// in its transposition table; a code read back from the table may come from another
/// position (a key collision), so search only ever uses an unpacked move after finding
/// it among the legal moves of the current position.
pub trait Move: Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync + 'static {
    /// A compact code, unique among the moves of one game. Contract:
    /// `Self::unpack(m.pack()) == Some(m)`.
    fn pack(self) -> u32;
    /// The move with this code, or `None` if no move has it.
    fn unpack(code: u32) -> Option<Self>;
}

/// Why a move text could not be read, or why a move cannot be made here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?}: {reason}")]
pub struct MoveError {
    /// The move as the user wrote it (or as the engine printed it).
    pub text: String,
    /// What is wrong with it, in words a player understands.
    pub reason: String,
}

impl MoveError {
    /// A new error for `text` with a reason.
    pub fn new(text: impl Into<String>, reason: impl Into<String>) -> Self {
        MoveError {
            text: text.into(),
            reason: reason.into(),
        }
    }
}

/// A symmetry of a game's positions, as [`Symmetries::canonical_key`] names it: 0 is
/// the identity; what the other numbers mean is the game's own business.
pub type Symmetry = u8;

/// One node of a game tree.
///
/// Every game is a two-seat zero-sum game by construction: seats are `0` and `1`, and a
/// finished game's [`Outcome`] is a win for one seat (a loss for the other) or a draw.
///
/// Required: the rules themselves, which every game writes: `turn`, `legal_moves`,
/// `max_moves`, `apply`, `undo`, `hash`, `recompute_hash`, `end`, `side`, `ply`,
/// `turns`, `format_move` and `parse_move`. Provided: [`State::chance_outcomes`] (games
/// without chance keep the empty default), [`State::common_outcome`] (a chance game
/// overrides it to name its events so that paired games share luck),
/// [`State::try_apply`] (the default checks against `legal_moves`; override it only to
/// make a faster check with the same answers), [`State::may_end_game`],
/// [`State::any_move_may_end_game`], [`State::retain_possible_wins`] and
/// [`State::may_win_now`] (the defaults promise nothing; override them to let a search
/// rule moves out without playing them), and [`State::outcome`],
/// [`State::end_reason`] and [`State::ended_by_history`], which read [`State::end`], the
/// one required fact about a finished game.
///
/// Capabilities that only some games have are traits of their own, supertraits of
/// `State`: [`FastPlayout`] (random playouts faster than ply by ply), [`Symmetries`]
/// (one table entry for a position and its images), [`PieRule`] (which move is the
/// swap), [`LengthCap`] (a cap counter kept in the position) and [`NullMove`] (a pass
/// a search may try). Every method of theirs
/// has a default that is right for a game without the capability, so a new game
/// declares each with an empty `impl FastPlayout for MyState {}` and overrides only what
/// it has. They are supertraits rather than bounds where they are used because every
/// game is played by every search that uses one (random playouts in MCTS, symmetric
/// tables in the solver, cap-free values in the optimal search, openings that skip a
/// swap): a bound would be written on every generic function and exclude no game,
/// while one `S: State` reaches them all. (Their methods are bounded `where Self:
/// State`, so the supertraits make no cycle.)
///
/// Contracts, checked for every game by [`crate::testing`]:
/// - `legal_moves` is non-empty exactly when `turn()` is `Turn::Seat(_)`, has no
///   duplicates and at most `max_moves()` entries; `chance_outcomes` likewise at
///   `Turn::Chance`, every weight ≥ 1;
/// - `s.undo(s.apply(m))` restores `s` exactly, hash included;
/// - `hash() == recompute_hash()` at every node; equal positions reached by different
///   move orders have equal hashes;
/// - `parse_move(&format_move(m)) == Ok(m)` for every legal move or outcome;
/// - `end()` is `Some` exactly when `turn()` is `Turn::Over`;
/// - a legal decision for which `may_end_game` says `false` does not end the game, nor
///   does any where `any_move_may_end_game` says `false`; one that
///   `retain_possible_wins` removes, or any where `may_win_now` says `false`, does not
///   win it for its mover;
/// - the capability traits' contracts, each documented on its trait.
///
/// `Eq` compares positions: everything that determines the game from here on. Path
/// history kept only to detect repetition is left out of `Eq` and of the hash, as is a
/// plain ply counter used only for a length cap.
pub trait State:
    Clone
    + Eq
    + fmt::Debug
    + fmt::Display
    + Send
    + Sync
    + 'static
    + FastPlayout
    + Symmetries
    + PieRule
    + LengthCap
    + NullMove
{
    /// Whether this game has chance: [`NoChance`] or [`WithChance`], the one place a game
    /// says so. Alpha-beta and the exact solver need [`NoChance`] ([`Deterministic`]), so
    /// they do not compile for a game with chance; the conformance suite checks the
    /// declaration against play (a game without chance never reaches `Turn::Chance`, one
    /// with chance does).
    type Chance: ChanceKind;
    /// Decisions and chance outcomes of this game.
    type Move: Move;
    /// What [`State::apply`] returns so that [`State::undo`] can restore the state. A
    /// game whose state is small may use a copy of itself.
    type Undo: Clone + Send;

    /// Who acts now.
    fn turn(&self) -> Turn;

    /// Appends the legal decisions of the seat to move to `out` (nothing at a chance
    /// node or when the game is over). The order is deterministic.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Appends the outcomes of the pending chance event with their integer weights
    /// (nothing unless `turn()` is `Turn::Chance`). The default is for games without
    /// chance.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Move, u32)>) {
        let _ = out;
    }

    /// Draws the outcome of the pending chance event from `luck`, keyed by the event's
    /// identity (common random numbers, see [`crate::luck`]). Call only at
    /// `Turn::Chance`. Contract:
    /// - (a) the outcome is distributed exactly as `chance_outcomes` weights say, given
    ///   the history that led here, when `luck` keeps the [`Luck`] contract;
    /// - (b) two chance events of one game never use the same `(event, draw)` key of
    ///   `luck`, so their outcomes are independent;
    /// - (c) where a game can tell that two games reached "the same" event (the `k`-th
    ///   roll of turn `t`, the tile under a cell), it uses the same key for it, so two
    ///   games given the same `luck` get the same outcome there.
    ///
    /// The default keys the event by the ply, draw 0, with a weighted choice over
    /// `chance_outcomes`: (a) and (b) hold, (c) only while the two games are in step.
    /// Deterministic games never reach it.
    fn common_outcome<L: Luck>(&self, luck: &L) -> Self::Move {
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        luck.weighted(EventId(u64::from(self.ply())), &outcomes)
    }

    /// An upper bound on the number of decisions or chance outcomes at any node of this
    /// game, for sizing buffers.
    fn max_moves(&self) -> usize;

    /// Plays a legal decision or chance outcome. An illegal move is a caller bug: it is
    /// caught by `debug_assert!` only (a check that must not call `try_apply`, whose
    /// default calls `apply`). Returns what [`State::undo`] needs.
    fn apply(&mut self, m: Self::Move) -> Self::Undo;

    /// Restores the state from before the `apply` that returned `undo`.
    fn undo(&mut self, undo: Self::Undo);

    /// Whether playing the legal decision `m` here might end the game. `false` is a
    /// promise: after `apply(m)` the game is not over. `true` promises nothing. A search
    /// that skips a move it would otherwise search (late-move and futility pruning) must
    /// still know whether the move ends the game, since a win or loss is never a
    /// heuristic bound; where the answer is `false` it need not play the move to find
    /// out. The default answers `true` (play it and see); a game whose `apply` runs
    /// costly end checks overrides it with cheap tests that rule the end out.
    fn may_end_game(&self, m: Self::Move) -> bool {
        let _ = m;
        true
    }

    /// Whether some legal decision here might end the game: `false` is a promise that
    /// [`State::may_end_game`] would answer `false` for every one, so that a search about
    /// to skip many moves of a node asks once instead of once a move. The default
    /// answers `true` (ask each move); a game overrides it where its decisions share
    /// the answer (APV's order decisions all end the turn on the same board).
    fn any_move_may_end_game(&self) -> bool {
        true
    }

    /// Keeps in `moves` (legal decisions here, in any order) every one that might win
    /// the game at once for the side that plays it, and removes the others it can rule
    /// out: [`State::may_end_game`] narrowed to the mover's wins, for a whole node at
    /// once. Removing a move is a promise: after `apply(m)` the mover has not won (the
    /// game may still be over, lost or drawn). A search that looks beyond its horizon
    /// for quiet moves that win at once asks this of the quiet moves there, and plays
    /// only those kept. The default keeps the moves `may_end_game` cannot rule out; a
    /// game overrides it where a win is cheaper to rule out than every end (Romgon's
    /// repetition and shuttle rules only ever lose for the mover), or where what every
    /// move's test shares is worth working out once for the node.
    fn retain_possible_wins(&self, moves: &mut Vec<Self::Move>) {
        moves.retain(|&m| self.may_end_game(m));
    }

    /// Whether some legal decision here might win the game at once for the side that
    /// plays it. `false` is a promise: [`State::retain_possible_wins`] would remove every
    /// move, so a search looking for quiet wins beyond its horizon need not even
    /// generate them. The default answers `true`; a game overrides it where a cheap test
    /// of the position alone rules every win out.
    fn may_win_now(&self) -> bool {
        true
    }

    /// Whether the side to move stands in check: under a threat that ends the game on
    /// the opponent's next move unless it is answered now (chess's check; Romgon's
    /// attacked Rhombus). A search may look one ply deeper at such a node (a check
    /// extension), so that its horizon never falls between a threat and the answer. The
    /// default: the game has no such notion.
    fn in_check(&self) -> bool {
        false
    }

    /// Plays `m` if it is legal here; otherwise leaves the state unchanged and says why.
    fn try_apply(&mut self, m: Self::Move) -> Result<Self::Undo, MoveError> {
        let legal = match self.turn() {
            Turn::Over => {
                return Err(MoveError::new(self.format_move(m), "the game is over"));
            }
            Turn::Chance => {
                let mut outcomes = Vec::new();
                self.chance_outcomes(&mut outcomes);
                outcomes.iter().any(|&(o, _)| o == m)
            }
            Turn::Seat(_) => {
                let mut moves = Vec::new();
                self.legal_moves(&mut moves);
                moves.contains(&m)
            }
        };
        if legal {
            Ok(self.apply(m))
        } else {
            Err(MoveError::new(
                self.format_move(m),
                "not a legal move in this position",
            ))
        }
    }

    /// The Zobrist key of everything that determines the game from here on: kept up to
    /// date by `apply` and `undo`, or computed on demand where that costs a few reads
    /// (Pig). Searches with a table read it at every node, so it must be cheap.
    fn hash(&self) -> u64;

    /// The same key computed from scratch, for tests and debug assertions.
    fn recompute_hash(&self) -> u64;

    /// How the game ended (result, reason, whether history decided it), `None` while it
    /// goes on. Search calls it at every node it reaches, so it should be cheap: a field
    /// read where the game can store its end.
    fn end(&self) -> Option<End>;

    /// The result once the game is over, `None` before.
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.end().map(|end| end.outcome)
    }

    /// Why the game ended ([`EndReason::Cap`] for the length cap in every game), or
    /// `None` while it goes on.
    #[inline]
    fn end_reason(&self) -> Option<EndReason> {
        self.end().map(|end| end.reason)
    }

    /// Whether the game ended here because of the path that led here, beyond what
    /// `hash()` and `Eq` describe (see [`End::by_history`]): search must not store in a
    /// transposition table any value that depended on such a node. `false` while the
    /// game goes on.
    #[inline]
    fn ended_by_history(&self) -> bool {
        self.end().is_some_and(|end| end.by_history)
    }

    /// The side or colour `seat` plays now (`black`, `white`, ...). It may change during
    /// a game, e.g. after Invector's pie-rule swap.
    fn side(&self, seat: Seat) -> &'static str;

    /// Number of plies (decisions and chance outcomes) played from the initial state.
    fn ply(&self) -> u32;

    /// Number of turns begun from the initial state: the turns in which at least one
    /// ply (decision or chance outcome) has been played, as the game's rulebook defines
    /// a turn and in the unit its turn-based length cap counts. A game that ends between
    /// turns (a cap or a win checked once a turn is over) has begun no further turn.
    ///
    /// Where a turn is one decision (Connect Four, Invector, Romgon) this is the ply
    /// count; where it is several (APV's primary move and order decision, a Pig player's
    /// rolls up to a hold or a 1, 3Will's roll, operations, throws and challenge,
    /// Hexstrat's squad actions and reveals up to the end of the turn) it counts each
    /// turn once. Contract (checked by [`crate::testing`]): 0 at the initial state; each
    /// `apply` adds 0 or 1; at least 1 once a ply has been played; never above `ply()`;
    /// restored by `undo`. Like `ply()` it is a path counter: `Eq` and the hash leave it
    /// out unless the game's length cap makes it part of the position.
    fn turns(&self) -> u32;

    /// The move in the rules' notation (never containing a space).
    fn format_move(&self, m: Self::Move) -> String;

    /// Reads a move in the rules' notation and checks that it is legal here (a decision
    /// of the side to move, or an outcome of the pending chance event).
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;
}

/// Random playouts faster than the generic ply-by-ply loop: a game overrides these only
/// to find the same decisions and outcomes with less work (Pig, whose playouts are most
/// of its search, and the chance games whose outcome lists are costly to build). The
/// defaults list the moves or outcomes and pick one, which is right for every game.
pub trait FastPlayout {
    /// The outcome of the pending chance event for one random draw: calls `draw` once
    /// with the total weight `T` of [`State::chance_outcomes`] and returns the outcome
    /// whose weight interval holds the draw, as [`pick_weighted`] gives it (so a draw
    /// uniform on `0..T` gives each outcome with probability weight / `T`). `draw` must
    /// answer below `T`. `scratch` is a buffer the method may use. Call only at
    /// `Turn::Chance`.
    ///
    /// The caller makes the draw, so an override changes nothing about which random
    /// numbers are read: it only finds the same outcome faster (a die's face in closed
    /// form rather than a list, a sum and a walk). Contract, checked for every game and
    /// every draw value by [`crate::testing`]: an override calls `draw` exactly once,
    /// with `T`, and for every answer gives what the default gives. Random playouts draw
    /// every chance outcome here.
    #[inline]
    fn outcome_for_draw(
        &self,
        draw: impl FnOnce(u64) -> u64,
        scratch: &mut Vec<(Self::Move, u32)>,
    ) -> Self::Move
    where
        Self: State,
    {
        scratch.clear();
        self.chance_outcomes(scratch);
        let total: u64 = scratch.iter().map(|&(_, w)| u64::from(w)).sum();
        pick_weighted(scratch, draw(total))
    }

    /// The decision for one random draw: calls `draw` once with the number `n` of
    /// [`State::legal_moves`] and returns the legal move at the index it answers (below
    /// `n`), in `legal_moves` order. `scratch` is a buffer the method may use. Call only
    /// at `Turn::Seat(_)`.
    ///
    /// As with [`FastPlayout::outcome_for_draw`], the caller makes the draw and an
    /// override only finds the same move faster (without listing every move). Contract,
    /// checked for every game and every index by [`crate::testing`]: an override calls
    /// `draw` exactly once, with `n`, and for every answer gives what the default gives.
    /// Uniformly random playouts choose every decision here.
    #[inline]
    fn move_for_draw(
        &self,
        draw: impl FnOnce(u32) -> u32,
        scratch: &mut Vec<Self::Move>,
    ) -> Self::Move
    where
        Self: State,
    {
        scratch.clear();
        self.legal_moves(scratch);
        let n = u32::try_from(scratch.len()).expect("fewer than 2^32 legal moves");
        scratch[draw(n) as usize]
    }

    /// Plays on a uniformly random playout by a loop of the game's own, for at most
    /// `max_plies` plies and for as long as that loop applies; returns the plies played.
    /// The caller plays the rest ply by ply ([`FastPlayout::move_for_draw`],
    /// [`FastPlayout::outcome_for_draw`]) and calls again, so an override may stop
    /// wherever its loop does not apply (the last plies of a budget, a forced move, the
    /// end of the game) and leave that ply to the caller. `draw(n)` answers a uniform
    /// draw below `n` (`1 ≤ n ≤ 2^16`). The default plays nothing.
    ///
    /// Unlike the two per-ply methods, an override reads its own draws: a game whose
    /// ply-by-ply playout is slow for want of a pattern the processor can predict (a
    /// coin-flip decision followed by a die) may instead draw a decision and the chance
    /// outcome it leads to at once, and apply both without a branch on the coin.
    /// Contract: the plies it plays, as a sequence, have exactly the probability they
    /// have when each decision is drawn uniformly from the legal moves and each outcome
    /// by its weight; the state it leaves is exactly the one those plies' `apply`s
    /// would leave. The random stream, and with it a given seed's playouts, differ from
    /// ply-by-ply play.
    #[inline(always)]
    fn fast_random_plies(&mut self, max_plies: u32, draw: impl FnMut(u64) -> u64) -> u32
    where
        Self: State,
    {
        let _ = (max_plies, draw);
        0
    }
}

/// Symmetries of a game's positions, for a table that stores a position once for all
/// its images (the exact solver's). The defaults are for a game without symmetries.
pub trait Symmetries {
    /// A key shared by this position and its images under the game's symmetries, and
    /// the symmetry that carries this position onto the image the key stands for.
    ///
    /// Contract: positions with equal keys (up to hash collisions) have equal values
    /// from their movers' points of view, and [`Symmetries::map_move`] with the returned
    /// symmetry carries this position's legal moves one to one onto that image's.
    /// A symmetry may exchange the seats or their colours, since a value from the
    /// mover's point of view does not depend on which seat moves. The default has no
    /// symmetry: `(self.hash(), 0)`. It may cost more than [`State::hash`], so only a
    /// search that gains from it should ask.
    fn canonical_key(&self) -> (u64, Symmetry)
    where
        Self: State,
    {
        (self.hash(), 0)
    }

    /// The move that `m`, a legal move here, becomes in this position's image under
    /// `symmetry` (one [`Symmetries::canonical_key`] returned). Every symmetry is its
    /// own inverse, so the same call maps a move of the image back to this position's.
    /// The default, for games without symmetries, returns `m`.
    fn map_move(&self, m: Self::Move, symmetry: Symmetry) -> Self::Move
    where
        Self: State,
    {
        let _ = symmetry;
        m
    }
}

/// The pie rule: the second player may take over the first player's opening instead of
/// answering it. Where the swap is offered is [`Game::pie_swap_decision`]; this says
/// which move it is. The default is for a game without a pie rule.
pub trait PieRule {
    /// Whether `m` is the pie-rule swap. Opening randomisation never plays one, since a
    /// swap is a judgement on the opening rather than a way to vary it. Contract,
    /// checked by [`crate::testing`]: a legal swap is offered exactly at the decision
    /// [`Game::pie_swap_decision`] names.
    fn is_pie_swap(&self, m: Self::Move) -> bool
    where
        Self: State,
    {
        let _ = m;
        false
    }
}

/// A length cap whose counter is part of the position, for a table that values
/// positions as if the game had no cap. The default is for a game whose cap counter
/// `Eq` and the hash leave out (the design's default), or that has no cap.
pub trait LengthCap {
    /// This position with the counter that only its length cap reads set back to the
    /// start. Where `Eq` and the hash leave such a counter out, or a game has none, this
    /// is a copy, which the default returns; a game that keeps one in its position
    /// (Pig's decision count, which the horizon-aware searches need) clears it.
    ///
    /// Contract, checked for every game by [`crate::testing`]: `s.cap_reset()` differs
    /// from `s` in that counter only, so that two positions differing in nothing else
    /// reset to equal states with equal hashes; it is its own reset
    /// (`s.cap_reset().cap_reset() == s.cap_reset()`); and unless `s` is over, it has
    /// `s`'s turn, legal moves and chance outcomes.
    fn cap_reset(&self) -> Self
    where
        Self: State,
    {
        self.clone()
    }
}

/// A pass that the rules do not offer but a search may try: null-move pruning asks
/// "if I did nothing here, would my opponent still fail to hold me below beta?", and
/// where the answer is no, the node is cut without searching its moves. The default is
/// for a game where passing makes no sense (Connect Four, where having to move is often
/// what loses, or the chance games, which `ab` does not play).
pub trait NullMove {
    /// Gives the turn to the other seat as if the side to move had made a move that
    /// changes nothing it controls, and returns what [`State::undo`] takes to restore
    /// `self`; or returns `None`, leaving `self` as it was, where the game has no such
    /// pass here (a decision in the middle of a turn, an offered swap) or where the pass
    /// would itself end the game. Whatever else the rules do when a turn passes happens
    /// as usual (a pending order fires).
    ///
    /// Contract, checked for every game by [`crate::testing`]: only at `Turn::Seat(s)`
    /// may it return `Some`, and then the other seat is to move, the game is not over,
    /// the hash is consistent (`hash() == recompute_hash()`), and `undo` restores the
    /// state exactly, hash included.
    fn null_move(&mut self) -> Option<<Self as State>::Undo>
    where
        Self: State,
    {
        None
    }
}

/// Rules plus parameters of one game; builds initial states. Used at the edge (CLI,
/// tests), not per node.
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    /// The state type of this game.
    type State: State;

    /// The game's name as typed on the command line (`invector`).
    const NAME: &'static str;
    /// One line describing the game, for `agon games`.
    const ABOUT: &'static str;
    /// Whether some information is hidden from both players (modelled as chance).
    const HAS_HIDDEN_INFORMATION: bool;

    /// The parameters this game accepts, with their defaults.
    fn param_specs() -> &'static [ParamSpec];

    /// Builds the rules from parameters already checked against `param_specs` (every
    /// parameter present). Checks what spans several parameters, such as a board size.
    fn from_params(params: &Params) -> Result<Self, ConfigError>;

    /// The position before the first decision.
    fn initial_state(&self) -> Self::State;

    /// If this configuration has a pie rule: how many decisions are made before the
    /// swap is offered (the swap is one of the legal decisions at exactly that point of
    /// every game still going there, and nowhere else, see [`PieRule::is_pie_swap`]); `None`
    /// without a pie rule, which is the default.
    ///
    /// Anything that varies a game's start (random openings, opening books) must leave
    /// the decision at this point to the player: an opening that plays the swap decision
    /// for the second player studies another game than the one named, since whether to
    /// swap is the rule's whole point.
    fn pie_swap_decision(&self) -> Option<u32> {
        None
    }
}

/// Whether a game has chance nodes: implemented by [`NoChance`] and [`WithChance`] only,
/// the two values of [`State::Chance`].
pub trait ChanceKind: sealed::Sealed + Send + Sync + 'static {
    /// Whether some node is `Turn::Chance`.
    const HAS_CHANCE: bool;
}

/// [`State::Chance`] of a game whose every node is a decision (or the end).
#[derive(Clone, Copy, Debug)]
pub enum NoChance {}

/// [`State::Chance`] of a game with chance events (dice, draws, reveals).
#[derive(Clone, Copy, Debug)]
pub enum WithChance {}

impl ChanceKind for NoChance {
    const HAS_CHANCE: bool = false;
}

impl ChanceKind for WithChance {
    const HAS_CHANCE: bool = true;
}

mod sealed {
    /// Keeps [`super::ChanceKind`] to its two kinds, so that code generic over the kind
    /// can rely on there being exactly these two.
    pub trait Sealed {}
    impl Sealed for super::NoChance {}
    impl Sealed for super::WithChance {}
}

/// Whether the game of `S` has chance nodes (its [`State::Chance`]).
pub const fn has_chance<S: State>() -> bool {
    <S::Chance as ChanceKind>::HAS_CHANCE
}

/// A game without chance: every [`State`] whose [`State::Chance`] is [`NoChance`], and
/// only those. Alpha-beta and the solver require it, so they cannot be compiled for a
/// dice game.
pub trait Deterministic: State<Chance = NoChance> {}

impl<S: State<Chance = NoChance>> Deterministic for S {}

/// The error for `m`, which is not legal at `state`, for a game's fast `try_apply`:
/// re-reading the printed move with `parse_move` names the precise reason; `fallback`
/// is the reason when the text does parse (a move that is legal elsewhere).
pub fn illegal_move<S: State>(state: &S, m: S::Move, fallback: &str) -> MoveError {
    let text = state.format_move(m);
    state
        .parse_move(&text)
        .err()
        .unwrap_or_else(|| MoveError::new(text, fallback))
}

/// Plays a whole list of moves in notation from `state`, checking each one.
pub fn play_moves<S: State>(state: &mut S, moves: &str) -> Result<(), MoveError> {
    for text in moves.split_whitespace() {
        let m = state.parse_move(text)?;
        state.try_apply(m)?;
    }
    Ok(())
}

/// Draws an outcome of the pending chance event of `state` with probability weight /
/// total weight, from `rng`: one `random_range(0..total weight)`, answered through
/// [`FastPlayout::outcome_for_draw`]. Exact integer arithmetic, so the same generator state
/// gives the same outcome on every machine. `state` must be at a chance node.
pub fn sample_outcome<S: State>(state: &S, rng: &mut impl rand::Rng) -> S::Move {
    state.outcome_for_draw(|total| rng.random_range(0..total), &mut Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamSpec;
    use crate::testing::{check_conformance, Conformance};

    /// A game written as a newcomer would write one: only the required methods of
    /// [`State`], and every capability taken with its default.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Countdown;

    /// A pile of stones; each decision takes one; taking the last one wins.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Pile(u8);

    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    struct Take;

    impl Move for Take {
        fn pack(self) -> u32 {
            0
        }
        fn unpack(code: u32) -> Option<Self> {
            (code == 0).then_some(Take)
        }
    }

    impl fmt::Display for Pile {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{} left", self.0)
        }
    }

    const START: u8 = 5;

    impl State for Pile {
        type Chance = NoChance;
        type Move = Take;
        type Undo = Pile;
        fn turn(&self) -> Turn {
            match self.0 {
                0 => Turn::Over,
                n => Turn::Seat(usize::from((START - n) % 2)),
            }
        }
        fn legal_moves(&self, out: &mut Vec<Take>) {
            if self.0 > 0 {
                out.push(Take);
            }
        }
        fn max_moves(&self) -> usize {
            1
        }
        fn apply(&mut self, _: Take) -> Pile {
            let undo = *self;
            self.0 -= 1;
            undo
        }
        fn undo(&mut self, undo: Pile) {
            *self = undo;
        }
        fn hash(&self) -> u64 {
            u64::from(self.0)
        }
        fn recompute_hash(&self) -> u64 {
            u64::from(self.0)
        }
        fn end(&self) -> Option<End> {
            (self.0 == 0).then(|| End::win(usize::from((START - 1) % 2), "last-stone"))
        }
        fn side(&self, seat: Seat) -> &'static str {
            ["first", "second"][seat]
        }
        fn ply(&self) -> u32 {
            u32::from(START - self.0)
        }
        fn turns(&self) -> u32 {
            self.ply()
        }
        fn format_move(&self, _: Take) -> String {
            "take".into()
        }
        fn parse_move(&self, text: &str) -> Result<Take, MoveError> {
            match (text, self.0) {
                ("take", 1..) => Ok(Take),
                ("take", 0) => Err(MoveError::new(text, "the game is over")),
                _ => Err(MoveError::new(text, "expected take")),
            }
        }
    }

    impl FastPlayout for Pile {}
    impl Symmetries for Pile {}
    impl PieRule for Pile {}
    impl NullMove for Pile {}
    impl LengthCap for Pile {}

    impl Game for Countdown {
        type State = Pile;
        const NAME: &'static str = "countdown";
        const ABOUT: &'static str = "take one stone a turn; the last one wins";
        const HAS_HIDDEN_INFORMATION: bool = false;
        fn param_specs() -> &'static [ParamSpec] {
            &[]
        }
        fn from_params(_: &Params) -> Result<Self, ConfigError> {
            Ok(Countdown)
        }
        fn initial_state(&self) -> Pile {
            Pile(START)
        }
    }

    #[test]
    fn a_game_with_only_the_required_methods_takes_every_capability_default() {
        let report = check_conformance(
            &Countdown,
            &Conformance {
                playouts: 3,
                ..Conformance::default()
            },
        )
        .unwrap();
        assert_eq!((report.nodes, report.longest), (18, 5));
        let mut pile = Countdown.initial_state();
        let mut asked = Vec::new();
        let m = pile.move_for_draw(
            |n| {
                asked.push(n);
                0
            },
            &mut Vec::new(),
        );
        assert_eq!((m, asked), (Take, vec![1]));
        assert_eq!(pile.fast_random_plies(10, |_| 0), 0);
        assert_eq!(pile, Pile(START));
        assert_eq!(pile.canonical_key(), (u64::from(START), 0));
        assert_eq!(pile.map_move(Take, 1), Take);
        assert!(!pile.is_pie_swap(Take));
        assert_eq!(pile.cap_reset(), pile);
    }
}
