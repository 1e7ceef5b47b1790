//! `agon analyse`: one search from a position, printed in the manner of UCI engines.
//!
//! ```text
//! info depth <d> value <v> nodes <n> time_ms <t> pv <moves>      (one per iteration)
//! bestmove <move> value <v> depth <d> nodes <n> time_ms <t> nps <n>
//! ```
//!
//! Values are from the side to move's view (at a chance node, seat 0's), as
//! [`agon_search::Value`] prints them: a number, `win <plies>`, `loss <plies>` or `draw`.
//! At a chance node the agent reports the expected value and the move is `none`; at a
//! finished game only `game over: ...` is printed.

use std::io::Write;
use std::time::Duration;

use agon_engine::{State, Turn};
use anyhow::Result;

use crate::games::{GameCommand, PlayableGame};
use crate::position::{describe_end, replay};
use crate::seeds;
use crate::spec::{AgentSpec, GameSpec};

/// `agon analyse` for the game of a spec.
pub struct AnalyseCommand<'a> {
    /// The searching agent.
    pub agent: AgentSpec,
    /// Moves from the initial position, in notation.
    pub moves: String,
    /// Seed of the agent's random stream.
    pub seed: u64,
    /// Where the lines are printed.
    pub out: &'a mut dyn Write,
}

impl GameCommand for AnalyseCommand<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
        analyse(&game, &self.agent, &self.moves, self.seed, self.out)
    }
}

/// Searches the position after `moves` with `agent`, printing `info` lines and the
/// `bestmove` line to `out`.
pub fn analyse<G: PlayableGame>(
    game: &G,
    spec: &AgentSpec,
    moves: &str,
    seed: u64,
    out: &mut dyn Write,
) -> Result<()> {
    let mut agent = G::build_agent(spec, spec.to_string())?;
    let mut state = game.initial_state();
    replay(&mut state, moves)?;
    if state.turn() == Turn::Over {
        writeln!(out, "game over: {}", describe_end(&state, None))?;
        return Ok(());
    }
    let mut rng = seeds::agent_rng(seed, 0, 0);
    // Lines go out as each iteration completes, as a UCI engine's do; a write error is
    // kept and reported after the search (the callback cannot return it).
    let mut written: std::io::Result<()> = Ok(());
    let result = agent.search(&state, &mut rng, &mut |info| {
        if written.is_ok() {
            written = writeln!(
                out,
                "info depth {} value {} nodes {} time_ms {} pv{}",
                info.depth,
                info.value,
                info.nodes,
                info.time.as_millis(),
                line_text(&state, &info.pv)
            )
            .and_then(|()| out.flush());
        }
    });
    written?;
    if spec.name == "solve" && !result.value.is_proven() {
        writeln!(
            out,
            "info string unproven: the budget ran out before the proof; the value is heuristic"
        )?;
    }
    let best = match result.best {
        Some(m) => state.format_move(m),
        None => "none".into(),
    };
    writeln!(
        out,
        "bestmove {best} value {} depth {} nodes {} time_ms {} nps {}",
        result.value,
        result.depth,
        result.nodes,
        result.time.as_millis(),
        nodes_per_second(result.nodes, result.time)
    )?;
    out.flush()?;
    Ok(())
}

/// A line of moves from `state`, each written as ` move` in the notation of the position
/// it is played in. Stops at a move that is not legal (a broken PV), which is not printed.
fn line_text<S: State>(state: &S, line: &[S::Move]) -> String {
    let mut state = state.clone();
    let mut text = String::new();
    for &m in line {
        let written = state.format_move(m);
        if state.try_apply(m).is_err() {
            break;
        }
        text.push(' ');
        text.push_str(&written);
    }
    text
}

/// Nodes per second, rounded down; a search shorter than a microsecond counts as one.
pub fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / micros) as u64
}

#[cfg(test)]
mod tests {
    use agon_engine::testing::coin_nim::CoinNim;

    use super::*;

    fn run(moves: &str) -> String {
        let agent = AgentSpec::parse("random", false).unwrap();
        let mut out = Vec::new();
        analyse(&CoinNim { stones: 3, cap: 4 }, &agent, moves, 1, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn chance_nodes_and_finished_games() {
        let text = run("take1");
        let last = text.lines().last().unwrap();
        assert!(last.starts_with("bestmove none value "), "{text}");
        assert_eq!(
            run("take1 tails take2"),
            "game over: seat 1 (second) wins by last-stone\n"
        );
        let text = run("");
        assert!(
            text.lines().last().unwrap().starts_with("bestmove take"),
            "{text}"
        );
    }

    #[test]
    fn nps_rounds_down() {
        assert_eq!(nodes_per_second(1500, Duration::from_millis(2)), 750_000);
        assert_eq!(nodes_per_second(3, Duration::ZERO), 3_000_000);
    }
}
