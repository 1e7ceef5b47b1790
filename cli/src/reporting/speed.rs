//! Thinking speed per agent: speed.csv and its printed section, from games.csv (who
//! played, how many decisions, how many nodes) and timings.csv (how long).
//!
//! Wall-clock time is never reproducible, so none of this goes into summary.csv; the
//! file sits beside timings.csv, recomputed from the run's files whenever a summary is
//! printed (after a tournament, on a rerun of a finished one, by `agon report`), so all
//! three print the same numbers for the same folder.
//!
//! Per agent label, over the games that have a timing row: `decisions` sums the
//! agent's decisions (games.csv's `decisions0`/`decisions1`, the opening's left out),
//! `time_us` its thinking time, `nodes` its nodes; `us_per_decision` is
//! `time_us / decisions` and `nodes_per_second` is `nodes / (time_us / 10⁶)`, each empty
//! where its divisor is 0.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::record::{write_rows_whole, GameRow, TimingRow};
use crate::reporting::summary::{grid, header};

/// Name of the speed file in a run folder.
pub const SPEED_FILE: &str = "speed.csv";

/// One row of speed.csv: one agent's thinking over the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpeedRow {
    /// The agent's label, as in games.csv.
    pub agent: String,
    /// Games it played (both seats in self-play count once per game).
    pub games: u64,
    /// Decisions it made.
    pub decisions: u64,
    /// Its thinking time, in microseconds.
    pub time_us: u64,
    /// Mean thinking time per decision, in microseconds, one decimal; empty without
    /// decisions.
    pub us_per_decision: String,
    /// Search nodes (or iterations, as the agent counts them), as games.csv's `nodes`.
    pub nodes: u64,
    /// Nodes per second of thinking time, rounded to an integer; empty without time.
    pub nodes_per_second: String,
}

/// Running totals of one agent.
#[derive(Default)]
struct Tally {
    games: u64,
    decisions: u64,
    time_us: u64,
    nodes: u64,
}

/// The speed of every agent in `games` (any order), in the order agents first appear
/// by game index; a game without a row in `timings` is left out.
pub fn speeds(games: &[GameRow], timings: &[TimingRow]) -> Vec<SpeedRow> {
    let times: BTreeMap<u64, &TimingRow> = timings.iter().map(|t| (t.game, t)).collect();
    let mut sorted: Vec<&GameRow> = games.iter().collect();
    sorted.sort_by_key(|g| g.game);
    let mut order: Vec<&str> = Vec::new();
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    for game in sorted {
        let Some(time) = times.get(&game.game) else {
            continue;
        };
        let seats = [
            (&game.agent0, game.decisions0, time.time_us0, game.nodes0),
            (&game.agent1, game.decisions1, time.time_us1, game.nodes1),
        ];
        for (i, (agent, decisions, time_us, nodes)) in seats.into_iter().enumerate() {
            if !order.contains(&agent.as_str()) {
                order.push(agent);
            }
            let tally = tallies.entry(agent).or_default();
            // Self-play: the game counts once for its agent.
            if i == 0 || game.agent1 != game.agent0 {
                tally.games += 1;
            }
            tally.decisions += u64::from(decisions);
            tally.time_us += time_us;
            tally.nodes += nodes;
        }
    }
    order
        .into_iter()
        .map(|agent| {
            let t = &tallies[agent];
            SpeedRow {
                agent: agent.to_string(),
                games: t.games,
                decisions: t.decisions,
                time_us: t.time_us,
                us_per_decision: if t.decisions > 0 {
                    format!("{:.1}", t.time_us as f64 / t.decisions as f64)
                } else {
                    String::new()
                },
                nodes: t.nodes,
                nodes_per_second: if t.time_us > 0 {
                    format!("{:.0}", t.nodes as f64 * 1e6 / t.time_us as f64)
                } else {
                    String::new()
                },
            }
        })
        .collect()
}

/// Writes speed.csv (replacing any earlier one), whole or not at all.
pub fn write_speed(path: &Path, rows: &[SpeedRow]) -> Result<()> {
    write_rows_whole(path, rows)
}

