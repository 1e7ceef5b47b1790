//! The page of a balance study: its verdicts, its charts and a link to the page of each
//! of its runs, written as `report.html` into the study's folder.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::page::{charts, document};
use super::REPORT_HTML;
use crate::record::write_file_whole;
use crate::reporting::picture::svg::escape;

/// What a study's page shows.
pub struct StudyPage<'a> {
    /// The study's base game.
    pub game: &'a str,
    /// Each arm's printed table and verdict, as `agon balance` prints them.
    pub arms: Vec<String>,
    /// The study's chart files, in its folder.
    pub charts: &'a [&'a str],
    /// Each run: what it is, and its folder relative to the study's.
    pub runs: Vec<(String, PathBuf)>,
}

impl StudyPage<'_> {
    /// Writes the page into the study's folder `dir` as [`REPORT_HTML`]. A run whose own
    /// page is missing (a run from an older build) is listed without a link.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let html = self.html(dir)?;
        let path = dir.join(REPORT_HTML);
        write_file_whole(&path, &html)
    }

    fn html(&self, dir: &Path) -> Result<String> {
        let title = format!("Balance study of {}", self.game);
        let mut body = format!(
            "<header><h1>{}</h1>\n<nav><a href=\"#verdicts\">Verdicts</a> · <a \
             href=\"#charts\">Charts</a> · <a href=\"#runs\">Runs</a></nav></header>\n\
             <section id=\"verdicts\"><h2>Verdicts</h2>\n",
            escape(&title)
        );
        // The tables keep their columns (scrolling sideways when wide); each verdict is
        // a paragraph that wraps.
        for arm in &self.arms {
            let (verdicts, tables): (Vec<&str>, Vec<&str>) = arm
                .trim_end()
                .lines()
                .partition(|line| line.starts_with("verdict:"));
            let tables = tables.join("\n");
            let _ = writeln!(
                body,
                "<pre class=\"table\">{}</pre>",
                escape(tables.trim_end())
            );
            for verdict in verdicts {
                let _ = writeln!(body, "<p class=\"verdict\">{}</p>", escape(verdict));
            }
        }
        let _ = write!(
            body,
            "</section>\n<section id=\"charts\"><h2>Charts</h2>\n{}</section>\n\
             <section id=\"runs\"><h2>Runs</h2>\n<p class=\"note\">Each run is an ordinary run \
             folder with its own page: its games, replayer and summary.</p>\n<ul>\n",
            charts(dir, self.charts)?
        );
        for (what, folder) in &self.runs {
            let page = folder.join(REPORT_HTML);
            let shown = escape(&folder.display().to_string());
            if dir.join(&page).is_file() {
                let href = page
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                let _ = writeln!(
                    body,
                    "<li><a href=\"{}\">{}</a>: {shown}</li>",
                    escape(&href),
                    escape(what)
                );
            } else {
                let _ = writeln!(body, "<li>{}: {shown} (no page)</li>", escape(what));
            }
        }
        body.push_str("</ul>\n</section>\n");
        Ok(document(&title, &body, &[]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_with_a_page_are_linked_and_the_others_named() {
        let dir = std::env::temp_dir().join(format!("agon-study-page-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("base/L2-self")).unwrap();
        std::fs::write(dir.join("base/L2-self").join(REPORT_HTML), "").unwrap();
        let page = StudyPage {
            game: "pig",
            arms: vec!["pig: levels\nverdict: <fair>\n".into()],
            charts: &[],
            runs: vec![
                ("L2 self-play".into(), PathBuf::from("base/L2-self")),
                ("L3 against L2".into(), PathBuf::from("base/L3-vs-L2")),
            ],
        };
        let html = page.html(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(html.contains(
            "<li><a href=\"base/L2-self/report.html\">L2 self-play</a>: base/L2-self</li>"
        ));
        assert!(html.contains("<li>L3 against L2: base/L3-vs-L2 (no page)</li>"));
        assert!(html.contains("<pre class=\"table\">pig: levels</pre>\n<p class=\"verdict\">verdict: &lt;fair&gt;</p>"));
        assert!(!html.contains("<script"));
    }
}
