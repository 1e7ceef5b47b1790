//! `agon balance --search`: the fairest variant of a game, found by racing every
//! combination of the knobs' values at one level of the ladder.
//!
//! **Candidates** ([`mod@candidates`]): each `--search KEY=V1,V2,...` names a parameter of
//! the game and values to try; every combination, applied to `--game`, is a candidate
//! (`c01`, `c02`, ... in the order of the flags, the first key changing slowest).
//!
//! **Rounds.** Each round, every candidate still in the race plays `--round` more
//! self-play games of the level's agent; then the rule of [`rule`] removes those surely
//! further from an even game than the best, and the race stops when one candidate is
//! left, when every candidate left is measured to `--width`, or when another round
//! would pass `--budget` games. Candidate `c`'s games are the games of one long run
//! (`R · round` games, `R` the most rounds the budget allows, the study's seed and
//! opening rule), cut into `R` slices as shards cut a run: round `r` plays slice `r`
//! into the folder `c<i>/round-<r>`, an ordinary run folder (a shard `r/R` of that
//! run). So no two games of a candidate share an opening drawn without replacement, a
//! candidate's games do not depend on when the others left, and the race replays from
//! its folders: resumed (`--resume`) or reported again, it makes the same decisions.
//!
//! **Checks.** The fairest candidate then plays `--games` self-play games at the
//! ladder's levels just below and above (`check/L<k>` folders, where the ladder has
//! them), so that a designer sees whether the fix holds as play gets stronger. Where
//! the level's agent is exact (`optimal` or `solve`), each candidate's exact seat-0
//! score is computed and printed beside its interval.
//!
//! **Files** ([`report`]): study.csv (the race's identity, format `race-1`, as a study's
//! is), search.csv (tidy: one row per candidate and round, and per check), race.svg
//! (the last interval of every candidate), and the verdict lines, with a study's warning
//! where fewer than 90% of a candidate's games are distinct. search.csv is written
//! last: it marks the race as finished. A finished race is only read, never written.

mod candidates;
mod report;
mod rule;

use std::io::Write;
use std::path::Path;

use agon_engine::{Evaluator, ParamKind, State, Turn};
use agon_search::registry::AgentKind;
use agon_search::{SearchContext, Value};
use anyhow::Result;

use self::candidates::candidates;
use self::report::{RaceRecord, RoundRecord, Status, Stop, SEARCH_FILE};
use self::rule::{corrected_z, eliminated, fairest, Score};
use super::folder::{inspect, run_state, RunState, StudyFolder};
use super::play_study_run;
use super::study::{asked_openings, checked_arm, digest, rungs, write_study, Arm, Rung, StudyRun};
use crate::args::BalanceArgs;
use crate::bad_input::BadInput;
use crate::games::{dispatch, GameCommand, PlayableGame};
use crate::record::{toolkit, GameRow, Result0};
use crate::reporting::stats::Wdl;
use crate::running::lock::RunLock;
use crate::running::progress::Progress;
use crate::running::table_memory;
use crate::running::tournament::{worker_threads, Plan};
use crate::seeds;
use crate::shard::Shard;
use crate::spec::{AgentSpec, GameSpec};

/// Version of a race's study.csv layout.
const RACE_FORMAT: &str = "race-1";

/// Everything that determines a race.
struct Race {
    /// The base game (`--game`).
    game: GameSpec,
    /// The `--search` flags as given (trimmed).
    search: Vec<String>,
    /// The candidates, each an arm with its opening resolved.
    candidates: Vec<Arm>,
    /// Each candidate's picks of the searched knobs.
    picks: Vec<Vec<(String, String)>>,
    /// The level of the race.
    rung: Rung,
    /// The levels of the checks (below, above: those the ladder has).
    checks: Vec<Rung>,
    /// Games per candidate per round.
    round: u64,
    /// Games of the race at most.
    budget: u64,
    /// The width at which survivors count as measured, as a score fraction.
    width: f64,
    /// Games of each check.
    check_games: u64,
    /// Seed of every run.
    seed: u64,
    /// The opening rule as asked (as a study's).
    openings: String,
}

