//! 3Will's encoding: the stacks level by level, a stacking attempt awaiting its throw
//! and an agent picked in a challenge, on the board as the view's seat sees it; where
//! the turn stands, the directive, the cards and the turns played beside it.
//!
//! **The view's frame.** White's view (seat 0) sees the board as it is; Black's view
//! (seat 1) sees it turned half a turn (square `(x, y)` as `(7 − x, 7 − y)`). Black's
//! steps are White's turned half a turn, the setup is its own image with the colours
//! swapped, and so is every other rule, so in every view the view's agents start on
//! the grid's row 1, step forward to higher rows, and lock on row 7; one network serves
//! both seats.
//!
//! **The grid** is 8 × 8: square `(x, y)` in the view's frame lies at row `y`, column
//! `x` (White's view: row 0 is rank 1, column 0 is file a).
//!
//! **Planes** (8). A square holds a stack of at most two agents, and each of the two
//! levels has its own planes:
//! - `my-top`, `their-top`: the square's top agent (a lone agent is a top) is the
//!   view's, the other seat's. A top is the square's active agent unless it stands on
//!   its own objective row (the view's row 7 for its own, row 0 for the other's);
//! - `my-held`, `their-held`: the lower agent of a two-agent stack, held and inactive;
//! - `attempt-source`, `attempt-target`: the squares of a paid stacking attempt that
//!   awaits its throw;
//! - `picked-top`, `picked-held`: the agent picked in a challenge whose hidden card is
//!   about to be revealed (the square's top or held agent).
//!
//! **Scalars**:
//! - `to-move` (max 1): 1 if the turn is the view's seat's (its roll, operation, throw
//!   and Free choice; also while the other seat picks in a challenge of that turn), 0
//!   if the other seat's or the game is over;
//! - `roll` (max 1): a die roll is due;
//! - `free-operation` (max 1): the roll due or the operation to choose is a Free
//!   operation (leaps allowed);
//! - `face-1` … `face-6` (max 1): the directive under which the mover chooses its
//!   operation (1 forward, 2 right, 3 left, 4 forward-right, 5 forward-left, 6 back,
//!   from the mover's side);
//! - `free-choice` (max 1): the mover decides `free` or `done`;
//! - `my-claim`, `their-claim` (max 1): that seat declared victory and is being
//!   challenged (the pick, then the reveal);
//! - `free-due` (max 1): in a challenge, a `free`/`done` decision follows if play
//!   resumes;
//! - `challenge-used` (max 1): the game's one challenge has been made;
//! - `my-dr`, `their-dr`, `my-free`, `their-free`, `bank` (max the cards in the game, 8
//!   in the rulebook game, and 1 in a game without any): the Double Risk and Free cards each seat holds, and the
//!   cards in the bank.
//!   The rules hide no hand: dealing, paying into the bank and handing over a Free card
//!   happen in the open, so both seats know all of them;
//! - `turns` (max `max_turns`): turns completed, both sides counted; the game is drawn
//!   when it reaches its maximum.
//!
//! What the rules hide, the agents' numbers and the challenge card, is not in the state
//! at all (agents of a colour are interchangeable, and the reveal draws the twin when
//! it happens), so nothing hidden can reach the encoding.
//!
//! The identifier is `threewill/1:<max_turns>`: the cap is the `turns` scalar's
//! maximum. Rules with a knob turned add
//! `:<dr_cards>,<hit_faces>,<locks_to_win>,<agents>,<black_free_cards>`: the card
//! count sets the card scalars' maxima, and the other knobs change what a position is
//! worth, so a network learnt under one setting is not taken for another's.

use super::board::{colour_of, locked, EMPTY};
use super::moves::{StepKind, ThreeWillMove};
use super::{Knobs, Phase, ThreeWillState};
use crate::encoding::{Encode, Encoding, FeatureChanges, Plane, Scalar};
use crate::game::{opponent, Seat};

/// Grid rows and columns.
const SIDE: u32 = 8;
/// Grid cells per plane.
const GRID: u32 = SIDE * SIDE;

