//! The page of one run: who played what, the replayer, the list of games, the summary
//! tables and the charts, written as `report.html` into the folder of the run's other
//! outputs.
//!
//! The page embeds at most a cap of games ([`embedded`]); each is replayed here, its
//! pictures drawn by the SVG renderer (both layers, cells and overlay, at every ply) and
//! stored as [`encode`](super::encode) says. The page's script ([`REPLAYER_JS`]) only
//! assembles those strings: it never draws a game, so each ply shows exactly what `agon
//! show --svg` draws of that position. The board in the page's markup, drawn from the
//! initial position, is what shows before the script has opened a game.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use agon_engine::picture::Depict;
use agon_engine::Game;
use anyhow::{Context, Result};

use super::encode::{Delta, Encoder, Ply};
use super::json;
use super::page::{charts, document, facts, section};
use super::REPORT_HTML;
use crate::record::write_file_whole;
use crate::record::{GameRow, Result0, RunMeta};
use crate::reporting::picture::layout::Layout;
use crate::reporting::picture::replay;
use crate::reporting::picture::svg::{board, escape, legend};
use crate::reporting::plots::{LENGTHS_SVG, RATINGS_SVG, SEAT0_SVG};
use crate::reporting::summary::{sections, Summary};
use crate::shell_quote;

/// The replayer and the list of games.
const REPLAYER_JS: &str = include_str!("replayer.js");

/// Font of every drawing, as the standalone SVG documents use.
const FONT: &str = "DejaVu Sans, Arial, sans-serif";

/// What a run's page shows.
pub struct RunPage<'a> {
    /// The run's meta.csv.
    pub meta: &'a RunMeta,
    /// Its games, in order.
    pub rows: &'a [GameRow],
    /// Their summary.
    pub summary: &'a Summary,
    /// The run folder as the user named it, for the `agon replay` command the page
    /// gives for games it does not embed (quoted for a shell, [`shell_quote`]).
    pub run_dir: &'a Path,
    /// The most games to embed (`--html-games`).
    pub cap: usize,
}