impl Race {
    /// The race the command line asks for, every part checked before anything is
    /// written: the game, the knobs and every candidate game, the level, the numbers.
    fn from_args(args: &BalanceArgs) -> Result<Race> {
        if args.shard.is_some() {
            return Err(BadInput::new(
                "--shard cannot split a --search: each round's candidates depend on the \
                 rounds before it; run the race on one machine (--threads 0 uses every core)",
            )
            .into());
        }
        let game = GameSpec::parse(&args.game)?;
        let (specs, picks): (Vec<GameSpec>, Vec<_>) =
            candidates(&game, &args.search)?.into_iter().unzip();
        let level = args.level.as_deref().unwrap_or_default().trim();
        let rung = rungs(&game, &[level.to_string()], &[])
            .map_err(|e| BadInput::new(e.0.replace("--levels", "--level")))?
            .remove(0);
        let ladder = crate::games::ladder(game.name).len();
        let checks: Vec<Rung> = [rung.number.checked_sub(1), Some(rung.number + 1)]
            .into_iter()
            .flatten()
            .filter(|k| (2..=ladder).contains(k))
            .map(|k| rungs(&game, &[k.to_string()], &[]).map(|mut r| r.remove(0)))
            .collect::<Result<_, _>>()?;
        if args.round == 0 || args.round % 2 != 0 {
            return Err(BadInput::new(format!(
                "--round must be even and at least 2 (games 2k and 2k+1 form a pair), got {}",
                args.round
            ))
            .into());
        }
        if args.budget < 2 * args.round {
            return Err(BadInput::new(format!(
                "--budget {} is less than one round of two candidates ({} games); raise it \
                 or lower --round",
                args.budget,
                2 * args.round
            ))
            .into());
        }
        if !(args.width.is_finite() && args.width > 0.0 && args.width <= 100.0) {
            return Err(BadInput::new(format!(
                "--width {} is not valid: expected points of score above 0, at most 100",
                args.width
            ))
            .into());
        }
        let (asked, openings, check) = asked_openings(args, &game)?;
        let mut played = vec![rung.clone()];
        played.extend(checks.iter().cloned());
        let candidates = specs
            .into_iter()
            .enumerate()
            .map(|(i, spec)| {
                checked_arm(
                    candidate_name(i, 0),
                    spec,
                    &played,
                    args.seed,
                    asked.as_ref(),
                    check.as_ref(),
                )
            })
            .collect::<Result<Vec<_>>>()?;
        let width_digits = candidates.len().to_string().len().max(2);
        let candidates = candidates
            .into_iter()
            .enumerate()
            .map(|(i, arm)| Arm {
                name: candidate_name(i, width_digits),
                ..arm
            })
            .collect();
        Ok(Race {
            game,
            search: args.search.iter().map(|s| s.trim().to_string()).collect(),
            candidates,
            picks,
            rung,
            checks,
            round: args.round,
            budget: args.budget,
            width: args.width / 100.0,
            check_games: args.games,
            seed: args.seed,
            openings,
        })
    }

    /// The most rounds the budget allows: each round with two candidates or more costs
    /// at least two rounds' games.
    fn max_rounds(&self) -> u64 {
        (self.budget / (2 * self.round)).max(1)
    }

    /// The intervals of the race in all: candidates × rounds.
    fn looks(&self) -> u64 {
        self.candidates.len() as u64 * self.max_rounds()
    }

    /// The run of candidate `c`'s round `r` (from 1): slice `r` of its long run.
    fn round_run(&self, c: usize, r: u64) -> Result<StudyRun, BadInput> {
        let arm = &self.candidates[c];
        let rounds = self.max_rounds();
        let plan = Plan::new(
            arm.game.clone(),
            vec![self.rung.spec.clone()],
            rounds * self.round,
            self.seed,
        )?
        .with_opening(arm.opening.clone())
        .with_opening_check(arm.check.clone())
        .with_shard(Shard {
            index: r,
            count: rounds,
        })?;
        let digits = rounds.to_string().len().max(2);
        Ok(StudyRun {
            folder: Path::new(&arm.name).join(format!("round-{r:0digits$}")),
            plan,
        })
    }