/// Computes the speed of every agent from a run's rows, writes it to `dir`'s speed.csv
/// when `write` (a tournament's end, `agon report`; a rerun of a finished run changes no
/// file) and returns the printed section, which ends in a blank line; nothing at all when
/// no game has a timing row.
pub fn speed_section(
    dir: &Path,
    games: &[GameRow],
    timings: &[TimingRow],
    write: bool,
) -> Result<String> {
    let rows = speeds(games, timings);
    if rows.is_empty() {
        return Ok(String::new());
    }
    if write {
        write_speed(&dir.join(SPEED_FILE), &rows)?;
    }
    Ok(format!("{}\n", speed_table(&rows)))
}

/// The first line of the printed section: it says that what follows is wall-clock time
/// (tests that compare printed output byte for byte leave the section out).
pub const SPEED_TITLE: &str = "speed (wall-clock thinking time, not reproducible; speed.csv)";

/// The printed section: [`SPEED_TITLE`], then one aligned line per agent (time in
/// seconds, milliseconds per decision, nodes per second), ending in a line end.
pub fn speed_table(rows: &[SpeedRow]) -> String {
    let mut cells = vec![header(&[
        "agent",
        "games",
        "decisions",
        "time s",
        "ms/decision",
        "nodes",
        "nodes/s",
    ])];
    for r in rows {
        let ms = r
            .us_per_decision
            .parse::<f64>()
            .map_or_else(|_| "-".into(), |us| format!("{:.3}", us / 1000.0));
        cells.push(vec![
            r.agent.clone(),
            r.games.to_string(),
            r.decisions.to_string(),
            format!("{:.3}", r.time_us as f64 / 1e6),
            ms,
            r.nodes.to_string(),
            if r.nodes_per_second.is_empty() {
                "-".into()
            } else {
                r.nodes_per_second.clone()
            },
        ]);
    }
    format!("{SPEED_TITLE}\n{}", grid(&cells, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Result0;

    fn timing(game: u64, time_us0: u64, time_us1: u64) -> TimingRow {
        TimingRow {
            game,
            time_us0,
            time_us1,
        }
    }

    #[test]
    fn speed_sums_each_agents_decisions_time_and_nodes_over_both_seats() {
        // x and y play two games with seats swapped; z plays itself once. Game 3 has no
        // timing row and is left out.
        let mut games = vec![
            GameRow::example(0, 0, ["x", "y"], Result0::Win, 5),
            GameRow::example(1, 0, ["y", "x"], Result0::Win, 4),
            GameRow::example(2, 1, ["z", "z"], Result0::Draw, 2),
            GameRow::example(3, 1, ["z", "z"], Result0::Draw, 2),
        ];
        for (g, (n0, n1)) in games.iter_mut().zip([(300, 30), (20, 200), (7, 9), (1, 1)]) {
            (g.nodes0, g.nodes1) = (n0, n1);
        }
        // Decisions: game 0 x 3, y 2; game 1 y 2, x 2; game 2 z 1 + 1.
        let timings = [timing(0, 1_000, 10), timing(1, 30, 2_000), timing(2, 0, 0)];
        let rows = speeds(&games, &timings);
        let brief: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{} {} {} {} {} {} {}",
                    r.agent,
                    r.games,
                    r.decisions,
                    r.time_us,
                    r.us_per_decision,
                    r.nodes,
                    r.nodes_per_second
                )
            })
            .collect();
        assert_eq!(
            brief,
            [
                "x 2 5 3000 600.0 500 166667",
                "y 2 4 40 10.0 50 1250000",
                "z 1 2 0 0.0 16 ",
            ]
        );
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&rows[0]).unwrap();
        assert_eq!(
            String::from_utf8(w.into_inner().unwrap()).unwrap(),
            "agent,games,decisions,time_us,us_per_decision,nodes,nodes_per_second\n\
             x,2,5,3000,600.0,500,166667\n"
        );
        assert_eq!(
            speed_table(&rows),
            format!(
                "{SPEED_TITLE}\n\
                 agent  games  decisions  time s  ms/decision  nodes  nodes/s\n\
                 x          2          5   0.003        0.600    500   166667\n\
                 y          2          4   0.000        0.010     50  1250000\n\
                 z          1          2   0.000        0.000     16        -\n"
            )
        );
    }
}
