//! The HTML report: one self-contained page per run, and one per balance study, that
//! opens from disk with no network.
//!
//! A run's page ([`RunPage`], written by `agon report DIR --html` and by every finished
//! tournament and `agon run`) shows the run's identity, a replayer, the list of its
//! games, the summary tables and the charts. Its boards are drawn by the one SVG
//! renderer ([`crate::picture::svg`]) and embedded as strings ([`encode`]); the page's
//! script only assembles them. A study's page ([`study`]) shows its verdicts and charts
//! and links to the page of each of its runs.
//!
//! Files: [`json`] (the data's text), [`encode`] (strings numbered once, plies as
//! deltas), [`page`] (the document, tables, charts), [`run_page`] and [`study`] (the two
//! pages), `replayer.js` and `page.css` (embedded in every page).

// Wired into `agon report`, tournaments and `agon balance` once every game depicts.
#![allow(dead_code, unused_imports)]

mod encode;
mod json;
mod page;
mod run_page;
mod study;

pub use run_page::RunPage;
pub use study::StudyPage;

/// The page's file name, in the folder of the run's (or study's) other outputs.
pub const REPORT_HTML: &str = "report.html";

/// The games a run's page embeds unless `--html-games` says otherwise: a 400-game run's
/// page stays a few megabytes.
pub const DEFAULT_HTML_GAMES: usize = 100;
