//! The project's documents stay true and self-contained: they link to nothing outside
//! the repository, the summary rows the experiments' README points to exist, the chart
//! descriptions match what is drawn, and the balance tables are the studies' own.

use std::path::{Path, PathBuf};

use crate::common;
use common::{agon, scratch, stderr, text};

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Every Markdown, Rust and TOML file of the workspace outside build output.
fn documents(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" {
                documents(&path, found);
            }
        } else if [".md", ".rs", ".toml"].iter().any(|e| name.ends_with(e)) {
            found.push(path);
        }
    }
}

/// The targets of the Markdown links in `body`: what stands between `](` and the next
/// `)`.
fn markdown_links(body: &str) -> Vec<&str> {
    body.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &body[at + 2..];
            rest.find(')').map(|end| &rest[..end])
        })
        .collect()
}

/// The relative paths in `line` that climb out of their folder: each run of characters
/// that starts with `../` and continues with what a path may hold.
fn climbing_paths(line: &str) -> Vec<&str> {
    line.match_indices("../")
        .filter(|(at, _)| !line[..*at].ends_with('.') && !line[..*at].ends_with('/'))
        .map(|(at, _)| {
            let rest = &line[at..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || "./_-".contains(c)))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

/// `path` joined to `dir` with `.` and `..` resolved lexically (the path need not exist).
fn resolve(dir: &Path, path: &str) -> PathBuf {
    let mut out = dir.to_path_buf();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            name => out.push(name),
        }
    }
    out
}

