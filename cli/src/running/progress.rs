//! Progress of a tournament on standard error: games done of the total, rate, time left
//! and the running score of the first pairing.
//!
//! On a terminal it is an indicatif bar redrawn in place. Anywhere else (a log file, CI)
//! it is a plain line now and then — when another tenth of the games is done (at most one
//! line a second) or 30 s after the last line — so logs stay short:
//!
//! ```text
//! progress: 120/400 games, 3.1 games/s, ETA 90 s, ab:depth=3 60.5-59.5 greedy
//! ```
//!
//! Standard output is never touched: it holds the results, which tests compare byte for
//! byte. A game lost by forfeit is announced by one line here, in game order (see
//! [`crate::running::tournament::game::agent_move`]).

use std::fmt;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::record::GameRow;
use crate::record::FORFEIT;
use crate::stop::Stop;

/// A plain line is due after at least this much more of the run (one tenth)...
const LINE_FRACTION: u64 = 10;
/// ...but not sooner than this after the last line, so short runs print none...
const LINE_MIN_GAP: Duration = Duration::from_secs(1);
/// ...and in any case this long after the last line, so a slow run still shows life.
const LINE_MAX_GAP: Duration = Duration::from_secs(30);

/// The running score of the first pairing, from its agent A's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Score {
    agent_a: String,
    agent_b: String,
    /// Points of A and of B, doubled so that draws stay whole.
    doubled: [u64; 2],
}

impl Score {
    fn add(&mut self, row: &GameRow) {
        if row.pairing != 0 {
            return;
        }
        if row.a_seat() == 0 {
            self.agent_a.clone_from(&row.agent0);
            self.agent_b.clone_from(&row.agent1);
        }
        let a = row.a_half_points() as u64;
        self.doubled[0] += a;
        self.doubled[1] += 2 - a;
    }

    /// `A 3.5-2.5 B`, or nothing before the first game of pairing 0.
    fn text(&self) -> String {
        if self.agent_a.is_empty() {
            return String::new();
        }
        let points = |d: u64| {
            if d % 2 == 0 {
                (d / 2).to_string()
            } else {
                format!("{}.5", d / 2)
            }
        };
        format!(
            "{} {}-{} {}",
            self.agent_a,
            points(self.doubled[0]),
            points(self.doubled[1]),
            self.agent_b
        )
    }
}

/// Where progress goes.
enum Display {
    /// A bar on a terminal.
    Bar(ProgressBar),
    /// Plain lines; when and at how many games the last one was printed.
    Lines { at: Instant, done: u64 },
}

/// The progress of one run, fed one finished game at a time in game order.
pub struct Progress {
    total: u64,
    /// Games done when this process started (a resumed run's earlier games).
    resumed: u64,
    done: u64,
    started: Instant,
    score: Score,
    display: Display,
    /// Whether this bar covers several runs (a study): then no running score is shown
    /// (each run has its own pairing 0), and the end of one run does not clear the bar.
    spans_runs: bool,
    /// The request that stops the runs this progress follows between games
    /// ([`Progress::with_stop`]); one nobody makes by default.
    stop: Stop,
}

