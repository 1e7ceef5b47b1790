//! Captures the git commit the `agon` binary is built from, for meta.csv's `commit` row.
//!
//! `AGON_COMMIT` is `git rev-parse HEAD`, with `-dirty` appended when tracked files differ
//! from that commit (`git status --porcelain --untracked-files=no` prints anything), or
//! `unknown` when git is missing or the sources are not a git checkout (a crate tarball).
//!
//! Rebuilds: the script reruns when HEAD moves (HEAD, the branch's ref, packed-refs), when
//! the index changes (staging, committing), and when a source of the workspace changes
//! (which may make the tree dirty or clean); not on every build, so incremental builds stay
//! incremental. An edit outside those folders (a README) is seen at the next of these.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let workspace = manifest.parent().unwrap_or(&manifest).to_path_buf();
    for watched in [
        "cli/src",
        "engine/src",
        "search/src",
        "Cargo.toml",
        "Cargo.lock",
    ] {
        let path = workspace.join(watched);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
    let commit = match git(&workspace, &["rev-parse", "HEAD"]) {
        Some(head) => {
            watch_git(&workspace);
            let dirty = git(
                &workspace,
                &["status", "--porcelain", "--untracked-files=no"],
            )
            .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{head}-dirty")
            } else {
                head
            }
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=AGON_COMMIT={commit}");
}

/// Runs git in `dir`; its trimmed standard output if it succeeded.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        // `git status` would otherwise refresh the index, a file this script watches, and
        // so make every build after it run the script and compile the cli again.
        .env("GIT_OPTIONAL_LOCKS", "0")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// Asks cargo to rerun this script when HEAD, the ref it points to, packed-refs or the
/// index change. Works in a linked worktree too, whose HEAD and index live in its own git
/// folder while refs live in the common one.
fn watch_git(workspace: &Path) {
    let absolute = |p: String| {
        let p = PathBuf::from(p);
        if p.is_absolute() {
            p
        } else {
            workspace.join(p)
        }
    };
    let Some(git_dir) = git(workspace, &["rev-parse", "--git-dir"]).map(absolute) else {
        return;
    };
    let common = git(workspace, &["rev-parse", "--git-common-dir"])
        .map(absolute)
        .unwrap_or_else(|| git_dir.clone());
    let mut watched = vec![
        git_dir.join("HEAD"),
        git_dir.join("index"),
        common.join("packed-refs"),
    ];
    if let Some(branch) = git(workspace, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(common.join(branch));
    }
    for path in watched.into_iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
