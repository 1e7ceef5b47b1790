//! `agon games` and `agon agents`: what exists, with parameters, kinds and defaults.

use std::io::Write;

use agon_engine::{ParamSpec, Params};
use agon_search::registry::{self, AgentKind};
use anyhow::Result;

use agon_engine::network::Network;
use agon_engine::weights::{flat_names, flat_specs};
use agon_engine::{Encode, Tunable};

use crate::games::{self, GameCommand, PlayableGame, GAMES};
use crate::spec::{GameSpec, HUMAN};
use crate::tune::WeightsOf;
use crate::{ext_spec, network_file, weights_file};

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
        let check = game.profile.opening_check;
        writeln!(
            out,
            "  opening check: {} within {} (random openings of studies, and of tournaments \
             with --opening-check default)",
            check.checker, check.window
        )?;
        write_params(out, (game.params)(), &Params::default())?;
        writeln!(out)?;
    }
    writeln!(
        out,
        "spec: name:key=value,... (e.g. {}); omitted parameters take their defaults",
        example_spec()
    )?;
    Ok(())
}

/// Prints every agent with its parameters and the budget it searches with when the spec
/// names none, then `human`, which only `agon play` accepts. With a `game`, only the
/// agents that play it, and at the end the game's evaluator weights, its encoding and
/// its ladder ([`game_appendix`]).
pub fn agents(out: &mut dyn Write, game: Option<&GameSpec>) -> Result<()> {
    let chance = game.map(|g| {
        GAMES
            .iter()
            .find(|info| info.name == g.name)
            .is_some_and(|info| info.has_chance)
    });
    for kind in AgentKind::ALL {
        if chance == Some(true) && kind.needs_deterministic() {
            continue;
        }
        let agent = kind.info();
        writeln!(out, "{}: {}", agent.name, agent.about)?;
        let games = if kind.needs_deterministic() {
            "deterministic games only"
        } else {
            "every game"
        };
        writeln!(out, "  plays: {games}")?;
        let budget = default_budget(kind);
        if let Some(text) = budget_text(&agent, &budget) {
            writeln!(out, "  without a budget in its spec: {text}")?;
        }
        write_params(out, agent.params, &budget)?;
        writeln!(out)?;
    }
    writeln!(
        out,
        "{HUMAN}: a person typing moves on standard input\n  plays: every game, in agon play \
         only (tournament, run and analyse refuse it)\n"
    )?;
    writeln!(
        out,
        "{}: an outside program speaking Agon's engine protocol (docs/protocol.md), one \
         process per game and seat\n  plays: the games the program plays, in tournament, \
         run, balance, play and analyse",
        ext_spec::NAME
    )?;
    write_params(out, ext_spec::PARAMS, &Params::default())?;
    writeln!(out)?;
    writeln!(
        out,
        "spec: name:key=value,... (e.g. ab:depth=6, ab:time=50ms); durations take ms or s"
    )?;
    if let Some(game) = game {
        game_appendix(out, game)?;
    }
    Ok(())
}