/// The first top plane (`my-top`, then `their-top`); the held planes follow.
const TOP_PLANES: usize = 0;
/// The first held plane (`my-held`, then `their-held`).
const HELD_PLANES: usize = 2;
/// The source of a pending stacking attempt; its target's plane follows.
const ATTEMPT_SOURCE: usize = 4;
/// The target of a pending stacking attempt.
const ATTEMPT_TARGET: usize = 5;
/// The picked agent when it is a top; the held one's plane follows.
const PICKED_TOP: usize = 6;

/// A [`Plane`] from its name and meaning.
macro_rules! plane {
    ($name:expr, $meaning:expr) => {
        Plane {
            name: $name,
            meaning: $meaning,
        }
    };
}

/// A [`Scalar`] from its name, meaning and maximum.
macro_rules! scalar {
    ($name:expr, $meaning:expr, $max:expr) => {
        Scalar {
            name: $name,
            meaning: $meaning,
            max: $max,
        }
    };
}

const PLANES: [Plane; 8] = [
    plane!(
        "my-top",
        "the top agent of the square (a lone agent is a top) is the view's"
    ),
    plane!(
        "their-top",
        "the top agent of the square (a lone agent is a top) is the other seat's"
    ),
    plane!("my-held", "the view's agent lies held under another agent"),
    plane!(
        "their-held",
        "the other seat's agent lies held under another agent"
    ),
    plane!(
        "attempt-source",
        "the square a paid stacking attempt, awaiting its throw, comes from"
    ),
    plane!(
        "attempt-target",
        "the square a paid stacking attempt, awaiting its throw, aims at"
    ),
    plane!(
        "picked-top",
        "the top agent of the square is the one picked in a challenge awaiting its reveal"
    ),
    plane!(
        "picked-held",
        "the held agent of the square is the one picked in a challenge awaiting its reveal"
    ),
];

/// The scalars before the cards, whose maxima are the rules' card count, and `turns`,
/// whose maximum is the rules' cap.
const FLAGS: [Scalar; 14] = [
    scalar!(
        "to-move",
        "1 if the turn is the view's seat's (also during the other seat's challenge pick)",
        1
    ),
    scalar!("roll", "1 if a die roll is due", 1),
    scalar!(
        "free-operation",
        "1 if the roll due or the operation to choose is a Free operation",
        1
    ),
    scalar!("face-1", "1 if the directive is straight forward", 1),
    scalar!("face-2", "1 if the directive is straight right", 1),
    scalar!("face-3", "1 if the directive is straight left", 1),
    scalar!("face-4", "1 if the directive is diagonal forward-right", 1),
    scalar!("face-5", "1 if the directive is diagonal forward-left", 1),
    scalar!("face-6", "1 if the directive is back", 1),
    scalar!("free-choice", "1 if the mover decides free or done", 1),
    scalar!(
        "my-claim",
        "1 if the view's seat declared victory and is being challenged",
        1
    ),
    scalar!(
        "their-claim",
        "1 if the other seat declared victory and is being challenged",
        1
    ),
    scalar!(
        "free-due",
        "1 if a free/done decision follows the challenge should play resume",
        1
    ),
    scalar!(
        "challenge-used",
        "1 if the game's one challenge has been made",
        1
    ),
];

/// The card scalars (name, meaning), each with the game's card count as its maximum.
const CARD_SCALARS: [(&str, &str); 5] = [
    ("my-dr", "Double Risk cards the view's seat holds"),
    ("their-dr", "Double Risk cards the other seat holds"),
    ("my-free", "Free cards the view's seat holds"),
    ("their-free", "Free cards the other seat holds"),
    ("bank", "cards in the bank"),
];

/// Square `sq` in `view`'s frame, which is also its grid cell (the half turn is its
/// own inverse).
#[inline]
fn view_square(view: Seat, sq: u8) -> u32 {
    if view == 1 {
        63 - u32::from(sq)
    } else {
        u32::from(sq)
    }
}

/// The feature of `plane` at square `sq`, seen by `view`.
#[inline]
fn feature(plane: usize, view: Seat, sq: u8) -> u32 {
    plane as u32 * GRID + view_square(view, sq)
}

