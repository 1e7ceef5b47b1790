//! An engine state and a naive reference model played in lockstep: at every node they
//! must agree (turn, result, legal moves, whatever the model checks), and a picker
//! chooses the next move from the model's choices.

use agon_engine::{Outcome, State, Turn};

/// A naive model that can walk a game alongside the engine.
pub trait Lockstep: Clone {
    /// The engine's state of the same game.
    type State: State;
    /// One of the model's choices at a node (a move, an outcome, or the child it leads to).
    type Choice;

    /// Checks that the model and the engine's `state` agree at this node and returns the
    /// model's choices, in the order a picker indexes them (empty once the game is over).
    fn compare(&self, state: &Self::State) -> Result<Vec<Self::Choice>, String>;

    /// The choice in the game's notation, as the engine parses it.
    fn notation(choice: &Self::Choice) -> &str;

    /// Plays `choice` in the model.
    fn take(&mut self, choice: &Self::Choice);
}

/// Plays one game in both implementations from `state` and `naive`, choosing at each
/// node the choice `pick(model, choices)` (modulo their number), until the game ends or
/// `pick` returns `None`. Returns the number of nodes compared and the engine's last
/// state, or the first disagreement with the line that reaches it (named by `label`).
pub fn cross_check<N: Lockstep>(
    mut state: N::State,
    mut naive: N,
    label: &str,
    mut pick: impl FnMut(&N, &[N::Choice]) -> Option<usize>,
) -> Result<(u64, N::State), String> {
    let mut line: Vec<String> = Vec::new();
    let mut nodes = 0;
    loop {
        let at = |line: &[String]| format!("{label} after [{}]", line.join(" "));
        let choices = naive
            .compare(&state)
            .map_err(|e| format!("{}: {e}", at(&line)))?;
        nodes += 1;
        if choices.is_empty() {
            return Ok((nodes, state));
        }
        let Some(i) = pick(&naive, &choices) else {
            return Ok((nodes, state));
        };
        let choice = &choices[i % choices.len()];
        let text = N::notation(choice);
        let m = state
            .parse_move(text)
            .map_err(|e| format!("{}: engine cannot parse {text}: {e}", at(&line)))?;
        state.apply(m);
        naive.take(choice);
        line.push(text.to_string());
    }
}

/// The engine's choices at `state` in its notation, sorted: its legal moves, or at a
/// chance node its chance outcomes (without their weights).
pub fn engine_moves<S: State>(state: &S) -> Vec<String> {
    let mut texts: Vec<String> = if state.turn() == Turn::Chance {
        let mut outcomes = Vec::new();
        state.chance_outcomes(&mut outcomes);
        outcomes
            .iter()
            .map(|&(m, _)| state.format_move(m))
            .collect()
    } else {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves.iter().map(|&m| state.format_move(m)).collect()
    };
    texts.sort();
    texts
}

/// The model's `choices` (each with its notation) sorted by notation, or `Err` naming
/// the moves only one side lists unless they are the engine's [`engine_moves`]; `what`
/// names the moves in the message.
pub fn sorted_choices<S: State, C>(
    state: &S,
    mut choices: Vec<(String, C)>,
    what: &str,
) -> Result<Vec<(String, C)>, String> {
    choices.sort_by(|a, b| a.0.cmp(&b.0));
    let engine = engine_moves(state);
    let naive: Vec<&str> = choices.iter().map(|c| c.0.as_str()).collect();
    if engine.len() != naive.len() || engine.iter().zip(&naive).any(|(e, n)| e != n) {
        let only_engine: Vec<_> = engine
            .iter()
            .filter(|m| !naive.contains(&m.as_str()))
            .collect();
        let only_naive: Vec<_> = naive
            .iter()
            .filter(|m| !engine.iter().any(|e| e == *m))
            .collect();
        return Err(format!(
            "{what} differ: only engine {only_engine:?}, only naive {only_naive:?}"
        ));
    }
    Ok(choices)
}

/// `Err` unless the engine's turn is `naive`'s.
pub fn same_turn(engine: Turn, naive: Turn) -> Result<(), String> {
    if engine != naive {
        return Err(format!("turn: engine {engine:?}, naive {naive:?}"));
    }
    Ok(())
}

/// The engine's end reason as its word (`None` while the game goes on): the one place
/// the lockstep checks read an end reason, so that they compare words whatever type
/// the engine reports it in.
pub fn end_word<S: State>(state: &S) -> Option<String> {
    state.end_reason().map(|r| r.to_string())
}

/// `Err` unless the engine's outcome and end reason are the model's `outcome` and
/// `reason` (both `None` while the game goes on).
pub fn same_end<S: State>(
    state: &S,
    outcome: Option<Outcome>,
    reason: Option<&str>,
) -> Result<(), String> {
    let engine = (state.outcome(), end_word(state));
    if engine.0 != outcome || engine.1.as_deref() != reason {
        return Err(format!(
            "result: engine {:?} by {:?}, naive {outcome:?} by {reason:?}",
            engine.0, engine.1
        ));
    }
    Ok(())
}
