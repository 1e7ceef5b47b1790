//! One game of a tournament played to its end, with the fault capture that turns an
//! agent's panic or illegal move into a forfeit.

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use agon_engine::{Outcome, State, Turn};
use agon_search::{Agent, AgentRng, AgentStats, SearchContext};
use anyhow::{anyhow, Result};

use super::schedule::Plan;
use crate::external::ExtFault;
use crate::games::PlayableGame;
use crate::one_line;
use crate::record::{GameRow, Result0, TimingRow, FORFEIT};
use crate::seeds;

/// Plays game `index` of `plan` from the initial position to the end: its deal's
/// opening first ([`Opening::play`](crate::running::opening::Opening::play)), then the agents, until the game ends or an agent
/// faults (then that agent's seat forfeits, see [`agent_move`]). Chance outcomes come
/// from the deal's luck ([`seeds::PairLuck`]) by event identity, so both games of a
/// match's pair get the same outcome for the same event (common random numbers); each
/// self-play game has its own deal ([`Seating::deal`](super::schedule::Seating::deal)).
///
/// Fails if an agent cannot be built, or if no random opening that leaves the game going
/// can be drawn.
pub fn play_game<G: PlayableGame>(
    game: &G,
    plan: &Plan,
    index: u64,
) -> Result<(GameRow, TimingRow)> {
    let seating = plan.seating(index);
    let entrant = |seat: usize| &plan.entrants[seating.seats[seat]];
    let mut agents = [0, 1]
        .into_iter()
        .map(|seat| {
            let entrant = entrant(seat);
            G::build_agent_in(&entrant.spec, &plan.venue(seat, &entrant.label))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut rngs = [0, 1].map(|seat| seeds::agent_rng(plan.seed, index, seat));
    let luck = seeds::PairLuck::new(plan.seed, seating.deal);

    let mut decisions = [0u32; 2];
    let mut stats = [AgentStats::default(); 2];
    let mut forfeit = None;
    // The decision of the agent to move, or `None` once an agent has faulted (the fault
    // is recorded once, and the game stops there).
    let mut decide = |state: &G::State, line: &[String]| {
        if forfeit.is_some() {
            return None;
        }
        let Turn::Seat(seat) = state.turn() else {
            unreachable!("agents decide at decision nodes only")
        };
        match agent_move(
            agents[seat].as_mut(),
            state,
            line,
            &mut rngs[seat],
            &mut stats[seat],
        ) {
            Ok(m) => {
                decisions[seat] += 1;
                Some(m)
            }
            Err(fault) => {
                forfeit = Some((seat, fault));
                None
            }
        }
    };

    let mut moves: Vec<String> = Vec::new();
    let mut state = plan.opening.play(
        game,
        plan.seed,
        seating.deal,
        &mut moves,
        &mut decide,
        plan.applied_check(),
    )?;
    let opening = moves.len() as u32;
    loop {
        let m = match state.turn() {
            Turn::Over => break,
            Turn::Chance => state.common_outcome(&luck),
            Turn::Seat(_) => match decide(&state, &moves) {
                Some(m) => m,
                None => break,
            },
        };
        moves.push(state.format_move(m));
        state.try_apply(m).map_err(|e| {
            anyhow!(
                "game {index}: illegal move {e} after {:?}",
                moves[..moves.len() - 1].join(" ")
            )
        })?;
    }

    let (result0, winner, end_reason, note) = match forfeit {
        // The faulty seat loses; the other wins.
        Some((0, fault)) => (
            Result0::Loss,
            Some(1),
            FORFEIT.to_string(),
            format!("seat 0 ({}) {fault}", entrant(0).label),
        ),
        Some((_, fault)) => (
            Result0::Win,
            Some(0),
            FORFEIT.to_string(),
            format!("seat 1 ({}) {fault}", entrant(1).label),
        ),
        None => {
            // The State contract: `end` is `Some` once the turn is Over.
            let end = state.end().expect("a finished game has an end");
            let reason = end.reason.to_string();
            match end.outcome {
                Outcome::Win(0) => (Result0::Win, Some(0), reason, String::new()),
                Outcome::Win(_) => (Result0::Loss, Some(1), reason, String::new()),
                Outcome::Draw => (Result0::Draw, None, reason, String::new()),
            }
        }
    };
    let row = GameRow {
        game: index,
        pair: seating.pair,
        pairing: seating.pairing,
        agent0: entrant(0).label.clone(),
        agent1: entrant(1).label.clone(),
        side0: state.side(0).to_string(),
        side1: state.side(1).to_string(),
        result0,
        winner,
        end_reason,
        plies: state.ply(),
        turns: state.turns(),
        decisions0: decisions[0],
        decisions1: decisions[1],
        nodes0: stats[0].nodes,
        nodes1: stats[1].nodes,
        opening,
        moves: moves.join(" "),
        note,
        // Set by `RunWriter::write`, which knows the run's identity.
        digest: String::new(),
    };
    let timing = TimingRow {
        game: index,
        time_us0: stats[0].time.as_micros() as u64,
        time_us1: stats[1].time.as_micros() as u64,
    };
    Ok((row, timing))
}

/// Asks `agent` for its move at the decision node `state` (reached by `line` from the
/// game's start, [`SearchContext::line`]), adding the search to `stats`
/// (the seat's totals for the game); `Err` describes a fault that
/// forfeits the game: the agent panicked (`panicked at FILE:LINE:COL: MESSAGE`, or an
/// outside program's [`ExtFault`] as it stands) or returned a move that is not legal here
/// (`played the illegal move M`). The text is one line.
///
/// The call runs under [`catch_unwind`] with [`AssertUnwindSafe`]: a panic may leave the
/// agent half-updated, which is sound here because the faulty agent makes no further move
/// (the game ends at once) and is dropped; `state` is borrowed immutably and the random stream belongs to this seat
/// of this game only. While the agent runs, the panic hook of [`quiet_agent_panics`] keeps
/// the standard report off standard error (the forfeit line replaces it); a panic
/// anywhere else is reported as usual. That includes a helper thread the agent starts
/// (the parallel searches use `std::thread::scope`): Rust reports its panic as usual, and
/// the forfeit note names the panic the scope raises again in the agent's own thread.
pub fn agent_move<S: State>(
    agent: &mut dyn Agent<S>,
    state: &S,
    line: &[String],
    rng: &mut AgentRng,
    stats: &mut AgentStats,
) -> Result<S::Move, String> {
    quiet_agent_panics();
    // Restored, not cleared, afterwards: correct even if calls were ever nested.
    let outer = IN_AGENT.with(|f| f.replace(true));
    let chosen = catch_unwind(AssertUnwindSafe(|| {
        let result = agent.search(state, SearchContext::new(rng, &mut |_| {}).with_line(line));
        stats.record(&result);
        result
            .best
            .expect("Agent::search returns a move at a decision node")
    }));
    IN_AGENT.with(|f| f.set(outer));
    let m = chosen.map_err(|payload| {
        let hooked = PANIC_REPORT.with(|r| r.borrow_mut().take());
        let fault = payload.downcast_ref::<ExtFault>().map(ToString::to_string);
        let report = || format!("panicked: {}", panic_message(&*payload));
        one_line(&fault.or(hooked).unwrap_or_else(report))
    })?;
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    if legal.contains(&m) {
        Ok(m)
    } else {
        // Formatting a move that is not legal here may itself fail in a game's notation
        // code; fall back to the move's debug form.
        let text = catch_unwind(AssertUnwindSafe(|| state.format_move(m)))
            .unwrap_or_else(|_| format!("{m:?}"));
        Err(one_line(&format!("played the illegal move {text}")))
    }
}

thread_local! {
    /// Whether this thread is inside [`agent_move`]'s call to the agent.
    pub(super) static IN_AGENT: Cell<bool> = const { Cell::new(false) };
    /// The hook's description of the last agent panic on this thread, taken by
    /// [`agent_move`].
    static PANIC_REPORT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once per process) a panic hook that, on a thread inside an agent call of
/// [`agent_move`], records the panic's place and message for the forfeit note instead of
/// printing them; on any other thread or outside an agent call it calls the previous hook,
/// so real crashes of the tool are reported as usual.
fn quiet_agent_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_AGENT.with(Cell::get) {
                let place = info
                    .location()
                    .map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                let report = format!("panicked{place}: {}", panic_message(info.payload()));
                PANIC_REPORT.with(|r| *r.borrow_mut() = Some(report));
            } else {
                previous(info);
            }
        }));
    });
}

/// The message of a panic payload (`panic!` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}
