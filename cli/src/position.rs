//! Positions given on the command line (`--moves "m1 m2 ..."`) and words for a finished
//! game, shared by `play`, `analyse` and `perft`.

use agon_engine::{EndReason, Outcome, State, Turn};

use crate::bad_input::BadInput;

/// Plays the space-separated `moves` (decisions and chance outcomes, in notation) from
/// `state`. An illegal or unreadable move is a [`BadInput`] naming the move, its place in
/// the list and the legal moves there.
pub fn replay<S: State>(state: &mut S, moves: &str) -> Result<(), BadInput> {
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    for (i, text) in tokens.iter().enumerate() {
        let at = format!("--moves: move {} of {}, {text:?}", i + 1, tokens.len());
        if state.turn() == Turn::Over {
            return Err(BadInput::new(format!("{at}: the game is already over")));
        }
        play_notated(state, text, &at)?;
    }
    Ok(())
}

/// Plays the move written `text` (a decision or a chance outcome, in notation) on
/// `state`. An illegal or unreadable move is a [`BadInput`] that starts with `at` (where
/// the move stands) and names the legal moves there.
pub fn play_notated<S: State>(state: &mut S, text: &str, at: &str) -> Result<(), BadInput> {
    play_notated_with(state, text, || at.to_string())
}

/// [`play_notated`], with where the move stands written by `at` only on an error (for
/// callers that play many moves, such as the check of an openings file).
pub fn play_notated_with<S: State>(
    state: &mut S,
    text: &str,
    at: impl FnOnce() -> String,
) -> Result<(), BadInput> {
    let result = state
        .parse_move(text)
        .and_then(|m| state.try_apply(m).map(drop));
    result.map_err(|e| {
        BadInput::new(format!(
            "{}: {} (legal here: {})",
            at(),
            e.reason,
            legal_here(state).join(" ")
        ))
    })
}

/// The moves of `line` (a principal variation) in notation, each told in the position
/// it is played from, up to the first that is not legal there (a line read back from a
/// transposition table may hold one after a key collision).
pub fn notate_line<S: State>(state: &S, line: &[S::Move]) -> Vec<String> {
    let mut state = state.clone();
    let mut moves = Vec::with_capacity(line.len());
    for &m in line {
        let written = state.format_move(m);
        if state.try_apply(m).is_err() {
            break;
        }
        moves.push(written);
    }
    moves
}

/// The decisions or chance outcomes of `state` in notation (empty when it is over).
pub fn legal_here<S: State>(state: &S) -> Vec<String> {
    let mut moves = Vec::new();
    if state.turn() == Turn::Chance {
        let mut outcomes = Vec::new();
        state.chance_outcomes(&mut outcomes);
        moves.extend(outcomes.into_iter().map(|(m, _)| m));
    } else {
        state.legal_moves(&mut moves);
    }
    moves.into_iter().map(|m| state.format_move(m)).collect()
}

/// `seat 0 (black, <name 0>) wins by elimination` or `draw (cap)` for a finished game;
/// `names` are the seats' agents, if any.
pub fn describe_end<S: State>(state: &S, names: Option<[&str; 2]>) -> String {
    let reason = state.end_reason().map_or("unknown reason", EndReason::word);
    match state.outcome() {
        Some(Outcome::Win(seat)) => {
            let who = match names {
                Some(names) => format!("seat {seat} ({}, {})", state.side(seat), names[seat]),
                None => format!("seat {seat} ({})", state.side(seat)),
            };
            format!("{who} wins by {reason}")
        }
        Some(Outcome::Draw) => format!("draw ({reason})"),
        None => "the game goes on".into(),
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::testing::coin_nim::CoinNim;
    use agon_engine::Game;

    use super::*;

    #[test]
    fn replay_names_the_bad_move_and_the_choices() {
        let game = CoinNim { stones: 2, cap: 6 };
        let mut s = game.initial_state();
        replay(&mut s, "take1 tails").unwrap();
        assert_eq!(s.turn(), Turn::Seat(1));

        let mut s = game.initial_state();
        let e = replay(&mut s, "take1 take1").unwrap_err();
        assert_eq!(
            e.0,
            "--moves: move 2 of 2, \"take1\": not legal in this position (legal here: heads tails)"
        );
        let mut s = game.initial_state();
        let e = replay(&mut s, "take2 heads").unwrap_err();
        assert_eq!(
            e.0,
            "--moves: move 2 of 2, \"heads\": the game is already over"
        );
        assert_eq!(describe_end(&s, None), "seat 0 (first) wins by last-stone");
        assert_eq!(
            describe_end(&s, Some(["a", "b"])),
            "seat 0 (first, a) wins by last-stone"
        );
    }
}
