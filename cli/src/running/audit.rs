//! The checked reading of a run's games.csv, shared by `--resume`
//! ([`crate::commands::tournament`]), `agon merge` and `agon report`: each complete row must be
//! the run's own, as this build wrote it, and unchanged since. A run whose games are kept
//! only compressed (games.csv.gz, as the committed studies keep them) is read through the
//! same checks ([`crate::record::games_path`]).
//!
//! For every complete row, in file order:
//! - its game index is the next of the folder's range (no row repeated, reordered,
//!   missing in between or past the last game), and its pair, pairing and agents are
//!   the plan's for that index;
//! - its `digest` is [`row_digest`] of its content and the run's identity (a folder of
//!   this build's format; an older one has no digest), so an edited field or a row of
//!   another run is caught;
//! - its `moves` replay from the initial position, each legal where it is played, and
//!   what the replay ends in agrees with `result0`, `winner`, `plies`, `end_reason`,
//!   `side0` and `side1`. A game lost by a [`FORFEIT`] did not end by the rules: there
//!   the replay checks that the game is not over, that a seat is to decide, and that
//!   this seat is the loser (the forfeit happened at its decision); `plies`, `side0` and
//!   `side1` are checked as for any game.
//!
//! A row that fails is refused (exit code 2) with the file, its line and what disagrees;
//! nothing is changed. These checks guard against accidents — a row edited by hand or by
//! a script after a stop, files copied between runs, a botched concatenation — not
//! against forgers: the digest is FNV-1a, which anyone can recompute, and a forged game
//! can be a legal one.
//!
//! The replay costs a parse and an apply per ply, far less than the search that chose the
//! move, so resume checks every row as merge and report do.

use std::path::{Path, PathBuf};

use agon_engine::{Game, Outcome, State, Turn};
use anyhow::Result;

use crate::bad_input::BadInput;
use crate::games::{dispatch, GameCommand, PlayableGame};
use crate::record::FORFEIT;
use crate::record::{
    foreign, games_path, read_games, read_older_games, row_digest, GameRow, Result0, RunMeta,
    Scanned, Written, GAMES_FILE, GAMES_GZ_FILE, META_FILE,
};
use crate::running::tournament::Plan;
use crate::spec::{AgentSpec, GameSpec};

/// The meta.csv, its layout and the plan of the run folder `dir`, for a command that
/// reads the run's games (`report`, `replay`, `tune --from`), and the path of its games
/// ([`games_path`]: games.csv, or games.csv.gz where games.csv is absent). Each refusal
/// is one line naming the folder, after `prefix` (the flag that named the folder, e.g.
/// `"--from: "`, or nothing): no such folder, no meta.csv, a meta.csv this build cannot
/// read or whose specs it does not know, neither games file.
pub fn open_run_to_read(
    dir: &Path,
    prefix: &str,
) -> Result<(RunMeta, Written, Plan, PathBuf), BadInput> {
    let shown = dir.display();
    if !dir.is_dir() {
        return Err(BadInput::new(format!(
            "{prefix}run folder \"{shown}\" does not exist"
        )));
    }
    let meta_path = dir.join(META_FILE);
    if !meta_path.is_file() {
        return Err(BadInput::new(format!(
            "{prefix}\"{shown}\" holds no agon run (no {META_FILE})"
        )));
    }
    let (meta, written) = RunMeta::read_any(&meta_path).map_err(|e| {
        BadInput::new(format!(
            "{prefix}\"{shown}\" holds a {META_FILE} this build cannot read ({e:#})"
        ))
    })?;
    let plan = plan_of(&meta)
        .map_err(|e| BadInput::new(format!("{prefix}\"{shown}\": {META_FILE}: {e}")))?;
    let games_path = games_path(dir);
    if !games_path.is_file() {
        return Err(BadInput::new(format!(
            "{prefix}\"{shown}\" holds no {GAMES_FILE} (nor {GAMES_GZ_FILE})"
        )));
    }
    Ok((meta, written, plan, games_path))
}

/// The plan of the run `meta` describes (its shard's slice, if it is one), for checking
/// its rows: the schedule and the game. Its opening is the plain start, as rows carry
/// their opening in `moves`. Fails with [`BadInput`] if a spec is not one this build
/// knows.
pub fn plan_of(meta: &RunMeta) -> Result<Plan, BadInput> {
    let game = GameSpec::parse(&meta.game)?;
    let agents = meta
        .agents
        .iter()
        .map(|a| AgentSpec::parse(a, false))
        .collect::<Result<Vec<_>, _>>()?;
    let plan = Plan::new(game, agents, meta.games_per_pairing, meta.seed)?;
    match meta.shard {
        Some(shard) => plan.with_shard(shard),
        None => Ok(plan),
    }
}

