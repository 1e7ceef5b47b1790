//! Round-robin tournaments: the schedule, one game, and the parallel run that writes
//! rows in game-index order.
//!
//! Schedule: agents are paired in round-robin order (`(0,1), (0,2), ..., (1,2), ...`);
//! one agent alone is paired with itself (self-play). Each pairing plays `N` games (`N`
//! even) with consecutive indices, so game `g` belongs to pairing `g / N` and pair
//! `g / 2`; within a pairing `(a, b)`, even games seat `a` at seat 0 and odd games swap
//! the seats, so games `2p` and `2p+1` start alike (same opening, same luck: one
//! *deal*, see [`Seating::deal`]) with seats swapped.
//!
//! Self-play is the exception: with one agent, swapping the seats changes nothing, so a
//! pair dealt alike would be one game played twice. There every game is dealt its own
//! opening and luck (deal `g`), and a "pair" is only two consecutive games.
//!
//! The schedule is arithmetic on the game index, never a list: [`Plan::seating`] finds a
//! game's pairing without building the pairings, and the run's size is checked once
//! ([`Plan::new`] refuses a count of games that does not fit a `u64`), so a run of any
//! representable size starts without memory in proportion to it.
//!
//! Reproducibility: a game depends only on the plan and its index. Each game builds its
//! two agents fresh from their specs and draws from the streams of [`crate::seeds`], so
//! the worker that runs it and what that worker ran before do not matter, and the writer
//! emits rows in index order: any thread count gives the same games.csv. Building an
//! agent fresh does not mean allocating its table afresh: each worker thread reuses the
//! table memory of its previous game's agents, cleared so that it answers exactly as new
//! memory would ([`agon_search::table_pool`]). A run thus holds at most, per worker, the
//! tables of one game's two seats: `threads × (hash of seat 0 + hash of seat 1)` MiB.
//!
//! Faults: an agent that panics or returns an illegal move forfeits the game (end reason
//! [`FORFEIT`], the other seat wins, the fault in the row's `note`) and the run goes on;
//! see [`agent_move`]. An outside program's faults (it exits, times out, answers an
//! illegal move) are panics of its agent ([`crate::external`]), so they forfeit alike.
//! Each agent is told the game's line of moves so far ([`SearchContext::line`]).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Once};

use agon_engine::{Outcome, State, Turn};
use agon_search::{Agent, AgentRng, AgentStats, SearchContext};
use anyhow::{anyhow, Context, Result};
use rayon::prelude::*;

use crate::bad_input::BadInput;
use crate::external::{self, ExtFault, Venue};
use crate::games::PlayableGame;
use crate::one_line;
use crate::record::{GameRow, Result0, RunWriter, TimingRow, FORFEIT};
use crate::reporting::stats::pentanomial::Pentanomial;
use crate::reporting::stats::sprt::{Decision, Sprt};
use crate::reporting::summary::find_anchor;
use crate::run::opening::{Opening, OpeningCheck};
use crate::run::progress::Progress;
use crate::seeds;
use crate::shard::Shard;
use crate::spec::{AgentSpec, GameSpec};

/// One agent of a tournament.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// The label records and tables use: [`AgentSpec::label`], the agent's name with the
    /// parameters that differ from its defaults, with `#k` appended (k from 1) when the
    /// same spec is entered more than once (meta.csv keeps the full spec).
    pub label: String,
    /// The agent's spec.
    pub spec: AgentSpec,
}

/// Everything that determines a tournament's results.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The game.
    pub game: GameSpec,
    /// The agents, in the order given.
    pub entrants: Vec<Entrant>,
    /// Games per pairing (even, at least 2).
    pub games_per_pairing: u64,
    /// Master seed.
    pub seed: u64,
    /// The slice of the run to play (`--shard`); `None` plays every game.
    pub shard: Option<Shard>,
    /// How each pair's games start ([`Opening::Start`] unless
    /// [`Plan::with_opening`] says otherwise).
    pub opening: Opening,
    /// The soundness check of the random openings ([`Plan::with_opening_check`]);
    /// `None` keeps every random opening that leaves the game going.
    /// Boxed: a plan is moved and cloned whole, and most plans have none.
    pub opening_check: Option<Box<OpeningCheck>>,
    /// The run folder, where outside programs' standard error is logged
    /// ([`Plan::with_logs`]); `None` leaves it on this process's standard error. Not
    /// part of what determines the results.
    pub logs: Option<PathBuf>,
}

