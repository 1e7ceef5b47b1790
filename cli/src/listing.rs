//! `agon games` and `agon agents`: what exists, with parameters, kinds and defaults.

use std::io::Write;

use agon_engine::ParamSpec;
use agon_search::registry;
use anyhow::Result;

use crate::games::GAMES;
use crate::spec::HUMAN;

/// Prints every game with its kind and parameters.
pub fn games(out: &mut dyn Write) -> Result<()> {
    for game in GAMES {
        let chance = if game.has_chance {
            "with chance"
        } else {
            "deterministic"
        };
        let information = if game.has_hidden_information {
            "hidden information"
        } else {
            "perfect information"
        };
        writeln!(out, "{}: {}", game.name, game.about)?;
        writeln!(out, "  kind: {chance}, {information}")?;
        write_params(out, (game.params)())?;
        writeln!(out)?;
    }
    writeln!(
        out,
        "spec: name:key=value,... (e.g. {}); omitted parameters take their defaults",
        example_spec()
    )?;
    Ok(())
}

/// Prints every agent with its parameters, and `human`.
pub fn agents(out: &mut dyn Write) -> Result<()> {
    for agent in registry::AGENTS {
        writeln!(out, "{}: {}", agent.name, agent.about)?;
        let games = if agent.needs_deterministic {
            "deterministic games only"
        } else {
            "every game"
        };
        match agent.default_depth {
            Some(depth) => writeln!(
                out,
                "  plays: {games}; without a budget it searches to depth {depth}"
            )?,
            None => writeln!(out, "  plays: {games}")?,
        }
        write_params(out, agent.params)?;
        writeln!(out)?;
    }
    writeln!(
        out,
        "{HUMAN}: a person typing moves on standard input (agon play only)\n"
    )?;
    writeln!(
        out,
        "spec: name:key=value,... (e.g. ab:depth=6, ab:time=50ms); durations take ms or s"
    )?;
    Ok(())
}

/// One line per parameter: `name  kind  default  help`, aligned.
fn write_params(out: &mut dyn Write, params: &[ParamSpec]) -> Result<()> {
    if params.is_empty() {
        writeln!(out, "  parameters: none")?;
        return Ok(());
    }
    writeln!(out, "  parameters:")?;
    let rows: Vec<[String; 4]> = params
        .iter()
        .map(|p| {
            [
                p.name.to_string(),
                p.kind.to_string(),
                match p.default {
                    Some(d) => format!("default {d}"),
                    None => "no default".into(),
                },
                p.help.to_string(),
            ]
        })
        .collect();
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2)];
    for r in &rows {
        writeln!(
            out,
            "    {:<w0$}  {:<w1$}  {:<w2$}  {}",
            r[0],
            r[1],
            r[2],
            r[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2]
        )?;
    }
    Ok(())
}

/// A spec of the first game naming its first parameter at its default, for the help line.
fn example_spec() -> String {
    let game = GAMES[0];
    match (game.params)().first() {
        Some(p) => format!("{}:{}={}", game.name, p.name, p.default.unwrap_or("...")),
        None => game.name.to_string(),
    }
}
