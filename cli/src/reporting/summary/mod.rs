//! The summary of a run, computed from its games.csv rows alone: [`summarise`] computes
//! every statistic once into a [`Summary`] ([`model`]), which is rendered twice: its
//! [`Summary::rows`] are summary.csv ([`summary_csv`]) and its [`table()`] is the printed
//! report ([`mod@table`]); the ratings and seat-0 charts of `agon report` draw from it
//! too. Because nothing but the game rows goes in, a run's summary can be recomputed from
//! its folder at any time (`agon report DIR`), and it does not depend on the order in
//! which the games were played.
//!
//! What is counted (the formulas are in [`crate::reporting::stats`]):
//! - per pairing, from agent A's view (A is the pairing's seat 0 in its even games, see
//!   [`crate::running::tournament`]): W/D/L, score, Elo with per-game and per-pair 95% intervals,
//!   likelihood of superiority, pentanomial pair counts;
//! - with two or more agents, Bradley–Terry ratings of every agent;
//! - over all games and per pairing: the first-move advantage by seat and by side, the
//!   pie-rule swap rate, game lengths and end reasons;
//! - for a two-agent run given an [`Sprt`](crate::reporting::stats::sprt::Sprt), its log-likelihood
//!   ratio and decision;
//! - per pairing, how many of its games are distinct (by move list): agents without
//!   randomness replay the same games, and [`Summary::warnings`] says so.
//!
//! **What does not apply stays empty.** In self-play (agent A and agent B are the same
//! label) the two games of a pair are separate games, so the pair statistics (pentanomial
//! counts, Elo by pairs) have empty values in summary.csv and are hidden from the table,
//! with a line saying why. Without a pie rule (see [`Summary::with_pie_rule`]) the swap
//! rows are empty and the swap column is hidden.
//!
//! **Pairs.** Games `2p` and `2p+1` (column `pair` = p) form pair `p`. A pair with only
//! one of its games present (possible only in a stopped run) is left out of the
//! pentanomial counts, but its game counts everywhere else.
//!
//! **Sides and the pie rule.** Seat 0 makes the first decision of every game. Columns
//! `side0`/`side1` give the sides the seats played at the *end*; after a pie-rule swap
//! (a move written `swap` in `moves`) the seats have exchanged sides, so seat 0 started
//! as `side1`. The *first side* of a game is the side seat 0 started as (`side0`, or
//! `side1` when the game has a `swap` move), i.e. the side that made the first move,
//! whoever ended up playing it; the `side` statistics are that side's results. The swap
//! rate is the share of games with a `swap` move.

mod compute;
mod model;
mod summary_csv;
mod table;

pub(crate) use compute::seat_results;
pub use compute::{find_anchor, summarise};
pub use model::{Interval, SeatResults, Summary};
pub(crate) use table::{grid, header, sections, table, Section};

