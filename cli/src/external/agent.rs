//! [`ExtAgent`]: an outside program as an agent, and [`ExtFault`], how it fails.

use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

use agon_engine::State;
use agon_search::{Agent, SearchContext, SearchResult, Value};
use rand::RngCore;

use super::lines::Line;
use super::program::Running;
use super::ExtSetup;
use crate::bad_input::BadInput;
use crate::spec::AgentSpec;

/// The most nodes a program may report for one move (`info ... nodes N`): a thousand
/// seconds of a search at a billion nodes a second, so that no real count reaches it,
/// while the totals over the moves of a run stay far within 64 bits. A larger count is
/// ignored, as a field that cannot be read is.
pub const MAX_REPORTED_NODES: u64 = 1_000_000_000_000;

/// The answer of an engine that has no move to give (`bestmove (none)`), after an
/// `info string error: <why>` line saying why when it can.
pub const NO_MOVE: &str = "(none)";

/// How many characters of an illegal move a fault quotes: a move of any game is
/// shorter, and a longer text is quoted cut, with its length.
pub const MAX_QUOTED_MOVE: usize = 40;

/// How many characters of the reason an engine gives for answering no move (its last
/// `info string error: ...` before `bestmove (none)`) a fault quotes; a longer reason is
/// cut, marked by `…`.
pub const MAX_QUOTED_REASON: usize = 300;

/// The fault of an outside program that ends its game, in one line naming the program:
/// it could not be started, it ended, it did not answer within its timeout, it wrote
/// past a limit of [`super::program`], it answered a move that is not legal, or it
/// cannot be told the position. [`ExtAgent`] raises it as the payload of a panic
/// ([`std::panic::panic_any`]), since [`Agent::search`] cannot fail; a tournament makes
/// it a forfeit, and [`super::catch_fault`] gives it back to other callers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtFault(pub String);