/// Where one game sits in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seating {
    /// Pairing index.
    pub pairing: u64,
    /// Pair index (`game / 2`).
    pub pair: u64,
    /// The deal: the index that picks the game's opening and chance luck
    /// ([`seeds::PairLuck`], [`Opening::play`]). In a match it is the pair, so both
    /// games of a pair start alike; in self-play it is the game itself, so every game
    /// starts its own way.
    pub deal: u64,
    /// Entrant index at seat 0 and at seat 1.
    pub seats: [usize; 2],
}

/// The most worker threads `--threads` may ask for. Each worker plays one game at a
/// time; beyond the cores of the largest machines more workers only cost memory and
/// start-up time, and an operating system refuses to start some tens of thousands.
pub const MAX_THREADS: usize = 1024;

/// The worker threads for `requested` (`--threads`): 0 means one per available core;
/// more than [`MAX_THREADS`] is refused.
pub fn worker_threads(requested: usize) -> Result<usize, BadInput> {
    match requested {
        0 => Ok(std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))),
        n if n > MAX_THREADS => Err(BadInput::new(format!(
            "--threads {n} is too many: at most {MAX_THREADS} (0 means one per core)"
        ))),
        n => Ok(n),
    }
}

/// The workers a run starts: `threads`, but never more than the `games` it has to play
/// (and at least one).
pub fn workers_for(threads: usize, games: u64) -> usize {
    usize::try_from(games)
        .map_or(threads, |g| threads.min(g))
        .max(1)
}

impl Plan {
    /// A plan from parsed specs (without `human`: [`AgentSpec::parse`] refuses it here);
    /// fails on an odd or zero `games_per_pairing`, on no agents, and on a run whose
    /// number of games (pairings × `games_per_pairing`) does not fit a `u64`.
    pub fn new(
        game: GameSpec,
        agents: Vec<AgentSpec>,
        games_per_pairing: u64,
        seed: u64,
    ) -> Result<Plan, BadInput> {
        if games_per_pairing == 0 || games_per_pairing % 2 != 0 {
            return Err(BadInput::new(format!(
                "--games must be even and at least 2 (games 2k and 2k+1 form a \
                 seat-swapped pair), got {games_per_pairing}"
            )));
        }
        if agents.is_empty() {
            return Err(BadInput::new("--agents needs at least one agent"));
        }
        let pairings = pairing_count(agents.len());
        let fits = u64::try_from(pairings)
            .ok()
            .and_then(|p| p.checked_mul(games_per_pairing));
        if fits.is_none() {
            return Err(BadInput::new(format!(
                "--games {games_per_pairing} with {} agents ({pairings} pairings) makes more \
                 than {} games in all; at most {} games per pairing",
                agents.len(),
                u64::MAX,
                // The largest even count that fits.
                (u128::from(u64::MAX) / pairings) as u64 & !1
            )));
        }
        let texts: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
        let entrants = agents
            .into_iter()
            .enumerate()
            .map(|(i, spec)| {
                let text = &texts[i];
                let label = if texts.iter().filter(|t| *t == text).count() > 1 {
                    let k = texts[..=i].iter().filter(|t| *t == text).count();
                    format!("{}#{k}", spec.label())
                } else {
                    spec.label()
                };
                Entrant { label, spec }
            })
            .collect();
        Ok(Plan {
            game,
            entrants,
            games_per_pairing,
            seed,
            shard: None,
            opening: Opening::Start,
            opening_check: None,
            logs: None,
        })
    }

    /// This plan restricted to `shard`; fails when the run has fewer pairs than shards.
    pub fn with_shard(self, shard: Shard) -> Result<Plan, BadInput> {
        shard.check(self.total_games())?;
        Ok(Plan {
            shard: Some(shard),
            ..self
        })
    }

    /// The game indices this plan plays: every game, or its shard's slice.
    pub fn game_range(&self) -> Range<u64> {
        let total = self.total_games();
        self.shard.map_or(0..total, |s| s.games(total))
    }

    /// The same plan with its games starting with `opening`.
    pub fn with_opening(self, opening: Opening) -> Plan {
        Plan { opening, ..self }
    }

    /// The same plan with its random openings judged by `check` (a check on a plan
    /// without random openings changes nothing; the caller records it only where it
    /// applies, [`Plan::applied_check`]).
    pub fn with_opening_check(self, check: Option<OpeningCheck>) -> Plan {
        Plan {
            opening_check: check.map(Box::new),
            ..self
        }
    }

    /// The opening check as it applies to this plan's openings: the check, on random
    /// openings; `None` otherwise.
    pub fn applied_check(&self) -> Option<&OpeningCheck> {
        match self.opening {
            Opening::Random(_) | Opening::Distinct(_) => self.opening_check.as_deref(),
            Opening::Start | Opening::Book(_) => None,
        }
    }

