//! The summary of a run, computed from its games.csv rows alone, as summary.csv rows and
//! as a printed table.
//!
//! Rows: one `pairing` row per pairing, from agent A's view (A is the pairing's seat 0 in
//! its even games, see [`crate::tournament`]), then one `game` row over every game.
//! Because the summary needs nothing but the game rows, a finished run's summary can be
//! recomputed from its folder at any time.

use std::collections::BTreeMap;

use crate::record::{GameRow, SummaryRow};
use crate::stats::{elo_estimate, format_elo, format_rate, wilson, Wdl};

/// Tallies of one pairing (or of the whole run).
#[derive(Default)]
struct Tally {
    agent_a: String,
    agent_b: String,
    /// Agent A's results against B.
    a: Wdl,
    /// Seat 0's results.
    seat0: Wdl,
}

impl Tally {
    fn add(&mut self, row: &GameRow) {
        // Agent A sits at seat 0 in even games and at seat 1 in odd ones.
        let a_seat = (row.game % 2) as usize;
        if a_seat == 0 {
            self.agent_a.clone_from(&row.agent0);
            self.agent_b.clone_from(&row.agent1);
        }
        self.a.add(row.result0.score(a_seat));
        self.seat0.add(row.result0.score(0));
    }

    /// The seat-0 columns: W/D/L and the win rate over decisive games with its Wilson
    /// interval (empty when no game was decisive).
    fn seat0_fields(&self) -> (String, String, String) {
        let decisive = self.seat0.decisive();
        match wilson(self.seat0.wins, decisive) {
            Some((low, high)) => (
                format_rate(self.seat0.wins as f64 / decisive as f64),
                format_rate(low),
                format_rate(high),
            ),
            None => Default::default(),
        }
    }
}

/// The summary.csv rows of a run's game rows.
pub fn summarise(games: &[GameRow]) -> Vec<SummaryRow> {
    let mut pairings: BTreeMap<u64, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    for row in games {
        pairings.entry(row.pairing).or_default().add(row);
        all.add(row);
    }
    let mut rows: Vec<SummaryRow> = pairings
        .iter()
        .map(|(index, t)| {
            let elo = elo_estimate(&t.a);
            let (rate, low, high) = t.seat0_fields();
            SummaryRow {
                scope: "pairing".into(),
                pairing: index.to_string(),
                agent_a: t.agent_a.clone(),
                agent_b: t.agent_b.clone(),
                games: t.a.games(),
                wins: t.a.wins.to_string(),
                draws: t.a.draws.to_string(),
                losses: t.a.losses.to_string(),
                score: t.a.score().map(format_rate).unwrap_or_default(),
                elo: elo.map(|e| format_elo(e.elo)).unwrap_or_default(),
                elo_low: elo.map(|e| format_elo(e.low)).unwrap_or_default(),
                elo_high: elo.map(|e| format_elo(e.high)).unwrap_or_default(),
                seat0_wins: t.seat0.wins,
                seat0_draws: t.seat0.draws,
                seat0_losses: t.seat0.losses,
                seat0_win_rate: rate,
                seat0_win_low: low,
                seat0_win_high: high,
            }
        })
        .collect();
    let (rate, low, high) = all.seat0_fields();
    rows.push(SummaryRow {
        scope: "game".into(),
        pairing: String::new(),
        agent_a: String::new(),
        agent_b: String::new(),
        games: all.seat0.games(),
        wins: String::new(),
        draws: String::new(),
        losses: String::new(),
        score: String::new(),
        elo: String::new(),
        elo_low: String::new(),
        elo_high: String::new(),
        seat0_wins: all.seat0.wins,
        seat0_draws: all.seat0.draws,
        seat0_losses: all.seat0.losses,
        seat0_win_rate: rate,
        seat0_win_low: low,
        seat0_win_high: high,
    });
    rows
}

/// The summary as a text table, one line per row (the `game` row reads `all games`).
pub fn table(rows: &[SummaryRow]) -> String {
    let header = [
        "#",
        "agent A",
        "agent B",
        "games",
        "W",
        "D",
        "L",
        "score",
        "Elo A-B",
        "95% interval",
        "seat 0 W-D-L",
        "seat-0 win rate [95%]",
    ];
    // Columns after the first three hold numbers and are right-aligned.
    const LEFT_ALIGNED: usize = 3;
    let interval = |low: &str, high: &str| {
        if low.is_empty() {
            String::new()
        } else {
            format!("[{low}, {high}]")
        }
    };
    let mut cells: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    for r in rows {
        let pairing = r.scope == "pairing";
        cells.push(vec![
            if pairing {
                r.pairing.clone()
            } else {
                "-".into()
            },
            if pairing {
                r.agent_a.clone()
            } else {
                "all games".into()
            },
            r.agent_b.clone(),
            r.games.to_string(),
            r.wins.clone(),
            r.draws.clone(),
            r.losses.clone(),
            r.score.clone(),
            r.elo.clone(),
            interval(&r.elo_low, &r.elo_high),
            format!("{}-{}-{}", r.seat0_wins, r.seat0_draws, r.seat0_losses),
            if r.seat0_win_rate.is_empty() {
                "-".into()
            } else {
                format!(
                    "{} {}",
                    r.seat0_win_rate,
                    interval(&r.seat0_win_low, &r.seat0_win_high)
                )
            },
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            cells
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &cells {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c < LEFT_ALIGNED {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Result0;

    fn row(game: u64, pairing: u64, agents: [&str; 2], result0: Result0) -> GameRow {
        GameRow {
            game,
            pair: game / 2,
            pairing,
            agent0: agents[0].into(),
            agent1: agents[1].into(),
            side0: "black".into(),
            side1: "white".into(),
            result0,
            winner: None,
            end_reason: "elimination".into(),
            plies: 1,
            nodes0: 0,
            nodes1: 0,
            opening: 0,
            moves: String::new(),
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
        let rows = summarise(&games);
        assert_eq!(rows.len(), 2);
        let p = &rows[0];
        assert_eq!((p.agent_a.as_str(), p.agent_b.as_str()), ("x", "y"));
        assert_eq!(
            (p.wins.as_str(), p.draws.as_str(), p.losses.as_str()),
            ("2", "1", "1")
        );
        // Score (2 + 0.5)/4 = 0.625; seat 0: 1 win, 1 draw, 2 losses; decisive 1/3.
        assert_eq!(p.score, "0.6250");
        assert_eq!((p.seat0_wins, p.seat0_draws, p.seat0_losses), (1, 1, 2));
        assert_eq!(p.seat0_win_rate, "0.3333");
        let g = &rows[1];
        assert_eq!((g.scope.as_str(), g.games, g.elo.as_str()), ("game", 4, ""));
        let text = table(&rows);
        assert_eq!(text.lines().count(), 3);
        assert!(text.lines().nth(2).unwrap().starts_with("-  all games"));
    }
}