    /// The check of candidate `c` at `rung`.
    fn check_run(&self, c: usize, rung: &Rung) -> Result<StudyRun, BadInput> {
        let arm = &self.candidates[c];
        let plan = Plan::new(
            arm.game.clone(),
            vec![rung.spec.clone()],
            self.check_games,
            self.seed,
        )?
        .with_opening(arm.opening.clone())
        .with_opening_check(arm.check.clone());
        Ok(StudyRun {
            folder: Path::new("check").join(&rung.name),
            plan,
        })
    }

    /// The rows of study.csv: the race's identity (see the module docs), digest last.
    fn rows(&self) -> Vec<(String, String)> {
        let mut rows: Vec<(String, String)> = vec![
            ("format".into(), RACE_FORMAT.into()),
            ("toolkit".into(), toolkit()),
            ("game".into(), self.game.to_string()),
        ];
        rows.extend(self.search.iter().map(|s| ("search".into(), s.clone())));
        rows.push(("agent".into(), self.rung.spec.to_string()));
        rows.extend(
            self.checks
                .iter()
                .map(|r| ("check".into(), r.spec.to_string())),
        );
        for (key, value) in [
            ("round", self.round.to_string()),
            ("budget", self.budget.to_string()),
            ("width", format!("{}", self.width * 100.0)),
            ("games", self.check_games.to_string()),
            ("seed", self.seed.to_string()),
            ("openings", self.openings.clone()),
        ] {
            rows.push((key.into(), value));
        }
        for arm in &self.candidates {
            rows.push(("candidate".into(), format!("{} {}", arm.name, arm.game)));
        }
        let digest = digest(&rows);
        rows.push(("digest".into(), digest));
        rows
    }

    /// Runs the race, each run's rows from `fetch` (`None`: the
    /// run is not finished and will not be played, so the race stops short and `None`
    /// is returned).
    fn run(
        &self,
        fetch: &mut dyn FnMut(&StudyRun) -> Result<Option<Vec<GameRow>>>,
    ) -> Result<Option<RaceRecord>> {
        let z = corrected_z(self.looks());
        let n = self.candidates.len();
        let mut records = vec![Tally::default(); n];
        let mut status = vec![Status::Racing; n];
        let mut rounds = Vec::new();
        let mut played = 0;
        // Each candidate's move lists so far, and its games that repeat an earlier one.
        let mut seen = vec![std::collections::HashSet::new(); n];
        let mut repeated = vec![0; n];
        // Each candidate's score at the race's z while it races, `None` once it is out.
        let racing_scores = |records: &[Tally], status: &[Status]| -> Vec<Option<Score>> {
            records
                .iter()
                .zip(status)
                .map(|(t, s)| {
                    (*s == Status::Racing)
                        .then(|| Score::of(&t.wdl, z))
                        .flatten()
                })
                .collect()
        };
        let stop = loop {
            let racing: Vec<usize> = (0..n).filter(|&c| status[c] == Status::Racing).collect();
            if played + racing.len() as u64 * self.round > self.budget {
                break Stop::Budget;
            }
            let r = rounds.len() as u64 + 1;
            for &c in &racing {
                let run = self.round_run(c, r)?;
                let Some(rows) = fetch(&run)? else {
                    return Ok(None);
                };
                records[c].add(&rows);
                for row in &rows {
                    if !seen[c].insert(row.moves.clone()) {
                        repeated[c] += 1;
                    }
                }
                played += rows.len() as u64;
            }
            for c in eliminated(&racing_scores(&records, &status)) {
                status[c] = Status::Out(r);
            }
            rounds.push(RoundRecord {
                round: r,
                tallies: records.clone(),
            });
            let left: Vec<usize> = (0..n).filter(|&c| status[c] == Status::Racing).collect();
            if left.len() == 1 {
                break Stop::OneLeft;
            }
            let measured = left
                .iter()
                .all(|&c| Score::of(&records[c].wdl, z).is_some_and(|s| s.width() <= self.width));
            if measured {
                break Stop::Width;
            }
        };
        let best = fairest(&racing_scores(&records, &status))
            .expect("a race keeps at least one candidate");
        for (c, s) in status.iter_mut().enumerate() {
            if *s == Status::Racing {
                *s = if c == best {
                    Status::Fairest
                } else {
                    Status::WithinReach
                };
            }
        }
        let mut checks = Vec::new();
        for rung in &self.checks {
            let run = self.check_run(best, rung)?;
            let Some(rows) = fetch(&run)? else {
                return Ok(None);
            };
            let mut tally = Tally::default();
            tally.add(&rows);
            checks.push((rung.clone(), tally));
        }
        let exact = match self.rung.spec.kind() {
            Some(AgentKind::Optimal | AgentKind::Solve) => Some(
                self.candidates
                    .iter()
                    .map(|arm| exact_seat0_score(&arm.game, &self.rung.spec))
                    .collect::<Result<Vec<_>>>()?,
            ),
            _ => None,
        };
        Ok(Some(RaceRecord {
            z,
            rounds,
            status,
            best,
            stop,
            checks,
            exact,
            repeated,
        }))
    }
}

