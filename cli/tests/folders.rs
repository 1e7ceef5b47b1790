//! Hostile or damaged run and study folders: a symbolic link planted where agon writes
//! is refused and its target left alone; the mark of a finished run (summary.csv) or
//! study (balance.csv) is written last, and `--resume` draws what a finished run's
//! folder lacks.

use std::path::Path;
use std::process::Output;

use crate::common;
use common::runs::{assert_same_run, quick, read, stopped_copy, study, STUDY_RUNS};
use common::{agon, assert_bad, assert_same_files, ok, scratch};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Asserts that `a` and `b` hold the same study: study.csv, balance.csv, and every run's
/// games.csv and summary.csv, byte for byte.
fn assert_same_study(a: &Path, b: &Path) {
    assert_same_files(a, b, &["study.csv", "balance.csv"]);
    for run in STUDY_RUNS {
        assert_same_files(&a.join(run), &b.join(run), &["games.csv", "summary.csv"]);
    }
}

/// The refusal of a folder holding the symbolic link `name`.
fn link_refusal(what: &str, dir: &Path, name: &str) -> String {
    format!(
        "error: {what} \"{}\" holds a symbolic link, {name}, and agon writes no file through \
         a link (it would change the file the link points to); remove the link, or choose \
         another folder\n",
        dir.display()
    )
}

