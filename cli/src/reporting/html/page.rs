//! The parts every page is assembled from: the document around a body, tables, the
//! charts of a folder inlined, and text made safe for HTML.

use std::fmt::Write;
use std::path::Path;

use anyhow::{Context, Result};

use crate::reporting::picture::svg::escape;
use crate::reporting::summary::Section;

/// The style sheet of every page.
const CSS: &str = include_str!("page.css");

/// A whole page: `title`, the style sheet, `body`, then each of `scripts` as a
/// `<script>` element (an `(id, type)` given for a data block, none for code).
pub fn document(title: &str, body: &str, scripts: &[(Option<(&str, &str)>, &str)]) -> String {
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n{body}",
        escape(title)
    );
    for (data, text) in scripts {
        match data {
            Some((id, kind)) => {
                let _ = write!(page, "<script id=\"{id}\" type=\"{kind}\">");
            }
            None => page.push_str("<script>\n"),
        }
        page.push_str(text);
        page.push_str("</script>\n");
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// A report section ([`Section`]) as a heading, a table (text columns left, numbers
/// right) and its notes.
pub fn section(section: &Section) -> String {
    let mut html = format!("<h3>{}</h3>\n", escape(&section.title));
    if let Some((head, rows)) = section.cells.split_first() {
        html.push_str("<table class=\"summary\">\n<thead><tr>");
        for name in head {
            let _ = write!(html, "<th>{}</th>", escape(name));
        }
        html.push_str("</tr></thead>\n<tbody>\n");
        for row in rows {
            html.push_str("<tr>");
            for (c, cell) in row.iter().enumerate() {
                let class = if c < section.left { "" } else { " class=\"n\"" };
                let _ = write!(html, "<td{class}>{}</td>", escape(cell));
            }
            html.push_str("</tr>\n");
        }
        html.push_str("</tbody>\n</table>\n");
    }
    for line in section.notes.lines() {
        let _ = writeln!(html, "<p class=\"note\">{}</p>", escape(line));
    }
    html
}

/// A table of names and values (a run's identity).
pub fn facts(rows: &[(&str, String)]) -> String {
    let mut html = String::from("<table class=\"facts\">\n");
    for (name, value) in rows {
        let _ = writeln!(
            html,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape(name),
            escape(value)
        );
    }
    html.push_str("</table>\n");
    html
}

/// The SVG charts among `names` that `dir` holds, each inlined in a `<figure>`, in
/// order; a chart not there is left out.
pub fn charts(dir: &Path, names: &[&str]) -> Result<String> {
    let mut html = String::new();
    for name in names {
        let path = dir.join(name);
        if !path.is_file() {
            continue;
        }
        let svg = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        // Inline SVG starts at its root element (no XML declaration inside HTML).
        let svg = svg.find("<svg").map_or(svg.as_str(), |at| &svg[at..]);
        let _ = writeln!(
            html,
            "<figure class=\"chart\">{}<figcaption>{}</figcaption></figure>",
            svg.trim_end(),
            escape(name)
        );
    }
    Ok(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_is_a_table_with_numbers_to_the_right_and_its_notes() {
        let s = Section {
            title: "ratings <x>".into(),
            cells: vec![
                vec!["agent".into(), "games".into()],
                vec!["ab&c".into(), "4".into()],
            ],
            left: 1,
            notes: "one\ntwo\n".into(),
        };
        assert_eq!(
            section(&s),
            "<h3>ratings &lt;x&gt;</h3>\n<table class=\"summary\">\n<thead><tr><th>agent</th>\
             <th>games</th></tr></thead>\n<tbody>\n<tr><td>ab&amp;c</td><td class=\"n\">4</td>\
             </tr>\n</tbody>\n</table>\n<p class=\"note\">one</p>\n<p class=\"note\">two</p>\n"
        );
    }

    #[test]
    fn charts_are_inlined_without_their_xml_declaration() {
        let dir = std::env::temp_dir().join(format!("agon-html-charts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("a.svg"),
            "<?xml version=\"1.0\"?>\n<svg x=\"1\"></svg>\n",
        )
        .unwrap();
        let html = charts(&dir, &["a.svg", "missing.svg"]).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            html,
            "<figure class=\"chart\"><svg x=\"1\"></svg><figcaption>a.svg</figcaption></figure>\n"
        );
    }
}