/// Reads the games.csv at `path` (or the games.csv.gz, decompressed) of the run `meta`
/// (planned as `plan`, written in the layout `written`) without changing it, and checks
/// every complete row as the module docs say. Returns the complete rows and the torn end, as [`read_games`] does.
pub fn read_checked_games(
    path: &Path,
    meta: &RunMeta,
    plan: &Plan,
    written: Written,
) -> Result<Scanned<GameRow>> {
    let mut scanned = match written {
        Written::Now => read_games(path)?,
        Written::Older => read_older_games(path)?,
    };
    let key = meta.digest_key();
    let range = plan.game_range();
    for (i, row) in scanned.rows.iter().enumerate() {
        check_place(row, range.start + i as u64, range.end, plan)
            .map_err(|what| foreign(path, i + 2, &what))?;
        if written == Written::Now && row.digest != row_digest(row, &key) {
            return Err(foreign(
                path,
                i + 2,
                "has a digest that does not match its content and this run (the row was \
                 changed after it was written, or comes from another run)",
            )
            .into());
        }
    }
    dispatch(
        &plan.game,
        Replay {
            rows: &mut scanned.rows,
            path,
            fill: written == Written::Older,
        },
    )?;
    Ok(scanned)
}

/// Checks that `row` is game `index` of `plan`, whose range of games ends before `end`.
fn check_place(row: &GameRow, index: u64, end: u64, plan: &Plan) -> Result<(), String> {
    if index >= end {
        return Err(format!("is a game past the last ({})", end - 1));
    }
    if row.game != index {
        return Err(format!(
            "holds game {} where game {index} belongs",
            row.game
        ));
    }
    let seating = plan.seating(row.game);
    let labels = seating.seats.map(|e| plan.entrants[e].label.as_str());
    let planned = (seating.pair, seating.pairing, labels[0], labels[1]);
    if (
        row.pair,
        row.pairing,
        row.agent0.as_str(),
        row.agent1.as_str(),
    ) != planned
    {
        return Err(format!(
            "seats {} against {} in pair {} of pairing {}, not this run's game {index}",
            row.agent0, row.agent1, row.pair, row.pairing
        ));
    }
    Ok(())
}

/// The replay of every row's moves, generic over the game.
struct Replay<'a> {
    rows: &'a mut [GameRow],
    path: &'a Path,
    /// Whether the rows are of the older format, which has no `turns`, `decisions0` and
    /// `decisions1` columns: the replay fills them in instead of checking them.
    fill: bool,
}

impl GameCommand for Replay<'_> {
    fn run<G: PlayableGame>(self, game: G, _spec: &GameSpec) -> Result<()> {
        for (i, row) in self.rows.iter_mut().enumerate() {
            let counts = replay_row(&game, row, !self.fill)
                .map_err(|what| foreign(self.path, i + 2, &what))?;
            if self.fill {
                row.turns = counts.turns;
                [row.decisions0, row.decisions1] = counts.decisions;
            }
        }
        Ok(())
    }
}

/// What a replay counts besides the end of the game: the columns an older games.csv
/// lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counts {
    /// Turns begun ([`State::turns`]) at the end of the moves.
    turns: u32,
    /// Decisions each seat's agent made: those after the row's `opening` plies, and a
    /// pie-rule swap decision within them.
    decisions: [u32; 2],
}