/// A length statistic as printed in summary.csv and the table: two decimals.
pub(crate) fn format_length(x: f64) -> String {
    format!("{x:.2}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameRow, Result0, SummaryRow};
    use crate::reporting::stats::sprt::{Decision, Sprt};

    fn row(game: u64, pairing: u64, agents: [&str; 2], result0: Result0) -> GameRow {
        GameRow::example(game, pairing, agents, result0, 10 + game as u32)
    }

    fn find<'a>(
        rows: &'a [SummaryRow],
        section: &str,
        pairing: &str,
        statistic: &str,
    ) -> &'a SummaryRow {
        rows.iter()
            .find(|r| r.section == section && r.pairing == pairing && r.statistic == statistic)
            .unwrap_or_else(|| panic!("no {section} {pairing} {statistic}"))
    }

    fn value<'a>(rows: &'a [SummaryRow], section: &str, pairing: &str, statistic: &str) -> &'a str {
        &find(rows, section, pairing, statistic).value
    }

    /// Every `value`, `low` and `high` of `rows` is empty or a number as Python's
    /// `float()` (and pandas) reads one, and `text` is set exactly on `words`' rows.
    fn assert_numeric_but(rows: &[SummaryRow], words: &[&str]) {
        // Rust reads numbers as Python does: `0.5`, `12`, `3.05e-7`, `inf`, `-inf`.
        let number = |s: &str| s.is_empty() || s.parse::<f64>().is_ok();
        for r in rows {
            for field in [&r.value, &r.low, &r.high] {
                assert!(number(field), "{r:?}: {field:?} is not a number");
            }
            let is_word = words.contains(&r.statistic.as_str());
            assert_eq!(!r.text.is_empty(), is_word, "{r:?}");
            assert!(!is_word || r.value.is_empty(), "{r:?}");
        }
    }

    #[test]
    fn pairing_rows_are_from_agent_a_and_seat_rows_from_seat_0() {
        use Result0::*;
        // Pairing 0, A = x: game 0 x(seat 0) wins, game 1 x(seat 1) wins (seat 0 lost),
        // game 2 x(seat 0) loses, game 3 draw.
        let games = [
            row(0, 0, ["x", "y"], Win),
            row(1, 0, ["y", "x"], Loss),
            row(2, 0, ["x", "y"], Loss),
            row(3, 0, ["y", "x"], Draw),
        ];
        let summary = summarise(&games, None, None).unwrap();
        let p = &summary.pairings[0];
        assert_eq!((p.agent_a.as_str(), p.agent_b.as_str()), ("x", "y"));
        assert_eq!((p.a.wins, p.a.draws, p.a.losses), (2, 1, 1));
        // Pairs: pair 0 = WW (4 half points), pair 1 = LD (1).
        assert_eq!(p.pairs.counts, [0, 1, 0, 0, 1]);
        let rows = summary.rows();
        assert_eq!(value(&rows, "pairing", "0", "score"), "0.6250");
        // Seat 0: 1 win, 1 draw, 2 losses; decisive 1/3.
        assert_eq!(value(&rows, "seat", "", "wins"), "1");
        assert_eq!(value(&rows, "seat", "", "losses"), "2");
        assert_eq!(value(&rows, "seat", "", "win_rate"), "0.3333");
        // Exact test of 1 of 3: 2·(1 + 3)/8 = 1 → 1.0000.
        assert_eq!(value(&rows, "seat", "", "p_value"), "1.0000");
        assert_eq!(value(&rows, "length", "0", "median"), "11.50");
        let anchor = find(&rows, "rating", "", "anchor");
        assert_eq!((anchor.value.as_str(), anchor.text.as_str()), ("", "mean"));
        assert_numeric_but(&rows, &["anchor"]);
        let anchored = summarise(&games, Some("y"), None).unwrap().rows();
        assert_eq!(find(&anchored, "rating", "", "anchor").text, "y");
    }

    #[test]
    fn swaps_change_the_first_side_and_incomplete_pairs_are_left_out() {
        use Result0::*;
        let mut swapped = row(1, 0, ["y", "x"], Win);
        // Seat 0 started black, seat 1 swapped: seat 0 ends as white and wins, so the
        // first side (black, played by seat 1 at the end) lost.
        swapped.moves = "a1 swap b2".into();
        swapped.side0 = "white".into();
        swapped.side1 = "black".into();
        let games = [
            row(0, 0, ["x", "y"], Win),
            swapped,
            row(2, 0, ["x", "y"], Draw),
        ];
        let summary = summarise(&games, None, None).unwrap();
        let all = &summary.scopes[0];
        assert_eq!(all.swaps, 1);
        let black = all.first_side["black"].wdl;
        assert_eq!((black.wins, black.draws, black.losses), (1, 1, 1));
        assert_eq!((all.seat0.wdl.wins, all.seat0.wdl.draws), (2, 1));
        // Pair 1 has only game 2: left out. Pair 0: x won game 0, lost game 1 → WL.
        assert_eq!(summary.pairings[0].pairs.counts, [0, 0, 1, 0, 0]);
    }

    #[test]
    fn no_games_give_an_empty_summary_without_a_panic() {
        let summary = summarise(&[], None, None).unwrap();
        assert!(summary.pairings.is_empty() && summary.ratings.is_none());
        let rows = summary.rows();
        assert_eq!(value(&rows, "seat", "", "wins"), "0");
        assert_eq!(value(&rows, "seat", "", "win_rate"), "");
        assert_eq!(value(&rows, "swap", "", "swap_rate"), "");
        assert!(table(&summary).starts_with("pairings "));
    }

    #[test]
    fn lengths_are_given_in_plies_turns_and_decisions_each_naming_its_unit() {
        use Result0::*;
        // Two Pig-like games: many plies (dice included), fewer decisions, fewer turns.
        let mut games = [row(0, 0, ["x", "y"], Win), row(1, 0, ["y", "x"], Loss)];
        for (g, (plies, turns, d0, d1)) in games.iter_mut().zip([(16, 7, 7, 4), (7, 3, 4, 1)]) {
            (g.plies, g.turns, g.decisions0, g.decisions1) = (plies, turns, d0, d1);
        }
        let summary = summarise(&games, None, None).unwrap();
        let lengths: Vec<String> = summary
            .rows()
            .iter()
            .filter(|r| r.section == "length" && r.pairing.is_empty())
            .filter(|r| ["min", "max"].contains(&r.statistic.as_str()))
            .map(|r| format!("{} {} {}", r.subject, r.statistic, r.value))
            .collect();
        assert_eq!(
            lengths,
            [
                "plies min 7",
                "plies max 16",
                "turns min 3",
                "turns max 7",
                "decisions min 5",
                "decisions max 11"
            ]
        );
        let printed = table(&summary);
        let at = printed.find("game length in plies").unwrap();
        let section: Vec<&str> = printed[at..].lines().take(4).collect();
        assert_eq!(
            section[1..],
            [
                "scope      in     games   mean    sd  min    q1  median     q3  max",
                "all games  plies      2  11.50  6.36    7  9.25   11.50  13.75   16",
                "all games  turns      2   5.00  2.83    3  4.00    5.00   6.00    7",
            ]
        );
    }

    #[test]
    fn an_anchor_spec_finds_the_short_label_of_the_same_agent() {
        let labels = ["ab:depth=6".to_string(), "random".to_string()];
        assert_eq!(find_anchor(&labels, "ab:depth=6,hash=16,threads=1"), Ok(0));
        assert_eq!(find_anchor(&labels, "random"), Ok(1));
        // An older run's labels were full specs; a short spec still finds them.
        let old = ["ab:depth=6,hash=16,threads=1".to_string()];
        assert_eq!(find_anchor(&old, "ab:depth=6"), Ok(0));
    }

    #[test]
    fn anchor_and_sprt_are_checked() {
        use Result0::*;
        let games = [
            row(0, 0, ["x", "y"], Win),
            row(1, 0, ["y", "x"], Loss),
            row(2, 1, ["x", "z"], Draw),
            row(3, 1, ["z", "x"], Draw),
        ];
        assert_eq!(
            summarise(&games, Some("w"), None).unwrap_err().0,
            "--anchor: unknown agent \"w\" (agents: x, y, z)"
        );
        let anchored = summarise(&games, Some("y"), None).unwrap();
        let ratings = anchored.ratings.unwrap();
        assert_eq!(ratings.anchor.as_deref(), Some("y"));
        assert_eq!(ratings.agents[1].elo.elo, 0.0);
        assert!(ratings.agents[0].elo.elo > 0.0);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert_eq!(
            summarise(&games, None, Some(&sprt)).unwrap_err().0,
            "--sprt needs a run of two agents (one pairing), this one has 2 pairings"
        );
        let two = summarise(&games[..2], None, Some(&sprt)).unwrap();
        let verdict = two.sprt.unwrap();
        assert!(verdict.llr > 0.0);
        assert_eq!(verdict.decision, Decision::Continue);
        let rows = two.rows();
        let decision = find(&rows, "sprt", "0", "decision");
        assert_eq!(
            (decision.value.as_str(), decision.text.as_str()),
            ("", "continue")
        );
        assert_eq!(value(&rows, "sprt", "0", "elo1"), "5");
        assert_numeric_but(&rows, &["decision", "anchor"]);
        assert!(table(&two).contains("SPRT elo0 0, elo1 5, alpha 0.05, beta 0.05: LLR "));
    }

    /// Pairing 0 of `agents` with `moves` as the move lists of its games, seat 0 winning
    /// every game.
    fn games_with_moves(agents: [&str; 2], moves: &[&str]) -> Vec<GameRow> {
        (0..moves.len() as u64)
            .map(|g| {
                let seats = if g % 2 == 0 {
                    agents
                } else {
                    [agents[1], agents[0]]
                };
                let mut row = row(g, 0, seats, Result0::Win);
                row.moves = moves[g as usize].into();
                row
            })
            .collect()
    }

    #[test]
    fn distinct_games_are_counted_and_repeats_warned_about() {
        // 10 games, 9 distinct: 90% passes.
        let nine = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "i"];
        let summary = summarise(&games_with_moves(["x", "y"], &nine), None, None).unwrap();
        assert_eq!(summary.pairings[0].distinct, 9);
        assert_eq!(
            value(&summary.rows(), "pairing", "0", "distinct_games"),
            "9"
        );
        assert!(summary.warnings().is_empty());
        // 10 games, 8 distinct: below 90%.
        let eight = ["a", "b", "c", "d", "e", "f", "g", "h", "h", "h"];
        let summary = summarise(&games_with_moves(["x", "y"], &eight), None, None).unwrap();
        assert_eq!(
            summary.warnings(),
            [
                "warning: pairing 0 (x vs y): 8 distinct games (by move list) in 10, so its \
              results count the same games again; vary the start with --random-opening K or \
              --openings FILE"
            ]
        );
        let text = table(&summary);
        assert!(text.contains("games  distinct"), "{text}");
        assert!(
            text.contains("\n0  x        y           10         8  "),
            "{text}"
        );
    }

    #[test]
    fn self_play_leaves_pair_statistics_empty_and_says_why() {
        let moves = ["a", "b", "c", "d"];
        let summary = summarise(&games_with_moves(["x", "x"], &moves), None, None).unwrap();
        let rows = summary.rows();
        for statistic in [
            "pairs", "pairs_ll", "pairs_ld", "pairs_dd", "pairs_wd", "pairs_ww",
        ] {
            assert_eq!(value(&rows, "pairing", "0", statistic), "", "{statistic}");
        }
        let elo_pairs = rows.iter().find(|r| r.statistic == "elo_pairs").unwrap();
        assert_eq!([&elo_pairs.low, &elo_pairs.high], ["", ""]);
        let text = table(&summary);
        assert!(!text.contains("pairs LL-LD-DD-WD-WW"), "{text}");
        assert!(!text.contains("Elo by pairs"), "{text}");
        assert!(
            text.contains(
                "pairing 0: self-play, so each game stands alone (a pair does not share its \
                 start and luck): pair statistics do not apply\n"
            ),
            "{text}"
        );
        // Beside a pairing of two agents, the self-play row leaves the pair cells blank.
        let mut mixed = games_with_moves(["x", "x"], &moves);
        for mut row in games_with_moves(["x", "y"], &moves) {
            row.game += 4;
            row.pair += 2;
            row.pairing = 1;
            mixed.push(row);
        }
        let summary = summarise(&mixed, None, None).unwrap();
        assert_eq!(value(&summary.rows(), "pairing", "1", "pairs"), "2");
        let text = table(&summary);
        assert!(text.contains("pairs LL-LD-DD-WD-WW"), "{text}");
        assert!(text.contains("pairing 0: self-play"), "{text}");
        assert!(!text.contains("pairing 1: self-play"), "{text}");
    }

    #[test]
    fn swap_rows_are_empty_without_a_pie_rule_and_p_is_explained() {
        let games = games_with_moves(["x", "y"], &["a", "b"]);
        let summary = summarise(&games, None, None).unwrap();
        assert!(!summary.pie_rule);
        let rows = summary.rows();
        assert_eq!(value(&rows, "swap", "", "swaps"), "");
        let rate = rows.iter().find(|r| r.statistic == "swap_rate").unwrap();
        assert_eq!([&rate.value, &rate.low, &rate.high], ["", "", ""]);
        let text = table(&summary);
        assert!(!text.contains("swap rate"), "{text}");
        assert!(
            text.contains(
                "p (50%): the chance of a win rate at least this far from 50% if both were \
                 equally likely to win (exact binomial test, two-sided)"
            ),
            "{text}"
        );
        // With a pie rule, no swap is a swap rate of 0.
        let summary = summary.with_pie_rule(true);
        assert_eq!(value(&summary.rows(), "swap", "", "swaps"), "0");
        assert_eq!(value(&summary.rows(), "swap", "", "swap_rate"), "0.0000");
        assert!(table(&summary).contains("swap rate [95%]"));
    }
}
