//! `agon train` end to end: what it prints and writes, the same bytes at any thread
//! count, agents loading the network with `net=FILE`, and the refusals of bad input.

use crate::common;
use common::{agon, ok, scratch, stderr, stdout, text};

/// Runs `agon train` on Connect Four: 40 self-play games of `ab:depth=1` with noise
/// (seed 3), a tiny network and a few epochs, into `out`, then `extra`.
fn train_connect4(out: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "train",
        "--game",
        "connect4",
        "--self-play",
        "40",
        "--agent",
        "ab:depth=1,noise=20",
        "--hidden",
        "8",
        "--dense",
        "8",
        "--epochs",
        "4",
        "--batch",
        "32",
        "--seed",
        "3",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    agon(&args)
}

#[test]
fn train_writes_the_same_network_and_curve_at_any_thread_count() {
    let dir = scratch("train-threads");
    let (one, two) = (dir.join("one.net"), dir.join("two.net"));
    let first = train_connect4(text(&one), &["--threads", "1"]);
    ok(&first);
    let second = train_connect4(text(&two), &["--threads", "2"]);
    ok(&second);
    assert_eq!(stdout(&first), stdout(&second));
    let bytes = std::fs::read(&one).unwrap();
    assert_eq!(bytes, std::fs::read(&two).unwrap());
    let csv = std::fs::read_to_string(dir.join("one.loss.csv")).unwrap();
    assert_eq!(
        csv,
        std::fs::read_to_string(dir.join("two.loss.csv")).unwrap()
    );
    assert!(bytes.starts_with(b"AGONNET1"));

    let out = stdout(&first);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "train connect4: 40 games of ab:depth=1,noise=20 (random opening 4), seed 3"
    );
    assert!(lines[1].starts_with("positions: "), "{out}");
    assert!(
        lines[2].starts_with("labels: 0.5 x result + 0.5 x ab:depth=2,hash=1,threads=1 (K "),
        "{out}"
    );
    assert!(
        lines[3].starts_with("linear evaluator's weight: K "),
        "{out}"
    );
    assert_eq!(
        lines[4],
        "network: connect4/1 (84 features, 1 scalars) -> 2x8 -> 8 -> 1"
    );
    // One line and one CSV row per epoch from 0 (the start); the curve's rows are the
    // lines' numbers.
    let epochs: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("epoch "))
        .copied()
        .collect();
    assert!(epochs.len() >= 2 && epochs.len() <= 5, "{out}");
    assert!(epochs[0].starts_with("epoch 0: "), "{out}");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "epoch,training_loss,validation_loss");
    assert_eq!(rows.len(), epochs.len() + 1, "{csv}");
    for (line, row) in epochs.iter().zip(&rows[1..]) {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(
            *line,
            format!(
                "epoch {}: training loss {}, validation loss {}",
                fields[0], fields[1], fields[2]
            )
        );
    }
    assert!(out.contains("\nbest epoch "), "{out}");
    // Quantising costs almost nothing on the validation positions.
    let losses = out
        .lines()
        .find_map(|l| l.strip_prefix("validation loss: network "))
        .unwrap();
    let float: f64 = losses.split(',').next().unwrap().parse().unwrap();
    let quantised: f64 = losses
        .split("quantised ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((float - quantised).abs() < 0.005, "{losses}");
    let svg = std::fs::read_to_string(dir.join("one.loss.svg")).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("kept: epoch "),
        "{svg}"
    );
    // The note names the command without --out and --threads.
    let note =
        "agon train --game connect4 --self-play 40 --agent ab:depth=1,hash=16,noise=20,threads=1 \
                --blend 0.5 --teacher ab:depth=2,hash=1,threads=1 --hidden 8 --dense 8 \
                --epochs 4 --patience 5 --batch 32 --lr 0.001 --seed 3";
    assert!(
        bytes.ends_with(note.as_bytes()),
        "{}",
        String::from_utf8_lossy(&bytes)
    );

    // An agent plays with it, and analyses with a value from it.
    let agent = format!("ab:depth=2,net={}", text(&one));
    let o = agon(&["analyse", "--game", "connect4", "--agent", &agent]);
    ok(&o);
    assert!(stdout(&o).contains("bestmove "), "{}", stdout(&o));
    for agent in [
        format!("star2:depth=2,net={}", text(&one)),
        format!("mcts:iters=200,rollout=eval,net={}", text(&one)),
        format!("greedy:net={}", text(&one)),
    ] {
        ok(&agon(&["analyse", "--game", "connect4", "--agent", &agent]));
    }
}

#[test]
fn a_network_is_refused_by_another_game_and_a_damaged_file_is_named() {
    let dir = scratch("train-refusals");
    let net = dir.join("c4.net");
    ok(&train_connect4(text(&net), &["--patience", "1"]));
    let refused = |args: &[&str], want: &str| {
        let o = agon(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("error: {want}")), "{err}");
    };
    let on_invector = format!("ab:depth=2,net={}", text(&net));
    refused(
        &["analyse", "--game", "invector", "--agent", &on_invector],
        &format!(
            "network file {:?}: the network was trained on encoding connect4/1, but this \
             game's is invector/1:8x7",
            text(&net)
        ),
    );
    let both = format!("ab:depth=2,net={},eval={}", text(&net), text(&net));
    let canonical = format!(
        "ab:depth=2,eval={},hash=16,net={},threads=1",
        text(&net),
        text(&net)
    );
    refused(
        &["analyse", "--game", "connect4", "--agent", &both],
        &format!("agent {canonical}: eval and net both choose the evaluator; give one"),
    );
    let damaged = dir.join("damaged.net");
    let bytes = std::fs::read(&net).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();
    refused(
        &[
            "analyse",
            "--game",
            "connect4",
            "--agent",
            &format!("ab:depth=2,net={}", text(&damaged)),
        ],
        &format!(
            "network file {:?}: not an Agon network file (it ends too soon)",
            text(&damaged)
        ),
    );
    refused(
        &[
            "train",
            "--game",
            "connect4",
            "--self-play",
            "10",
            "--blend",
            "2",
            "--out",
            text(&net),
        ],
        "--blend must be 0 to 1, got 2",
    );
    refused(
        &[
            "train",
            "--game",
            "connect4",
            "--self-play",
            "10",
            "--hidden",
            "0",
            "--out",
            text(&net),
        ],
        "--hidden must be 1 to 1024, got 0",
    );
    refused(
        &["train", "--game", "connect4", "--out", text(&net)],
        "the following required arguments were not provided",
    );
    refused(
        &[
            "train",
            "--game",
            "connect4",
            "--self-play",
            "10",
            "--teacher",
            "nope",
            "--out",
            text(&net),
        ],
        "unknown agent \"nope\"",
    );
}

#[test]
fn agents_names_the_built_in_network_of_the_encoding_it_reads() {
    let listing = stdout(&agon(&["agents", "--game", "invector"]));
    assert!(
        listing.contains(
            "\nbuilt-in network: net=builtin:invector, trained by `agon train --game \
             invector:height=7,pie=false,width=8 --self-play 20000 "
        ),
        "{listing}"
    );
    // Another board is another encoding: no network reads it.
    let small = stdout(&agon(&["agents", "--game", "invector:width=5,height=4"]));
    assert!(!small.contains("built-in network"), "{small}");
}