/// The end of `agon agents --game G`: the weights an `eval=FILE` may set, what a
/// network sees of the game (its encoding's planes and scalars), then the ladder as lines `level <k> <agent spec>`, weakest first, with a note when `game`'s
/// parameters are not the defaults it was measured on.
fn game_appendix(out: &mut dyn Write, game: &GameSpec) -> Result<()> {
    struct Weights<'a>(&'a mut dyn Write);
    impl GameCommand for Weights<'_> {
        fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> Result<()> {
            let specs = <<G::Eval as Tunable<G::State>>::Weights as agon_engine::Weights>::SPECS;
            let defaults = <G::Eval as Tunable<G::State>>::Weights::default();
            writeln!(
                self.0,
                "\nevaluator weights of {} (eval=FILE: `name = value` lines, names left \
                 out keep their defaults):",
                spec.name
            )?;
            let rows: Vec<[String; 4]> = flat_names(specs)
                .into_iter()
                .zip(flat_specs(specs))
                .zip(agon_engine::Weights::flat(&defaults))
                .map(|((name, spec), default)| {
                    [
                        name,
                        format!("integer {}..{}", spec.min, spec.max),
                        format!("default {default}"),
                        spec.help.to_string(),
                    ]
                })
                .collect();
            write_rows(self.0, &rows)?;
            let own = format!("{}-", spec.name);
            for (name, text) in weights_file::BUILT_IN
                .iter()
                .filter(|(n, _)| n.starts_with(&own))
            {
                let source = format!("{}{name}", network_file::BUILT_IN_PREFIX);
                if weights_file::parse::<WeightsOf<G>>(text, &source).is_ok() {
                    writeln!(
                        self.0,
                        "built-in weights: eval={source} (results/weights/README.md)"
                    )?;
                }
            }
            let encoding = game.initial_state().encoding();
            writeln!(
                self.0,
                "\nwhat a network sees of {} (encoding {}, from one seat's view: {} planes of \
                 {}×{} cells, {} binary features, and {} scalar{}):",
                spec.name,
                encoding.id,
                encoding.planes.len(),
                encoding.rows,
                encoding.cols,
                encoding.features(),
                encoding.scalars.len(),
                if encoding.scalars.len() == 1 { "" } else { "s" }
            )?;
            let rows: Vec<[String; 4]> = encoding
                .planes
                .iter()
                .map(|p| {
                    [
                        p.name.into(),
                        "plane".into(),
                        "on/off".into(),
                        p.meaning.into(),
                    ]
                })
                .chain(encoding.scalars.iter().map(|s| {
                    [
                        s.name.into(),
                        "scalar".into(),
                        format!("0..{}", s.max),
                        s.meaning.into(),
                    ]
                }))
                .collect();
            write_rows(self.0, &rows)?;
            for (name, bytes) in network_file::BUILT_IN {
                let net = Network::from_bytes(bytes).expect("a built-in network reads");
                if net.check_encoding(&encoding).is_ok() {
                    writeln!(
                        self.0,
                        "built-in network: net={}{name}, trained by `{}` \
                         (results/networks/README.md)",
                        network_file::BUILT_IN_PREFIX,
                        net.note()
                    )?;
                }
            }
            Ok(())
        }
    }
    games::dispatch(game, Weights(out))?;
    let defaults = GameSpec::parse(game.name)?;
    if *game == defaults {
        writeln!(out, "\nladder of {} (level:k), weakest first:", game.name)?;
    } else {
        writeln!(
            out,
            "\nladder of {} (level:k), weakest first, measured on the default parameters \
             ({defaults}), not on {game}:",
            game.name
        )?;
    }
    for (k, spec) in games::ladder(game.name).iter().enumerate() {
        writeln!(out, "level {} {spec}", k + 1)?;
    }
    Ok(())
}

/// The parameters that make a search budget.
const BUDGETS: [&str; 4] = ["depth", "nodes", "iters", "time"];

/// The budget `agent` searches with when its spec names none (`depth=4`, `iters=10000`;
/// empty for one that searches to the end), read from the spec parser's own completion
/// ([`registry::complete_params`], which every parsed spec goes through), so the listing
/// cannot drift from what runs.
fn default_budget(kind: AgentKind) -> Params {
    let mut params = Params::defaults(kind.info().params);
    registry::complete_params(kind, &mut params);
    params.retain(|name| BUDGETS.contains(&name));
    params
}

/// The `without a budget` line of `agent`: its default budget, or that it searches to
/// the end of the game; `None` for an agent without budget parameters.
fn budget_text(agent: &registry::AgentInfo, budget: &Params) -> Option<String> {
    if !agent.params.iter().any(|p| BUDGETS.contains(&p.name)) {
        return None;
    }
    Some(if budget.is_empty() {
        "none; it searches to the end of the game".to_string()
    } else {
        budget.canonical()
    })
}

/// One line per parameter: `name  kind  default  help`, aligned. A parameter without a
/// default of its own that `budget` sets reads `default <v> if no budget`.
fn write_params(out: &mut dyn Write, params: &[ParamSpec], budget: &Params) -> Result<()> {
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
                match (p.default, budget.get(p.name)) {
                    (Some(d), _) => format!("default {d}"),
                    (None, Some(v)) => format!("default {v} if no budget"),
                    (None, None) => "no default".into(),
                },
                p.help.to_string(),
            ]
        })
        .collect();
    write_rows(out, &rows)
}

/// Rows of four columns, the first three padded to their widest cell, indented.
fn write_rows(out: &mut dyn Write, rows: &[[String; 4]]) -> Result<()> {
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2)];
    for r in rows {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::AgentSpec;

    #[test]
    fn listed_budgets_are_the_ones_parsed_specs_get() {
        for kind in AgentKind::ALL {
            let mut parsed = AgentSpec::parse(kind.name(), false).unwrap().params;
            parsed.retain(|name| BUDGETS.contains(&name));
            assert_eq!(default_budget(kind), parsed, "{}", kind.name());
        }
        let mut text = Vec::new();
        agents(&mut text, None).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains(&format!(
                "\nmcts: {}\n  plays: every game\n  without a budget in its spec: iters={}\n",
                AgentKind::Mcts.info().about,
                agon_search::mcts::DEFAULT_ITERATIONS
            )),
            "{text}"
        );
        assert!(text.contains("  without a budget in its spec: none; it searches to the end"));
    }
}
