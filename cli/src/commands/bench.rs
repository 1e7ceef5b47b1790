//! `agon bench`: a fixed list of searches on fixed positions of every game, each with a
//! fresh agent and a depth budget, so that the node counts (and their sum, the final
//! `Bench: <nodes>` line) are the same on every run and machine. A change that should
//! not alter search behaviour must leave that number unchanged; nodes per second say
//! how fast the searches ran.
//!
//! With `--threads N` (N > 1) the searches of the agents that take `threads` run a second
//! time with `threads=N`, and a table gives per agent kind the median over its cases of
//! the nodes/s ratio against the one-thread pass of the same run. Then one line per game
//! gives the mean cost of a random playout ply (MCTS's rollout) from the game's start.
//! Neither the threaded pass nor the playouts count in `Bench:`.
//!
//! ```text
//! game       position      agent                         nodes  time_ms      nodes/s
//! invector   8x7-start     ab:depth=5,hash=16,...       123456       98      1259755
//! ...
//! speed-up at 2 threads (nodes/s against 1 thread, median over cases)
//! ab       1.84  (8 cases)
//! ...
//! playout invector     412.3ns/ply  (242000 plies)
//! ...
//! Bench: 4567890
//! ```
//!
//! The list is data, each game's profile's searches ([`cases`]): adding a search is one
//! line there. Games and agents are built from their spec strings by the same parsing
//! ([`crate::spec`]) and registry ([`crate::games`]) as every other command.

use std::io::Write;
use std::time::Duration;

use agon_engine::{ParamValue, State, Turn};
use agon_search::registry::AgentKind;
use agon_search::{playout, SearchContext};
use anyhow::Result;

use crate::bad_input::BadInput;
use crate::commands::analyse::nodes_per_second;
use crate::games::{self, BenchCase, GameCommand, PlayableGame};
use crate::position::replay;
use crate::running::tournament::MAX_THREADS;
use crate::seeds;
use crate::spec::{AgentSpec, GameSpec, Player};

/// The bench, in printing order: each game's searches
/// ([`GameProfile::bench`](crate::games::GameProfile::bench)), the games in registry
/// order.
pub fn cases() -> Vec<BenchCase> {
    games::GAMES
        .iter()
        .flat_map(|g| g.profile.bench.iter().copied())
        .collect()
}

/// Seed of every bench agent's random stream: the MCTS searches draw from it (one
/// thread, an iteration budget), so their node counts repeat exactly from run to run.
/// The timed playouts draw from it too.
const SEED: u64 = 1;

/// How long each game's random playouts are timed for, at most.
const PLAYOUT_TIME: Duration = Duration::from_millis(100);

/// How many playout plies each game plays at most (a bound for very fast machines).
const PLAYOUT_PLIES: u64 = 50_000_000;

