//! The files of a tournament run: their rows (serde + csv) and the run's metadata.
//!
//! A run folder holds `meta.csv` (what was run), `games.csv` (one row per game, in
//! game-index order, reproducible byte for byte), `timings.csv` (wall-clock thinking time,
//! never reproducible, hence apart) and `summary.csv` (statistics computed from
//! games.csv alone). Every column is documented in `results/README.md`. A folder may keep
//! its games compressed instead, as `games.csv.gz` (the committed studies do): it is read
//! as the games.csv it holds ([`games_path`]) and never written or appended to.
//!
//! One module per concern: [`rows`] (the rows of each file and their headers), [`meta`]
//! (meta.csv and the run's identity) and [`files`] (appending, reading and cutting the
//! files of a run folder).

use std::path::{Path, PathBuf};

/// Name of the metadata file in a run folder.
pub const META_FILE: &str = "meta.csv";
/// Name of the per-game results file.
pub const GAMES_FILE: &str = "games.csv";
/// Name of the per-game results file stored compressed (gzip), as the committed studies
/// keep it: read where [`GAMES_FILE`] is absent ([`games_path`]), never written.
pub const GAMES_GZ_FILE: &str = "games.csv.gz";
/// Name of the per-game timing file.
pub const TIMINGS_FILE: &str = "timings.csv";
/// Name of the statistics file.
pub const SUMMARY_FILE: &str = "summary.csv";

mod files;
mod meta;
mod rows;

/// The file that holds the games of the run folder `dir`: its [`GAMES_FILE`], or, where
/// that is absent and a [`GAMES_GZ_FILE`] is present, the compressed one. Every command
/// that reads a run's games finds them here (report, replay, tune, merge's shards, a
/// finished study); every command that writes games writes [`GAMES_FILE`], and one that
/// would append to a run whose games are only compressed refuses instead.
pub fn games_path(dir: &Path) -> PathBuf {
    let plain = dir.join(GAMES_FILE);
    let compressed = dir.join(GAMES_GZ_FILE);
    if !plain.exists() && compressed.is_file() {
        compressed
    } else {
        plain
    }
}

/// Whether the games of the run folder `dir` are held only compressed ([`games_path`]
/// gives the [`GAMES_GZ_FILE`]).
pub fn games_compressed(dir: &Path) -> bool {
    games_path(dir).ends_with(GAMES_GZ_FILE)
}

