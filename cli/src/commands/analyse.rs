//! `agon analyse`: one search from a position, printed in the manner of UCI engines,
//! after the board of the position searched.
//!
//! At a decision:
//!
//! ```text
//! info depth <d> value <v> nodes <n> time_ms <t> pv <moves>      (one per iteration)
//! bestmove <move> value <v> depth <d> nodes <n> time_ms <t> nps <n>
//! ```
//!
//! Before `bestmove`, an `info string` line says when the value is not what it seems: a
//! solver stopped before its proof, or an `mcts` search that filled its `tree` bound.
//!
//! At a chance node, where nobody chooses a move:
//!
//! ```text
//! outcome <move> probability <p> value <v> weight <k>/<n>   (one per outcome)
//! expectation <v> depth <d> nodes <n> time_ms <t> nps <n>
//! bestmove (none)
//! ```
//!
//! Values at a decision are from the side to move's view, as [`agon_search::Value`]
//! prints them: a number, `win <plies>`, `loss <plies>` or `draw`. At a chance node every
//! value is from **seat 0's** view (there is no side to move): an outcome's value is the
//! agent's search of the position after it (a fresh agent with the same seed, searched
//! as a root; a finished game is `win 0`, `loss 0` or `draw`), and its probability is
//! exact, weight over total weight, printed as a decimal and as the reduced fraction.
//! `expectation` is the agent's own search of the chance node: for the exact chance
//! searches (`expectimax`, `star1`, `star2`) the probability-weighted mean of the
//! outcome values (a chance node takes no depth, so each outcome is searched as deep);
//! for `mcts` its sampled estimate. At a finished game only the board and
//! `game over: ...` are printed. An outside program's fault (it exits, times out, answers
//! an illegal move) is bad input, said in one line.

use std::io::Write;
use std::time::Duration;

use agon_engine::{State, Turn};
use agon_search::score::finished_value;
use agon_search::{AgentKind, SearchContext, SearchResult, Value};
use anyhow::Result;

use crate::bad_input::BadInput;
use crate::external::{catch_fault, Venue};
use crate::games::{prepare, GameCommand, PlayableGame};
use crate::position::{describe_end, notate_line, replay};
use crate::seeds;
use crate::spec::{AgentSpec, GameSpec, Player};

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
    fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> Result<()> {
        let venue = Venue {
            game: spec,
            log: None,
        };
        analyse(&game, &venue, &self.agent, &self.moves, self.seed, self.out)
    }
}

/// Searches the position after `moves` with `agent`, printing its board, then `info`
/// lines and the `bestmove` line at a decision, or the outcomes, their values and the
/// expectation at a chance node (see the module docs) to `out`. An outside program
/// ([`Venue`]) is told the line of `moves`; it is never asked at a chance node.
pub fn analyse<G: PlayableGame>(
    game: &G,
    venue: &Venue<'_>,
    spec: &AgentSpec,
    moves: &str,
    seed: u64,
    out: &mut dyn Write,
) -> Result<()> {
    let mut agent = G::build_agent_in(spec, venue)?;
    let mut state = game.initial_state();
    replay(&mut state, moves)?;
    prepare(agent.as_mut(), &state)?;
    let line: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
    writeln!(out, "{state}\n")?;
    match state.turn() {
        Turn::Over => {
            writeln!(out, "game over: {}", describe_end(&state, None))?;
            return Ok(());
        }
        Turn::Chance if spec.is_external() => {
            return Err(BadInput::new(
                "an outside program is asked for decisions only, never at a chance node",
            )
            .into())
        }
        Turn::Chance => return chance_node::<G>(&state, spec, seed, out),
        Turn::Seat(_) => {}
    }
    let mut rng = seeds::agent_rng(seed, 0, 0);
    // Lines go out as each iteration completes, as a UCI engine's do; a write error is
    // kept and reported after the search (the callback cannot return it).
    let mut written: std::io::Result<()> = Ok(());
    // An outside program's fault is the error of the command.
    let result = catch_fault(|| {
        agent.search(
            &state,
            SearchContext::new(&mut rng, &mut |info| {
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
            })
            .with_line(&line),
        )
    })
    .map_err(|fault| BadInput::new(fault.0))?;
    written?;
    if spec.player == Player::Agent(AgentKind::Solve) && !result.value.is_proven() {
        writeln!(
            out,
            "info string unproven: the budget ran out before the proof; the value is heuristic"
        )?;
    }
    if result.memory_full {
        writeln!(
            out,
            "info string tree full: the search reached its memory bound (mcts's tree parameter, MiB) and valued further leaves without growing the tree"
        )?;
    }
    let best = match result.best {
        Some(m) => state.format_move(m),
        None => "none".into(),
    };
    writeln!(
        out,
        "bestmove {best} value {} {}",
        result.value,
        effort(&result)
    )?;
    out.flush()?;
    Ok(())
}

