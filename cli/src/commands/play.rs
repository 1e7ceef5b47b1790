//! `agon play`: one game, move by move, with the board drawn after every move (the
//! renderer's text picture: coordinates, a legend, the last move marked). The agent
//! `human` reads its moves from standard input; typing `quit` (or ending the input)
//! abandons the game, which is not an error. An outside program's fault (it exits, times
//! out, answers an illegal move) ends the game as bad input, said in one line.
//!
//! The agents draw from the streams of game 0 of a tournament with the same seed, and
//! chance from the luck of pair 0 ([`crate::seeds`]), so a game between two programs
//! can be replayed exactly.

use std::io::{BufRead, Write};

use agon_engine::picture::{text, Depict};
use agon_engine::{State, Turn};
use agon_search::{Agent, SearchContext};
use anyhow::{Context, Result};

use crate::bad_input::BadInput;
use crate::external::{catch_fault, Venue};
use crate::games::{GameCommand, PlayableGame};
use crate::position::{describe_end, legal_here};
use crate::reporting::picture::svg::changed_cells;
use crate::seeds;
use crate::spec::{AgentSpec, GameSpec};

/// Who decides for a seat.
enum Player<S: State> {
    /// A program.
    Agent(Box<dyn Agent<S>>),
    /// A person typing moves.
    Human,
}

/// What a human typed, once read.
enum Typed<M> {
    /// A legal move.
    Move(M),
    /// End of input: the game is abandoned.
    EndOfInput,
    /// `quit`: the person abandons the game.
    Quit,
}

/// What a person types to abandon the game.
const QUIT: &str = "quit";

/// `agon play` for the game of a spec.
pub struct PlayCommand<'a> {
    /// The agents of seat 0 and seat 1.
    pub agents: [AgentSpec; 2],
    /// Seed of the random streams.
    pub seed: u64,
    /// Where human moves are read from.
    pub input: &'a mut dyn BufRead,
    /// Where the game is printed.
    pub out: &'a mut dyn Write,
}

impl GameCommand for PlayCommand<'_> {
    fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> Result<()> {
        play(&game, spec, &self.agents, self.seed, self.input, self.out)
    }
}

/// Plays one game of `game` between `agents`, printing it to `out`.
pub fn play<G: PlayableGame>(
    game: &G,
    spec: &GameSpec,
    agents: &[AgentSpec; 2],
    seed: u64,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let names = [agents[0].to_string(), agents[1].to_string()];
    let mut players = Vec::with_capacity(2);
    for agent in agents {
        players.push(if agent.is_human() {
            Player::Human
        } else {
            let venue = Venue {
                game: spec,
                log: None,
            };
            Player::Agent(G::build_agent_for(agent, &venue, &game.initial_state())?)
        });
    }
    let mut rngs = [0, 1].map(|seat| seeds::agent_rng(seed, 0, seat));
    let luck = seeds::PairLuck::new(seed, 0);

    let mut state = game.initial_state();
    // The moves so far, which an outside program is told.
    let mut line: Vec<String> = Vec::new();
    writeln!(out, "game {spec}")?;
    for seat in 0..2 {
        writeln!(out, "seat {seat}: {} ({})", names[seat], state.side(seat))?;
    }
    let mut picture = state.picture();
    writeln!(
        out,
        "\n{}{}",
        text::draw(&picture, &[]),
        text::legend(&picture)
    )?;
    loop {
        let (m, who) = match state.turn() {
            Turn::Over => break,
            Turn::Chance => (state.common_outcome(&luck), "chance".to_string()),
            Turn::Seat(seat) => {
                let who = format!("seat {seat} ({}, {})", state.side(seat), names[seat]);
                let m = match &mut players[seat] {
                    Player::Agent(agent) => catch_fault(|| {
                        agent.search(
                            &state,
                            SearchContext::new(&mut rngs[seat], &mut |_| {}).with_line(&line),
                        )
                    })
                    .map_err(|fault| BadInput::new(fault.0))?
                    .best
                    .expect("Agent::search returns a move at a decision node"),
                    Player::Human => match read_move(&state, seat, input, out)? {
                        Typed::Move(m) => m,
                        Typed::EndOfInput => {
                            writeln!(
                                out,
                                "\nend of input: game abandoned after {} plies",
                                state.ply()
                            )?;
                            return Ok(());
                        }
                        Typed::Quit => {
                            writeln!(
                                out,
                                "seat {seat} quit: game abandoned after {} plies",
                                state.ply()
                            )?;
                            out.flush()?;
                            return Ok(());
                        }
                    },
                };
                (m, who)
            }
        };
        line.push(state.format_move(m));
        let mut told = state.format_move(m);
        if state.turn() == Turn::Chance {
            told = format!("{told} ({})", state.event(m));
        }
        state
            .try_apply(m)
            .with_context(|| format!("{who} chose an illegal move"))?;
        let after = state.picture();
        let changed = changed_cells(&picture, &after);
        picture = after;
        writeln!(
            out,
            "{}. {who}: {told}\n{}",
            state.ply(),
            text::draw(&picture, &changed)
        )?;
    }
    writeln!(
        out,
        "game over after {} plies: {}",
        state.ply(),
        describe_end(&state, Some([&names[0], &names[1]]))
    )?;
    out.flush()?;
    Ok(())
}

