//! `agon serve --agent SPEC [--game G]`: one of Agon's agents as an engine speaking the
//! protocol of `docs/protocol.md` on standard input and output, so that other tools can
//! drive it.
//!
//! Each `go` builds the agent afresh from its spec, with the budget `go` names in place
//! of the spec's (`depth`, `nodes` or `iters`, `movetime` as `time`, each where the agent
//! takes it), and searches the position of the last `position` command with a stream
//! seeded by the last `setoption name seed` (default 1) and the position's ply, so the
//! same session gives the same moves. A plain `go` searches with the spec's own budget.
//! A refused `setoption name game` leaves the session with no game. Before each `bestmove` it writes `info depth D
//! nodes N time MS` of the search. A command it cannot carry out (no game, a bad
//! move in `position`, `go` where no seat is to move, a `go` limit outside the range of
//! the agent's parameter, an outside program's fault) is answered by an `info string
//! error: ...` line, and by `bestmove (none)` for a `go`; a line longer than
//! [`MAX_COMMAND`] by an `info string error: ...` line; unknown commands and lines that
//! are not UTF-8 are ignored.

use std::io::{BufRead, Write};

use agon_engine::{State, Turn};
use agon_search::{AgentRng, SearchContext};
use anyhow::Result;
use rand::SeedableRng;

use crate::bad_input::BadInput;
use crate::external::lines::{self, Line, Read};
use crate::external::{catch_fault, Venue};
use crate::games::{self, GameCommand, PlayableGame};
use crate::spec::{AgentSpec, GameSpec};

/// The longest command line `agon serve` reads, in bytes before its `\n`: a `position`
/// line of some hundred thousand plies, beyond any game's length, so that a line without
/// end costs bounded memory. A longer line is answered by an `info string error` line
/// and otherwise ignored.
pub const MAX_COMMAND: usize = 1024 * 1024;

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

/// The limits of one `go`: `depth` and `nodes` as written (the agent's parameter says
/// which values it takes), `movetime` in milliseconds.
#[derive(Clone, Copy, Debug, Default)]
struct Go<'a> {
    depth: Option<&'a str>,
    nodes: Option<&'a str>,
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
    loop {
        let line = match lines::read_line(input, MAX_COMMAND)? {
            Read::End => return Ok(()),
            Read::TooLong => {
                writeln!(
                    output,
                    "info string error: a line longer than {} is ignored",
                    lines::size(MAX_COMMAND)
                )?;
                output.flush()?;
                lines::skip_line(input)?;
                continue;
            }
            // A line that is not text is one an engine cannot read.
            Read::Line(Line::NotText(_)) => continue,
            Read::Line(Line::Text(line)) => line,
        };
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
                let answer = read_go(limits).and_then(|go| session.go(&go));
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

/// The limits of `go`'s words (`depth N`, `nodes N`, `movetime MS`; other words
/// ignored). A limit without a value, or a `movetime` that is not a whole number of
/// milliseconds, is refused.
fn read_go<'a>(words: &[&'a str]) -> Result<Go<'a>, String> {
    let mut go = Go::default();
    let mut words = words.iter();
    while let Some(&word) = words.next() {
        if !["depth", "nodes", "movetime"].contains(&word) {
            continue;
        }
        let &value = words
            .next()
            .ok_or_else(|| format!("go {word} refused: a value is expected"))?;
        match word {
            "depth" => go.depth = Some(value),
            "nodes" => go.nodes = Some(value),
            _ => {
                go.movetime = Some(value.parse().map_err(|_| {
                    format!(
                        "go movetime {value} refused: a whole number of milliseconds is expected"
                    )
                })?);
            }
        }
    }
    Ok(go)
}

impl Session {
    /// `setoption name NAME value VALUE`: the game or the seed. A refused game leaves
    /// the session without one (each `go` then answers an error until a game is set),
    /// never playing the game set before, which the controller meant to replace.
    fn set(&mut self, name: &str, value: &str, output: &mut dyn Write) -> Result<()> {
        match name {
            "game" => match GameSpec::parse(value) {
                Ok(spec) => self.game = Some(spec.to_string()),
                Err(e) => {
                    self.game = None;
                    writeln!(output, "info string error: {}", e.0)?;
                }
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
    fn go(&self, go: &Go<'_>) -> Result<(String, String), String> {
        let game = self
            .game
            .as_deref()
            .ok_or("no game: send setoption name game value <game spec>")?;
        let game = GameSpec::parse(game).map_err(|e| e.0)?;
        let mut spec = AgentSpec::parse_for_game(&self.agent, &game, false).map_err(|e| e.0)?;
        limit(&mut spec, go)?;
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

/// `spec` with the limits of `go` in place of its budget, where the agent takes them;
/// a limit the agent takes is refused if its parameter does not take the value.
fn limit(spec: &mut AgentSpec, go: &Go<'_>) -> Result<(), String> {
    let Some(kind) = spec.kind() else {
        return Ok(());
    };
    let params = kind.info().params;
    // Sets the first of `names` the agent takes to `text`, the value of `go`'s `word`
    // written `shown`.
    let mut set = |word: &str, shown: &str, names: &[&str], text: &str| {
        let Some(param) = names
            .iter()
            .find_map(|n| params.iter().find(|p| p.name == *n))
        else {
            return Ok(());
        };
        let value = param.parse(text).map_err(|_| {
            format!(
                "go {word} {shown} refused: {} takes {} as {}",
                kind.name(),
                param.name,
                param.kind
            )
        })?;
        spec.params
            .retain(|n| !["depth", "nodes", "iters", "time"].contains(&n));
        spec.params.insert(param.name, value);
        Ok::<(), String>(())
    };
    // One budget at a time: movetime over nodes over depth.
    if let Some(d) = go.depth {
        set("depth", d, &["depth"], d)?;
    }
    if let Some(n) = go.nodes {
        set("nodes", n, &["nodes", "iters"], n)?;
    }
    if let Some(ms) = go.movetime {
        let time = format!("{}ms", ms.max(1));
        set("movetime", &ms.to_string(), &["time"], &time)?;
    }
    Ok(())
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
        let result = catch_fault(|| {
            agent.search(
                &state,
                SearchContext::new(&mut rng, &mut |_| {}).with_line(&self.session.moves),
            )
        })
        .map_err(|fault| BadInput::new(fault.0))?;
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