impl RunPage<'_> {
    /// Writes the page into `target` (the folder holding the run's charts) as
    /// [`REPORT_HTML`], replaying the embedded games of `game`.
    pub fn write<G: Game<State: Depict>>(&self, game: &G, target: &Path) -> Result<()> {
        let html = self.html(game, target)?;
        let path = target.join(REPORT_HTML);
        write_file_whole(&path, &html)
    }

    /// The page's text.
    fn html<G: Game<State: Depict>>(&self, game: &G, charts_dir: &Path) -> Result<String> {
        let start = game.initial_state();
        let picture = start.picture();
        let layout = Layout::of(&picture.cells);
        let mut encoder = Encoder::default();
        let start_board = encoder.board(&picture, &layout);
        let mut replays = String::from("{");
        for (n, &i) in embedded(self.rows, self.cap).iter().enumerate() {
            let row = &self.rows[i];
            let steps = replay(&start, &row.moves)
                .with_context(|| format!("game {} of the run does not replay", row.game))?;
            let plies = encoder.game(&steps, &layout, &start_board);
            if n > 0 {
                replays.push(',');
            }
            let _ = write!(replays, "\"{}\":{{\"o\":{},\"m\":", row.game, row.opening);
            json::strings(&mut replays, steps[1..].iter().map(|s| s.notation.as_str()));
            replays.push(',');
            encode_plies(&mut replays, &plies);
            replays.push('}');
        }
        replays.push('}');

        // The command prefix, the folder quoted as a shell needs it: the page shows it
        // for copying.
        let mut data = String::from("{\"replay\":");
        let folder = shell_quote(&self.run_dir.display().to_string());
        json::string(&mut data, &format!("agon replay {folder}"));
        let _ = write!(data, ",\"cap\":{},\"games\":", self.cap);
        self.game_rows(&mut data);
        data.push_str(",\"cells\":");
        json::numbers(&mut data, &start_board);
        data.push_str(",\"el\":");
        json::strings(
            &mut data,
            encoder.elements.strings().iter().map(String::as_str),
        );
        data.push_str(",\"tx\":");
        json::strings(
            &mut data,
            encoder.texts.strings().iter().map(String::as_str),
        );
        data.push_str(",\"replays\":");
        data.push_str(&replays);
        data.push_str("}\n");

        let body = self.body(&picture, &layout, charts_dir)?;
        Ok(document(
            &format!("{}: {} games", self.meta.game, self.rows.len()),
            &body,
            &[
                (Some(("data", "application/json")), &data),
                (None, REPLAYER_JS),
            ],
        ))
    }

    /// Every game as `[index, pairing, agent 0, agent 1, result, winner, end reason,
    /// plies]`, the result `"1"`, `"0.5"` or `"0"` for seat 0 and the winner -1 for none.
    fn game_rows(&self, out: &mut String) {
        out.push('[');
        for (i, row) in self.rows.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "[{},{},", row.game, row.pairing);
            json::string(out, &row.agent0);
            out.push(',');
            json::string(out, &row.agent1);
            let result = match row.result0 {
                Result0::Win => "1",
                Result0::Draw => "0.5",
                Result0::Loss => "0",
            };
            let winner = row.winner.map_or(-1, i32::from);
            let _ = write!(out, ",\"{result}\",{winner},");
            json::string(out, &row.end_reason);
            let _ = write!(out, ",{}]", row.plies);
        }
        out.push(']');
    }

    /// The page's body: identity, replayer, games, summary, charts.
    fn body(
        &self,
        picture: &agon_engine::picture::Picture,
        layout: &Layout,
        charts_dir: &Path,
    ) -> Result<String> {
        let meta = self.meta;
        let mut identity = vec![
            ("game", meta.game.clone()),
            ("agents", meta.agents.join("  ·  ")),
            (
                "games",
                format!(
                    "{} ({} per pairing)",
                    self.rows.len(),
                    meta.games_per_pairing
                ),
            ),
            ("seed", meta.seed.to_string()),
        ];
        if meta.random_opening > 0 {
            identity.push(("random opening", format!("{} plies", meta.random_opening)));
        }
        if !meta.openings.is_empty() {
            identity.push(("openings", meta.openings.clone()));
        }
        if let Some(shard) = meta.shard {
            identity.push(("shard", shard.to_string()));
        }
        identity.push(("command", meta.command.clone()));
        identity.push(("toolkit", format!("{} ({})", meta.toolkit, meta.commit)));
        // Rows of more than one build (a resume by another): each named.
        let builds = meta.builds();
        if builds.len() > 1 {
            identity.push(("builds", builds.join(", ")));
        }

        let mut cells = String::new();
        for element in board(picture, layout) {
            cells.push_str(&element);
        }
        let (keys, legend_width, legend_height) = legend(&picture.legend);
        let mut summary = String::new();
        for s in sections(self.summary) {
            summary.push_str(&section(&s));
        }
        let charts = charts(charts_dir, &[RATINGS_SVG, SEAT0_SVG, LENGTHS_SVG])?;
        let (w, h) = (layout.width.ceil(), layout.height.ceil());
        // The controls need some room under a small board.
        let stage = w.max(420.0);
        let (lw, lh) = (legend_width.ceil(), legend_height.ceil());
        Ok(format!(
            r##"<header><h1>{title}</h1>
<nav><a href="#watch">Replayer</a> · <a href="#games">Games</a> · <a href="#summary">Summary</a> · <a href="#charts">Charts</a> · <a href="#run">Run</a></nav></header>
<section id="watch"><h2>Replayer</h2>
<div id="notice" class="notice" hidden></div>
<div id="replayer">
<div id="stage" style="width:{stage}px">
<div id="heading"></div>
<svg id="board" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}"><g id="cells">{cells}</g><g id="overlay"></g></svg>
<div id="told"></div>
<div id="notes"></div>
<div id="controls"><button id="start" title="start (Home)">|&#x25C0;</button><button id="back" title="back (Left)">&#x25C0;</button><span id="counter"></span><button id="forward" title="forward (Right)">&#x25B6;</button><button id="end" title="end (End)">&#x25B6;|</button><input id="slider" type="range" min="0" max="0" value="0" aria-label="ply"></div>
<p class="hint">Keys: Left and Right step, Home and End jump. Link a position with <code>#game=N&amp;ply=K</code>.</p>
</div>
<div id="legendbox"><h3>Legend</h3><svg id="legend" xmlns="http://www.w3.org/2000/svg" width="{lw}" height="{lh}" viewBox="0 0 {lw} {lh}" font-family="{FONT}">{keys}</svg></div>
<div id="movebox"><h3>Moves</h3><ol id="moves"></ol></div>
</div>
</section>
<section id="games"><h2>Games</h2>
<p id="embedded" class="note"></p>
<div id="filters"></div>
<table id="game-list"><thead></thead><tbody></tbody></table>
</section>
<section id="summary"><h2>Summary</h2>
{summary}</section>
<section id="charts"><h2>Charts</h2>
{charts}</section>
<section id="run"><h2>Run</h2>
{identity}</section>
"##,
            title = escape(&format!("{}: {} games", meta.game, self.rows.len())),
            keys = keys.concat(),
            identity = facts(&identity),
        ))
    }
}

