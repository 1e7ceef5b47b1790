//! The printed report: [`table`] renders the statistics of a run as titled, aligned
//! tables; [`grid`] lays out any table (`agon report`'s speed table uses it too).

use super::format_length;
use super::model::{Interval, ScopeStats, SeatResults, Summary, LENGTH_UNITS};
use crate::reporting::stats::sprt::Decision;
use crate::reporting::stats::{format_elo, format_p_value, format_rate, EloEstimate, Wdl};

/// Lays out `cells` (the first row the header) in columns two spaces apart; the first
/// `left` columns are left-aligned, the others (numbers) right-aligned.
pub(crate) fn grid(cells: &[Vec<String>], left: usize) -> String {
    let columns = cells.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            cells
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in cells {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c < left {
                    format!("{cell:<w$}", w = widths[c])
                } else {
                    format!("{cell:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A header row of `names`.
pub(crate) fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|h| h.to_string()).collect()
}

/// `value [low, high]`, or `-` when undefined.
fn interval_cell(value: Option<(String, String, String)>) -> String {
    match value {
        Some((v, low, high)) => format!("{v} [{low}, {high}]"),
        None => "-".into(),
    }
}

/// A proportion and its interval, or `-` when undefined.
fn rate_cell(interval: Option<Interval>) -> String {
    interval_cell(interval.map(|i| {
        (
            format_rate(i.value),
            format_rate(i.low),
            format_rate(i.high),
        )
    }))
}

fn elo_cell(e: Option<EloEstimate>) -> String {
    interval_cell(e.map(|e| (format_elo(e.elo), format_elo(e.low), format_elo(e.high))))
}

fn wdl_cell(w: &Wdl) -> String {
    format!("{}-{}-{}", w.wins, w.draws, w.losses)
}

fn scope_name(scope: &ScopeStats) -> String {
    match &scope.pairing {
        Some((i, _, _)) => format!("pairing {i}"),
        None => "all games".into(),
    }
}

/// One section of the report: a title line, a table (the header row first; none for a
/// section that is one line) and lines after it (notes on the table), each line ending
/// in a line break.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Section {
    /// The section's first line, without its line break.
    pub(crate) title: String,
    /// The table's rows, the header first; empty for a section of one line.
    pub(crate) cells: Vec<Vec<String>>,
    /// How many of the first columns are text (left-aligned); the others are numbers.
    pub(crate) left: usize,
    /// Lines under the table.
    pub(crate) notes: String,
}

impl Section {
    /// A section of a title, a table and notes.
    fn new(
        title: impl Into<String>,
        cells: Vec<Vec<String>>,
        left: usize,
        notes: impl Into<String>,
    ) -> Self {
        Section {
            title: title.into(),
            cells,
            left,
            notes: notes.into(),
        }
    }

    /// The section as printed: the title, the aligned table ([`grid`]), the notes.
    fn text(&self) -> String {
        format!(
            "{}\n{}{}",
            self.title,
            grid(&self.cells, self.left),
            self.notes
        )
    }
}

/// The summary as a text report: [`sections`], each a titled, aligned table, one blank
/// line apart.
pub fn table(summary: &Summary) -> String {
    let texts: Vec<String> = sections(summary).iter().map(Section::text).collect();
    texts.join("\n")
}

/// The sections of the report: pairings, the SPRT, ratings, the first-move advantage,
/// game lengths and end reasons. The printed report ([`table`]) and the HTML report lay
/// them out.
pub(crate) fn sections(summary: &Summary) -> Vec<Section> {
    let mut sections = Vec::new();

    // Pair columns only where some pairing has pairs that mean something.
    let pair_columns =
        summary.pairings.is_empty() || summary.pairings.iter().any(|p| !p.self_play());
    let mut names = vec![
        "#",
        "agent A",
        "agent B",
        "games",
        "distinct",
        "W-D-L",
        "score",
        "Elo A-B [95%]",
        "LOS",
    ];
    if pair_columns {
        names.extend(["pairs LL-LD-DD-WD-WW", "Elo by pairs [95%]"]);
    }
    let mut cells = vec![header(&names)];
    let mut notes = String::new();
    for p in &summary.pairings {
        let mut line = vec![
            p.index.to_string(),
            p.agent_a.clone(),
            p.agent_b.clone(),
            p.a.games().to_string(),
            p.distinct.to_string(),
            wdl_cell(&p.a),
            p.a.score().map(format_rate).unwrap_or_else(|| "-".into()),
            elo_cell(p.elo),
            p.los.map(format_rate).unwrap_or_else(|| "-".into()),
        ];
        if p.self_play() {
            notes.push_str(&format!(
                "pairing {}: self-play, so each game stands alone (a pair does not share its \
                 start and luck): pair statistics do not apply\n",
                p.index
            ));
            if pair_columns {
                line.extend([String::new(), String::new()]);
            }
        } else {
            let c = p.pairs.counts;
            line.push(format!("{}-{}-{}-{}-{}", c[0], c[1], c[2], c[3], c[4]));
            line.push(elo_cell(p.elo_pairs));
        }
        cells.push(line);
    }
    sections.push(Section::new(
        format!(
            "pairings (A against B; A is seat 0 in even games; distinct: games with their \
             own move list{})",
            if pair_columns {
                "; DD counts WL pairs too"
            } else {
                ""
            }
        ),
        cells,
        3,
        notes,
    ));

    if let Some(s) = &summary.sprt {
        sections.push(Section::new(
            format!(
            "SPRT elo0 {}, elo1 {}, alpha {}, beta {}: LLR {:.2} after {} pairs (bounds {:.2}, \
             {:.2}): {}",
            s.sprt.elo0,
            s.sprt.elo1,
            s.sprt.alpha,
            s.sprt.beta,
            s.llr,
            summary.pairings.first().map_or(0, |p| p.pairs.pairs()),
            s.sprt.lower_bound(),
            s.sprt.upper_bound(),
            match s.decision {
                Decision::AcceptH0 => "H0 accepted",
                Decision::AcceptH1 => "H1 accepted",
                Decision::Continue => "continue",
            }
            ),
            Vec::new(),
            0,
            "",
        ));
    }

    if let Some(r) = &summary.ratings {
        let mut cells = vec![header(&["agent", "games", "score", "Elo [95%]"])];
        for a in &r.agents {
            cells.push(vec![
                a.label.clone(),
                a.games.to_string(),
                a.score.map(format_rate).unwrap_or_else(|| "-".into()),
                elo_cell(Some(a.elo)),
            ]);
        }
        let anchor = match &r.anchor {
            Some(name) => format!("{name} at 0"),
            None => "mean 0".into(),
        };
        sections.push(Section::new(
            format!(
                "ratings (Bradley-Terry, {anchor}, one virtual draw each against a 0-rated \
                 agent)"
            ),
            cells,
            1,
            "",
        ));
    }

    let mut names = vec![
        "scope",
        "by",
        "W-D-L",
        "win rate [95%]",
        "p (50%)",
        "score [95%]",
    ];
    if summary.pie_rule {
        names.push("swap rate [95%]");
    }
    let mut cells = vec![header(&names)];
    for scope in &summary.scopes {
        let swap = rate_cell(scope.swap_rate);
        let mut line = |by: String, results: &SeatResults, swap: String| {
            let rate = results.win_rate;
            let mut line = vec![
                scope_name(scope),
                by,
                wdl_cell(&results.wdl),
                rate_cell(rate.map(|r| r.rate)),
                rate.map(|r| format_p_value(r.p_value))
                    .unwrap_or_else(|| "-".into()),
                rate_cell(results.score),
            ];
            if summary.pie_rule {
                line.push(swap);
            }
            cells.push(line);
        };
        line("seat 0".into(), &scope.seat0, String::new());
        for (side, w) in &scope.first_side {
            line(format!("side {side}"), w, swap.clone());
        }
    }
    sections.push(Section::new(
        "first-move advantage (seat 0 moves first; side: the side that moved first)",
        cells,
        2,
        "win rate: wins over decisive games; p (50%): the chance of a win rate at least this \
         far from 50% if both were equally likely to win (exact binomial test, two-sided)\n",
    ));

    let mut cells = vec![header(&[
        "scope", "in", "games", "mean", "sd", "min", "q1", "median", "q3", "max",
    ])];
    for scope in &summary.scopes {
        // Plies and turns; decisions are in summary.csv.
        for (unit, l) in LENGTH_UNITS
            .iter()
            .zip(scope.lengths.iter().flatten())
            .take(2)
        {
            cells.push(vec![
                scope_name(scope),
                unit.to_string(),
                l.games.to_string(),
                format_length(l.mean),
                l.sd.map(format_length).unwrap_or_else(|| "-".into()),
                l.min.to_string(),
                format_length(l.q1),
                format_length(l.median),
                format_length(l.q3),
                l.max.to_string(),
            ]);
        }
    }
    sections.push(Section::new(
        "game length in plies and in turns (as the game's rules count them)",
        cells,
        2,
        "",
    ));

    let mut cells = vec![header(&[
        "scope",
        "end reason",
        "seat 0 won",
        "seat 1 won",
        "drawn",
    ])];
    for scope in &summary.scopes {
        for (reason, counts) in &scope.ends {
            let mut row = vec![scope_name(scope), reason.clone()];
            row.extend(counts.iter().map(u64::to_string));
            cells.push(row);
        }
    }
    sections.push(Section::new("end reasons", cells, 2, ""));
    sections
}