/// The name of candidate `i` (from 0), zero-padded to `digits`.
fn candidate_name(i: usize, digits: usize) -> String {
    format!("c{:0digits$}", i + 1)
}

/// Seat 0's record and the games' shape over some runs of a candidate.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Seat 0's wins, draws and losses.
    pub wdl: Wdl,
    /// Games drawn by the length cap.
    pub cap_draws: u64,
    /// Turns of every game, summed.
    pub turns: u64,
}

impl Tally {
    /// Adds the games of `rows`.
    fn add(&mut self, rows: &[GameRow]) {
        let cap = agon_engine::EndReason::Cap.word();
        for row in rows {
            self.wdl.add(match row.result0 {
                Result0::Win => 1,
                Result0::Draw => 0,
                Result0::Loss => -1,
            });
            if row.result0 == Result0::Draw && row.end_reason == cap {
                self.cap_draws += 1;
            }
            self.turns += u64::from(row.turns);
        }
    }

    /// The share of games drawn (0 without games).
    pub fn draw_rate(&self) -> f64 {
        self.wdl.draws as f64 / self.wdl.games().max(1) as f64
    }

    /// The mean length in turns; `None` without games.
    pub fn mean_turns(&self) -> Option<f64> {
        let n = self.wdl.games();
        (n > 0).then(|| self.turns as f64 / n as f64)
    }
}

/// Seat 0's exact expected score in `game` under `agent` (an exact agent) playing both
/// seats: the agent's value of the first position, from seat 0's view, as a score
/// (a win 1, a draw 1/2).
fn exact_seat0_score(game: &GameSpec, agent: &AgentSpec) -> Result<f64> {
    let mut value = None;
    dispatch(
        game,
        ExactValue {
            agent,
            out: &mut value,
        },
    )?;
    Ok(value.expect("ExactValue sets its result"))
}

/// [`exact_seat0_score`], generic over the game.
struct ExactValue<'a> {
    agent: &'a AgentSpec,
    out: &'a mut Option<f64>,
}

impl GameCommand for ExactValue<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
        let start = game.initial_state();
        let mut agent = G::build_agent(self.agent, &start)?;
        let scale = f64::from(G::evaluator(self.agent)?.bounds().1);
        let mut rng = seeds::agent_rng(0, 0, 0);
        let result = agent.search(&start, SearchContext::new(&mut rng, &mut |_| {}));
        // The value is the mover's; the first mover of a game is seat 0 unless chance
        // moves first, where the exact agents report seat 0's view.
        let mover_is_0 = !matches!(start.turn(), Turn::Seat(1));
        let expected = match result.value {
            Value::Score(v) => v / scale,
            Value::Reward(v) => v,
            Value::Win(_) => 1.0,
            Value::Loss(_) => -1.0,
            Value::Draw => 0.0,
        };
        let expected = if mover_is_0 { expected } else { -expected };
        *self.out = Some((1.0 + expected) / 2.0);
        Ok(())
    }
}