/// Runs the cases of `cases` whose game is named `filter` (all if `None`), printing one
/// line per search; then, if `threads` > 1, runs again every search whose agent takes a
/// `threads` parameter, with `threads=threads`, and prints the speed-up per agent kind;
/// then one line per benched game giving the cost of a random playout ply from the start
/// of the game as its first case specifies it; and last the `Bench:` line, the nodes of the
/// one-thread searches alone (neither the threaded pass nor the playouts count). A
/// filter naming no game, and `threads` outside 1 to [`MAX_THREADS`], are a
/// [`BadInput`].
pub fn bench(
    cases: &[BenchCase],
    filter: Option<&str>,
    threads: usize,
    out: &mut dyn Write,
) -> Result<()> {
    if let Some(name) = filter {
        if !games::GAMES.iter().any(|g| g.name == name) {
            let valid: Vec<&str> = games::GAMES.iter().map(|g| g.name).collect();
            return Err(BadInput::new(format!(
                "--filter: unknown game {name:?} (valid: {})",
                valid.join(", ")
            ))
            .into());
        }
    }
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(BadInput::new(format!(
            "--threads {threads}: the bench runs with 1 to {MAX_THREADS} threads"
        ))
        .into());
    }
    let mut chosen = Vec::new();
    for case in cases {
        let game = GameSpec::parse(case.game)?;
        if filter.map_or(true, |name| name == game.name) {
            let agent = AgentSpec::parse(case.agent, false)?;
            chosen.push((case, game, agent));
        }
    }
    let width = |f: &dyn Fn(&(&BenchCase, GameSpec, AgentSpec)) -> usize, title: &str| {
        chosen.iter().map(f).chain([title.len()]).max().unwrap_or(0)
    };
    let game_w = width(&|c| c.0.game.len(), "game");
    let label_w = width(&|c| c.0.label.len(), "position");
    let agent_w = width(&|c| c.2.to_string().len(), "agent");
    writeln!(
        out,
        "{:game_w$}  {:label_w$}  {:agent_w$}  {:>12}  {:>8}  {:>11}",
        "game", "position", "agent", "nodes", "time_ms", "nodes/s"
    )?;
    let mut total: u64 = 0;
    let mut one_thread = Vec::new();
    for (case, game, agent) in &chosen {
        let (nodes, time) = search(game, agent, case.moves)?;
        total += nodes;
        one_thread.push((nodes, time));
        writeln!(
            out,
            "{:game_w$}  {:label_w$}  {:agent_w$}  {:>12}  {:>8}  {:>11}",
            case.game,
            case.label,
            agent.to_string(),
            nodes,
            time.as_millis(),
            nodes_per_second(nodes, time)
        )?;
        out.flush()?;
    }
    if threads > 1 {
        let mut speed_ups: Vec<(AgentKind, f64)> = Vec::new();
        for ((case, game, agent), &(nodes, time)) in chosen.iter().zip(&one_thread) {
            let Player::Agent(kind) = agent.player else {
                continue;
            };
            if takes_threads(kind) {
                let mut threaded = agent.clone();
                let count = i64::try_from(threads).expect("at most MAX_THREADS");
                threaded.params.insert("threads", ParamValue::Int(count));
                let (t_nodes, t_time) = search(game, &threaded, case.moves)?;
                speed_ups.push((kind, rate(t_nodes, t_time) / rate(nodes, time)));
            }
        }
        print_speed_ups(threads, &speed_ups, out)?;
    }
    let mut timed: Vec<&GameSpec> = Vec::new();
    for (_, game, _) in &chosen {
        if !timed.iter().any(|g| g.name == game.name) {
            timed.push(game);
        }
    }
    let name_w = timed.iter().map(|g| g.name.len()).max().unwrap_or(0);
    for game in timed {
        let mut measured = None;
        games::dispatch(
            game,
            BenchPlayouts {
                measured: &mut measured,
            },
        )?;
        let (plies, time) = measured.expect("the bench command always times playouts");
        let ns = time.as_nanos() as f64 / plies.max(1) as f64;
        writeln!(
            out,
            "playout {:name_w$}  {ns:>8.1}ns/ply  ({plies} plies)",
            game.name
        )?;
        out.flush()?;
    }
    writeln!(out, "Bench: {total}")?;
    Ok(())
}

/// Whether agents of `kind` search on several threads (they declare `threads`).
fn takes_threads(kind: AgentKind) -> bool {
    kind.info().params.iter().any(|p| p.name == "threads")
}

/// Nodes per second, as a real number (a zero time counts as one nanosecond).
fn rate(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9)
}

/// The median of `values` (the mean of the middle two for an even count); `None` for
/// none.
fn median(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => Some((values[n / 2 - 1] + values[n / 2]) / 2.0),
    }
}

/// The speed-up table: one line per kind that takes `threads`, in registry order, with
/// the median of its cases' speed-ups (`-` for a kind no chosen case uses).
fn print_speed_ups(
    threads: usize,
    speed_ups: &[(AgentKind, f64)],
    out: &mut dyn Write,
) -> Result<()> {
    writeln!(
        out,
        "speed-up at {threads} threads (nodes/s against 1 thread, median over cases)"
    )?;
    let kinds: Vec<AgentKind> = AgentKind::ALL
        .into_iter()
        .filter(|&k| takes_threads(k))
        .collect();
    let kind_w = kinds.iter().map(|k| k.name().len()).max().unwrap_or(0);
    for kind in kinds {
        let mut values: Vec<f64> = speed_ups
            .iter()
            .filter(|(k, _)| *k == kind)
            .map(|&(_, v)| v)
            .collect();
        let n = values.len();
        let shown = median(&mut values).map_or("-".to_string(), |m| format!("{m:.2}"));
        let cases = if n == 1 { "case" } else { "cases" };
        writeln!(out, "{:kind_w$}  {shown:>6}  ({n} {cases})", kind.name())?;
    }
    Ok(())
}

/// Runs one search of the bench: `agent` from `moves` of `game`; its nodes and time.
fn search(game: &GameSpec, agent: &AgentSpec, moves: &str) -> Result<(u64, Duration)> {
    let mut measured = None;
    games::dispatch(
        game,
        BenchSearch {
            agent,
            moves,
            measured: &mut measured,
        },
    )?;
    Ok(measured.expect("the bench command always measures"))
}

/// One search of the bench, run for the game of its spec.
struct BenchSearch<'a> {
    agent: &'a AgentSpec,
    moves: &'a str,
    /// Nodes and time of the search, once run.
    measured: &'a mut Option<(u64, Duration)>,
}