/// A user has only the repository: no document links to anything outside it. Every
/// Markdown link is relative and names a file or folder that exists in the repository,
/// and no relative path in any document, source or manifest climbs out of the
/// repository's root.
#[test]
fn docs_link_to_nothing_outside_the_repository() {
    let root = root();
    let mut files = Vec::new();
    documents(&root, &mut files);
    assert!(files.len() > 50, "{files:?}");
    let mut outside = Vec::new();
    for file in &files {
        let body = std::fs::read_to_string(file).unwrap();
        let dir = file.parent().unwrap();
        if file.extension().is_some_and(|e| e == "md") {
            for link in markdown_links(&body) {
                let target = link.split('#').next().unwrap();
                if target.is_empty() {
                    continue;
                }
                let resolved = resolve(dir, target);
                if target.contains(':') || !resolved.starts_with(&root) || !resolved.exists() {
                    outside.push(format!("{}: link to {link:?}", file.display()));
                }
            }
        }
        for (n, line) in body.lines().enumerate() {
            for path in climbing_paths(line) {
                if !resolve(dir, path).starts_with(&root) {
                    outside.push(format!("{}:{}: path {path:?}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(outside.is_empty(), "{outside:#?}");
}

#[test]
fn the_link_check_sees_what_it_looks_for() {
    let body = "see [the rules](../../rules/apv.md#moves) and [here](#top)";
    assert_eq!(markdown_links(body), ["../../rules/apv.md#moves", "#top"]);
    assert_eq!(
        climbing_paths("read ../../x/y.md, not a/../b"),
        ["../../x/y.md"]
    );
    let root = root();
    assert!(!resolve(&root.join("docs"), "../../elsewhere/rules.md").starts_with(&root));
    assert!(resolve(&root.join("docs"), "../README.md").starts_with(&root));
}

/// Every `name` row(s) that experiments/README.md points to is a section or statistic of
/// a real summary.csv.
#[test]
fn experiments_readme_names_summary_rows_that_exist() {
    let dir = scratch("rows");
    let out = dir.join("run");
    let file = root().join("experiments/invector-small-check.toml");
    let o = agon(&["run", text(&file), "--out", text(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let names: Vec<&str> = summary
        .lines()
        .skip(1)
        .flat_map(|l| {
            // The statistic is the fifth field from the end (before value, low, high,
            // text); an agent's label before it may hold commas.
            let fields: Vec<&str> = l.split(',').collect();
            [fields[0], fields[fields.len() - 5]]
        })
        .collect();
    let readme = std::fs::read_to_string(root().join("experiments/README.md")).unwrap();
    let rows: Vec<&str> = readme
        .split('`')
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[1].starts_with(" row"))
        .map(|w| w[0])
        .collect();
    assert!(!rows.is_empty(), "the README points to no summary row");
    for row in rows {
        assert!(
            names.contains(&row),
            "experiments/README.md names a `{row}` row"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// results/README.md describes the charts as drawn: ratings.svg shows each agent's
/// Bradley–Terry rating (not a pairing's Elo), seat0.svg its wins, draws and losses.
#[test]
fn results_readme_describes_the_charts_as_drawn() {
    let readme = std::fs::read_to_string(root().join("results/README.md")).unwrap();
    let charts = &readme[readme.find("## Charts").unwrap()..];
    let charts = &charts[..charts[3..].find("\n## ").unwrap()];
    let item = |name: &str| {
        let start = charts.find(&format!("- `{name}`")).unwrap();
        charts[start..].split("\n- ").next().unwrap().to_string()
    };
    assert!(
        item("ratings.svg").contains("Bradley–Terry rating"),
        "{charts}"
    );
    assert!(
        item("seat0.svg").contains("wins, draws and losses"),
        "{charts}"
    );
    assert!(item("lengths.svg").contains("cap"), "{charts}");
}

/// The tables `experiments/balance/table.py` prints for the study `study`, each with
/// the backquoted variant line before it: (heading, table lines).
fn study_tables(study: &str) -> Vec<(String, String)> {
    let out = std::process::Command::new("python3")
        .arg("experiments/balance/table.py")
        .arg(study)
        .current_dir(root())
        .output()
        .expect("python3 runs experiments/balance/table.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.split("\n\n")
        .collect::<Vec<_>>()
        .chunks(2)
        .filter(|pair| pair.len() == 2 && !pair[1].trim().is_empty())
        .map(|pair| (pair[0].trim().to_string(), pair[1].trim().to_string()))
        .collect()
}

#[test]
fn the_balance_tables_of_the_docs_are_the_studies_balance_csv() {
    let docs = std::fs::read_to_string(root().join("docs/balance.md")).unwrap();
    let mut printed = Vec::new();
    for entry in std::fs::read_dir(root().join("results/balance")).unwrap() {
        let path = entry.unwrap().path();
        if path.join("balance.csv").is_file() {
            let study = path.file_name().unwrap().to_string_lossy().into_owned();
            printed.extend(study_tables(&study));
        }
    }
    assert!(printed.len() >= 13, "{} tables", printed.len());
    // Every table of every study is in the docs, under its variant's line.
    for (heading, table) in &printed {
        let block = format!("{heading}\n\n{table}\n");
        assert!(
            docs.contains(&block),
            "docs/balance.md lacks, or differs from, the table of {heading}:\n{block}"
        );
    }
    // And every level table of the docs is one of them: no figure without its study.
    let tables: Vec<&str> = docs
        .split("\n\n")
        .map(str::trim)
        .filter(|t| t.starts_with("| level |"))
        .collect();
    assert_eq!(tables.len(), printed.len(), "tables in docs/balance.md");
    for table in tables {
        assert!(
            printed.iter().any(|(_, t)| t == table),
            "docs/balance.md has a table no study's balance.csv gives:\n{table}"
        );
    }
}

#[test]
fn the_race_tables_of_the_docs_are_the_races_search_csv() {
    let docs = std::fs::read_to_string(root().join("docs/balance.md")).unwrap();
    let mut races = Vec::new();
    for study in std::fs::read_dir(root().join("results/balance")).unwrap() {
        let study = study.unwrap().path();
        if !study.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&study).unwrap() {
            let path = entry.unwrap().path();
            if path.join("search.csv").is_file() {
                races.push(format!(
                    "{}/{}",
                    study.file_name().unwrap().to_string_lossy(),
                    path.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(!races.is_empty());
    for race in &races {
        let out = std::process::Command::new("python3")
            .arg("experiments/balance/race_table.py")
            .arg(race)
            .current_dir(root())
            .output()
            .expect("python3 runs experiments/balance/race_table.py");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let block = String::from_utf8(out.stdout).unwrap();
        assert!(
            docs.contains(&block),
            "docs/balance.md lacks, or differs from, the table of the race {race}:\n{block}"
        );
    }
    let tables = docs.matches("\n| candidate |").count();
    assert_eq!(tables, races.len(), "race tables in docs/balance.md");
}

/// `tools/modules.py` on the source folders `crates`: its exit status and what it printed.
fn module_cycles(crates: &[&str]) -> (bool, String) {
    let out = std::process::Command::new("python3")
        .arg("tools/modules.py")
        .args(crates)
        .current_dir(root())
        .output()
        .expect("python3 runs tools/modules.py");
    let printed =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), printed)
}

/// The modules of a crate form layers: no two modules depend on each other, directly or
/// through others, except a module and its own descendants (`python3 tools/modules.py
/// --graph` prints the graph).
#[test]
fn no_modules_depend_on_each_other_in_a_cycle() {
    let (clean, printed) = module_cycles(&[
        "engine/src",
        "search/src",
        "cli/src",
        "python/src",
        "benches/src",
    ]);
    assert!(clean, "{printed}");
}

/// The cycle check sees a cycle where there is one, through a `use` group and an
/// inline path, and none between a module and its child.
#[test]
fn the_cycle_check_finds_a_cycle() {
    let dir = scratch("cycle");
    let write = |name: &str, body: &str| std::fs::write(dir.join(name), body).unwrap();
    write("lib.rs", "mod a;\nmod b;\nmod c;\n");
    write(
        "a.rs",
        "use crate::{b::{X}, c};\npub struct Y;\nmod inner;\n",
    );
    std::fs::create_dir_all(dir.join("a")).unwrap();
    write("a/inner.rs", "use super::Y;\n");
    write("b.rs", "pub struct X;\nfn f() { let _ = crate::a::Y; }\n");
    write("c.rs", "// crate::a::Y in a comment is no dependency\n");
    let (clean, printed) = module_cycles(&[dir.to_str().unwrap()]);
    assert!(!clean, "{printed}");
    assert!(printed.contains("cycle of 2 modules: a, b"), "{printed}");
    assert!(
        !printed.contains("inner") && !printed.contains("c ->"),
        "{printed}"
    );
}
