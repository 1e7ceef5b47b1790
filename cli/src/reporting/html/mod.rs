//! The HTML report: one self-contained page per run, and one per balance study, that
//! opens from disk with no network.
//!
//! A run's page ([`RunPage`], written by `agon report DIR --html` and by every finished
//! tournament and `agon run`) shows the run's identity, a replayer, the list of its
//! games, the summary tables and the charts. Its boards are drawn by the one SVG
//! renderer ([`crate::reporting::picture::svg`]) and embedded as strings ([`encode`]); the page's
//! script only assembles them. A study's page ([`study`]) shows its verdicts and charts
//! and links to the page of each of its runs.
//!
//! Files: [`json`] (the data's text), [`encode`] (strings numbered once, plies as
//! deltas), [`page`] (the document, tables, charts), [`run_page`] and [`study`] (the two
//! pages), `replayer.js` and `page.css` (embedded in every page).

mod encode;
mod json;
mod page;
mod run_page;
mod study;

use std::path::Path;

use anyhow::Result;

use crate::games::{dispatch, GameCommand, PlayableGame};
use crate::spec::GameSpec;

pub use run_page::RunPage;
pub use study::StudyPage;

/// The page's file name, in the folder of the run's (or study's) other outputs.
pub const REPORT_HTML: &str = "report.html";

/// Writes `page` into `target` as [`REPORT_HTML`], the run's games being of the game
/// `spec` names (for callers that do not hold the game itself).
pub fn write_run_page(spec: &GameSpec, page: &RunPage<'_>, target: &Path) -> Result<()> {
    struct Write<'a> {
        page: &'a RunPage<'a>,
        target: &'a Path,
    }
    impl GameCommand for Write<'_> {
        fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
            self.page.write(&game, self.target)
        }
    }
    dispatch(spec, Write { page, target })
}
