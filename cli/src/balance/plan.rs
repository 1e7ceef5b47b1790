//! `agon balance --plan`: the arms of a study (each one's full game spec and opening
//! rule), its runs, their games, and an estimate of the time each takes, from a short
//! sample: the first [`SAMPLE_GAMES`] games of each run (its
//! first pair), played one after another on one thread as the run would play them.
//! Nothing is written; the sample's games are thrown away.
//!
//! The estimate of a run is the sample's mean time per game × the run's games ÷ the
//! workers it would start. A game's length varies, and a sample this small only sizes
//! the study (minutes or days); the printed total says so.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::study::{Study, StudyRun};
use crate::games::{dispatch, GameCommand, PlayableGame};
use crate::reporting::summary::{grid, header};
use crate::running::tournament::{play_game, workers_for};
use crate::spec::GameSpec;

/// Games of each run that `--plan` plays to time it: one seat-swapped pair.
pub const SAMPLE_GAMES: u64 = 2;

/// Prints the plan of `study` (its `runs`) with the time estimated for `threads`: first
/// every arm as study.csv records it (its name, the canonical spec of its game with every
/// parameter, and its opening rule as resolved), then the runs.
pub fn print(study: &Study, runs: &[StudyRun], threads: usize, out: &mut dyn Write) -> Result<()> {
    let mut arms = vec![header(&["arm", "game", "opening"])];
    for (_, arm) in study.rows()?.into_iter().filter(|(key, _)| key == "arm") {
        // `<name> <game spec> <opening>`; a canonical spec holds no space.
        let mut parts = arm.splitn(3, ' ').map(String::from);
        arms.push((0..3).map(|_| parts.next().unwrap_or_default()).collect());
    }
    let mut cells = vec![header(&[
        "run",
        "agents",
        "games",
        "sampled",
        "per game",
        "estimated",
    ])];
    let mut total = Duration::ZERO;
    let mut games = 0;
    for run in runs {
        let range = run.plan.game_range();
        let count = range.end - range.start;
        let sample: Vec<u64> = range.clone().take(SAMPLE_GAMES as usize).collect();
        let mut elapsed = Duration::ZERO;
        dispatch(
            &run.plan.game,
            TimeSample {
                run,
                games: &sample,
                elapsed: &mut elapsed,
            },
        )?;
        let per_game = elapsed.as_secs_f64() / sample.len().max(1) as f64;
        let estimate =
            Duration::from_secs_f64(per_game * count as f64 / workers_for(threads, count) as f64);
        total += estimate;
        games += count;
        let agents: Vec<&str> = run.plan.entrants.iter().map(|e| e.label.as_str()).collect();
        cells.push(vec![
            run.folder.display().to_string(),
            agents.join(" vs "),
            count.to_string(),
            sample.len().to_string(),
            per_game_text(per_game),
            duration(estimate),
        ]);
    }
    writeln!(
        out,
        "plan of the study of {} ({} arm{}, {} runs, {games} games, seed {}, {} thread{}):\n{}\n{}",
        study.game,
        study.arms.len(),
        if study.arms.len() == 1 { "" } else { "s" },
        runs.len(),
        study.seed,
        threads,
        if threads == 1 { "" } else { "s" },
        grid(&arms, 3),
        grid(&cells, 2)
    )?;
    writeln!(
        out,
        "estimated total: {} (from {SAMPLE_GAMES} games a run: a rough size, not a promise); \
         nothing was written",
        duration(total)
    )?;
    Ok(())
}

/// The time of one game: `3.2 ms` below a second, else `1.25 s`.
fn per_game_text(seconds: f64) -> String {
    if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1000.0)
    } else {
        format!("{seconds:.2} s")
    }
}

/// A duration as `12 s`, `3.4 min`, `5.6 h` or `7.8 days`.
fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.1} min", s / 60.0)
    } else if s < 172_800.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86_400.0)
    }
}

/// Plays the sample `games` of a run, timing them.
struct TimeSample<'a> {
    run: &'a StudyRun,
    games: &'a [u64],
    elapsed: &'a mut Duration,
}

impl GameCommand for TimeSample<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
        let start = Instant::now();
        for &index in self.games {
            play_game(&game, &self.run.plan, index)?;
        }
        *self.elapsed = start.elapsed();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_the_unit_that_fits() {
        let s = Duration::from_secs_f64;
        assert_eq!(duration(s(0.4)), "0 s");
        assert_eq!(duration(s(119.0)), "119 s");
        assert_eq!(duration(s(600.0)), "10.0 min");
        assert_eq!(duration(s(9000.0)), "2.5 h");
        assert_eq!(duration(s(259_200.0)), "3.0 days");
        assert_eq!(per_game_text(0.0032), "3.2 ms");
        assert_eq!(per_game_text(1.254), "1.25 s");
    }
}