/// Appends `"p":` the plies as `[[removed...],[position,id,...],[notes...],told]` each
/// (the overlay's delta, the notes and the told line, followed by the aftermath's line
/// where the ply set something off), then `"c":` the board layer's deltas of the few
/// plies that change a cell, as `[ply,[removed...],[position,id,...]]` each: most plies
/// change none, and so store nothing for it.
fn encode_plies(out: &mut String, plies: &[Ply]) {
    let delta = |out: &mut String, delta: &Delta| {
        json::numbers(out, &delta.removed);
        out.push(',');
        json::numbers(out, delta.added.iter().flat_map(|&(at, id)| [at, id]));
    };
    out.push_str("\"p\":[");
    for (i, ply) in plies.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        delta(out, &ply.overlay);
        out.push(',');
        json::numbers(out, &ply.notes);
        let _ = write!(out, ",{}", ply.told);
        if let Some(aftermath) = ply.aftermath {
            let _ = write!(out, ",{aftermath}");
        }
        out.push(']');
    }
    out.push_str("],\"c\":[");
    let changing = plies
        .iter()
        .enumerate()
        .filter(|(_, p)| p.board != Delta::default());
    for (n, (i, ply)) in changing.enumerate() {
        if n > 0 {
            out.push(',');
        }
        let _ = write!(out, "[{i},");
        delta(out, &ply.board);
        out.push(']');
    }
    out.push(']');
}