impl GameCommand for BenchSearch<'_> {
    fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> Result<()> {
        let mut state = game.initial_state();
        replay(&mut state, self.moves)?;
        if state.turn() == Turn::Over {
            return Err(BadInput::new(format!(
                "bench position {:?} of {spec} is a finished game",
                self.moves
            ))
            .into());
        }
        let mut agent = G::build_agent(self.agent, &state)?;
        let mut rng = seeds::agent_rng(SEED, 0, 0);
        let result = agent.search(&state, SearchContext::new(&mut rng, &mut |_| {}));
        *self.measured = Some((result.nodes, result.time));
        Ok(())
    }
}

/// The timed random playouts of one game, from its start position.
struct BenchPlayouts<'a> {
    /// Plies played and their time, once run.
    measured: &'a mut Option<(u64, Duration)>,
}

impl GameCommand for BenchPlayouts<'_> {
    fn run<G: PlayableGame>(self, game: G, _: &GameSpec) -> Result<()> {
        let mut rng = seeds::agent_rng(SEED, 0, 0);
        *self.measured = Some(playout::time_random_playouts(
            &game.initial_state(),
            PLAYOUT_PLIES,
            PLAYOUT_TIME,
            &mut rng,
        ));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_parses_and_every_game_is_benched_after_its_own_cases() {
        for case in cases() {
            GameSpec::parse(case.game).unwrap();
            let agent = AgentSpec::parse(case.agent, false).unwrap();
            assert!(
                agent.params.duration("time").is_none(),
                "{}: a time budget would make the node count vary",
                case.agent
            );
        }
        let benched: Vec<&str> = cases()
            .iter()
            .map(|c| GameSpec::parse(c.game).unwrap().name)
            .collect();
        let mut order = benched.clone();
        order.dedup();
        let registered: Vec<&str> = games::GAMES.iter().map(|g| g.name).collect();
        assert_eq!(
            order, registered,
            "each game benched, in one run, in registry order"
        );
    }

    #[test]
    fn a_small_bench_prints_aligned_lines_and_their_sum() {
        let cases = [
            BenchCase {
                game: "invector:width=5,height=4",
                label: "a",
                moves: "",
                agent: "ab:depth=2",
            },
            BenchCase {
                game: "pig",
                label: "longer-label",
                moves: agon_engine::games::pig::MIDGAME,
                agent: "star2:depth=2",
            },
        ];
        let mut out = Vec::new();
        bench(&cases, None, 1, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // The header, two searches, a playout line per game, the total.
        assert_eq!(lines.len(), 6, "{text}");
        let nodes: Vec<u64> = lines[1..3]
            .iter()
            .map(|l| l.split_whitespace().nth(3).unwrap().parse().unwrap())
            .collect();
        assert!(lines[3].starts_with("playout invector "), "{text}");
        assert!(lines[4].starts_with("playout pig "), "{text}");
        assert_eq!(lines[5], format!("Bench: {}", nodes[0] + nodes[1]));
        // The columns line up: every line has its position at the same offset.
        let at = lines[0].find("position").unwrap();
        assert_eq!(lines[1].find(" a ").map(|i| i + 1), Some(at));
        assert_eq!(lines[2].find("longer-label"), Some(at));

        let mut out = Vec::new();
        bench(&cases, Some("pig"), 1, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(text.ends_with(&format!("Bench: {}\n", nodes[1])), "{text}");

        let err = bench(&cases, Some("chess"), 1, &mut Vec::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--filter: unknown game \"chess\" (valid: invector, connect4, pig, apv, romgon, threewill, hexstrat)"
        );
    }

    #[test]
    fn every_benched_game_gets_a_playout_line_whose_numbers_parse() {
        let cases: Vec<BenchCase> = games::GAMES
            .iter()
            .map(|g| BenchCase {
                game: g.name,
                label: "start",
                moves: "",
                agent: "random",
            })
            .collect();
        let mut out = Vec::new();
        bench(&cases, None, 1, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let playouts: Vec<&str> = text.lines().filter(|l| l.starts_with("playout ")).collect();
        assert_eq!(playouts.len(), games::GAMES.len(), "{text}");
        for (line, game) in playouts.iter().zip(games::GAMES) {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(words.len(), 5, "{line}");
            assert_eq!(words[1], game.name, "{line}");
            let ns = words[2].strip_suffix("ns/ply").unwrap();
            assert!(ns.parse::<f64>().is_ok(), "{line}");
            let plies = words[3].strip_prefix('(').unwrap();
            assert!(plies.parse::<u64>().unwrap() > 0, "{line}");
            assert_eq!(words[4], "plies)", "{line}");
        }
        assert!(
            text.lines().last().unwrap().starts_with("Bench: "),
            "{text}"
        );
    }

    #[test]
    fn threads_out_of_range_are_refused_naming_the_range() {
        let cases = &cases()[..1];
        for threads in [0, MAX_THREADS + 1] {
            let err = bench(cases, None, threads, &mut Vec::new()).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("--threads {threads}: the bench runs with 1 to 1024 threads")
            );
        }
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }
}