/// A name of a run folder planted as a symbolic link to a file outside it: agon would
/// write through it (the lock its process id, a temporary file meta.csv, appended rows),
/// so the folder is refused, exit 2, and the file it points to is left as it was.
#[cfg(unix)]
#[test]
fn a_folder_holding_a_symbolic_link_is_refused_and_its_target_left_alone() {
    use std::os::unix::fs::symlink;
    let dir = scratch("links");
    let reference = dir.join("reference");
    let first = quick(reference.to_str().unwrap(), &[]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "someone's file\n").unwrap();
    let refused = |o: &Output, what: &str, folder: &Path, name: &str| {
        assert_eq!(text(&o.stderr), link_refusal(what, folder, name));
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(text(&read(&victim)), "someone's file\n", "{name}");
        assert!(folder.join(name).is_symlink(), "{name}");
    };

    // A new folder holding only what a stop may leave before meta.csv.
    for name in ["agon.lock", "meta.csv.tmp"] {
        let new = dir.join(format!("new-{name}"));
        std::fs::create_dir_all(&new).unwrap();
        symlink(&victim, new.join(name)).unwrap();
        refused(
            &quick(new.to_str().unwrap(), &[]),
            "output folder",
            &new,
            name,
        );
    }

    // A stopped run resumed, every file it would write or append to.
    for name in [
        "agon.lock",
        "meta.csv.tmp",
        "games.csv",
        "timings.csv",
        "games.csv.partial",
        "summary.csv",
        "summary.csv.tmp",
        "speed.csv",
        "lengths.svg",
        "report.html",
    ] {
        let stopped = dir.join(format!("stopped-{name}"));
        stopped_copy(&reference, &stopped, 5);
        let _ = std::fs::remove_file(stopped.join(name));
        symlink(&victim, stopped.join(name)).unwrap();
        let o = quick(stopped.to_str().unwrap(), &["--resume"]);
        refused(&o, "output folder", &stopped, name);
    }

    // A finished run that agon report would write into.
    let finished = dir.join("finished");
    std::fs::create_dir_all(&finished).unwrap();
    for file in ["meta.csv", "games.csv", "timings.csv", "summary.csv"] {
        std::fs::copy(reference.join(file), finished.join(file)).unwrap();
    }
    symlink(&victim, finished.join("summary.csv.tmp")).unwrap();
    let o = agon(&["report", finished.to_str().unwrap()]);
    refused(&o, "run folder", &finished, "summary.csv.tmp");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// summary.csv, the mark of a finished run, is written last: a run stopped before its
/// charts and page are written (here, a page that cannot be written) is not finished,
/// and its resume writes them. A finished run that lacks them all the same (written by
/// a build that wrote the mark first, or files deleted) is completed by `--resume`, the
/// charts and page those of the uninterrupted run; without it a note says so.
#[test]
fn the_finished_mark_comes_last_and_resume_draws_what_a_finished_run_lacks() {
    let dir = scratch("outputs");
    let reference = dir.join("reference");
    let first = quick(reference.to_str().unwrap(), &[]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));

    // The page cannot be written (a folder holds its name): the run fails before its mark.
    let stopped = dir.join("stopped");
    let stopped_text = stopped.to_str().unwrap();
    stopped_copy(&reference, &stopped, 5);
    std::fs::create_dir(stopped.join("report.html")).unwrap();
    let failed = quick(stopped_text, &["--resume"]);
    assert_eq!(failed.status.code(), Some(1), "{}", text(&failed.stderr));
    assert!(!stopped.join("summary.csv").exists());
    assert!(stopped.join("lengths.svg").is_file());
    std::fs::remove_dir(stopped.join("report.html")).unwrap();
    let resumed = quick(stopped_text, &["--resume"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed.stderr));
    assert_same_run(&stopped, &reference);
    assert!(stopped.join("report.html").is_file());

    // A finished run without its page and two charts.
    let lacking = dir.join("lacking");
    let lacking_text = lacking.to_str().unwrap();
    std::fs::create_dir_all(&lacking).unwrap();
    for file in [
        "meta.csv",
        "games.csv",
        "timings.csv",
        "summary.csv",
        "speed.csv",
        "seat0.svg",
    ] {
        std::fs::copy(reference.join(file), lacking.join(file)).unwrap();
    }
    let again = quick(lacking_text, &[]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(text(&again.stdout).contains("already holds this finished run"));
    assert_eq!(
        text(&again.stderr),
        format!(
            "note: {lacking_text} holds this run finished but lacks ratings.svg, lengths.svg, \
             report.html; --resume draws them\n"
        )
    );
    assert!(!lacking.join("report.html").exists());
    let completed = quick(lacking_text, &["--resume"]);
    assert_eq!(
        completed.status.code(),
        Some(0),
        "{}",
        text(&completed.stderr)
    );
    assert_eq!(
        text(&completed.stderr),
        format!(
            "note: {lacking_text} holds this run finished but lacks ratings.svg, lengths.svg, \
             report.html; drawn again from its games\n"
        )
    );
    for file in ["ratings.svg", "lengths.svg", "seat0.svg", "summary.csv"] {
        assert!(
            read(&lacking.join(file)) == read(&reference.join(file)),
            "{file}"
        );
    }
    // The page names its own folder (and the command, the reference's); otherwise it is
    // the uninterrupted run's.
    let page = |dir: &Path| {
        text(&read(&dir.join("report.html")))
            .replace(lacking_text, "DIR")
            .replace(reference.to_str().unwrap(), "DIR")
    };
    assert!(page(&lacking) == page(&reference));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A symbolic link in a study's folder, in an arm's folder or in a run's is refused
/// (exit 2) before anything is written through it.
#[cfg(unix)]
#[test]
fn a_study_folder_holding_a_symbolic_link_is_refused_and_its_target_left_alone() {
    use std::os::unix::fs::symlink;
    let dir = scratch("links");
    let victim_dir = dir.join("victim");
    std::fs::create_dir_all(&victim_dir).unwrap();
    let victim = victim_dir.join("agon.lock");
    std::fs::write(&victim, "someone's file\n").unwrap();
    let refused = |o: &Output, folder: &Path, name: &str| {
        assert_bad(
            o,
            &format!(
                "output folder \"{}\" holds a symbolic link, {name}, and agon writes no file \
                 through a link (it would change the file the link points to); remove the \
                 link, or choose another folder",
                folder.display()
            ),
        );
        assert_eq!(text(&read(&victim)), "someone's file\n");
        assert_eq!(std::fs::read_dir(&victim_dir).unwrap().count(), 1);
    };

    // A new study's folder holding its lock file as a link.
    let new = dir.join("new");
    std::fs::create_dir_all(&new).unwrap();
    symlink(&victim, new.join("agon.lock")).unwrap();
    refused(&study(&new, &[]), &new, "agon.lock");

    // An unfinished study (its balance.csv not written) whose last run's folder is a
    // link to another folder, or whose first run holds a link.
    let whole = dir.join("whole");
    ok(&study(&whole, &["--threads", "1"]));
    std::fs::remove_file(whole.join("balance.csv")).unwrap();
    let run = whole.join("variant-1/A2-vs-A1");
    std::fs::remove_dir_all(&run).unwrap();
    symlink(&victim_dir, &run).unwrap();
    refused(
        &study(&whole, &["--resume"]),
        &whole.join("variant-1"),
        "A2-vs-A1",
    );
    std::fs::remove_file(&run).unwrap();
    let first = whole.join("base/A1-self");
    std::fs::remove_file(first.join("report.html")).unwrap();
    symlink(&victim, first.join("report.html")).unwrap();
    refused(&study(&whole, &["--resume"]), &first, "report.html");
}

/// balance.csv, the mark of a finished study, is written last: a study whose page
/// cannot be written is left unfinished, and its resume finishes it.
#[test]
fn the_studys_mark_comes_after_its_charts_and_page() {
    let (whole, stopped) = (scratch("mark-whole"), scratch("mark-stopped"));
    ok(&study(&whole, &[]));
    ok(&study(&stopped, &[]));
    for file in ["balance.csv", "report.html", "ladder.svg"] {
        std::fs::remove_file(stopped.join(file)).unwrap();
    }
    std::fs::create_dir(stopped.join("report.html")).unwrap();
    let failed = study(&stopped, &["--resume"]);
    assert_eq!(failed.status.code(), Some(1), "{}", text(&failed.stderr));
    assert!(!stopped.join("balance.csv").exists());
    std::fs::remove_dir(stopped.join("report.html")).unwrap();
    ok(&study(&stopped, &["--resume"]));
    assert_same_study(&whole, &stopped);
    assert!(stopped.join("report.html").is_file() && stopped.join("ladder.svg").is_file());
}