pub use files::*;
pub use meta::*;
pub use rows::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bad_input::BadInput;
    use crate::shard::Shard;

    #[test]
    fn game_rows_round_trip_with_the_documented_header() {
        let row = GameRow {
            game: 3,
            pair: 1,
            pairing: 0,
            agent0: "ab:depth=3".into(),
            agent1: "random".into(),
            side0: "white".into(),
            side1: "black".into(),
            result0: Result0::Draw,
            winner: None,
            end_reason: "cap".into(),
            plies: 2,
            turns: 2,
            decisions0: 0,
            decisions1: 1,
            nodes0: 10,
            nodes1: 1,
            opening: 1,
            moves: "a1xa2 swap".into(),
            note: String::new(),
            digest: "0123456789abcdef".into(),
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(
            text,
            "game,pair,pairing,agent0,agent1,side0,side1,result0,winner,end_reason,plies,\
             turns,decisions0,decisions1,nodes0,nodes1,opening,moves,note,digest\n\
             3,1,0,ab:depth=3,random,white,black,0.5,,cap,2,2,0,1,10,1,1,a1xa2 swap,,0123456789abcdef\n"
        );
        assert_eq!(text.lines().next(), Some(GAMES_HEADER));
        let back: GameRow = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(back, row);
        assert_eq!(Result0::Loss.score(0), -1);
        assert_eq!(Result0::Loss.score(1), 1);
    }

    #[test]
    fn meta_round_trips_and_names_the_difference() {
        let dir = std::env::temp_dir().join(format!("agon-meta-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(META_FILE);
        let meta = RunMeta {
            toolkit: toolkit(),
            commit: "0123abc-dirty".into(),
            builds: Vec::new(),
            game: "invector:height=5,pie=true,width=6".into(),
            agents: vec!["ab:depth=3".into(), "random".into()],
            games_per_pairing: 4,
            seed: 9,
            random_opening: 0,
            distinct_openings: false,
            openings: "openings.txt".into(),
            openings_hash: "af63dc4c8601ec8c".into(),
            opening_check: None,
            eval_hashes: Vec::new(),
            programs: Vec::new(),
            threads: 2,
            command: "agon tournament --game \"invector:width=6\"".into(),
            shard: None,
            sprt: None,
            anchor: Some("random".into()),
        };
        meta.write(&path).unwrap();
        let back = RunMeta::read_any(&path).unwrap().0;
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(back, meta);
        let other = RunMeta {
            threads: 1,
            command: "x".into(),
            commit: "unknown".into(),
            anchor: None,
            ..meta.clone()
        };
        assert_eq!(meta.difference(&other), None);
        let other = RunMeta {
            seed: 10,
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&other).unwrap(),
            "seed \"10\" there, \"9\" here"
        );
        let sharded = RunMeta {
            shard: Some(Shard { index: 2, count: 3 }),
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&sharded).unwrap(),
            "shard \"2/3\" there, \"none\" here"
        );
        let other = RunMeta {
            openings_hash: "0000000000000000".into(),
            eval_hashes: Vec::new(),
            programs: Vec::new(),
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&other).unwrap(),
            "openings file contents (hash) \"0000000000000000\" there, \"af63dc4c8601ec8c\" here"
        );
        let other = RunMeta {
            random_opening: 4,
            distinct_openings: false,
            ..meta.clone()
        };
        assert_eq!(
            meta.difference(&other).unwrap(),
            "random opening \"4\" there, \"0\" here"
        );
        // Openings drawn without replacement are another run, and a row of their own.
        let distinct = RunMeta {
            distinct_openings: true,
            ..other.clone()
        };
        assert_eq!(
            other.difference(&distinct).unwrap(),
            "random opening \"4 distinct\" there, \"4\" here"
        );
        std::fs::create_dir_all(&dir).unwrap();
        distinct.write(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\nrandom_opening,4\nopening_draw,distinct\n"),
            "{text}"
        );
        assert_eq!(RunMeta::read_any(&path).unwrap().0, distinct);
        std::fs::write(&path, text.replace(",distinct", ",maybe")).unwrap();
        assert!(format!("{:#}", RunMeta::read_any(&path).unwrap_err())
            .ends_with("bad opening_draw \"maybe\" (the only value is \"distinct\"; without the row openings are drawn independently)"));
        // A checked run is another run, with a row of its own, and its rows' digests
        // differ; an unchecked run's digest key has no such line.
        let checked = RunMeta {
            opening_check: Some("ab:depth=4,hash=1 within 300".into()),
            ..distinct.clone()
        };
        assert_eq!(
            distinct.difference(&checked).unwrap(),
            "opening check \"ab:depth=4,hash=1 within 300\" there, \"none\" here"
        );
        assert!(!distinct.digest_key().contains("opening check"));
        assert!(checked
            .digest_key()
            .contains("\nopening check=ab:depth=4,hash=1 within 300\n"));
        checked.write(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\nopening_check,\"ab:depth=4,hash=1 within 300\"\nthreads,"),
            "{text}"
        );
        assert_eq!(RunMeta::read_any(&path).unwrap().0, checked);
        sharded.write(&path).unwrap();
        let back = RunMeta::read_any(&path).unwrap().0;
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(back, sharded);
    }

    #[test]
    fn meta_refuses_unknown_repeated_and_missing_keys_and_tells_the_older_format() {
        let dir = std::env::temp_dir().join(format!("agon-meta-keys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(META_FILE);
        RunMeta::example().write(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let shown = path.display().to_string();
        let read_text = |t: &str| {
            std::fs::write(&path, t).unwrap();
            RunMeta::read_any(&path).map_err(|e| format!("{e:#}"))
        };
        assert_eq!(
            read_text(&text).unwrap(),
            (RunMeta::example(), Written::Now)
        );
        // A misspelt key would lose its setting: refused, naming its line.
        assert!(text.contains("\nrandom_opening,2\n"));
        assert_eq!(
            read_text(&text.replace("random_opening,", "raNdom_opening,")).unwrap_err(),
            format!(
                "{shown} line 10: unknown key \"raNdom_opening\" (valid: format, toolkit, \
                 commit, builds, game, agent, eval_hash, program, games_per_pairing, seed, random_opening, \
                 opening_draw, openings, \
                 openings_hash, opening_check, threads, command, anchor, shard, sprt)"
            )
        );
        assert_eq!(
            read_text(&text.replace("seed,5\n", "seed,5\nseed,6\n")).unwrap_err(),
            format!("{shown} line 10: key \"seed\" is given twice")
        );
        assert_eq!(
            read_text(&text.replace("threads,1\n", "")).unwrap_err(),
            format!("{shown} has no \"threads\" row")
        );
        assert_eq!(
            read_text(&text.replace("threads,1\n", "threads,some\n")).unwrap_err(),
            format!("{shown} line 13: bad threads \"some\": invalid digit found in string")
        );
        // Two agents, two agent rows: `agent` (and `eval_hash`) alone may repeat.
        assert_eq!(read_text(&text).unwrap().0.agents.len(), 2);
        // Weight digests: one row per agent, or none.
        let weighted = RunMeta {
            eval_hashes: vec!["00000000000000ab".into(), String::new()],
            ..RunMeta::example()
        };
        weighted.write(&path).unwrap();
        let with_hashes = std::fs::read_to_string(&path).unwrap();
        assert!(
            with_hashes.contains("\neval_hash,00000000000000ab\neval_hash,\n"),
            "{with_hashes}"
        );
        assert_eq!(
            read_text(&with_hashes).unwrap(),
            (weighted.clone(), Written::Now)
        );
        assert_eq!(
            read_text(&with_hashes.replace("eval_hash,\n", "")).unwrap_err(),
            format!("{shown} has 1 eval_hash rows for 2 agents (one per agent, or none)")
        );
        assert!(weighted.difference(&RunMeta::example()).is_some());
        assert_ne!(weighted.digest_key(), RunMeta::example().digest_key());
        // Outside programs likewise: one row per agent, or none, part of the identity.
        let outside = RunMeta {
            programs: vec![String::new(), "00000000000000cd /usr/bin/bot".into()],
            ..RunMeta::example()
        };
        outside.write(&path).unwrap();
        let with_programs = std::fs::read_to_string(&path).unwrap();
        assert!(
            with_programs.contains("\nprogram,\nprogram,00000000000000cd /usr/bin/bot\n"),
            "{with_programs}"
        );
        assert_eq!(
            read_text(&with_programs).unwrap(),
            (outside.clone(), Written::Now)
        );
        assert_eq!(
            read_text(&with_programs.replace("program,\n", "")).unwrap_err(),
            format!("{shown} has 1 program rows for 2 agents (one per agent, or none)")
        );
        assert!(outside.difference(&RunMeta::example()).is_some());
        assert_ne!(outside.digest_key(), RunMeta::example().digest_key());
        // The builds that wrote rows: the run's commit first, each once; not identity.
        let resumed = RunMeta::example().with_build("def").with_build("abc");
        assert_eq!(resumed.builds, ["abc", "def"]);
        assert_eq!(RunMeta::example().with_build("abc"), RunMeta::example());
        assert_eq!(resumed.difference(&RunMeta::example()), None);
        assert_eq!(resumed.digest_key(), RunMeta::example().digest_key());
        resumed.write(&path).unwrap();
        let with_builds = std::fs::read_to_string(&path).unwrap();
        assert!(
            with_builds.contains("\ncommit,abc\nbuilds,abc def\ngame,"),
            "{with_builds}"
        );
        assert_eq!(read_text(&with_builds).unwrap(), (resumed, Written::Now));
        for bad in ["abc", "def abc", "abc def def", "abc  def"] {
            assert_eq!(
                read_text(&with_builds.replace("builds,abc def", &format!("builds,{bad}")))
                    .unwrap_err(),
                format!(
                    "{shown} line 5: bad builds {bad:?} (the commits of the builds that wrote \
                     rows, separated by single spaces: the run's commit first, then each other \
                     once)"
                )
            );
        }
        assert_eq!(
            read_text(&text.replace("format,3", "format,2")).unwrap(),
            (RunMeta::example(), Written::Older)
        );
        assert_eq!(
            read_text(&text.replace("format,3", "format,1")).unwrap_err(),
            format!(
                "{shown} line 2: format \"1\" is not one this build reads (it writes format 3 \
                 and reads 2)"
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_rows_digest_covers_each_field_and_the_run_but_not_the_shard() {
        let meta = RunMeta::example();
        let key = meta.digest_key();
        assert_eq!(
            key,
            "toolkit=agon 0.1.0\ngame=pig:die=6,horizon=1000,target=20\nagents=greedy random\n\
             games per pairing=6\nseed=5\nsprt=none\nrandom opening=2\nopenings file=\n\
             openings file contents (hash)=\n"
        );
        let sharded = RunMeta {
            shard: Some(Shard { index: 2, count: 3 }),
            threads: 4,
            command: "other".into(),
            commit: "def".into(),
            anchor: Some("random".into()),
            ..meta.clone()
        };
        assert_eq!(sharded.digest_key(), key);
        let row = GameRow::example(3, 0, ["random", "greedy"], Result0::Win, 7);
        let digest = row_digest(&row, &key);
        // Pinned (recomputed outside Rust): FNV-1a of the key, then
        // `3,1,0,random,greedy,black,white,1,0,elimination,7,7,4,3,0,0,0,,`.
        assert_eq!(digest, "3bd6420eaaf5df3a");
        // The digest field itself is not covered; every other field is.
        let with_digest = GameRow {
            digest: "x".into(),
            ..row.clone()
        };
        assert_eq!(row_digest(&with_digest, &key), digest);
        let edits: [fn(&mut GameRow); 6] = [
            |r| r.winner = Some(1),
            |r| r.result0 = Result0::Loss,
            |r| r.plies += 1,
            |r| r.moves = "roll 3".into(),
            |r| r.note = "n".into(),
            |r| r.nodes1 = 1,
        ];
        for edit in edits {
            let mut changed = row.clone();
            edit(&mut changed);
            assert_ne!(row_digest(&changed, &key), digest, "{changed:?}");
        }
        let other_seed = RunMeta { seed: 6, ..meta };
        assert_ne!(row_digest(&row, &other_seed.digest_key()), digest);
    }

    #[test]
    fn scan_finds_the_torn_end_and_cut_saves_it() {
        let dir = std::env::temp_dir().join(format!("agon-scan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(TIMINGS_FILE);
        let side = partial_path(&path);
        let _ = std::fs::remove_file(&side);
        let scan_text = |text: &str| {
            std::fs::write(&path, text).unwrap();
            scan::<TimingRow>(&path, TIMINGS_HEADER)
        };
        let row = |game| TimingRow {
            game,
            time_us0: 5,
            time_us1: 7,
        };

        // Missing and empty files have no rows.
        std::fs::remove_file(&path).ok();
        let none = scan::<TimingRow>(&path, TIMINGS_HEADER).unwrap();
        assert_eq!((none.rows.len(), none.keep, none.tail), (0, 0, None));
        assert_eq!(scan_text("").unwrap().keep, 0);

        // A half-written header.
        let torn = scan_text("game,time").unwrap();
        assert_eq!(torn.keep, 0);
        assert_eq!(
            torn.tail.unwrap().what,
            "half-written header (no line end, 9 bytes)"
        );

        // Whole rows, then a last line that has its line end but does not parse.
        let header = "game,time_us0,time_us1\n";
        let text = format!("{header}0,5,7\n1,5,7\n2,5\n");
        let found = scan_text(&text).unwrap();
        assert_eq!(found.rows, vec![row(0), row(1)]);
        assert_eq!(found.keep, (header.len() + 12) as u64);
        let tail = found.tail.unwrap();
        assert_eq!(tail.line, 4);
        assert!(
            tail.what.starts_with("unreadable last row ("),
            "{}",
            tail.what
        );

        // The same line before the last: the file is foreign.
        let error = scan_text(&format!("{header}0,5,7\n2,5\n1,5,7\n")).unwrap_err();
        let bad = error.downcast_ref::<BadInput>().unwrap();
        assert!(
            bad.0
                .starts_with(&format!("{} line 3 is not a row (", path.display())),
            "{bad}"
        );

        // Cutting appends the tail to the side file, twice over, and keeps the rows.
        std::fs::write(&path, &text).unwrap();
        assert_eq!(cut(&path, found.keep).unwrap(), 4);
        std::fs::write(&path, format!("{header}0,5,7\n1,5,7\n2,")).unwrap();
        assert_eq!(cut(&path, found.keep).unwrap(), 2);
        assert_eq!(cut(&path, found.keep).unwrap(), 0);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{header}0,5,7\n1,5,7\n")
        );
        assert_eq!(std::fs::read_to_string(&side).unwrap(), "2,5\n2,");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