/// The plane, counted from `first` (the top or the held planes), of an agent of
/// `colour` seen by `view`.
#[inline]
fn agent_plane(first: usize, view: Seat, colour: u8) -> usize {
    first + usize::from(colour != colour_of(view))
}

/// Pushes the changes of square `sq` going from byte `old` to byte `new` (top colour in
/// bits 0–1, held colour in bits 2–3), level by level.
fn square_changes(view: Seat, sq: u8, old: u8, new: u8, changes: &mut FeatureChanges) {
    for (first, shift) in [(TOP_PLANES, 0), (HELD_PLANES, 2)] {
        let (was, is) = ((old >> shift) & 3, (new >> shift) & 3);
        if was != is {
            if was != EMPTY {
                changes
                    .off
                    .push(feature(agent_plane(first, view, was), view, sq));
            }
            if is != EMPTY {
                changes
                    .on
                    .push(feature(agent_plane(first, view, is), view, sq));
            }
        }
    }
}

/// The bytes of `from` and `to` after a plain move or leap from `from` (byte `s`) onto
/// the empty `to`, as [`super::Board::move_stack`] makes them: the top moves, carrying
/// its held agent unless that one is locked on `from`.
fn moved(from: u8, s: u8) -> (u8, u8) {
    let (top, held) = (s & 3, s >> 2);
    if held != EMPTY && locked(held, from) {
        (held, top)
    } else {
        (EMPTY, s)
    }
}

/// The bytes of `from` (byte `s`) and `to` (byte `t`) after a successful stacking
/// attempt, as [`super::Board::stack`] makes them: the source's top goes on the target;
/// a third agent there, the lowest unlocked one, goes under the rest of the source.
fn stacked(to: u8, s: u8, t: u8) -> (u8, u8) {
    let (mover, rest) = (s & 3, s >> 2);
    let (ttop, tbot) = (t & 3, t >> 2);
    if tbot == EMPTY {
        return (rest, mover | ttop << 2);
    }
    let (ejected, kept) = if locked(tbot, to) {
        (ttop, tbot)
    } else {
        (tbot, ttop)
    };
    let source = if rest == EMPTY {
        ejected
    } else {
        rest | ejected << 2
    };
    (source, mover | kept << 2)
}

/// Byte `cell` with its top (`held` false) or held agent made `colour`.
#[inline]
fn with_agent(cell: u8, held: bool, colour: u8) -> u8 {
    if held {
        (cell & 3) | colour << 2
    } else {
        (cell & !3) | colour
    }
}

impl Encode for ThreeWillState {
    fn encoding(&self) -> Encoding {
        let mut scalars = FLAGS.to_vec();
        // A maximum is positive: a game without cards keeps 1, which no count reaches.
        let cards = i32::from(self.rules.cards()).max(1);
        scalars.extend(
            CARD_SCALARS
                .iter()
                .map(|&(name, meaning)| scalar!(name, meaning, cards)),
        );
        scalars.push(scalar!(
            "turns",
            "turns completed, both sides counted; the game is drawn when it reaches its maximum",
            self.rules.max_turns() as i32
        ));
        let k = self.rules.knobs();
        let knobs = if k == Knobs::default() {
            String::new()
        } else {
            format!(
                ":{},{},{},{},{}",
                k.dr_cards, k.hit_faces, k.locks_to_win, k.agents, k.black_free_cards
            )
        };
        Encoding {
            id: format!("threewill/1:{}{knobs}", self.rules.max_turns()),
            rows: SIDE,
            cols: SIDE,
            planes: PLANES.to_vec(),
            scalars,
        }
    }

    fn features(&self, view: Seat, out: &mut Vec<u32>) {
        let mine = colour_of(view);
        let theirs = colour_of(opponent(view));
        for (first, shift) in [(TOP_PLANES, 0), (HELD_PLANES, 2)] {
            for colour in [mine, theirs] {
                let base = agent_plane(first, view, colour) as u32 * GRID;
                // Grid cells in order: the square of grid cell `g` is `g` turned back
                // into the board's frame.
                for g in 0..GRID {
                    let sq = view_square(view, g as u8) as u8;
                    if (self.board.cell(sq) >> shift) & 3 == colour {
                        out.push(base + g);
                    }
                }
            }
        }
        match self.phase {
            Phase::Throw { from, to } => {
                out.push(feature(ATTEMPT_SOURCE, view, from));
                out.push(feature(ATTEMPT_TARGET, view, to));
            }
            Phase::Reveal { sq, held, .. } => {
                out.push(feature(PICKED_TOP + usize::from(held), view, sq));
            }
            _ => {}
        }
    }

