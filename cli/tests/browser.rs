//! The HTML report in a real browser (headless Chromium): for a short run of every game,
//! report.html opens from disk, its board has the game's cells, the keys step through
//! the game and change the board, `#game=1&ply=3` opens that position, a ply past the
//! end shows the final position with a notice, and nothing is logged as an error.
//!
//! At several plies of game 1 (the start, the first plies, the middle, the last two) the
//! page must draw exactly what `agon show --svg` draws of the same position: the same
//! cells with the same fills, the same pieces, highlights and marks, the same notes and
//! the same legend, element by element and attribute by attribute. The page and `agon
//! show` share one renderer, so any difference means the page shows something other
//! than the engine's description of the position (as a board drawn once from the start
//! would, in a game whose tiles are turned face up).
//!
//! A harness page next to the runs (`browser/harness.js`) loads each page in a frame
//! (a copy of report.html with a hook that records errors from its first line on),
//! drives it and writes its verdict into its own DOM, which Chromium prints with
//! `--dump-dom`. Ignored by a plain `cargo test`; `.ci/run` installs Chromium when it is
//! missing and runs it: `cargo test -p agon-cli --test cli -- --ignored browser::`.
//! Without Chromium the test fails (it never skips).

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{agon, ok, scratch, stdout, text, tournament_into};

/// Where Debian's package puts the browser.
const CHROMIUM: &str = "/usr/bin/chromium";

/// Every game, with the number of cells of its default board.
const GAMES: [(&str, usize); 7] = [
    ("connect4", 42),
    ("invector", 56),
    ("pig", 4),
    ("apv", 61),
    ("romgon", 51),
    ("threewill", 64),
    ("hexstrat", 37),
];

/// Records every error of the page from its first script on; put first in its head.
const HOOK: &str = "<script>window.__errors=[];window.addEventListener(\"error\",(e)=>\
window.__errors.push(\"uncaught: \"+e.message));const __error=console.error;\
console.error=function(...a){window.__errors.push(\"console.error: \"+a.join(\" \"));\
__error.apply(console,a);};</script>";

