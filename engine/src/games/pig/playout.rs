//! Pig's own random-playout loop
//! ([`FastPlayout::fast_random_plies`](crate::FastPlayout::fast_random_plies)): a
//! decision and the die it leads to in one draw, applied without a branch on the coin.
//!
//! Ply by ply, a random Pig playout flips a fair coin (roll or hold) at every decision
//! and branches on it; the processor guesses that branch wrong half the time, which
//! cost about as much as the rest of the ply together. Here one draw below `2·die`
//! picks both: the first `die` answers are `hold` (probability ½, the coin), answer
//! `die + f - 1` is `roll` followed by face `f` (probability ½ · 1/die), which is
//! exactly the ply-by-ply playout's law. The answer then updates the counters by
//! masks, so that the only branches left are the loop's exits, which are all but
//! always not taken.
//!
//! The loop applies only where a step cannot end the game: the mover is not forced to
//! hold (a forced hold reaches the target and wins, the end of the playout), and a
//! roll cannot be the horizon's last decision (the game would end before the die is
//! read). It stops there, and at a chance node or a budget of fewer than two plies,
//! and the caller plays that ply by the rules.

use super::{PigState, MAX_DIE};
use crate::game::Seat;

/// What one answer of the draw below `2·die` does, as masks and counts read from a
/// table. Read from memory, they are opaque to the compiler, which would otherwise
/// turn a mask built from a comparison back into the unpredictable branch this loop
/// exists to avoid.
#[derive(Clone, Copy)]
struct Step {
    /// All ones (-1) for a hold, 0 for a roll.
    hold_mask: i8,
    /// All ones (-1) when the step ends the turn (a hold, or a roll of 1), else 0.
    end_mask: i8,
    /// The face rolled (0 for a hold): added to the turn total, and shown on the die.
    face: u8,
}

/// The steps of each die size: row `die`, answer `a` (see the module docs).
static STEPS: [[Step; 2 * MAX_DIE as usize]; MAX_DIE as usize + 1] = steps();

const fn steps() -> [[Step; 2 * MAX_DIE as usize]; MAX_DIE as usize + 1] {
    let none = Step {
        hold_mask: 0,
        end_mask: 0,
        face: 0,
    };
    let mut table = [[none; 2 * MAX_DIE as usize]; MAX_DIE as usize + 1];
    let mut die = 1;
    while die <= MAX_DIE as usize {
        let mut answer = 0;
        while answer < 2 * die {
            table[die][answer] = if answer < die {
                Step {
                    hold_mask: -1,
                    end_mask: -1,
                    face: 0,
                }
            } else {
                let face = answer - die + 1;
                Step {
                    hold_mask: 0,
                    end_mask: if face == 1 { -1 } else { 0 },
                    face: face as u8,
                }
            };
            answer += 1;
        }
        die += 1;
    }
    table
}

