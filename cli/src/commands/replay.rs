//! `agon replay DIR INDEX`: one recorded game of a run folder, stepped through in the
//! terminal with the same pictures as the HTML report (coordinates on every board, a
//! legend, the last ply marked and told in words).
//!
//! The game is read through the checks `agon report` makes ([`crate::running::audit`]), so an
//! edited or foreign row is refused rather than shown; like the report, it reads a
//! games.csv.gz where games.csv is absent. It writes nothing. When standard output is a
//! terminal, Enter shows the next ply, `b` the one before and `q` quits, and each ply is
//! drawn over the one before (the cursor moved back up to the previous drawing's first
//! row, the rows below cleared), so a game of a thousand plies stays one screen, not
//! tens of thousands of lines. Otherwise every ply is printed at once, the legend only
//! with the first, with no control codes: plain text that suits a pipe or a file.

use std::io::{BufRead, IsTerminal, Write};

use agon_engine::picture::text;
use anyhow::Result;

use crate::args::ReplayArgs;
use crate::bad_input::BadInput;
use crate::games::{dispatch, GameCommand, PlayableGame};
use crate::record::GameRow;
use crate::reporting::picture::{replay, Step};
use crate::running::audit::{open_run_to_read, read_checked_games};
use crate::spec::GameSpec;

/// What the stepping replay asks after each ply.
const PROMPT: &str = "[Enter] next · b back · q quit > ";

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
    let terminal = console::Term::stdout();
    let mode = if std::io::stdout().is_terminal() {
        Mode::Stepped {
            columns: usize::from(terminal.size().1).max(1),
        }
    } else {
        Mode::All
    };
    dispatch(
        &plan.game,
        ReplayCommand {
            row,
            mode,
            input,
            out,
        },
    )
}

/// How the plies are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Every ply at once, the legend with the first only, plain text.
    All,
    /// One ply at a time on a terminal `columns` characters wide, each drawn over the
    /// one before.
    Stepped {
        /// The terminal's width, to count the rows a drawing takes once its long lines
        /// wrap.
        columns: usize,
    },
}

struct ReplayCommand<'a> {
    row: &'a GameRow,
    mode: Mode,
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
}

impl GameCommand for ReplayCommand<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
        let steps = replay(&game.initial_state(), &self.row.moves)?;
        let columns = match self.mode {
            Mode::All => {
                for ply in 0..steps.len() {
                    write!(self.out, "{}", drawing(self.row, &steps, ply, ply == 0))?;
                }
                return Ok(());
            }
            Mode::Stepped { columns } => columns,
        };
        let mut ply = 0;
        let mut line = String::new();
        // The terminal rows the drawing on screen takes, with its prompt and the answer
        // the terminal echoed: how far to go back up to draw the next one over it.
        let mut drawn = 0;
        loop {
            let picture = drawing(self.row, &steps, ply, true);
            if drawn > 0 {
                // Up to the previous drawing's first row, to its start, clear below.
                write!(self.out, "\x1b[{drawn}A\r\x1b[J")?;
            }
            write!(self.out, "{picture}{PROMPT}")?;
            self.out.flush()?;
            line.clear();
            if self.input.read_line(&mut line)? == 0 {
                writeln!(self.out)?;
                return Ok(());
            }
            let answer = line.trim_end_matches(['\n', '\r']);
            drawn = rows(&picture, columns) + rows(&format!("{PROMPT}{answer}"), columns);
            match answer.trim() {
                "q" => return Ok(()),
                "b" => ply = ply.saturating_sub(1),
                _ => ply = (ply + 1).min(steps.len() - 1),
            }
        }
    }
}

/// The terminal rows `text` takes on a terminal `columns` wide: each line (a last line
/// without its newline counts as ended by the answer's Enter) one row, plus one for
/// each time it wraps.
fn rows(text: &str, columns: usize) -> usize {
    text.lines()
        .map(|l| console::measure_text_width(l).div_ceil(columns).max(1))
        .sum()
}