    /// The same plan with outside programs' standard error logged in the run folder
    /// `dir` ([`external::log_file`]).
    pub fn with_logs(self, dir: &Path) -> Plan {
        Plan {
            logs: Some(dir.to_path_buf()),
            ..self
        }
    }

    /// Where the agent `label` plays at `seat`: this plan's game, and its log file if
    /// the plan has a run folder.
    pub fn venue(&self, seat: usize, label: &str) -> Venue<'_> {
        Venue {
            game: &self.game,
            log: self
                .logs
                .as_deref()
                .map(|dir| external::log_file(dir, label, seat)),
        }
    }

    /// Pairings in the run: `n (n - 1) / 2` for `n` agents, 1 for self-play
    /// ([`Plan::new`] checked that it fits).
    pub fn pairing_count(&self) -> u64 {
        pairing_count(self.entrants.len()) as u64
    }

    /// Whether the run is self-play (one agent): then every game has its own deal.
    pub fn is_self_play(&self) -> bool {
        self.entrants.len() == 1
    }

    /// The label of the entrant `name` names (`--anchor`: a label, or a spec of the same
    /// agent, see [`find_anchor`]); fails with [`BadInput`] listing the labels.
    pub fn anchor_label(&self, name: &str) -> Result<String, BadInput> {
        let labels: Vec<String> = self.entrants.iter().map(|e| e.label.clone()).collect();
        let i = find_anchor(&labels, name)?;
        Ok(labels[i].clone())
    }

    /// Games in the whole run ([`Plan::new`] checked that the count fits).
    pub fn total_games(&self) -> u64 {
        self.pairing_count() * self.games_per_pairing
    }

    /// The pairing, pair, deal and seats of game `game`.
    pub fn seating(&self, game: u64) -> Seating {
        let pairing = game / self.games_per_pairing;
        let (a, b) = pairing_at(self.entrants.len(), pairing);
        let pair = game / 2;
        Seating {
            pairing,
            pair,
            deal: if self.is_self_play() { game } else { pair },
            seats: if game % 2 == 0 { [a, b] } else { [b, a] },
        }
    }
}

/// Pairings of `n` agents (`n ≥ 1`): `n (n - 1) / 2`, or 1 for self-play; a `u128`,
/// which holds it for any `n` a `usize` can.
fn pairing_count(n: usize) -> u128 {
    let n = n as u128;
    if n == 1 {
        1
    } else {
        n * (n - 1) / 2
    }
}

/// The entrants `(a, b)`, `a < b`, of pairing `k` in round-robin order
/// `(0,1), (0,2), ..., (0,n-1), (1,2), ...` of `n` agents; `(0, 0)` for self-play.
/// Walks the rows of the order (`n - 1 - a` pairings start with `a`), so it needs no
/// list; `k` must be below [`pairing_count`]`(n)`.
fn pairing_at(n: usize, k: u64) -> (usize, usize) {
    if n == 1 {
        return (0, 0);
    }
    let mut rest = k;
    for a in 0..n - 1 {
        let row = (n - 1 - a) as u64;
        if rest < row {
            return (a, a + 1 + rest as usize);
        }
        rest -= row;
    }
    unreachable!("pairing {k} is beyond the {} pairings", pairing_count(n))
}