/// The `outcome` lines, the `expectation` and `bestmove (none)` of a chance node.
fn chance_node<G: PlayableGame>(
    state: &G::State,
    spec: &AgentSpec,
    seed: u64,
    out: &mut dyn Write,
) -> Result<()> {
    let mut outcomes = Vec::new();
    state.chance_outcomes(&mut outcomes);
    let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
    for &(m, weight) in &outcomes {
        let mut after = state.clone();
        after.apply(m);
        let value = match after.turn() {
            Turn::Over => {
                finished_value(after.outcome().expect("a finished game has an outcome"), 0)
            }
            turn => {
                let value = search::<G>(&after, spec, seed)?.value;
                if turn == Turn::Seat(1) {
                    negated(value)
                } else {
                    value
                }
            }
        };
        let common = gcd(u64::from(weight), total);
        writeln!(
            out,
            "outcome {} probability {} value {value} weight {}/{}",
            state.format_move(m),
            decimal(f64::from(weight) / total as f64),
            u64::from(weight) / common,
            total / common
        )?;
    }
    let result = search::<G>(state, spec, seed)?;
    writeln!(out, "expectation {} {}", result.value, effort(&result))?;
    writeln!(out, "bestmove (none)")?;
    out.flush()?;
    Ok(())
}

/// A fresh agent's search of `state`, silent, from the stream of seed `seed`.
fn search<G: PlayableGame>(
    state: &G::State,
    spec: &AgentSpec,
    seed: u64,
) -> Result<SearchResult<<G::State as State>::Move>> {
    let mut agent = G::build_agent(spec, state)?;
    let mut rng = seeds::agent_rng(seed, 0, 0);
    Ok(agent.search(state, SearchContext::new(&mut rng, &mut |_| {})))
}

/// `depth <d> nodes <n> time_ms <t> nps <n>` of a search.
fn effort<M>(result: &SearchResult<M>) -> String {
    format!(
        "depth {} nodes {} time_ms {} nps {}",
        result.depth,
        result.nodes,
        result.time.as_millis(),
        nodes_per_second(result.nodes, result.time)
    )
}

/// `value` from the other seat's view.
fn negated(value: Value) -> Value {
    match value {
        Value::Score(v) => Value::Score(-v),
        Value::Reward(v) => Value::Reward(-v),
        Value::Win(n) => Value::Loss(n),
        Value::Loss(n) => Value::Win(n),
        Value::Draw => Value::Draw,
    }
}

/// Greatest common divisor (`gcd(0, 0)` = 1, so that a division by it is safe).
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

/// A probability with six decimals, trailing zeros dropped (`0.5`, `0.166667`, `1`).
fn decimal(p: f64) -> String {
    let text = format!("{p:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A line of moves from `state`, each written as ` move` in the notation of the position
/// it is played in. Stops at a move that is not legal (a broken PV), which is not printed.
fn line_text<S: State>(state: &S, line: &[S::Move]) -> String {
    notate_line(state, line)
        .iter()
        .map(|m| format!(" {m}"))
        .collect()
}

/// Nodes per second, rounded down; a search shorter than a microsecond counts as one.
pub fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / micros) as u64
}

#[cfg(test)]
mod tests {
    use agon_engine::testing::coin_nim::CoinNim;
    use agon_engine::Game;

    use super::*;

    fn run(moves: &str) -> String {
        run_with("random", moves)
    }

    fn run_with(agent: &str, moves: &str) -> String {
        let agent = AgentSpec::parse(agent, false).unwrap();
        // Coin Nim is no registered game; its spec only names it.
        let game = GameSpec {
            name: "coin-nim",
            params: agon_engine::Params::default(),
        };
        let venue = Venue {
            game: &game,
            log: None,
        };
        let mut out = Vec::new();
        analyse(
            &CoinNim { stones: 3, cap: 4 },
            &venue,
            &agent,
            moves,
            1,
            &mut out,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn chance_nodes_list_their_outcomes_and_the_expectation_after_the_board() {
        let board = CoinNim { stones: 3, cap: 4 }.initial_state();
        let mut after = board.clone();
        after.try_apply(after.parse_move("take1").unwrap()).unwrap();
        let text = run_with("expectimax:depth=3", "take1");
        let lines: Vec<&str> = text.lines().collect();
        assert!(text.starts_with(&format!("{after}\n\n")), "{text}");
        let n = lines.len();
        // Heads has weight 1, tails 2.
        assert!(
            lines[n - 4].starts_with("outcome heads probability 0.333333 value "),
            "{text}"
        );
        assert!(lines[n - 4].ends_with(" weight 1/3"), "{text}");
        assert!(
            lines[n - 3].starts_with("outcome tails probability 0.666667 value "),
            "{text}"
        );
        assert!(lines[n - 3].ends_with(" weight 2/3"), "{text}");
        assert!(lines[n - 2].starts_with("expectation "), "{text}");
        assert_eq!(lines[n - 1], "bestmove (none)");
        // The decision's board too.
        assert!(run("").starts_with(&format!("{board}\n\n")));
    }

    #[test]
    fn decisions_and_finished_games() {
        let mut over = CoinNim { stones: 3, cap: 4 }.initial_state();
        replay(&mut over, "take1 tails take2").unwrap();
        assert_eq!(
            run("take1 tails take2"),
            format!("{over}\n\ngame over: seat 1 (second) wins by last-stone\n")
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
