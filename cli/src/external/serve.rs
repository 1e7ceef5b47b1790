//! `agon serve --agent SPEC [--game G]`: one of Agon's agents as an engine speaking the
//! protocol of `docs/protocol.md` on standard input and output, so that other tools can
//! drive it.
//!
//! Each `go` builds the agent afresh from its spec, with the budget `go` names in place
//! of the spec's (`depth`, `nodes` or `iters`, `movetime` as `time`, each where the agent
//! takes it), and searches the position of the last `position` command with a stream
//! seeded by the last `setoption name seed` (default 1) and the position's ply, so the
//! same session gives the same moves. Before each `bestmove` it writes `info depth D
//! nodes N time MS` of the search. A command it cannot carry out (no game, a bad
//! move in `position`, `go` where no seat is to move) is answered by an `info string
//! error: ...` line, and by `bestmove (none)` for a `go`; unknown commands are ignored.

use std::io::{BufRead, Write};
use std::time::Duration;

use agon_engine::{ParamValue, State, Turn};
use agon_search::{AgentRng, SearchContext};
use anyhow::Result;
use rand::SeedableRng;

use super::Venue;
use crate::games::{self, GameCommand, PlayableGame};
use crate::spec::{AgentSpec, GameSpec};

/// What a session has been told so far.
struct Session {
    /// The agent's spec text, as given to `--agent` (resolved against each game).
    agent: String,
    /// The game (`--game` or `setoption name game`).
    game: Option<String>,
    /// `setoption name seed`.
    seed: u64,
    /// The moves of the last `position startpos moves ...`.
    moves: Vec<String>,
}

/// The limits of one `go`.
#[derive(Clone, Copy, Debug, Default)]
struct Go {
    depth: Option<i64>,
    nodes: Option<i64>,
    movetime: Option<u64>,
}

/// Serves `agent` (a spec, checked against `game` when one is given) on `input` and
/// `output` until `quit` or the end of the input.
pub fn serve(
    agent: &str,
    game: Option<&str>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<()> {
    match game {
        Some(text) => {
            AgentSpec::parse_for_game(agent, &GameSpec::parse(text)?, false)?;
        }
        None => {
            AgentSpec::parse(agent, false)?;
        }
    }
    let mut session = Session {
        agent: agent.to_string(),
        game: game.map(str::to_string),
        seed: 1,
        moves: Vec::new(),
    };
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["quit", ..] => return Ok(()),
            ["ugi", ..] => {
                writeln!(output, "id name agon {} {agent}", env!("CARGO_PKG_VERSION"))?;
                writeln!(output, "id author the Agon authors")?;
                writeln!(
                    output,
                    "option name game type string default {}",
                    session.game.as_deref().unwrap_or("<empty>")
                )?;
                writeln!(output, "option name seed type spin default 1")?;
                writeln!(output, "ugiok")?;
            }
            ["isready", ..] => writeln!(output, "readyok")?,
            ["uginewgame", ..] => session.moves.clear(),
            ["setoption", "name", name, "value", value @ ..] => {
                session.set(name, &value.join(" "), output)?;
            }
            ["position", "startpos", rest @ ..] => {
                session.moves = match rest {
                    ["moves", moves @ ..] => moves.iter().map(|m| m.to_string()).collect(),
                    _ => Vec::new(),
                };
            }
            ["go", limits @ ..] => {
                let answer = session.go(read_go(limits));
                match answer {
                    Ok((m, info)) => writeln!(output, "{info}\nbestmove {m}")?,
                    Err(e) => {
                        writeln!(output, "info string error: {}", crate::one_line(&e))?;
                        writeln!(output, "bestmove (none)")?;
                    }
                }
            }
            _ => {}
        }
        output.flush()?;
    }
}

