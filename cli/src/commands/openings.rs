//! `agon openings`: writes a book of checked random openings, one move list per line in
//! the format `--openings FILE` reads, so that a study or a tournament can be repeated
//! on a fixed book, as chess engines are tested on fixed opening suites.
//!
//! Line `i` is the opening a study would deal to deal `i` with the same seed, check and
//! K: on a game without chance the openings are drawn without replacement
//! ([`Opening::Distinct`]), so no two lines repeat; on a game with chance each line is
//! deal `i`'s random opening with its chance outcomes written out. After each line, a
//! comment gives the checker's value at the position after it (from the side to move's
//! view), so a reader sees how even each line is. Header comments record the command's
//! settings. The file is written whole or not at all, and an existing file is never
//! replaced.
//!
//! A line of a book cannot hold a pie-rule swap decision (it belongs to the players), so
//! on a game with a pie rule K is at most the decisions before it.

use std::cell::Cell;
use std::io::Write;

use agon_engine::has_chance;
use anyhow::Result;

use crate::args::OpeningsArgs;
use crate::bad_input::BadInput;
use crate::games::{dispatch, GameCommand, PlayableGame};
use crate::record::{check_file_out, write_file_whole};
use crate::running::opening::{DistinctDraws, Opening, OpeningCheck, MAX_RANDOM_OPENING};
use crate::spec::GameSpec;

/// The most lines a book may ask for.
pub const MAX_LINES: u64 = 1_000_000;

/// Runs `agon openings`; `command` is the command line as typed, for the header.
pub fn openings(args: &OpeningsArgs, command: &str, out: &mut dyn Write) -> Result<()> {
    let game = GameSpec::parse(&args.game)?;
    if args.plies == 0 || args.plies > MAX_RANDOM_OPENING {
        return Err(BadInput::new(format!(
            "--plies {}: an opening is 1 to {MAX_RANDOM_OPENING} decisions",
            args.plies
        ))
        .into());
    }
    if args.count == 0 || args.count > MAX_LINES {
        return Err(BadInput::new(format!(
            "--count {}: a book holds 1 to {MAX_LINES} lines",
            args.count
        ))
        .into());
    }
    check_file_out(&args.out, "the openings file")?;
    if args.out.exists() {
        return Err(BadInput::new(format!(
            "--out \"{}\" exists; choose another file or remove it (a book is never \
             replaced)",
            args.out.display()
        ))
        .into());
    }
    let check = OpeningCheck::from_args(
        &game,
        args.opening_check.as_deref(),
        args.opening_window,
        true,
    )?;
    let mut text = String::new();
    let mut refused = None;
    dispatch(
        &game,
        WriteBook {
            args,
            check: check.as_ref(),
            command,
            text: &mut text,
            refused: &mut refused,
        },
    )?;
    write_file_whole(&args.out, &text)?;
    writeln!(
        out,
        "wrote {} openings of {} decisions of {game} into {}",
        args.count,
        args.plies,
        args.out.display()
    )?;
    if let Some((refused, judged, check)) = refused {
        writeln!(
            out,
            "the check ({check}) refused {refused} of the {judged} different openings it judged"
        )?;
    }
    Ok(())
}

/// Draws and judges the book's lines for one game.
struct WriteBook<'a> {
    args: &'a OpeningsArgs,
    check: Option<&'a OpeningCheck>,
    command: &'a str,
    text: &'a mut String,
    /// On a game without chance: openings the check refused, openings it judged, and
    /// the check in words.
    refused: &'a mut Option<(u64, u64, String)>,
}

impl GameCommand for WriteBook<'_> {
    fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> Result<()> {
        let k = self.args.plies;
        if let Some(at) = game.pie_swap_decision().filter(|&at| k > at) {
            return Err(BadInput::new(format!(
                "--plies {k}: {spec} has a pie rule, whose swap decision (decision {}) \
                 belongs to the players and cannot be in a book line; at most {at} here",
                at + 1
            ))
            .into());
        }
        if let Some(check) = self.check {
            check.ready(&game, spec)?;
        }
        let chance = has_chance::<G::State>();
        let seed = self.args.seed;
        let text = &mut *self.text;
        text.push_str(&format!("# {}\n", self.command));
        text.push_str(&format!(
            "# {spec}: {} lines of {k} random decisions{}, seed {seed}\n",
            self.args.count,
            if chance {
                " (chance outcomes written out)"
            } else {
                ", no two alike"
            }
        ));
        text.push_str(&match self.check {
            Some(check) => format!(
                "# kept only if {} finds no forced result and values the position within {} \
                 of even; after each line, its value from the side to move's view\n",
                check.checker, check.window
            ),
            None => "# not checked (--opening-check none)\n".to_string(),
        });
        // Every opening judged, and the value of the last one kept.
        let judged = Cell::new(0u64);
        let kept_value = Cell::new(None);
        let mut keep = |state: &G::State| match self.check {
            Some(check) => {
                judged.set(judged.get() + 1);
                let verdict = check.judge::<G>(state)?;
                kept_value.set(Some(verdict.value));
                Ok(verdict.sound)
            }
            None => Ok(true),
        };
        let draws = DistinctDraws::new(k);
        for deal in 0..self.args.count {
            let moves = if chance {
                let mut moves = Vec::new();
                let state = Opening::Random(k).play(
                    &game,
                    seed,
                    deal,
                    &mut moves,
                    &mut |_, _| unreachable!("a book line stops before the swap decision"),
                    self.check,
                )?;
                if let Some(check) = self.check {
                    // The check is a function of the position: the value it kept.
                    kept_value.set(Some(check.judge::<G>(&state)?.value));
                }
                moves
            } else {
                // As a study deals them (`Opening::Distinct`), counting the refused.
                draws.line(&game, k, seed, deal, &mut keep)?
            };
            text.push_str(&moves.join(" "));
            if let Some(value) = kept_value.get() {
                text.push_str(&format!("  # {value}"));
            }
            text.push('\n');
        }
        if let Some(check) = self.check.filter(|_| !chance) {
            let judged = judged.get();
            *self.refused = Some((judged - self.args.count, judged, check.describe()));
        }
        Ok(())
    }
}