impl fmt::Display for ExtFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An outside program playing one seat of one game (built fresh per game, as every
/// agent is). The program is started at the first move: `ugi` (answered by `ugiok`),
/// the game and a seed drawn from the agent's stream (`setoption`), `uginewgame` and
/// `isready` (answered by `readyok`); then at every move `position startpos moves ...`
/// (the game's line from its start) and `go` with the spec's limits (a plain `go`
/// without them), answered by `bestmove`. Lines that are not UTF-8 are ignored, except a
/// `bestmove` line, which is a fault; so is `bestmove (none)`, whose fault quotes the
/// program's last `info string error: ...` line before it, its reason.
///
/// Every fault panics with an [`ExtFault`] (the program is stopped when the agent is
/// dropped), including the caller's giving no line of moves that leads to the position
/// ([`SearchContext::line`]).
pub struct ExtAgent<S> {
    setup: ExtSetup,
    /// The game's spec, as `setoption name game` tells it.
    game: String,
    /// The game's initial position, from which the line of moves must lead to the
    /// position asked about.
    start: S,
    log: Option<PathBuf>,
    running: Option<Running>,
}

impl<S: State> ExtAgent<S> {
    /// The agent of `spec` (an `ext` spec) for the game `game` starting at `start`, its
    /// program's standard error appended to `log`. Fails if the program is not there.
    pub fn new(
        spec: &AgentSpec,
        game: String,
        start: S,
        log: Option<PathBuf>,
    ) -> Result<Self, BadInput> {
        Ok(ExtAgent {
            setup: ExtSetup::of(spec)?,
            game,
            start,
            log,
            running: None,
        })
    }

    /// Panics with the [`ExtFault`] of `reason`, naming the program.
    fn fault(&self, reason: &str) -> ! {
        std::panic::panic_any(ExtFault(format!(
            "ext program {:?} {reason}",
            self.setup.shown
        )))
    }

    /// The running program, started and readied if it is not yet; `seed` is told to it.
    fn program(&mut self, seed: u64) -> &mut Running {
        if self.running.is_none() {
            let mut running =
                Running::start(&self.setup, self.log.as_deref()).unwrap_or_else(|e| self.fault(&e));
            let deadline = Instant::now() + self.setup.timeout;
            let ready = (|| {
                running.send("ugi")?;
                Self::wait_for(&mut running, "ugiok", deadline)?;
                running.send(&format!("setoption name game value {}", self.game))?;
                running.send(&format!("setoption name seed value {seed}"))?;
                running.send("uginewgame")?;
                running.send("isready")?;
                Self::wait_for(&mut running, "readyok", deadline)
            })();
            if let Err(e) = ready {
                self.fault(&format!("{e} before it was ready"));
            }
            self.running = Some(running);
        }
        self.running.as_mut().expect("started above")
    }

    /// Reads lines until one that is `word`, before `deadline`.
    fn wait_for(running: &mut Running, word: &str, deadline: Instant) -> Result<(), String> {
        loop {
            if let Line::Text(line) = running.next_line(deadline)? {
                if line.trim() == word {
                    return Ok(());
                }
            }
        }
    }

    /// Checks that `line` leads from the start to `state`.
    fn check_line(&self, state: &S, line: &[String]) {
        let mut replayed = self.start.clone();
        for (i, text) in line.iter().enumerate() {
            match replayed.parse_move(text) {
                Ok(m) => {
                    replayed.apply(m);
                }
                Err(e) => self.fault(&format!(
                    "cannot be told this game: move {} of its line is not legal ({e})",
                    i + 1
                )),
            }
        }
        if replayed != *state {
            self.fault(&format!(
                "cannot be told this position: {}",
                if line.is_empty() {
                    "the caller gives no line of moves from the game's start to it"
                } else {
                    "the line of moves given does not lead to it"
                }
            ));
        }
    }
}

impl<S: State> Agent<S> for ExtAgent<S> {
    fn search(&mut self, state: &S, ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move> {
        let began = Instant::now();
        self.check_line(state, ctx.line);
        let seed = ctx.rng.next_u64();
        let position = if ctx.line.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", ctx.line.join(" "))
        };
        let go = self.setup.budget.command();
        let deadline = Instant::now() + self.setup.timeout;
        let program = self.program(seed);
        let answer = (|| {
            program.send(&position)?;
            program.send(&go)?;
            let mut nodes = 0;
            // The last reason the program gave for an error, kept for a `bestmove (none)`.
            let mut error = None;
            loop {
                let line = match program.next_line(deadline)? {
                    Line::Text(line) => line,
                    Line::NotText(bytes) => {
                        let mut words = bytes.split(u8::is_ascii_whitespace);
                        if words.find(|w| !w.is_empty()) == Some(b"bestmove") {
                            return Err("answered a bestmove line that is not UTF-8".to_string());
                        }
                        continue;
                    }
                };
                let mut words = line.split_whitespace();
                match words.next() {
                    Some("bestmove") => {
                        return Ok((words.next().map(str::to_string), nodes, error))
                    }
                    Some("info") if line.trim_start().starts_with("info string error:") => {
                        let why = line.trim_start()["info string error:".len()..].trim();
                        error = Some(why.to_string());
                    }
                    Some("info") => {
                        let words: Vec<&str> = words.collect();
                        if let Some(n) = words
                            .windows(2)
                            .rev()
                            .find(|w| w[0] == "nodes")
                            .and_then(|w| w[1].parse().ok())
                            .filter(|&n| n <= MAX_REPORTED_NODES)
                        {
                            nodes = n;
                        }
                    }
                    _ => {}
                }
            }
        })();
        let (text, nodes, error) =
            answer.unwrap_or_else(|e: String| self.fault(&format!("{e} while thinking")));
        let text = text.unwrap_or_else(|| self.fault("answered bestmove without a move"));
        if text == NO_MOVE {
            self.fault(&match error {
                Some(why) if why.chars().count() > MAX_QUOTED_REASON => format!(
                    "answered no move: {}…",
                    why.chars().take(MAX_QUOTED_REASON).collect::<String>()
                ),
                Some(why) => format!("answered no move: {why}"),
                None => "answered no move (bestmove (none))".to_string(),
            });
        }
        let best = state.parse_move(&text).unwrap_or_else(|e| {
            self.fault(&if text.chars().count() > MAX_QUOTED_MOVE {
                // The reason may quote the text whole: left out.
                let cut: String = text.chars().take(MAX_QUOTED_MOVE).collect();
                format!(
                    "answered the illegal move \"{cut}…\" ({} bytes)",
                    text.len()
                )
            } else {
                format!("answered the illegal move {e}")
            })
        });
        SearchResult {
            best: Some(best),
            value: Value::Score(0.0),
            depth: 0,
            nodes,
            time: began.elapsed(),
            pv: vec![best],
            tt_hits: 0,
            memory_full: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::Connect4;
    use agon_engine::Game;
    use agon_search::AgentRng;
    use rand::SeedableRng;

    use super::*;

    /// Asks an outside program (never started: the line is checked first) for a move
    /// after `played`, telling it `line`: the fault it raises.
    fn ask(played: &str, line: &[&str]) -> String {
        let start = Connect4.initial_state();
        let spec = AgentSpec::parse("ext:cmd=/bin/sh", false).unwrap();
        let mut agent = ExtAgent::new(&spec, "connect4".into(), start.clone(), None).unwrap();
        let mut state = start;
        state.apply(state.parse_move(played).unwrap());
        let line: Vec<String> = line.iter().map(|m| m.to_string()).collect();
        let mut rng = AgentRng::seed_from_u64(1);
        super::super::catch_fault(|| {
            agent.search(
                &state,
                SearchContext::new(&mut rng, &mut |_| {}).with_line(&line),
            )
        })
        .map(|_| ())
        .unwrap_err()
        .0
    }

    #[test]
    fn a_position_without_its_line_is_refused() {
        assert_eq!(
            ask("d", &[]),
            "ext program \"/bin/sh\" cannot be told this position: the caller gives no line \
             of moves from the game's start to it"
        );
    }

    #[test]
    fn a_line_to_another_position_is_refused() {
        assert_eq!(
            ask("d", &["c"]),
            "ext program \"/bin/sh\" cannot be told this position: the line of moves given \
             does not lead to it"
        );
    }
}