/// Plays `state` forward as [`FastPlayout::fast_random_plies`] says; see the module docs.
///
/// The loop keeps few counters, so that they all stay in registers: the steps run in
/// batches of as many as surely fit both the decision cap and the ply budget (a step
/// is one decision and at most two plies), counted down, and the rolls of the turn
/// are recovered at the end from the plies since the turn began (every step of an
/// unfinished turn is a roll and its face, two plies).
///
/// [`FastPlayout::fast_random_plies`]: crate::game::FastPlayout::fast_random_plies
#[inline(always)]
pub(super) fn fused_random_plies(
    state: &mut PigState,
    max_plies: u32,
    mut draw: impl FnMut(u64) -> u64,
) -> u32 {
    if state.rolling || state.is_over() {
        return 0;
    }
    let target = state.rules.target;
    let die = state.rules.die;
    let steps = &STEPS[die as usize];
    // The last decision a step may make: one before the horizon's.
    let last_decision = state.rules.horizon - 1;
    let ply_limit = state.ply.saturating_add(max_plies);
    let mut mine = state.scores[state.mover];
    let mut theirs = state.scores[1 - state.mover];
    let mut turn_total = state.turn_total;
    let mut decisions = state.decisions;
    let mut turns = state.turns;
    let mut ply = state.ply;
    let mut turn_start = state.turn_start;
    let mut die_shows = state.die_shows;
    loop {
        let batch = last_decision
            .saturating_sub(decisions)
            .min(ply_limit.saturating_sub(ply) / 2);
        let mut left = batch;
        while left > 0 && mine + turn_total < target {
            let step = steps[draw(u64::from(2 * die)) as usize];
            let hold_mask = step.hold_mask as u32;
            let end_mask = step.end_mask as u32;
            let banked = mine + (turn_total & hold_mask);
            turn_total = (turn_total + u32::from(step.face)) & !end_mask;
            turns = turns.wrapping_sub(end_mask);
            // Two plies for a roll and its face, one for a hold.
            ply = ply.wrapping_add(2).wrapping_add(hold_mask);
            turn_start ^= (turn_start ^ ply) & end_mask;
            die_shows = step.face;
            // At the end of a turn the other seat's score becomes the mover's.
            let swap = (banked ^ theirs) & end_mask;
            mine = banked ^ swap;
            theirs ^= swap;
            left -= 1;
        }
        decisions += batch - left;
        if batch == 0 || left > 0 {
            break;
        }
    }
    let played = ply - state.ply;
    let ended = turns - state.turns;
    // The rolls of the current turn: two plies each since it began (or since the
    // loop began, if it did not end a turn).
    state.rolls = if ended > 0 {
        (ply - turn_start) / 2
    } else {
        state.rolls + played / 2
    };
    // The mover changes with every turn that ended.
    let mover = state.mover ^ (ended & 1) as Seat;
    state.scores[mover] = mine;
    state.scores[1 - mover] = theirs;
    state.mover = mover;
    state.turn_total = turn_total;
    state.decisions = decisions;
    state.turns = turns;
    state.ply = ply;
    state.turn_start = turn_start;
    state.die_shows = die_shows;
    played
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::game::{FastPlayout, Game, State, Turn};
    use crate::games::pig::{Pig, PigMove};

    /// The plies draw `answer` stands for at a decision: hold, or roll and a face.
    fn plies_of(answer: u32, die: u32) -> Vec<PigMove> {
        if answer < die {
            vec![PigMove::Hold]
        } else {
            vec![PigMove::Roll, PigMove::Face((answer - die + 1) as u8)]
        }
    }

    /// Every field, path data included (`==` compares the position only).
    fn fields(s: &PigState) -> String {
        format!("{s:?}")
    }

    #[test]
    fn each_draw_plays_what_its_plies_play_by_the_rules() {
        // Scripted draws from random positions of several rule sets: the loop must
        // leave exactly the state that applying each answer's plies leaves, ask only
        // for draws below 2·die, and stop exactly where the module docs say.
        let mut rng = StdRng::seed_from_u64(11);
        for (target, die, horizon) in [(100, 6, 1000), (20, 2, 40), (50, 20, 7), (9, 3, 2)] {
            let rules = Pig::new(target, die, horizon).unwrap();
            for _ in 0..300 {
                let mut start = rules.initial_state();
                // A random position: some random plies first.
                for _ in 0..rng.random_range(0..40) {
                    let m = match start.turn() {
                        Turn::Over => break,
                        Turn::Chance => PigMove::Face(rng.random_range(1..=die) as u8),
                        Turn::Seat(_) if start.must_hold() || rng.random_bool(0.5) => PigMove::Hold,
                        Turn::Seat(_) => PigMove::Roll,
                    };
                    start.apply(m);
                }
                let budget = rng.random_range(0..30);
                let answers: Vec<u32> = (0..30).map(|_| rng.random_range(0..2 * die)).collect();
                let mut fused = start;
                let mut asked = 0;
                let played = fused.fast_random_plies(budget, |n| {
                    assert_eq!(n, u64::from(2 * die));
                    asked += 1;
                    u64::from(answers[asked - 1])
                });
                assert!(played <= budget);
                let mut by_rules = start;
                for &answer in &answers[..asked] {
                    for m in plies_of(answer, die) {
                        assert!(by_rules.is_legal(m), "{m:?} in {by_rules}");
                        by_rules.apply(m);
                    }
                }
                assert_eq!(fields(&fused), fields(&by_rules), "from {start}");
                assert_eq!(played, by_rules.ply - start.ply);
                // Where it stopped, its loop does not apply.
                let room = played + 2 <= budget;
                let stopped = start.rolling
                    || fused.turn() == Turn::Over
                    || fused.must_hold()
                    || fused.decisions + 1 >= horizon;
                assert!(
                    !room || stopped,
                    "stopped early at {fused} (budget {budget})"
                );
                if start.turn() != Turn::Over {
                    assert_ne!(fused.turn(), Turn::Over, "the loop never ends the game");
                }
            }
        }
    }
}