/// The position after `ply` plies: a heading telling the ply, the board, the legend if
/// `legend`, at the last ply the recorded result, and a blank line.
fn drawing(row: &GameRow, steps: &[Step], ply: usize, legend: bool) -> String {
    let last = steps.len() - 1;
    let step = &steps[ply];
    let mut out = if ply == 0 {
        format!(
            "game {}: seat 0 {} ({}), seat 1 {} ({}); start ({last} {})\n",
            row.game,
            row.agent0,
            row.side0,
            row.agent1,
            row.side1,
            if last == 1 { "ply" } else { "plies" }
        )
    } else {
        let opening = if ply <= row.opening as usize {
            " (opening)"
        } else {
            ""
        };
        let told = if step.told.is_empty() {
            step.notation.clone()
        } else {
            step.told_whole()
        };
        format!("game {}, ply {ply} of {last}{opening}: {told}\n", row.game)
    };
    out.push_str(&text::draw(&step.picture, &step.changed));
    if legend {
        out.push_str(&text::legend(&step.picture));
    }
    if ply == last {
        let result = match row.winner {
            Some(seat) => {
                let agent = if seat == 0 { &row.agent0 } else { &row.agent1 };
                format!("seat {seat} ({agent}) wins by {}", row.end_reason)
            }
            None => format!("draw by {}", row.end_reason),
        };
        out.push_str(&format!("result: {result}\n"));
        if !row.note.is_empty() {
            out.push_str(&format!("note: {}\n", row.note));
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::Connect4;
    use agon_engine::games::hexstrat::Hexstrat;
    use agon_engine::Game;

    use super::*;

    fn connect4_row() -> GameRow {
        GameRow {
            game: 4,
            agent0: "greedy".into(),
            agent1: "random".into(),
            side0: "red".into(),
            side1: "yellow".into(),
            winner: None,
            end_reason: "cap".into(),
            moves: "d a e".into(),
            ..GameRow::default()
        }
    }

    /// What `agon replay` writes of `row`, a game of `game`, in `mode`, answering `keys`.
    fn output<G: PlayableGame>(
        game: G,
        spec: &str,
        row: &GameRow,
        mode: Mode,
        keys: &str,
    ) -> String {
        let mut input = keys.as_bytes();
        let mut out = Vec::new();
        let command = ReplayCommand {
            row,
            mode,
            input: &mut input,
            out: &mut out,
        };
        command.run(game, &GameSpec::parse(spec).unwrap()).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The plies the stepping replay showed, from the headings it printed (after the
    /// codes that go back over the previous drawing).
    fn shown_plies(keys: &str) -> Vec<String> {
        let mode = Mode::Stepped { columns: 80 };
        output(Connect4, "connect4", &connect4_row(), mode, keys)
            .lines()
            .filter_map(|l| l.split(" > ").last())
            .map(|l| l.rsplit("\x1b[J").next().unwrap())
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

    /// The rows a terminal `columns` wide shows after `output` is written to it while
    /// the user types `answers` (one after each prompt, echoed with its Enter). Knows
    /// what the replay writes: text, newlines, and `ESC [ n A` (up), `\r`, `ESC [ J`
    /// (clear below); a character past the last column wraps.
    fn screen(output: &str, answers: &[&str], columns: usize) -> Vec<String> {
        let mut typed = String::new();
        for (i, part) in output.split(PROMPT).enumerate() {
            if i > 0 {
                typed.push_str(PROMPT);
                if let Some(answer) = answers.get(i - 1) {
                    typed.push_str(answer);
                    typed.push('\n');
                }
            }
            typed.push_str(part);
        }
        let mut rows: Vec<Vec<char>> = vec![Vec::new()];
        let (mut row, mut column) = (0usize, 0usize);
        let mut chars = typed.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\n' => (row, column) = (row + 1, 0),
                '\r' => column = 0,
                '\x1b' => {
                    assert_eq!(chars.next(), Some('['));
                    let mut count = String::new();
                    while let Some(d) = chars.next_if(char::is_ascii_digit) {
                        count.push(d);
                    }
                    match chars.next() {
                        Some('A') => row -= count.parse::<usize>().unwrap(),
                        Some('J') => {
                            rows.truncate(row + 1);
                            rows[row].truncate(column);
                        }
                        other => panic!("an unexpected code {other:?}"),
                    }
                }
                c => {
                    if column == columns {
                        (row, column) = (row + 1, 0);
                    }
                    while rows.len() <= row {
                        rows.push(Vec::new());
                    }
                    let line = &mut rows[row];
                    line.resize(line.len().max(column), ' ');
                    if column < line.len() {
                        line[column] = c;
                    } else {
                        line.push(c);
                    }
                    column += 1;
                }
            }
            while rows.len() <= row {
                rows.push(Vec::new());
            }
        }
        rows.into_iter().map(|r| r.into_iter().collect()).collect()
    }

    #[test]
    fn on_a_terminal_each_ply_is_drawn_over_the_one_before() {
        let row = GameRow {
            game: 1,
            agent0: "random".into(),
            agent1: "greedy".into(),
            side0: "south".into(),
            side1: "north".into(),
            winner: None,
            end_reason: "cap".into(),
            moves: "I:c2 forest R:e1 plains end".into(),
            ..GameRow::default()
        };
        let steps = replay(&Hexstrat::default().initial_state(), &row.moves).unwrap();
        // Narrow enough that the legend's and the notes' long lines wrap.
        for columns in [200, 60, 23] {
            let answers = ["", "", "b", "", ""];
            let keys: String = answers.iter().map(|a| format!("{a}\n")).collect();
            let written = output(
                Hexstrat::default(),
                "hexstrat",
                &row,
                Mode::Stepped { columns },
                &keys,
            );
            // Plies 0, 1, 2, 1, 2, 3: the screen holds the last drawing alone, then the
            // prompt; the end of input leaves an empty row under it.
            let mut expected: Vec<String> = Vec::new();
            for line in drawing(&row, &steps, 3, true).lines() {
                let chars: Vec<char> = line.chars().collect();
                if chars.is_empty() {
                    expected.push(String::new());
                }
                expected.extend(chars.chunks(columns).map(|c| c.iter().collect::<String>()));
            }
            let prompt: Vec<char> = PROMPT.chars().collect();
            expected.extend(prompt.chunks(columns).map(|c| c.iter().collect::<String>()));
            expected.push(String::new());
            let shown = screen(&written, &answers, columns);
            assert_eq!(shown, expected, "{columns} columns");
            assert_eq!(written.matches(PROMPT).count(), 6);
        }
    }

    #[test]
    fn piped_every_ply_is_plain_text_with_the_legend_once() {
        let written = output(Connect4, "connect4", &connect4_row(), Mode::All, "");
        assert!(!written.contains('\x1b'), "{written:?}");
        assert!(!written.contains(PROMPT));
        assert_eq!(written.matches("legend:").count(), 1);
        let headings: Vec<&str> = written
            .lines()
            .filter(|l| l.starts_with("game 4"))
            .collect();
        assert_eq!(
            headings,
            [
                "game 4: seat 0 greedy (red), seat 1 random (yellow); start (3 plies)",
                "game 4, ply 1 of 3: red (seat 0) plays d",
                "game 4, ply 2 of 3: yellow (seat 1) plays a",
                "game 4, ply 3 of 3: red (seat 0) plays e",
            ]
        );
        assert!(written.ends_with("result: draw by cap\n\n"), "{written}");
    }

    #[test]
    fn rows_count_each_line_and_each_wrap() {
        assert_eq!(rows("", 10), 0);
        assert_eq!(rows("abc\n\n", 10), 2);
        assert_eq!(rows("0123456789\n0123456789a\n", 10), 3);
        assert_eq!(rows("a · b → c", 5), 2);
    }
}