/// Runs `agon balance --search` (see the module docs); `command` is the command line,
/// for each run's meta.csv. The race stops between games when `stop` is requested
/// ([`crate::run_until`]).
pub fn race(
    args: &BalanceArgs,
    command: String,
    out: &mut dyn Write,
    stop: &crate::stop::Stop,
) -> Result<()> {
    let race = Race::from_args(args)?;
    let threads = worker_threads(args.threads)?;
    for c in 0..race.candidates.len() {
        table_memory::check(&race.round_run(c, 1)?.plan, threads)?;
    }
    let dir = &args.out;
    let rows = race.rows();
    // A finished race is only read: its runs replayed from their folders, nothing
    // written, no lock taken.
    let mut read = |run: &StudyRun| -> Result<Option<Vec<GameRow>>> {
        Ok(match run_state(&dir.join(&run.folder), Some(&run.plan))? {
            RunState::Finished(rows) => Some(rows),
            RunState::Unfinished { .. } => None,
        })
    };
    let refuse_unless_resumed = || -> Result<()> {
        if args.resume {
            return Ok(());
        }
        Err(BadInput::new(format!(
            "output folder \"{}\" holds this race unfinished; pass --resume to continue it, \
             or choose another --out",
            dir.display()
        ))
        .into())
    };
    if inspect(dir, &rows)? == StudyFolder::Same {
        match race.run(&mut read)? {
            Some(record) if dir.join(SEARCH_FILE).is_file() => {
                writeln!(
                    out,
                    "{} already holds this finished race; its results:\n",
                    dir.display()
                )?;
                return report::print(&race_view(&race), &record, out);
            }
            _ => refuse_unless_resumed()?,
        }
    }
    let _lock = RunLock::acquire(dir)?;
    if inspect(dir, &rows)? == StudyFolder::New {
        write_study(dir, &rows)?;
    }
    let mut progress = Progress::over_runs(0).with_stop(stop);
    let mut play = |run: &StudyRun| -> Result<Option<Vec<GameRow>>> {
        let range = run.plan.game_range();
        progress.add_total(range.end - range.start);
        play_study_run(run, dir, threads, &command, &mut progress).map(Some)
    };
    let record = race
        .run(&mut play)?
        .expect("a race that plays its runs finishes");
    progress.end();
    let view = race_view(&race);
    report::print(&view, &record, out)?;
    let written = report::write(dir, &view, &record)?;
    writeln!(out, "wrote {} in {}", written.join(", "), dir.display())?;
    out.flush()?;
    Ok(())
}

/// The declared range of `game`'s integer parameter `key`; `None` for another kind.
fn integer_range(game: &GameSpec, key: &str) -> Option<(i64, i64)> {
    let info = crate::games::GAMES.iter().find(|g| g.name == game.name)?;
    match (info.params)().iter().find(|p| p.name == key)?.kind {
        ParamKind::Int { min, max } => Some((min, max)),
        _ => None,
    }
}

/// A rung's agent as the ladder writes it (`ab:depth=4`), the level being named beside
/// it; the agent's label for a rung that is not a ladder level.
fn rung_text(game: &GameSpec, rung: &Rung) -> String {
    match rung.spec.level {
        Some(k) => crate::games::ladder(game.name)[k - 1].to_string(),
        None => rung.spec.label(),
    }
}

/// What the report needs of a race.
fn race_view(race: &Race) -> report::RaceView {
    report::RaceView {
        candidates: race
            .candidates
            .iter()
            .map(|a| (a.name.clone(), a.game.to_string()))
            .collect(),
        picks: race.picks.clone(),
        limits: race.picks.first().map_or(Vec::new(), |picks| {
            picks
                .iter()
                .map(|(key, _)| integer_range(&race.game, key))
                .collect()
        }),
        level: race.rung.name.clone(),
        agent: rung_text(&race.game, &race.rung),
        check_agents: race
            .checks
            .iter()
            .map(|r| rung_text(&race.game, r))
            .collect(),
        round: race.round,
        budget: race.budget,
        width: race.width,
        looks: race.looks(),
    }
}