    fn scalars(&self, view: Seat, out: &mut Vec<i32>) {
        let over = matches!(self.phase, Phase::Over { .. });
        out.push(i32::from(!over && self.mover == view));
        let (roll, free_op) = match self.phase {
            Phase::Roll { free_op } => (true, free_op),
            Phase::Operate { free_op, .. } => (false, free_op),
            _ => (false, false),
        };
        out.push(i32::from(roll));
        out.push(i32::from(free_op));
        let face = match self.phase {
            Phase::Operate { face, .. } => face,
            _ => 0,
        };
        out.extend((1..=6).map(|f| i32::from(face == f)));
        out.push(i32::from(self.phase == Phase::FreeChoice));
        let (claimant, free_due) = match self.phase {
            Phase::Pick { claimant, free_due }
            | Phase::Reveal {
                claimant, free_due, ..
            } => (Some(claimant), free_due),
            _ => (None, false),
        };
        out.push(i32::from(claimant == Some(view)));
        out.push(i32::from(claimant == Some(opponent(view))));
        out.push(i32::from(free_due));
        out.push(i32::from(self.challenge_used));
        for seat in [view, opponent(view)] {
            out.push(i32::from(self.dr[seat]));
        }
        for seat in [view, opponent(view)] {
            out.push(i32::from(self.free[seat]));
        }
        out.push(i32::from(self.bank()));
        out.push(self.turns as i32);
    }

