//! `agon show`: one position drawn with coordinates and a legend, as text on standard
//! output or as an SVG picture (`--svg FILE`) for papers and docs. The last move of
//! `--moves` is marked.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;

use crate::games::{GameCommand, PlayableGame};
use agon_engine::picture::text;

use crate::reporting::picture::{replay, svg};
use crate::spec::GameSpec;

/// `agon show` for one game.
pub struct ShowCommand<'a> {
    /// Moves from the start, in notation.
    pub moves: String,
    /// Where to write the SVG; `None` draws text on `out`.
    pub svg: Option<PathBuf>,
    /// Standard output.
    pub out: &'a mut dyn Write,
}

impl GameCommand for ShowCommand<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> anyhow::Result<()> {
        let steps = replay(&game.initial_state(), &self.moves)
            .map_err(|e| crate::bad_input::BadInput::new(format!("--moves: {e}")))?;
        let last = &steps[steps.len() - 1];
        match self.svg {
            Some(path) => {
                std::fs::write(&path, svg::document(&last.picture, &last.changed))
                    .with_context(|| format!("cannot write {}", path.display()))?;
                writeln!(self.out, "wrote {}", path.display())?;
            }
            None => write!(
                self.out,
                "{}{}",
                text::draw(&last.picture, &last.changed),
                text::legend(&last.picture)
            )?,
        }
        Ok(())
    }
}
