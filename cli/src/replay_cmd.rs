//! `agon replay DIR INDEX`: one recorded game of a run folder, stepped through in the
//! terminal with the same pictures as the HTML report (coordinates on every board, a
//! legend, the last ply marked and told in words).
//!
//! The game is read through the checks `agon report` makes ([`crate::audit`]), so an
//! edited or foreign row is refused rather than shown; like the report, it reads a
//! games.csv.gz where games.csv is absent. It writes nothing. When standard output is a
//! terminal, Enter shows the next ply, `b` the one before and `q` quits; otherwise every
//! ply is printed at once, which suits a pipe or a file.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::Result;

use crate::args::{BadInput, ReplayArgs};
use crate::audit::{open_run_to_read, read_checked_games};
use crate::games::{dispatch, GameCommand, PlayableGame};
use crate::picture::{replay, text, Step};
use crate::record::GameRow;
use crate::spec::GameSpec;

/// Runs `agon replay`.
pub fn replay_game(args: &ReplayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    let shown = args.dir.display();
    let (meta, written, plan, games_path) = open_run_to_read(&args.dir, "")?;
    let rows = read_checked_games(&games_path, &meta, &plan, written)?.rows;
    let Some(row) = rows.iter().find(|r| r.game == args.index) else {
        let held = match (rows.first(), rows.last()) {
            (Some(first), Some(last)) => format!("games {} to {}", first.game, last.game),
            _ => "no game".to_string(),
        };
        return Err(BadInput::new(format!(
            "\"{shown}\": {} has no game {} (it holds {held})",
            games_path.file_name().unwrap_or_default().to_string_lossy(),
            args.index
        ))
        .into());
    };
    let interactive = std::io::stdout().is_terminal();
    dispatch(
        &plan.game,
        ReplayCommand {
            row,
            interactive,
            input,
            out,
        },
    )
}

struct ReplayCommand<'a> {
    row: &'a GameRow,
    interactive: bool,
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
}

impl GameCommand for ReplayCommand<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
        let steps = replay(&game.initial_state(), &self.row.moves)?;
        if !self.interactive {
            for ply in 0..steps.len() {
                show(self.out, self.row, &steps, ply, ply == 0)?;
            }
            return Ok(());
        }
        let mut ply = 0;
        let mut line = String::new();
        loop {
            show(self.out, self.row, &steps, ply, true)?;
            write!(self.out, "[Enter] next · b back · q quit > ")?;
            self.out.flush()?;
            line.clear();
            if self.input.read_line(&mut line)? == 0 {
                writeln!(self.out)?;
                return Ok(());
            }
            match line.trim() {
                "q" => return Ok(()),
                "b" => ply = ply.saturating_sub(1),
                _ => ply = (ply + 1).min(steps.len() - 1),
            }
        }
    }
}

/// Prints the position after `ply` plies: a heading telling the ply, the board, the
/// legend if `legend`, and at the last ply the recorded result.
fn show(
    out: &mut dyn Write,
    row: &GameRow,
    steps: &[Step],
    ply: usize,
    legend: bool,
) -> Result<()> {
    let last = steps.len() - 1;
    let step = &steps[ply];
    if ply == 0 {
        writeln!(
            out,
            "game {}: seat 0 {} ({}), seat 1 {} ({}); start ({last} {})",
            row.game,
            row.agent0,
            row.side0,
            row.agent1,
            row.side1,
            if last == 1 { "ply" } else { "plies" }
        )?;
    } else {
        let opening = if ply <= row.opening as usize {
            " (opening)"
        } else {
            ""
        };
        let told = if step.told.is_empty() {
            &step.notation
        } else {
            &step.told
        };
        writeln!(
            out,
            "game {}, ply {ply} of {last}{opening}: {told}",
            row.game
        )?;
    }
    write!(out, "{}", text::draw(&step.picture, &step.changed))?;
    if legend {
        write!(out, "{}", text::legend(&step.picture))?;
    }
    if ply == last {
        let result = match row.winner {
            Some(seat) => {
                let agent = if seat == 0 { &row.agent0 } else { &row.agent1 };
                format!("seat {seat} ({agent}) wins by {}", row.end_reason)
            }
            None => format!("draw by {}", row.end_reason),
        };
        writeln!(out, "result: {result}")?;
        if !row.note.is_empty() {
            writeln!(out, "note: {}", row.note)?;
        }
    }
    writeln!(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::Connect4;

    use super::*;

    /// The plies the interactive loop showed, from the headings it printed.
    fn shown_plies(keys: &str) -> Vec<String> {
        let row = GameRow {
            game: 4,
            agent0: "greedy".into(),
            agent1: "random".into(),
            side0: "red".into(),
            side1: "yellow".into(),
            winner: None,
            end_reason: "cap".into(),
            moves: "d a e".into(),
            ..GameRow::default()
        };
        let mut input = keys.as_bytes();
        let mut out = Vec::new();
        let command = ReplayCommand {
            row: &row,
            interactive: true,
            input: &mut input,
            out: &mut out,
        };
        command
            .run(Connect4, &GameSpec::parse("connect4").unwrap())
            .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .filter_map(|l| l.split(" > ").last())
            .filter(|l| l.starts_with("game 4"))
            .map(|l| l.split(':').next().unwrap().to_string())
            .collect()
    }

    #[test]
    fn enter_steps_forward_b_steps_back_q_quits() {
        assert_eq!(
            shown_plies("\n\nb\nq\n"),
            [
                "game 4",
                "game 4, ply 1 of 3",
                "game 4, ply 2 of 3",
                "game 4, ply 1 of 3"
            ]
        );
    }

    #[test]
    fn stepping_stops_at_the_ends_and_the_end_of_input_quits() {
        assert_eq!(
            shown_plies("b\n\n\n\n\n"),
            [
                "game 4",
                "game 4",
                "game 4, ply 1 of 3",
                "game 4, ply 2 of 3",
                "game 4, ply 3 of 3",
                "game 4, ply 3 of 3"
            ]
        );
    }
}
