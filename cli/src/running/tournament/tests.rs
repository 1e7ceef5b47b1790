use std::cell::Cell;
use std::time::Duration;

use agon_engine::games::invector::{Invector, InvectorEval, InvectorState};
use agon_engine::{ActionSpace, ConfigError, DenseActions, Game, ParamSpec, Params, State};
use agon_search::{Agent, AgentKind, AgentRng, AgentStats, SearchContext, SearchResult, Value};
use rand::SeedableRng;

use super::game::{agent_move, IN_AGENT};
use super::schedule::{pairing_at, pairing_count};
use super::*;
use crate::bad_input::BadInput;
use crate::games::PlayableGame;
use crate::record::{GameRow, Result0, RunWriter, FORFEIT};
use crate::running::progress::Progress;
use crate::spec::{AgentSpec, GameSpec, Player};

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
    fn search(&mut self, _state: &S, _ctx: SearchContext<'_, S::Move>) -> SearchResult<S::Move> {
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
        fault.starts_with("panicked at cli/src/running/tournament/tests.rs:"),
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

    fn build_agent(
        spec: &AgentSpec,
        start: &InvectorState,
    ) -> Result<Box<dyn Agent<InvectorState>>, BadInput> {
        if spec.player == Player::Agent(AgentKind::Random) {
            return Ok(Box::new(Faulty::Panics));
        }
        Invector::build_agent(spec, start)
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
            .starts_with("seat 1 (random) panicked at cli/src/running/tournament/tests.rs:")
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
        lines[1].contains(",seat 1 (random) panicked at cli/src/running/tournament/tests.rs:"),
        "{text}"
    );
    assert!(lines[2].starts_with("1,0,0,random,greedy,"), "{text}");
    assert!(
        lines[2].contains(",0,1,forfeit,0,0,0,0,0,0,0,,seat 0 (random) panicked at "),
        "{text}"
    );
}

#[test]
fn a_requested_stop_starts_no_game_and_a_later_run_continues_from_the_rows_kept() {
    use crate::stop::{Stop, Stopped};
    let game = GameSpec::parse("invector:width=5,height=4").unwrap();
    let agents = ["greedy", "random"].map(|a| AgentSpec::parse(a, false).unwrap());
    let plan = Plan::new(game, agents.to_vec(), 6, 1).unwrap();
    let invector = Invector::new(5, 4, true).unwrap();
    let dir = std::env::temp_dir().join(format!("agon-stop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games_file = dir.join(crate::record::GAMES_FILE);
    let progress = || Progress::new(plan.total_games(), &[]);

    // The whole run, unstopped, for comparison.
    let mut writer = RunWriter::open(&dir, "").unwrap();
    let whole = run(
        &invector,
        &plan,
        2,
        Vec::new(),
        &mut writer,
        &mut progress(),
        None,
    )
    .unwrap();
    drop(writer);
    let whole_text = std::fs::read_to_string(&games_file).unwrap();
    std::fs::remove_file(&games_file).unwrap();
    std::fs::remove_file(dir.join(crate::record::TIMINGS_FILE)).unwrap();
    assert_eq!(whole.len(), 6);

    // Asked to stop before it starts: no game is played, and the run says how far it got.
    let stop = Stop::new();
    stop.request();
    for done in [0, 2] {
        let mut writer = RunWriter::open(&dir, "").unwrap();
        for (row, timing) in whole[..done].iter().zip(0..) {
            let timing = crate::record::TimingRow {
                game: timing,
                time_us0: 1,
                time_us1: 1,
            };
            writer.write(row, &timing).unwrap();
        }
        let error = run(
            &invector,
            &plan,
            2,
            whole[..done].to_vec(),
            &mut writer,
            &mut progress().with_stop(&stop),
            None,
        )
        .unwrap_err();
        assert_eq!(
            error.downcast_ref::<Stopped>(),
            Some(&Stopped {
                played: done as u64,
                total: 6
            })
        );
        drop(writer);
        let kept = std::fs::read_to_string(&games_file).unwrap();
        assert_eq!(kept.lines().count(), 1 + done, "{kept}");
        if done == 0 {
            std::fs::remove_file(&games_file).unwrap();
            std::fs::remove_file(dir.join(crate::record::TIMINGS_FILE)).unwrap();
        }
    }
    // Continued without a stop, the run plays the rest to the same rows and file.
    let mut writer = RunWriter::open(&dir, "").unwrap();
    let rows = run(
        &invector,
        &plan,
        2,
        whole[..2].to_vec(),
        &mut writer,
        &mut progress(),
        None,
    )
    .unwrap();
    drop(writer);
    assert_eq!(rows, whole);
    assert_eq!(std::fs::read_to_string(&games_file).unwrap(), whole_text);
    std::fs::remove_dir_all(&dir).unwrap();
}