    /// Exact for every decision and outcome, from the two squares a move touches: a
    /// plain move or leap moves the top (with its held agent unless that one is
    /// locked); a stacking attempt marks its source and target until the throw, a hit
    /// then applies the stacking protocol to the two squares and a miss only clears the
    /// marks; a pick marks the picked agent, a reveal clears the mark and, for a twin,
    /// swaps the two agents' colours in place (both may be in one square). Rolls, passes,
    /// `free`, `done`, declarations and the end of the game change only scalars.
    fn feature_changes(&self, m: ThreeWillMove, view: Seat, changes: &mut FeatureChanges) {
        let cell = |sq| self.board.cell(sq);
        match (self.phase, m) {
            (_, ThreeWillMove::Step { from, to, kind }) => match kind {
                StepKind::Stack => {
                    changes.on.push(feature(ATTEMPT_SOURCE, view, from));
                    changes.on.push(feature(ATTEMPT_TARGET, view, to));
                }
                StepKind::Plain | StepKind::Leap => {
                    let (f, t) = moved(from, cell(from));
                    square_changes(view, from, cell(from), f, changes);
                    square_changes(view, to, cell(to), t, changes);
                }
            },
            (Phase::Throw { from, to }, hit_or_miss) => {
                changes.off.push(feature(ATTEMPT_SOURCE, view, from));
                changes.off.push(feature(ATTEMPT_TARGET, view, to));
                if hit_or_miss == ThreeWillMove::Hit {
                    let (f, t) = stacked(to, cell(from), cell(to));
                    square_changes(view, from, cell(from), f, changes);
                    square_changes(view, to, cell(to), t, changes);
                }
            }
            (_, ThreeWillMove::Pick { sq, held }) => {
                changes
                    .on
                    .push(feature(PICKED_TOP + usize::from(held), view, sq));
            }
            (
                Phase::Reveal {
                    claimant, sq, held, ..
                },
                outcome,
            ) => {
                changes
                    .off
                    .push(feature(PICKED_TOP + usize::from(held), view, sq));
                if let ThreeWillMove::Twin {
                    sq: tsq,
                    held: theld,
                } = outcome
                {
                    let (a, b) = (colour_of(claimant), colour_of(opponent(claimant)));
                    let picked = with_agent(cell(sq), held, b);
                    if tsq == sq {
                        let both = with_agent(picked, theld, a);
                        square_changes(view, sq, cell(sq), both, changes);
                    } else {
                        square_changes(view, sq, cell(sq), picked, changes);
                        let twin = with_agent(cell(tsq), theld, a);
                        square_changes(view, tsq, cell(tsq), twin, changes);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ThreeWill, BLACK, WHITE};
    use super::*;
    use crate::game::{play_moves, Game, State};
    use crate::testing::{check_encoding, check_move_changes, views};

    /// Plays `line` from `s`, checking before each move, from both views, that the
    /// announced changes are exactly the difference it makes.
    fn play_checking_changes(s: &mut ThreeWillState, line: &str) {
        for text in line.split_whitespace() {
            let m = s.parse_move(text).unwrap();
            check_move_changes(s, m).unwrap_or_else(|e| panic!("{text}: {e}"));
            s.try_apply(m).unwrap();
        }
    }

    #[test]
    fn the_contract_holds_along_random_games() {
        let report = check_encoding(&ThreeWill::default(), 200, 1).unwrap();
        assert!(report.changes > 150_000, "{report:?}");
    }

    #[test]
    fn the_contract_holds_under_a_short_cap() {
        let game = ThreeWill::new(30).unwrap();
        assert_eq!(game.initial_state().encoding().id, "threewill/1:30");
        let report = check_encoding(&game, 300, 2).unwrap();
        assert!(report.changes > 35_000, "{report:?}");
    }

    #[test]
    fn both_views_of_the_start_are_the_same_picture() {
        let s = ThreeWill::default().initial_state();
        let e = s.encoding();
        assert_eq!((e.id.as_str(), e.rows, e.cols), ("threewill/1:400", 8, 8));
        assert_eq!(
            (e.planes.len(), e.features(), e.scalars.len()),
            (8, 512, 20)
        );
        let [(white, to_roll), (black, waits)] = views(&s);
        assert_eq!(white, black);
        let mine: Vec<u32> = (8..16).chain(64 + 48..64 + 56).collect();
        assert_eq!(white, mine);
        let cards = [4, 4, 0, 0, 0, 0];
        let flags = |to_move| [to_move, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(to_roll, [&flags(1)[..], &cards].concat());
        assert_eq!(waits, [&flags(0)[..], &cards].concat());
    }

    #[test]
    fn stacks_and_a_pending_attempt_as_each_view_sees_them() {
        let mut s = ThreeWill::default().initial_state();
        // White stacks c2 onto d2; Black and White step forward on the d-file until
        // Black's d5 attempts to stack onto White's two-agent stack on d4.
        play_moves(
            &mut s,
            "2 c2*d2 hit 1 d7-d6 1 d2-d3 1 d6-d5 1 d3-d4 1 d5*d4",
        )
        .unwrap();
        let e = s.encoding();
        let set = |cells: &[(usize, u32, u32)]| {
            let mut f: Vec<u32> = cells.iter().map(|&(p, r, c)| e.feature(p, r, c)).collect();
            f.sort_unstable();
            f
        };
        let [(white, white_scalars), (black, black_scalars)] = views(&s);
        // White's view: row y, column x.
        #[rustfmt::skip]
        let expected = set(&[
            (0, 1, 0), (0, 1, 1), (0, 1, 4), (0, 1, 5), (0, 1, 6), (0, 1, 7), // row 2
            (0, 3, 3), (2, 3, 3),                                              // W/W on d4
            (1, 6, 0), (1, 6, 1), (1, 6, 2), (1, 6, 4), (1, 6, 5), (1, 6, 6), (1, 6, 7),
            (1, 4, 3),                                                         // B on d5
            (4, 4, 3), (5, 3, 3),                                              // d5*d4
        ]);
        assert_eq!(white, expected);
        // Black's view, turned: row 7 - y, column 7 - x.
        #[rustfmt::skip]
        let expected = set(&[
            (0, 1, 7), (0, 1, 6), (0, 1, 5), (0, 1, 3), (0, 1, 2), (0, 1, 1), (0, 1, 0),
            (0, 3, 4),                                                         // B on d5
            (1, 6, 7), (1, 6, 6), (1, 6, 3), (1, 6, 2), (1, 6, 1), (1, 6, 0),
            (1, 4, 4), (3, 4, 4),                                              // W/W on d4
            (4, 3, 4), (5, 4, 4),
        ]);
        assert_eq!(black, expected);
        // Black's throw is due: no roll, no directive; each side paid a Double Risk
        // card; five turns completed.
        let flags = |to_move| [to_move, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let cards_and_turns = [3, 3, 0, 0, 2, 5];
        assert_eq!(white_scalars, [&flags(0)[..], &cards_and_turns].concat());
        assert_eq!(black_scalars, [&flags(1)[..], &cards_and_turns].concat());
        // The hit puts Black's agent on top of d4 and ejects the lower White agent to
        // the bottom of d5, which it holds alone.
        play_checking_changes(&mut s, "hit");
        let [(white, _), _] = views(&s);
        assert!(white.contains(&e.feature(1, 3, 3)) && white.contains(&e.feature(2, 3, 3)));
        assert!(white.contains(&e.feature(0, 4, 3)));
        assert!(!white.contains(&e.feature(4, 4, 3)));
    }

    #[test]
    fn the_directive_and_the_free_operation_are_scalars() {
        let s = ThreeWill::default().custom_state(
            &[(8, WHITE, BLACK), (12, WHITE, 0), (50, BLACK, 0)],
            0,
            [0, 0],
            [1, 0],
            false,
        );
        let mut t = s;
        // White rolls a 1 and steps forward with a Free card in hand.
        play_checking_changes(&mut t, "1");
        let [(_, v), _] = views(&t);
        assert_eq!(&v[..10], [1, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
        play_checking_changes(&mut t, "a2-a3");
        let [(_, v), _] = views(&t);
        assert_eq!(v[9], 1, "the free/done choice is due");
        play_checking_changes(&mut t, "free");
        let [(_, v), _] = views(&t);
        assert_eq!(&v[..3], [1, 1, 1], "a Free roll is due");
        assert_eq!(
            &v[14..19],
            [0, 0, 0, 0, 8],
            "the Free card went to the bank"
        );
        play_checking_changes(&mut t, "3 a3~h3 6");
        let [(_, v), (_, w)] = views(&t);
        assert_eq!((v[0], w[0], &w[3..9]), (0, 1, &[0, 0, 0, 0, 0, 1][..]));
    }

    #[test]
    fn a_challenge_marks_the_pick_and_a_twin_swaps_within_one_square() {
        // White's lone agent on d4 stacks onto Black's last active agent on e5: Black
        // has no active agent left, White declares victory and Black challenges,
        // picking White's top on e5, whose twin is Black's agent held beneath it.
        let s = ThreeWill::default().custom_state(
            &[(18, WHITE, BLACK), (27, WHITE, 0), (36, BLACK, 0)],
            0,
            [1, 1],
            [0, 0],
            false,
        );
        let mut t = s;
        play_checking_changes(&mut t, "4 d4*e5 hit");
        let [(_, v), (_, w)] = views(&t);
        assert_eq!((v[10], v[11], w[10], w[11]), (1, 0, 0, 1), "White claims");
        play_checking_changes(&mut t, "pick:e5");
        let e = t.encoding();
        let [(white, _), (black, _)] = views(&t);
        assert!(white.contains(&e.feature(PICKED_TOP, 4, 4)));
        assert!(black.contains(&e.feature(PICKED_TOP, 3, 3)));
        play_checking_changes(&mut t, "twin:e5/2");
        let [(white, v), _] = views(&t);
        // e5 is now Black on White; the turn ended and Black rolls.
        assert!(white.contains(&e.feature(1, 4, 4)) && white.contains(&e.feature(2, 4, 4)));
        assert_eq!((v[0], v[1], v[13]), (0, 1, 1));
        // The other path: the victory stands.
        let mut t = s;
        play_checking_changes(&mut t, "4 d4*e5 hit pick:c3 stands");
        assert_eq!(t.outcome(), Some(crate::game::Outcome::Win(0)));
        let [(_, v), _] = views(&t);
        assert_eq!((v[0], v[10]), (0, 0));
    }
}