/// The positions in `rows` of the games a page embeds, at most `cap`, in order: each
/// pairing's games from its first, two at a time (a seat-swapped pair together), one
/// pairing after the other, round after round, so every pairing is seen.
pub fn embedded(rows: &[GameRow], cap: usize) -> Vec<usize> {
    let mut by_pairing: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        by_pairing.entry(row.pairing).or_default().push(i);
    }
    let mut chosen = Vec::new();
    for round in 0.. {
        let before = chosen.len();
        for games in by_pairing.values() {
            for &i in games.iter().skip(2 * round).take(2) {
                if chosen.len() < cap {
                    chosen.push(i);
                }
            }
        }
        if chosen.len() == before || chosen.len() == cap {
            break;
        }
    }
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::Connect4;
    use agon_engine::games::hexstrat::Hexstrat;

    use super::*;

    fn rows(pairings: &[(u64, u64)]) -> Vec<GameRow> {
        let mut rows = Vec::new();
        for &(pairing, games) in pairings {
            for _ in 0..games {
                let mut row = GameRow::example(rows.len() as u64, 0, ["x", "y"], Result0::Win, 0);
                row.pairing = pairing;
                rows.push(row);
            }
        }
        rows
    }

    #[test]
    fn the_cap_takes_pairs_from_every_pairing_in_turn() {
        let rows = rows(&[(0, 6), (1, 6), (2, 6)]);
        assert_eq!(embedded(&rows, 0), Vec::<usize>::new());
        assert_eq!(embedded(&rows, 5), [0, 1, 6, 7, 12]);
        assert_eq!(embedded(&rows, 8), [0, 1, 2, 3, 6, 7, 12, 13]);
        assert_eq!(embedded(&rows, 100), (0..18).collect::<Vec<_>>());
        let uneven = super::tests::rows(&[(0, 2), (1, 6)]);
        assert_eq!(embedded(&uneven, 6), [0, 1, 2, 3, 4, 5]);
    }

    fn page(cap: usize) -> String {
        let moves = ["d d e e f f g", "a b a b a b a", "d d d d"];
        let mut rows = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let mut row = GameRow::example(i as u64, 0, ["red", "yellow"], Result0::Win, 7);
            row.moves = (*m).to_string();
            rows.push(row);
        }
        let summary = crate::reporting::summary::summarise(&rows, None, None).unwrap();
        let meta = RunMeta {
            game: "connect4".into(),
            ..RunMeta::example()
        };
        let page = RunPage {
            meta: &meta,
            rows: &rows,
            summary: &summary,
            run_dir: Path::new("results/x"),
            cap,
        };
        page.html(&Connect4, Path::new("/nonexistent")).unwrap()
    }

    #[test]
    fn only_the_plies_that_change_a_cell_store_the_boards_delta() {
        let start = Hexstrat::default().initial_state();
        let steps = replay(&start, "I:c2 forest R:e1 plains").unwrap();
        let layout = Layout::of(&steps[0].picture.cells);
        let mut encoder = Encoder::default();
        let board = encoder.board(&steps[0].picture, &layout);
        let plies = encoder.game(&steps, &layout, &board);
        let mut text = String::new();
        encode_plies(&mut text, &plies);
        // The reveals (plies 2 and 4) repaint their cell and its name, in place.
        let name = |n: &str| 2 * steps[0].picture.cell_named(n).unwrap();
        let (c2, e1) = (name("c2"), name("e1"));
        let cells = text.split_once(",\"c\":").unwrap().1;
        let id = |ply: usize, k: usize| plies[ply].board.added[k].1;
        assert_eq!(
            cells,
            format!(
                "[[2,[{c2},{}],[{c2},{},{},{}]],[4,[{e1},{}],[{e1},{},{},{}]]]",
                c2 + 1,
                id(2, 0),
                c2 + 1,
                id(2, 1),
                e1 + 1,
                id(4, 0),
                e1 + 1,
                id(4, 1)
            )
        );
    }

    #[test]
    fn the_page_embeds_the_capped_games_and_the_board_once() {
        let two = page(2);
        assert_eq!(two.matches("\"o\":").count(), 2);
        assert!(two.contains("\"0\":{\"o\":0,\"m\":[\"d\",\"d\",\"e\",\"e\",\"f\",\"f\",\"g\"]"));
        assert!(!two.contains("\"2\":{"));
        assert_eq!(page(100).matches("\"o\":").count(), 3);
        // Board: 42 cells and their names, once; the legend's two stones.
        assert_eq!(two.matches(">a1</text>").count(), 1);
        assert!(two.contains(">red stone (seat 0)</text>"));
        assert!(two.contains("\"replay\":\"agon replay results/x\",\"cap\":2,"));
        assert!(two.contains("[0,0,\"red\",\"yellow\",\"1\",0,"));
        // No Connect Four ply changes a cell's ground: no board deltas are stored.
        assert_eq!(two.matches(",\"c\":[]}").count(), 2);
        assert!(!two.contains("</script>\n</script>"));
    }
}