#[test]
#[ignore = "needs Chromium; .ci/run installs it and runs this test"]
fn every_games_report_replays_in_a_browser() {
    assert!(
        Path::new(CHROMIUM).is_file(),
        "Chromium is missing ({CHROMIUM}): install it with `apt-get install -y chromium` \
         (Debian or Ubuntu; .ci/run does this), then run `cargo test -p agon-cli \
         --test cli -- --ignored browser::`"
    );
    let root = scratch("pages");
    let mut runs = Vec::new();
    for (game, cells) in GAMES {
        let dir = root.join(game);
        let extra = ["--games", "2", "--seed", "3", "--threads", "1"];
        ok(&tournament_into(game, &["random"], &dir, &extra));
        let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
        assert!(
            page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n<head>"),
            "{game}"
        );
        let hooked = page.replacen("<head>", &format!("<head>\n{HOOK}"), 1);
        std::fs::write(dir.join("under-test.html"), hooked).unwrap();
        let moves = moves_of_game_1(&dir);
        let shows = shows_of(game, &moves, &dir);
        runs.push(format!(
            "{{name:\"{game}\",page:\"{game}/under-test.html\",cells:{cells},games:2,plies:{},shows:[{}]}}",
            moves.len(),
            shows.join(",")
        ));
    }
    let harness = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n\
         <pre id=\"verdict\">RUNNING</pre>\n\
         <iframe id=\"frame\" width=\"1280\" height=\"900\"></iframe>\n\
         <script>const RUNS = [{}];\n{}</script>\n</body></html>\n",
        runs.join(","),
        include_str!("browser/harness.js")
    );
    let harness_path = root.join("harness.html");
    std::fs::write(&harness_path, harness).unwrap();

    let profile = root.join("profile");
    let output = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
            &format!("--user-data-dir={}", text(&profile)),
            "--virtual-time-budget=30000",
            "--dump-dom",
            &format!("file://{}", text(&harness_path)),
        ])
        .output()
        .expect("Chromium starts");
    let dom = String::from_utf8_lossy(&output.stdout);
    let verdict = dom
        .split_once("<pre id=\"verdict\">")
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .map(|(v, _)| v.replace("&quot;", "\"").replace("&amp;", "&"))
        .unwrap_or_else(|| {
            panic!(
                "no verdict in Chromium's output (exit {:?}); stderr:\n{}",
                output.status.code(),
                String::from_utf8_lossy(&output.stderr)
            )
        });
    assert!(
        verdict.starts_with("PASS"),
        "the report failed in the browser:\n{verdict}"
    );
    for (game, _) in GAMES {
        assert!(verdict.contains(game), "{game} was not checked: {verdict}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// The moves of game 1 of the run in `dir`, from its games.csv, checked against its
/// `plies` column.
fn moves_of_game_1(dir: &Path) -> Vec<String> {
    let games = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut lines = games.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let row: Vec<&str> = lines.nth(1).unwrap().split(',').collect();
    let moves: Vec<String> = row[column("moves")]
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(
        moves.len().to_string(),
        row[column("plies")],
        "{}",
        dir.display()
    );
    moves
}

/// `{ply:K,told:"...",svg:"..."}` for each ply of [`compared_plies`], and the first
/// that sets something off beyond itself (an APV order firing): the ply in words as
/// `agon replay` tells it, which the page must tell too, and `agon show --svg` of the
/// position after the first K moves, which the page must draw exactly.
fn shows_of(game: &str, moves: &[String], dir: &Path) -> Vec<String> {
    let replayed = agon(&["replay", text(dir), "1"]);
    ok(&replayed);
    let told: Vec<String> = stdout(&replayed)
        .lines()
        .filter_map(|l| l.strip_prefix("game 1, ply "))
        .map(|l| l.split_once(": ").expect("a ply told").1.to_string())
        .collect();
    assert_eq!(told.len(), moves.len(), "{game}: a heading per ply");
    let mut plies = compared_plies(moves.len());
    let set_off = told.iter().position(|t| t.contains("; ")).map(|i| i + 1);
    if game == "apv" {
        assert!(set_off.is_some(), "no APV order fired in the game compared");
    }
    plies.extend(set_off);
    plies.sort_unstable();
    plies.dedup();
    let mut shows = Vec::new();
    for &ply in &plies {
        let file = dir.join(format!("show-{ply}.svg"));
        let line = moves[..ply].join(" ");
        let shown = agon(&[
            "show",
            "--game",
            game,
            "--moves",
            &line,
            "--svg",
            text(&file),
        ]);
        ok(&shown);
        assert_eq!(stdout(&shown), format!("wrote {}\n", text(&file)));
        let svg = std::fs::read_to_string(&file).unwrap();
        let words = if ply == 0 {
            "The start.".to_string()
        } else {
            format!("Ply {ply}: {}", told[ply - 1])
        };
        shows.push(format!(
            "{{ply:{ply},told:{},svg:{}}}",
            js_string(&words),
            js_string(&svg)
        ));
    }
    // The check must meet what a board drawn once from the start would hide: by its
    // last compared ply, a Hexstrat game has turned tiles face up (a cell filled with a
    // terrain's colour, not only the legend's swatches).
    if game == "hexstrat" {
        let last = std::fs::read_to_string(dir.join(format!("show-{}.svg", moves.len()))).unwrap();
        let terrains = ["#8cc084", "#4f8a4a", "#b68a5c"].map(|c| format!("fill=\"{c}\""));
        assert!(
            last.lines()
                .any(|l| l.starts_with("<polygon") && terrains.iter().any(|t| l.contains(t))),
            "the last Hexstrat position compared has no face-up tile"
        );
    }
    shows
}

/// The plies of an `n`-ply game the page is compared at: the start, the first two, the
/// middle and the last two, each once.
fn compared_plies(n: usize) -> Vec<usize> {
    let mut plies = vec![0, 1.min(n), 2.min(n), n / 2, n.saturating_sub(1), n];
    plies.sort_unstable();
    plies.dedup();
    plies
}

/// `text` as a JavaScript string literal that is safe inside a `<script>` element.
fn js_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '<' => out.push_str("\\u003c"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn the_compared_plies_are_the_start_the_first_the_middle_and_the_last() {
    assert_eq!(compared_plies(0), [0]);
    assert_eq!(compared_plies(1), [0, 1]);
    assert_eq!(compared_plies(3), [0, 1, 2, 3]);
    assert_eq!(compared_plies(53), [0, 1, 2, 26, 52, 53]);
    assert_eq!(js_string("a\"b\\\n</g>"), r#""a\"b\\\n\u003c/g>""#);
}