/// Replays `row`'s moves in `game` and compares the end with the row (see the module
/// docs), and with `check_counts` its `turns`, `decisions0` and `decisions1` too (a row of
/// the older format lacks them); `Err` says what disagrees, as the tail of "games.csv
/// line L ...". Returns what the replay counted.
fn replay_row<G: Game>(game: &G, row: &GameRow, check_counts: bool) -> Result<Counts, String> {
    let mut state = game.initial_state();
    let moves: Vec<&str> = if row.moves.is_empty() {
        Vec::new()
    } else {
        row.moves.split(' ').collect()
    };
    let mut decisions = [0u32; 2];
    let mut decided = 0;
    let swap_at = game.pie_swap_decision();
    for (k, text) in moves.iter().enumerate() {
        let at = format!("has move {} of {} ({text:?})", k + 1, moves.len());
        match state.turn() {
            Turn::Over => return Err(format!("{at} after the game was over")),
            Turn::Seat(seat) => {
                // A pie-rule swap decision inside a random opening is the agent's.
                if k >= row.opening as usize || swap_at == Some(decided) {
                    decisions[seat] += 1;
                }
                decided += 1;
            }
            _ => {}
        }
        state
            .parse_move(text)
            .and_then(|m| state.try_apply(m).map(drop))
            .map_err(|e| format!("{at}, which is not legal there: {}", e.reason))?;
    }
    let disagree = |column: &str, written: &str, replayed: &str| {
        Err(format!(
            "has {column} {written:?}, but its moves replayed give {replayed:?}"
        ))
    };
    let text = |result0: Result0| match result0 {
        Result0::Win => "1",
        Result0::Draw => "0.5",
        Result0::Loss => "0",
    };
    let winner_text = |winner: Option<u8>| winner.map_or(String::new(), |w| w.to_string());
    let (result0, winner, reason) = if row.end_reason == FORFEIT {
        // The game stopped at a decision of the seat that forfeited, which lost.
        let Turn::Seat(seat) = state.turn() else {
            return Err(format!(
                "is a {FORFEIT}, but its moves replayed end {}",
                if state.turn() == Turn::Over {
                    "the game by the rules"
                } else {
                    "at a chance event, not a decision"
                }
            ));
        };
        if seat == 0 {
            (Result0::Loss, Some(1), FORFEIT)
        } else {
            (Result0::Win, Some(0), FORFEIT)
        }
    } else {
        let Some(end) = state.end() else {
            return Err(format!(
                "has end_reason {:?}, but its moves replayed leave the game going",
                row.end_reason
            ));
        };
        let reason = end.reason.word();
        match end.outcome {
            Outcome::Win(0) => (Result0::Win, Some(0), reason),
            Outcome::Win(_) => (Result0::Loss, Some(1), reason),
            Outcome::Draw => (Result0::Draw, None, reason),
        }
    };
    if row.result0 != result0 {
        return disagree("result0", text(row.result0), text(result0));
    }
    if row.winner != winner {
        return disagree("winner", &winner_text(row.winner), &winner_text(winner));
    }
    if row.end_reason != reason {
        return disagree("end_reason", &row.end_reason, reason);
    }
    if row.plies != state.ply() {
        return disagree("plies", &row.plies.to_string(), &state.ply().to_string());
    }
    for seat in 0..2 {
        let side = if seat == 0 { &row.side0 } else { &row.side1 };
        if side != state.side(seat) {
            return disagree(&format!("side{seat}"), side, state.side(seat));
        }
    }
    let counts = Counts {
        turns: state.turns(),
        decisions,
    };
    if check_counts {
        if row.turns != counts.turns {
            return disagree("turns", &row.turns.to_string(), &counts.turns.to_string());
        }
        let written = [row.decisions0, row.decisions1];
        for seat in 0..2 {
            if written[seat] != decisions[seat] {
                return disagree(
                    &format!("decisions{seat}"),
                    &written[seat].to_string(),
                    &decisions[seat].to_string(),
                );
            }
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use agon_engine::games::invector::Invector;

    use super::*;

    /// A real game of a small Invector run (greedy against random), as the tournament
    /// plays it.
    fn played() -> (Invector, GameRow) {
        let game = GameSpec::parse("invector:width=5,height=4").unwrap();
        let agents = ["greedy", "random"].map(|a| AgentSpec::parse(a, false).unwrap());
        let plan = Plan::new(game, agents.to_vec(), 2, 7).unwrap();
        let invector = Invector::new(5, 4, true).unwrap();
        let (row, _) = crate::running::tournament::play_game(&invector, &plan, 0).unwrap();
        (invector, row)
    }

    #[test]
    fn a_replayed_row_agrees_and_each_changed_result_column_is_named() {
        let (game, row) = played();
        let counts = Counts {
            turns: row.turns,
            decisions: [row.decisions0, row.decisions1],
        };
        assert_eq!(replay_row(&game, &row, true), Ok(counts));
        let changed = |edit: fn(&mut GameRow)| {
            let mut bad = row.clone();
            edit(&mut bad);
            replay_row(&game, &bad, true).unwrap_err()
        };
        let winner = row.winner.unwrap();
        let flipped = if winner == 0 { "1" } else { "0" };
        assert_eq!(
            changed(|r| r.winner = r.winner.map(|w| 1 - w)),
            format!("has winner {flipped:?}, but its moves replayed give \"{winner}\"")
        );
        assert_eq!(
            changed(|r| r.result0 = Result0::Draw),
            format!(
                "has result0 \"0.5\", but its moves replayed give \"{}\"",
                if winner == 0 { "1" } else { "0" }
            )
        );
        assert_eq!(
            changed(|r| r.plies += 1),
            format!(
                "has plies \"{}\", but its moves replayed give \"{}\"",
                row.plies + 1,
                row.plies
            )
        );
        assert_eq!(
            changed(|r| r.end_reason = "cap".into()),
            format!(
                "has end_reason \"cap\", but its moves replayed give {:?}",
                row.end_reason
            )
        );
        assert_eq!(
            changed(|r| std::mem::swap(&mut r.side0, &mut r.side1)),
            format!(
                "has side0 {:?}, but its moves replayed give {:?}",
                row.side1, row.side0
            )
        );
        assert_eq!(
            changed(|r| r.turns += 1),
            format!(
                "has turns \"{}\", but its moves replayed give \"{}\"",
                row.turns + 1,
                row.turns
            )
        );
        assert_eq!(
            changed(|r| r.decisions1 += 1),
            format!(
                "has decisions1 \"{}\", but its moves replayed give \"{}\"",
                row.decisions1 + 1,
                row.decisions1
            )
        );
        // A row of the older format has no counts: unchecked, and the replay gives them.
        let mut older = row.clone();
        (older.turns, older.decisions0, older.decisions1) = (0, 0, 0);
        assert_eq!(replay_row(&game, &older, false), Ok(counts));
        // The last move taken away: the game goes on.
        let mut short = row.clone();
        short.moves = row.moves.rsplit_once(' ').unwrap().0.to_string();
        assert_eq!(
            replay_row(&game, &short, true).unwrap_err(),
            format!(
                "has end_reason {:?}, but its moves replayed leave the game going",
                row.end_reason
            )
        );
        // A move after the end, and a move that is not legal.
        let mut long = row.clone();
        let n = row.plies as usize + 1;
        long.moves = format!("{} a1-a2", row.moves);
        assert_eq!(
            replay_row(&game, &long, true).unwrap_err(),
            format!("has move {n} of {n} (\"a1-a2\") after the game was over")
        );
        let mut illegal = row.clone();
        illegal.moves = format!("zz9 {}", row.moves);
        assert!(
            replay_row(&game, &illegal, true)
                .unwrap_err()
                .starts_with(&format!(
                    "has move 1 of {n} (\"zz9\"), which is not legal there: "
                )),
            "{:?}",
            replay_row(&game, &illegal, true)
        );
    }

    #[test]
    fn a_forfeit_must_stop_at_the_losers_decision() {
        let (game, row) = played();
        // Seat 0 forfeits at once, before any move: seat 0 is to decide, so it is the
        // loser.
        let start = game.initial_state();
        let forfeit = GameRow {
            side0: start.side(0).into(),
            side1: start.side(1).into(),
            result0: Result0::Loss,
            winner: Some(1),
            end_reason: FORFEIT.into(),
            plies: 0,
            turns: 0,
            decisions0: 0,
            decisions1: 0,
            moves: String::new(),
            note: "seat 0 (greedy) panicked".into(),
            ..row.clone()
        };
        assert_eq!(
            replay_row(&game, &forfeit, true),
            Ok(Counts {
                turns: 0,
                decisions: [0, 0]
            })
        );
        // The same forfeit charged to seat 1, who was not to decide.
        let wrong_seat = GameRow {
            result0: Result0::Win,
            winner: Some(0),
            ..forfeit.clone()
        };
        assert_eq!(
            replay_row(&game, &wrong_seat, true).unwrap_err(),
            "has result0 \"1\", but its moves replayed give \"0\""
        );
        // A forfeit whose moves end the game by the rules.
        let ended = GameRow {
            end_reason: FORFEIT.into(),
            ..row
        };
        assert_eq!(
            replay_row(&game, &ended, true).unwrap_err(),
            "is a forfeit, but its moves replayed end the game by the rules"
        );
    }
}