/// Plays game `index` of `plan` from the initial position to the end: its deal's
/// opening first ([`Opening::play`]), then the agents, until the game ends or an agent
/// faults (then that agent's seat forfeits, see [`agent_move`]). Chance outcomes come
/// from the deal's luck ([`seeds::PairLuck`]) by event identity, so both games of a
/// match's pair get the same outcome for the same event (common random numbers); each
/// self-play game has its own deal ([`Seating::deal`]).
///
/// Fails if an agent cannot be built, or if no random opening that leaves the game going
/// can be drawn.
pub fn play_game<G: PlayableGame>(
    game: &G,
    plan: &Plan,
    index: u64,
) -> Result<(GameRow, TimingRow)> {
    let seating = plan.seating(index);
    let entrant = |seat: usize| &plan.entrants[seating.seats[seat]];
    let mut agents = [0, 1]
        .into_iter()
        .map(|seat| {
            let entrant = entrant(seat);
            G::build_agent_in(&entrant.spec, &plan.venue(seat, &entrant.label))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut rngs = [0, 1].map(|seat| seeds::agent_rng(plan.seed, index, seat));
    let luck = seeds::PairLuck::new(plan.seed, seating.deal);

    let mut decisions = [0u32; 2];
    let mut stats = [AgentStats::default(); 2];
    let mut forfeit = None;
    // The decision of the agent to move, or `None` once an agent has faulted (the fault
    // is recorded once, and the game stops there).
    let mut decide = |state: &G::State, line: &[String]| {
        if forfeit.is_some() {
            return None;
        }
        let Turn::Seat(seat) = state.turn() else {
            unreachable!("agents decide at decision nodes only")
        };
        match agent_move(
            agents[seat].as_mut(),
            state,
            line,
            &mut rngs[seat],
            &mut stats[seat],
        ) {
            Ok(m) => {
                decisions[seat] += 1;
                Some(m)
            }
            Err(fault) => {
                forfeit = Some((seat, fault));
                None
            }
        }
    };

    let mut moves: Vec<String> = Vec::new();
    let mut state = plan.opening.play(
        game,
        plan.seed,
        seating.deal,
        &mut moves,
        &mut decide,
        plan.applied_check(),
    )?;
    let opening = moves.len() as u32;
    loop {
        let m = match state.turn() {
            Turn::Over => break,
            Turn::Chance => state.common_outcome(&luck),
            Turn::Seat(_) => match decide(&state, &moves) {
                Some(m) => m,
                None => break,
            },
        };
        moves.push(state.format_move(m));
        state.try_apply(m).map_err(|e| {
            anyhow!(
                "game {index}: illegal move {e} after {:?}",
                moves[..moves.len() - 1].join(" ")
            )
        })?;
    }

    let (result0, winner, end_reason, note) = match forfeit {
        // The faulty seat loses; the other wins.
        Some((0, fault)) => (
            Result0::Loss,
            Some(1),
            FORFEIT.to_string(),
            format!("seat 0 ({}) {fault}", entrant(0).label),
        ),
        Some((_, fault)) => (
            Result0::Win,
            Some(0),
            FORFEIT.to_string(),
            format!("seat 1 ({}) {fault}", entrant(1).label),
        ),
        None => {
            // The State contract: `end` is `Some` once the turn is Over.
            let end = state.end().expect("a finished game has an end");
            let reason = end.reason.to_string();
            match end.outcome {
                Outcome::Win(0) => (Result0::Win, Some(0), reason, String::new()),
                Outcome::Win(_) => (Result0::Loss, Some(1), reason, String::new()),
                Outcome::Draw => (Result0::Draw, None, reason, String::new()),
            }
        }
    };
    let row = GameRow {
        game: index,
        pair: seating.pair,
        pairing: seating.pairing,
        agent0: entrant(0).label.clone(),
        agent1: entrant(1).label.clone(),
        side0: state.side(0).to_string(),
        side1: state.side(1).to_string(),
        result0,
        winner,
        end_reason,
        plies: state.ply(),
        turns: state.turns(),
        decisions0: decisions[0],
        decisions1: decisions[1],
        nodes0: stats[0].nodes,
        nodes1: stats[1].nodes,
        opening,
        moves: moves.join(" "),
        note,
        // Set by `RunWriter::write`, which knows the run's identity.
        digest: String::new(),
    };
    let timing = TimingRow {
        game: index,
        time_us0: stats[0].time.as_micros() as u64,
        time_us1: stats[1].time.as_micros() as u64,
    };
    Ok((row, timing))
}

/// Asks `agent` for its move at the decision node `state` (reached by `line` from the
/// game's start, [`SearchContext::line`]), adding the search to `stats`
/// (the seat's totals for the game); `Err` describes a fault that
/// forfeits the game: the agent panicked (`panicked at FILE:LINE:COL: MESSAGE`, or an
/// outside program's [`ExtFault`] as it stands) or returned a move that is not legal here
/// (`played the illegal move M`). The text is one line.
///
/// The call runs under [`catch_unwind`] with [`AssertUnwindSafe`]: a panic may leave the
/// agent half-updated, which is sound here because the faulty agent makes no further move
/// (the game ends at once) and is dropped; `state` is borrowed immutably and the random stream belongs to this seat
/// of this game only. While the agent runs, the panic hook of [`quiet_agent_panics`] keeps
/// the standard report off standard error (the forfeit line replaces it); a panic
/// anywhere else is reported as usual. That includes a helper thread the agent starts
/// (the parallel searches use `std::thread::scope`): Rust reports its panic as usual, and
/// the forfeit note names the panic the scope raises again in the agent's own thread.
pub fn agent_move<S: State>(
    agent: &mut dyn Agent<S>,
    state: &S,
    line: &[String],
    rng: &mut AgentRng,
    stats: &mut AgentStats,
) -> Result<S::Move, String> {
    quiet_agent_panics();
    // Restored, not cleared, afterwards: correct even if calls were ever nested.
    let outer = IN_AGENT.with(|f| f.replace(true));
    let chosen = catch_unwind(AssertUnwindSafe(|| {
        let result = agent.search(state, SearchContext::new(rng, &mut |_| {}).with_line(line));
        stats.record(&result);
        result
            .best
            .expect("Agent::search returns a move at a decision node")
    }));
    IN_AGENT.with(|f| f.set(outer));
    let m = chosen.map_err(|payload| {
        let hooked = PANIC_REPORT.with(|r| r.borrow_mut().take());
        let fault = payload.downcast_ref::<ExtFault>().map(ToString::to_string);
        let report = || format!("panicked: {}", panic_message(&*payload));
        one_line(&fault.or(hooked).unwrap_or_else(report))
    })?;
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    if legal.contains(&m) {
        Ok(m)
    } else {
        // Formatting a move that is not legal here may itself fail in a game's notation
        // code; fall back to the move's debug form.
        let text = catch_unwind(AssertUnwindSafe(|| state.format_move(m)))
            .unwrap_or_else(|_| format!("{m:?}"));
        Err(one_line(&format!("played the illegal move {text}")))
    }
}

thread_local! {
    /// Whether this thread is inside [`agent_move`]'s call to the agent.
    static IN_AGENT: Cell<bool> = const { Cell::new(false) };
    /// The hook's description of the last agent panic on this thread, taken by
    /// [`agent_move`].
    static PANIC_REPORT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once per process) a panic hook that, on a thread inside an agent call of
/// [`agent_move`], records the panic's place and message for the forfeit note instead of
/// printing them; on any other thread or outside an agent call it calls the previous hook,
/// so real crashes of the tool are reported as usual.
fn quiet_agent_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_AGENT.with(Cell::get) {
                let place = info
                    .location()
                    .map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                let report = format!("panicked{place}: {}", panic_message(info.payload()));
                PANIC_REPORT.with(|r| *r.borrow_mut() = Some(report));
            } else {
                previous(info);
            }
        }));
    });
}