/// The limits of `go`'s words (`depth N`, `nodes N`, `movetime MS`; others ignored).
fn read_go(words: &[&str]) -> Go {
    let mut go = Go::default();
    for pair in words.windows(2) {
        match pair {
            ["depth", n] => go.depth = n.parse().ok(),
            ["nodes", n] => go.nodes = n.parse().ok(),
            ["movetime", n] => go.movetime = n.parse().ok(),
            _ => {}
        }
    }
    go
}

impl Session {
    /// `setoption name NAME value VALUE`: the game or the seed.
    fn set(&mut self, name: &str, value: &str, output: &mut dyn Write) -> Result<()> {
        match name {
            "game" => match GameSpec::parse(value) {
                Ok(spec) => self.game = Some(spec.to_string()),
                Err(e) => writeln!(output, "info string error: {}", e.0)?,
            },
            "seed" => match value.parse() {
                Ok(seed) => self.seed = seed,
                Err(_) => writeln!(output, "info string error: seed {value:?} is not a number")?,
            },
            _ => {}
        }
        Ok(())
    }

    /// The move the agent chooses at the current position, in notation, and the `info`
    /// line of its search.
    fn go(&self, go: Go) -> Result<(String, String), String> {
        let game = self
            .game
            .as_deref()
            .ok_or("no game: send setoption name game value <game spec>")?;
        let game = GameSpec::parse(game).map_err(|e| e.0)?;
        let mut spec = AgentSpec::parse_for_game(&self.agent, &game, false).map_err(|e| e.0)?;
        limit(&mut spec, go);
        let mut chosen = None;
        games::dispatch(
            &game,
            Search {
                session: self,
                spec: &spec,
                chosen: &mut chosen,
            },
        )
        .map_err(|e| format!("{e:#}"))?;
        chosen.ok_or_else(|| "no move".to_string())
    }
}

/// `spec` with the limits of `go` in place of its budget, where the agent takes them.
fn limit(spec: &mut AgentSpec, go: Go) {
    let Some(kind) = spec.kind() else { return };
    let takes = |name: &str| kind.info().params.iter().find(|p| p.name == name);
    let mut set = |names: &[&str], value: ParamValue| {
        if let Some(param) = names.iter().find_map(|n| takes(n)) {
            spec.params
                .retain(|n| !["depth", "nodes", "iters", "time"].contains(&n));
            spec.params.insert(param.name, value);
        }
    };
    // One budget at a time: movetime over nodes over depth.
    if let Some(d) = go.depth {
        set(&["depth"], ParamValue::Int(d));
    }
    if let Some(n) = go.nodes {
        set(&["nodes", "iters"], ParamValue::Int(n));
    }
    if let Some(ms) = go.movetime {
        set(
            &["time"],
            ParamValue::Duration(Duration::from_millis(ms.max(1))),
        );
    }
}

/// Searches the session's position with its agent.
struct Search<'a> {
    session: &'a Session,
    spec: &'a AgentSpec,
    chosen: &'a mut Option<(String, String)>,
}

impl GameCommand for Search<'_> {
    fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> Result<()> {
        let mut state = game.initial_state();
        for text in &self.session.moves {
            let m = state.parse_move(text)?;
            state.apply(m);
        }
        if !matches!(state.turn(), Turn::Seat(_)) {
            anyhow::bail!("no seat is to move in this position");
        }
        let venue = Venue {
            game: spec,
            log: None,
        };
        let mut agent = G::build_agent_for(self.spec, &venue, &state)?;
        let mut rng = AgentRng::seed_from_u64(self.session.seed);
        rng.set_stream(u64::from(state.ply()));
        let result = agent.search(
            &state,
            SearchContext::new(&mut rng, &mut |_| {}).with_line(&self.session.moves),
        );
        let best = result
            .best
            .expect("a search at a decision node gives a move");
        let info = format!(
            "info depth {} nodes {} time {}",
            result.depth,
            result.nodes,
            result.time.as_millis()
        );
        *self.chosen = Some((state.format_move(best), info));
        Ok(())
    }
}