/// Prompts `seat` for a move until a legal one is typed (`help` lists them), `quit` is
/// typed, or input ends.
fn read_move<S: State>(
    state: &S,
    seat: usize,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Typed<S::Move>> {
    loop {
        write!(
            out,
            "seat {seat} ({}) to move (\"help\" lists the legal moves, \"{QUIT}\" ends the \
             game): ",
            state.side(seat)
        )?;
        out.flush()?;
        let mut line = String::new();
        if input
            .read_line(&mut line)
            .context("cannot read standard input")?
            == 0
        {
            return Ok(Typed::EndOfInput);
        }
        match line.trim() {
            "" => {}
            "help" | "?" => writeln!(out, "legal moves: {}", legal_here(state).join(" "))?,
            QUIT => return Ok(Typed::Quit),
            text => match state.parse_move(text) {
                Ok(m) => return Ok(Typed::Move(m)),
                Err(e) => writeln!(out, "{e}; try again")?,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::testing::coin_nim::CoinNim;

    use super::*;

    fn run(agents: [&str; 2], typed: &str) -> String {
        let spec = GameSpec {
            name: "coin-nim",
            params: Default::default(),
        };
        let agents = agents.map(|a| AgentSpec::parse(a, true).unwrap());
        let mut out = Vec::new();
        let game = CoinNim { stones: 3, cap: 4 };
        play(&game, &spec, &agents, 1, &mut typed.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn humans_are_prompted_again_after_a_bad_move() {
        // Seat 0 (human) takes 2 after a typo, a blank line and "help"; the coin then
        // gives the last stone to seat 0 again (heads, "take1" typed) or to seat 1
        // (tails): 3 plies either way.
        let text = run(["human", "random"], "take3\n\nhelp\ntake2\ntake1\n");
        assert!(text.contains("\"take3\": expected take1, take2, heads or tails; try again"));
        assert!(text.contains("legal moves: take1 take2"));
        assert!(text.contains("1. seat 0 (first, human): take2"));
        assert!(text.contains("2. chance: "));
        assert!(text.contains("game over after 3 plies: seat"), "{text}");
    }

    #[test]
    fn end_of_input_abandons_the_game() {
        let text = run(["human", "human"], "take1\n");
        assert!(
            text.ends_with("end of input: game abandoned after 2 plies\n"),
            "{text}"
        );
    }

    #[test]
    fn quit_abandons_the_game_cleanly() {
        let text = run(["human", "random"], "take1\nquit\ntake1\n");
        assert!(
            text.contains("to move (\"help\" lists the legal moves, \"quit\" ends the game): "),
            "{text}"
        );
        assert!(
            text.ends_with("seat 0 quit: game abandoned after 2 plies\n"),
            "{text}"
        );
        assert!(!text.contains("game over"), "{text}");
    }

    #[test]
    fn programs_play_to_the_end() {
        let text = run(["random", "random"], "");
        assert!(
            text.starts_with("game coin-nim\nseat 0: random (first)\nseat 1: random (second)\n")
        );
        assert!(text.contains("game over after"));
    }
}