/// The message of a panic payload (`panic!` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}

/// Plays the games of `plan`'s range ([`Plan::game_range`]: all, or its shard's) after the
/// `done` ones (the complete rows a resumed run found, the range's first `done.len()`
/// games) on `threads` workers (no more than the games left, [`workers_for`]) and writes their rows in game-index order as soon as each
/// is next (a finished game waits only for lower indices), telling `progress` of each.
/// Returns every game row written, `done` first, in order.
///
/// With `sprt`, the test is evaluated after each complete pair, in pair order: once a
/// pair's second game takes the log-likelihood ratio past a bound, the run stops there
/// and no later game is written (games already being played are dropped), so where it
/// stops does not depend on the thread count. A resumed run whose rows already decide it
/// plays nothing.
pub fn run<G: PlayableGame>(
    game: &G,
    plan: &Plan,
    threads: usize,
    done: Vec<GameRow>,
    writer: &mut RunWriter,
    progress: &mut Progress,
    sprt: Option<&Sprt>,
) -> Result<Vec<GameRow>> {
    let range = plan.game_range();
    let first = range.start + done.len() as u64;
    let pool = workers(workers_for(threads, range.end - first))?;
    let mut watch = sprt.map(SprtWatch::new);
    let decided = watch
        .as_mut()
        .is_some_and(|watch| done.iter().any(|row| watch.add(row)));
    if decided {
        progress.finish();
        return Ok(done);
    }
    // Set by the writer when the SPRT decides: workers then start no further game.
    let stop_flag = AtomicBool::new(false);
    let stop = &stop_flag;
    let (sender, receiver) = mpsc::channel::<(u64, GameRow, TimingRow)>();

    std::thread::scope(|scope| {
        let collector = scope.spawn(move || -> Result<Vec<GameRow>> {
            let mut pending = BTreeMap::new();
            // Grows with the games played, never sized by the run up front.
            let mut rows = done;
            'receive: for (index, row, timing) in receiver {
                pending.insert(index, (row, timing));
                while let Some((row, timing)) = pending.remove(&(range.start + rows.len() as u64)) {
                    writer.write(&row, &timing)?;
                    progress.game_done(&row);
                    let decided = watch.as_mut().is_some_and(|w| w.add(&row));
                    rows.push(row);
                    if decided {
                        stop.store(true, Ordering::Relaxed);
                        break 'receive;
                    }
                }
            }
            progress.finish();
            Ok(rows)
        });
        let played = pool.install(|| {
            (first..range.end).into_par_iter().try_for_each_with(
                sender,
                |sender, index| -> Result<()> {
                    if stop.load(Ordering::Relaxed) {
                        return Ok(());
                    }
                    let (row, timing) = play_game(game, plan, index)?;
                    // A closed channel means the writer stopped: by the SPRT's decision
                    // (fine), or by an error, which the writer reports.
                    match sender.send((index, row, timing)) {
                        Err(_) if !stop.load(Ordering::Relaxed) => {
                            Err(anyhow!("the writer stopped"))
                        }
                        _ => Ok(()),
                    }
                },
            )
        });
        let rows = collector
            .join()
            .map_err(|_| anyhow!("the writer thread panicked"))??;
        played?;
        Ok(rows)
    })
}