impl Progress {
    /// Progress of a run of `total` games whose first games are `done` (a resumed run);
    /// a bar if standard error is a terminal, plain lines otherwise.
    pub fn new(total: u64, done: &[GameRow]) -> Progress {
        let mut score = Score::default();
        done.iter().for_each(|row| score.add(row));
        let resumed = done.len() as u64;
        let now = Instant::now();
        let display = if std::io::stderr().is_terminal() {
            // `wide_msg` takes the rest of the line and is cut to the terminal's width, so
            // the bar never wraps (a wrapped bar is redrawn as a new line each time).
            let style = ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games  {rate}  ETA {eta}  {wide_msg}",
            )
            .expect("the template is valid")
            .with_key("rate", |state: &ProgressState, w: &mut dyn fmt::Write| {
                let _ = write!(w, "{:.1} games/s", state.per_sec());
            });
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_style(style)
                .with_position(resumed)
                .with_message(score.text());
            Display::Bar(bar)
        } else {
            Display::Lines {
                at: now,
                done: resumed,
            }
        };
        Progress {
            total,
            resumed,
            done: resumed,
            started: now,
            score,
            display,
            spans_runs: false,
            stop: Stop::new(),
        }
    }

    /// The same progress, with the runs it follows stopping between games when `stop`
    /// is requested. The progress carries the request because every run is given its
    /// progress, and a study's one progress spans all its runs.
    pub fn with_stop(mut self, stop: &Stop) -> Progress {
        self.stop = stop.clone();
        self
    }

    /// The request that stops the runs this progress follows.
    pub fn stop(&self) -> &Stop {
        &self.stop
    }

    /// Progress of a study: `total` games over several runs played one after another,
    /// each told to [`Progress::skip`] what it had already played and to
    /// [`Progress::game_done`] each game it plays; no score is shown, and the bar stays
    /// until [`Progress::end`].
    pub fn over_runs(total: u64) -> Progress {
        let mut progress = Progress::new(total, &[]);
        progress.spans_runs = true;
        progress
    }

    /// Adds `games` to the total: a race learns how many games its next round plays
    /// only when the round before it ends.
    pub fn add_total(&mut self, games: u64) {
        self.total += games;
        if let Display::Bar(bar) = &self.display {
            bar.set_length(self.total);
        }
    }

    /// Prints `line` on standard error without breaking the bar (above it, on a
    /// terminal).
    pub fn note(&self, line: &str) {
        match &self.display {
            Display::Bar(bar) => bar.println(line),
            Display::Lines { .. } => eprintln!("{line}"),
        }
    }

    /// Counts `games` found already played (a resumed run's), outside the rate.
    pub fn skip(&mut self, games: u64) {
        self.resumed += games;
        self.done += games;
        if let Display::Bar(bar) = &self.display {
            bar.set_position(self.done);
        }
    }

    /// Counts the game of `row`, just written, and shows progress if due; announces a
    /// forfeit.
    pub fn game_done(&mut self, row: &GameRow) {
        self.done += 1;
        if !self.spans_runs {
            self.score.add(row);
        }
        let forfeit =
            (row.end_reason == FORFEIT).then(|| format!("game {}: {}", row.game, row.note));
        match &mut self.display {
            Display::Bar(bar) => {
                if let Some(line) = forfeit {
                    bar.println(line);
                }
                bar.set_position(self.done);
                bar.set_message(self.score.text());
            }
            Display::Lines { at, done } => {
                if let Some(line) = forfeit {
                    eprintln!("{line}");
                }
                let now = Instant::now();
                if line_due(self.total, *done, self.done, now - *at) {
                    eprintln!(
                        "{}",
                        line(
                            self.done,
                            self.total,
                            self.done - self.resumed,
                            now - self.started,
                            &self.score.text()
                        )
                    );
                    (*at, *done) = (now, self.done);
                }
            }
        }
    }

    /// Ends a run's display: the bar is cleared (the summary follows); plain lines need
    /// nothing. A study's bar ([`Progress::over_runs`]) stays for the next run.
    pub fn finish(&mut self) {
        if !self.spans_runs {
            self.end();
        }
    }

    /// Ends the display for good: the bar is cleared.
    pub fn end(&mut self) {
        if let Display::Bar(bar) = &self.display {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    /// Clears the bar also when the run stops on an error, before the error is printed.
    fn drop(&mut self) {
        self.end();
    }
}

/// Whether a plain line is due with `done` of `total` games finished, the last line
/// having been printed at `last_done` games and `since` ago. Never at the end (the summary
/// follows at once).
fn line_due(total: u64, last_done: u64, done: u64, since: Duration) -> bool {
    // Saturating: a run may have nearly 2^64 games.
    let tenth_more = (done - last_done).saturating_mul(LINE_FRACTION) >= total;
    done < total && ((tenth_more && since >= LINE_MIN_GAP) || since >= LINE_MAX_GAP)
}

/// The plain progress line: `played` games in `elapsed` by this process give the rate
/// and the time left; `score` (may be empty) ends the line.
fn line(done: u64, total: u64, played: u64, elapsed: Duration, score: &str) -> String {
    let rate = played as f64 / elapsed.as_secs_f64().max(1e-9);
    let eta = if played == 0 {
        "?".to_string()
    } else {
        format!("{:.0} s", (total - done) as f64 / rate)
    };
    let mut text = format!("progress: {done}/{total} games, {rate:.1} games/s, ETA {eta}");
    if !score.is_empty() {
        text.push_str(", ");
        text.push_str(score);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Result0;

    fn row(game: u64, pairing: u64, result0: Result0) -> GameRow {
        let agents = if game % 2 == 0 {
            ["a", "b"]
        } else {
            ["b", "a"]
        };
        GameRow::example(game, pairing, agents, result0, 1)
    }

    #[test]
    fn the_score_counts_pairing_0_from_agent_a() {
        let mut score = Score::default();
        assert_eq!(score.text(), "");
        // Game 0: a (seat 0) wins; game 1: b at seat 0 wins; game 2: draw; pairing 1
        // does not count.
        score.add(&row(0, 0, Result0::Win));
        score.add(&row(1, 0, Result0::Win));
        score.add(&row(2, 0, Result0::Draw));
        score.add(&row(4, 1, Result0::Win));
        assert_eq!(score.text(), "a 1.5-1.5 b");
        score.add(&row(3, 0, Result0::Loss));
        assert_eq!(score.text(), "a 2.5-1.5 b");
    }

    #[test]
    fn plain_lines_come_every_tenth_or_every_30_s() {
        let s = Duration::from_secs;
        // 400 games: a tenth is 40.
        assert!(!line_due(400, 80, 119, s(5)));
        assert!(line_due(400, 80, 120, s(5)));
        assert!(!line_due(400, 80, 120, Duration::from_millis(500)));
        assert!(line_due(400, 80, 81, s(30)));
        assert!(!line_due(400, 360, 400, s(60)));
        // Near 2^64 games the count of games since the last line cannot overflow.
        assert!(line_due(u64::MAX, 0, u64::MAX / 5, s(5)));
    }

    #[test]
    fn the_plain_line_shows_rate_eta_and_score() {
        // 100 games played in 32.26 s: 3.1 games/s; 280 left: 90.3 s.
        assert_eq!(
            line(
                120,
                400,
                100,
                Duration::from_millis(32_260),
                "ab 60.5-59.5 greedy"
            ),
            "progress: 120/400 games, 3.1 games/s, ETA 90 s, ab 60.5-59.5 greedy"
        );
        assert_eq!(
            line(7, 10, 0, Duration::from_secs(2), ""),
            "progress: 7/10 games, 0.0 games/s, ETA ?"
        );
    }
}