/// The `threads` worker threads of a run, each reusing the table memory of the agents it
/// drops for the next game's (see the module docs).
pub(crate) fn workers(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(|_| agon_search::table_pool::reuse_tables_on_this_thread())
        .build()
        .context("cannot start the worker threads")
}

/// Whether `rows` (a two-agent run's first games, in order) already decide `sprt`: a run
/// that stopped there is finished.
pub fn sprt_decides(sprt: &Sprt, rows: &[GameRow]) -> bool {
    let mut watch = SprtWatch::new(sprt);
    rows.iter().any(|row| watch.add(row))
}

/// The SPRT of a two-agent run followed row by row in game order: agent A (seat 0 in
/// even games) scores each complete pair in half points (0 to 4), and the test decides
/// after each pair.
struct SprtWatch<'a> {
    sprt: &'a Sprt,
    pairs: Pentanomial,
    /// A's half points in the pair's even game, waiting for the odd one.
    first_half: Option<usize>,
}

impl<'a> SprtWatch<'a> {
    fn new(sprt: &'a Sprt) -> Self {
        SprtWatch {
            sprt,
            pairs: Pentanomial::default(),
            first_half: None,
        }
    }

    /// Counts the next row (rows come in game order); whether the test has decided.
    fn add(&mut self, row: &GameRow) -> bool {
        let half = row.a_half_points();
        if row.game % 2 == 0 {
            self.first_half = Some(half);
            return false;
        }
        let Some(first) = self.first_half.take() else {
            return false;
        };
        self.pairs.add(first + half);
        self.sprt.decision(self.sprt.llr(&self.pairs)) != Decision::Continue
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use agon_engine::games::invector::{Invector, InvectorEval, InvectorState};
    use agon_engine::{ActionSpace, ConfigError, DenseActions, Game, ParamSpec, Params};
    use agon_search::{AgentKind, SearchResult, Value};
    use rand::SeedableRng;

    use super::*;
    use crate::spec::Player;

    #[test]
    fn labels_are_short_and_a_repeated_spec_is_numbered() {
        let agents = ["ab:depth=6,hash=16", "ab:depth=6", "mcts:iters=2000", "ab"]
            .map(|t| AgentSpec::parse(t, false).unwrap());
        let game = GameSpec::parse("invector").unwrap();
        let plan = Plan::new(game, agents.to_vec(), 2, 1).unwrap();
        let labels: Vec<_> = plan.entrants.iter().map(|e| e.label.as_str()).collect();
        assert_eq!(
            labels,
            ["ab:depth=6#1", "ab:depth=6#2", "mcts:iters=2000", "ab"]
        );
    }

    /// An agent that misbehaves on purpose: it panics, or plays a fixed move whatever the
    /// position.
    enum Faulty<M> {
        Panics,
        Plays(M),
    }

    impl<S: State> Agent<S> for Faulty<S::Move> {
        fn search(
            &mut self,
            _state: &S,
            _ctx: SearchContext<'_, S::Move>,
        ) -> SearchResult<S::Move> {
            match self {
                Faulty::Panics => panic!("out of ideas\nat move 1"),
                Faulty::Plays(m) => SearchResult {
                    best: Some(*m),
                    value: Value::Score(0.0),
                    depth: 0,
                    nodes: 1,
                    time: Duration::ZERO,
                    pv: Vec::new(),
                    tt_hits: 0,
                    memory_full: false,
                },
            }
        }
    }

    #[test]
    fn seating_is_round_robin_arithmetic_and_self_play_deals_each_game() {
        // pairing_at walks the round-robin order without a list.
        for n in 2..8 {
            let listed: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect();
            assert_eq!(pairing_count(n), listed.len() as u128);
            for (k, &ab) in listed.iter().enumerate() {
                assert_eq!(pairing_at(n, k as u64), ab, "n = {n}, k = {k}");
            }
        }
        let game = GameSpec::parse("pig").unwrap();
        let plan = |agents: &[&str], games| {
            let specs = agents.iter().map(|a| AgentSpec::parse(a, false).unwrap());
            Plan::new(game.clone(), specs.collect(), games, 1)
        };
        // A match: the pair's two games share a deal, seats swapped.
        let three = plan(&["random", "greedy", "mcts"], 4).unwrap();
        assert_eq!(three.total_games(), 12);
        let seating = |p: &Plan, g| {
            let s = p.seating(g);
            (s.pairing, s.pair, s.deal, s.seats)
        };
        assert_eq!(seating(&three, 4), (1, 2, 2, [0, 2]));
        assert_eq!(seating(&three, 5), (1, 2, 2, [2, 0]));
        assert_eq!(seating(&three, 11), (2, 5, 5, [2, 1]));
        // Self-play: every game its own deal.
        let one = plan(&["random"], 4).unwrap();
        assert_eq!(seating(&one, 2), (0, 1, 2, [0, 0]));
        assert_eq!(seating(&one, 3), (0, 1, 3, [0, 0]));
        // The largest count that fits is taken; one more pair is refused.
        let max = (u64::MAX / 3) & !1;
        assert_eq!(
            plan(&["random", "greedy", "mcts"], max)
                .unwrap()
                .total_games(),
            3 * max
        );
        assert_eq!(
            plan(&["random", "greedy", "mcts"], max + 2).unwrap_err().0,
            format!(
                "--games {} with 3 agents (3 pairings) makes more than {} games in all; at \
                 most {max} games per pairing",
                max + 2,
                u64::MAX
            )
        );
        assert_eq!(
            plan(&["random"], u64::MAX - 1).unwrap().total_games(),
            u64::MAX - 1
        );
    }

    #[test]
    fn worker_threads_are_bounded_and_never_more_than_the_games() {
        assert_eq!(worker_threads(MAX_THREADS), Ok(MAX_THREADS));
        assert_eq!(
            worker_threads(MAX_THREADS + 1).unwrap_err().0,
            "--threads 1025 is too many: at most 1024 (0 means one per core)"
        );
        assert!((1..=MAX_THREADS).contains(&worker_threads(0).unwrap()));
        assert_eq!(workers_for(8, 3), 3);
        assert_eq!(workers_for(8, u64::MAX), 8);
        assert_eq!(workers_for(8, 0), 1);
    }

    #[test]
    fn a_panic_or_an_illegal_move_is_a_fault_and_a_legal_move_is_not() {
        let game = Invector::default();
        let start = game.initial_state();
        let mut rng = AgentRng::seed_from_u64(1);
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);

        let mut panics = Faulty::Panics;
        let fault = agent_move(
            &mut panics,
            &start,
            &[],
            &mut rng,
            &mut AgentStats::default(),
        )
        .unwrap_err();
        // The hook's report: place (this file) and the message on one line.
        assert!(
            fault.starts_with("panicked at cli/src/tournament.rs:"),
            "{fault}"
        );
        assert!(fault.ends_with(": out of ideas at move 1"), "{fault}");

        let mut legal = Faulty::Plays(moves[0]);
        assert_eq!(
            agent_move(
                &mut legal,
                &start,
                &[],
                &mut rng,
                &mut AgentStats::default()
            ),
            Ok(moves[0])
        );

        // A move that was legal at the start but is not after it has been played.
        let (stale, after) = moves
            .iter()
            .find_map(|&m| {
                let mut next = start.clone();
                next.try_apply(m).unwrap();
                let mut now = Vec::new();
                next.legal_moves(&mut now);
                (!now.contains(&m)).then_some((m, next))
            })
            .expect("some opening move cannot be repeated");
        let mut illegal = Faulty::Plays(stale);
        assert_eq!(
            agent_move(
                &mut illegal,
                &after,
                &[],
                &mut rng,
                &mut AgentStats::default()
            ),
            Err(format!(
                "played the illegal move {}",
                after.format_move(stale)
            ))
        );
        // Outside an agent call, panics are not swallowed by the hook: the flag is off.
        assert!(!IN_AGENT.with(Cell::get));
    }

    /// Invector whose `random` agent panics at its first move (every other agent is the
    /// real one): a game in which `play_game` meets a faulty agent.
    #[derive(Clone, Debug)]
    struct FaultyInvector(Invector);

    impl Game for FaultyInvector {
        type State = InvectorState;
        const NAME: &'static str = "faulty-invector";
        const ABOUT: &'static str = "Invector with a panicking random agent (tests only)";
        const HAS_HIDDEN_INFORMATION: bool = false;

        fn param_specs() -> &'static [ParamSpec] {
            Invector::param_specs()
        }

        fn from_params(params: &Params) -> Result<Self, ConfigError> {
            Invector::from_params(params).map(FaultyInvector)
        }

        fn initial_state(&self) -> InvectorState {
            self.0.initial_state()
        }
    }

    impl DenseActions for FaultyInvector {
        fn action_space(&self) -> ActionSpace {
            self.0.action_space()
        }

        fn action_id(&self, m: <InvectorState as State>::Move) -> u32 {
            self.0.action_id(m)
        }
    }

    impl PlayableGame for FaultyInvector {
        type Eval = InvectorEval;

        fn build_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<InvectorState>>, BadInput> {
            if spec.player == Player::Agent(AgentKind::Random) {
                return Ok(Box::new(Faulty::Panics));
            }
            Invector::build_agent(spec)
        }
    }

    #[test]
    fn a_worker_allocates_each_seats_table_once_and_reuse_changes_no_game() {
        use agon_search::table_pool::tables_allocated_on_this_thread;
        // Tables of two sizes, so that the seats swap sizes from game to game.
        let game = GameSpec::parse("invector:width=5,height=4").unwrap();
        let agents =
            ["ab:depth=2,hash=2", "ab:depth=3,hash=1"].map(|a| AgentSpec::parse(a, false).unwrap());
        let plan = Plan::new(game, agents.to_vec(), 12, 3).unwrap();
        let invector = Invector::new(5, 4, true).unwrap();
        let play_all = || -> (Vec<GameRow>, u64) {
            let before = tables_allocated_on_this_thread();
            let rows = (0..12)
                .map(|i| play_game(&invector, &plan, i).unwrap().0)
                .collect();
            (rows, tables_allocated_on_this_thread() - before)
        };
        // This test's own thread builds every table afresh; a worker once per seat.
        let (fresh, allocated) = play_all();
        assert_eq!(allocated, 24);
        let (reused, allocated) = workers(1).unwrap().install(play_all);
        assert_eq!(allocated, 2);
        assert_eq!(reused, fresh);
    }

    #[test]
    fn a_faulty_agent_forfeits_its_game_and_the_note_says_why() {
        let game = GameSpec::parse("invector:width=5,height=4").unwrap();
        let agents = ["greedy", "random"].map(|a| AgentSpec::parse(a, false).unwrap());
        let plan = Plan::new(game, agents.to_vec(), 2, 1).unwrap();
        let faulty = FaultyInvector(Invector::new(5, 4, true).unwrap());

        // Game 0: greedy (seat 0) moves, then random (seat 1) panics: seat 0 wins.
        let (row, _) = play_game(&faulty, &plan, 0).unwrap();
        assert_eq!(
            (row.result0, row.winner, row.end_reason.as_str(), row.plies),
            (Result0::Win, Some(0), FORFEIT, 1)
        );
        assert_eq!(row.moves.split(' ').count(), 1);
        assert!(
            row.note
                .starts_with("seat 1 (random) panicked at cli/src/tournament.rs:")
                && row.note.ends_with(": out of ideas at move 1"),
            "{}",
            row.note
        );

        // Game 1: random is seat 0 and panics at once: seat 1 wins, no move recorded.
        let (row, _) = play_game(&faulty, &plan, 1).unwrap();
        assert_eq!(
            (row.result0, row.winner, row.end_reason.as_str(), row.plies),
            (Result0::Loss, Some(1), FORFEIT, 0)
        );
        assert_eq!(row.moves, "");
        assert!(
            row.note.starts_with("seat 0 (random) panicked at "),
            "{}",
            row.note
        );

        // A game without faults has an empty note.
        let (row, _) = play_game(&Invector::new(5, 4, true).unwrap(), &plan, 0).unwrap();
        assert_ne!(row.end_reason, FORFEIT);
        assert_eq!(row.note, "");

        // The run goes on past forfeits and records them in games.csv.
        let dir = std::env::temp_dir().join(format!("agon-forfeit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut writer = RunWriter::open(&dir, "").unwrap();
        let mut progress = Progress::new(plan.total_games(), &[]);
        let rows = run(
            &faulty,
            &plan,
            2,
            Vec::new(),
            &mut writer,
            &mut progress,
            None,
        )
        .unwrap();
        drop(writer);
        let text = std::fs::read_to_string(dir.join(crate::record::GAMES_FILE)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(rows.len(), 2);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[1].starts_with("0,0,0,greedy,random,"), "{text}");
        // One ply, one turn: greedy's decision; the agent that panicked made none.
        assert!(lines[1].contains(",1,0,forfeit,1,1,1,0,"), "{text}");
        assert!(
            lines[1].contains(",seat 1 (random) panicked at cli/src/tournament.rs:"),
            "{text}"
        );
        assert!(lines[2].starts_with("1,0,0,random,greedy,"), "{text}");
        assert!(
            lines[2].contains(",0,1,forfeit,0,0,0,0,0,0,0,,seat 0 (random) panicked at "),
            "{text}"
        );
    }
}
