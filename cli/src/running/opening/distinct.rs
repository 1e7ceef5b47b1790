//! Random openings drawn without replacement, for `agon balance` on games without
//! chance: deal `d` gets the `d`-th of a sequence of openings drawn in turn from one
//! stream ([`seeds::distinct_opening_rng`]), each redrawn until it differs from every
//! one before it. Two deals thus share an opening only once every opening has been
//! dealt: after [`MAX_REDRAWS`] draws in a row that were all dealt already, a new
//! round begins and openings may come again.
//!
//! With independent draws per deal (a tournament's `--random-opening`), 1,000 games
//! from Connect Four's 2,401 four-move openings share an opening in about 170 of them,
//! and deterministic agents then replay the same game, so a study would count those
//! games twice. Drawing without replacement removes that while every deal's opening
//! still comes from the seed alone: the sequence does not depend on which thread plays
//! which game, or on how many play.
//!
//! With a soundness check ([`super::OpeningCheck`]), an opening the check refuses is
//! never dealt: it is remembered as refused, and the next one is drawn. No opening is
//! judged twice. A draw that repeats a dealt or refused opening counts towards
//! [`MAX_REDRAWS`] alike; when the redraws run out, the most recent dealt opening among
//! them begins the new round, or, if every one of them was refused, the run fails
//! (the check leaves too few openings).
//!
//! On a game with a pie rule only the decisions before the swap decision are drawn this
//! way; the rest of the opening follows the agent's swap decision and is drawn from the
//! deal's own stream, as for [`super::Opening::Random`].

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, Mutex};

use agon_engine::{Game, State};
use rand_chacha::ChaCha8Rng;

use super::{draw_decisions, BadInput, Keep, MAX_ATTEMPTS};
use crate::seeds::{self, PairLuck};

/// Draws in a row that may all repeat dealt openings before a new round begins: enough
/// that a game with more openings than deals practically never starts one early (with
/// one undealt opening left among 100, 1,000 draws all miss it with probability 4e-5).
pub const MAX_REDRAWS: u32 = 1000;

/// K random decisions per deal, drawn without replacement (see the module docs). Clones
/// share the openings drawn so far, so one value must serve one game configuration and
/// seed (a balance study makes one per arm).
#[derive(Clone)]
pub struct DistinctDraws {
    k: u32,
    drawn: Arc<Mutex<Option<Drawn>>>,
}

/// The openings dealt so far under one seed.
struct Drawn {
    seed: u64,
    rng: ChaCha8Rng,
    /// Openings of the current round.
    seen: HashSet<Vec<String>>,
    /// Every opening the soundness check judged, in any round, with whether it passed
    /// (so that none is judged twice).
    judged: HashMap<Vec<String>, bool>,
    /// Deal `d`'s opening moves, in notation, at index `d`.
    lines: Vec<Vec<String>>,
}

impl DistinctDraws {
    /// Openings of `k` decisions (at least 1), none drawn yet.
    pub fn new(k: u32) -> DistinctDraws {
        DistinctDraws {
            k,
            drawn: Arc::new(Mutex::new(None)),
        }
    }

    /// The decisions per opening.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The moves of deal `deal`'s opening in `game` under `seed`: `before_swap`
    /// decisions (K, or fewer where a pie rule's swap decision comes first), drawing
    /// every opening up to it that is not drawn yet, each kept only if `keep` says so at
    /// the position after it (see the module docs). Fails if no opening that leaves
    /// the game going can be drawn, if `keep` refuses [`MAX_REDRAWS`] new openings in a
    /// row, or if `keep` fails.
    pub fn line<G: Game>(
        &self,
        game: &G,
        before_swap: u32,
        seed: u64,
        deal: u64,
        keep: &mut Keep<'_, G::State>,
    ) -> Result<Vec<String>, BadInput> {
        // A panic elsewhere while the lock was held leaves whole lines only.
        let mut guard = self.drawn.lock().unwrap_or_else(|e| e.into_inner());
        let drawn = match guard.as_mut() {
            Some(d) if d.seed == seed => d,
            _ => guard.insert(Drawn {
                seed,
                rng: seeds::distinct_opening_rng(seed),
                seen: HashSet::new(),
                judged: HashMap::new(),
                lines: Vec::new(),
            }),
        };
        // No chance here (the caller's contract); the luck is never asked.
        let luck = PairLuck::new(seed, 0);
        let start = game.initial_state();
        while drawn.lines.len() as u64 <= deal {
            let mut dealt_again = None;
            let mut misses = 0;
            let line = loop {
                let mut line = Vec::new();
                draw_decisions(
                    &start,
                    before_swap,
                    &mut drawn.rng,
                    &luck,
                    &mut line,
                    &mut |_| Ok(true),
                )?
                .ok_or_else(|| {
                    BadInput::new(format!(
                        "--random-opening {}: {MAX_ATTEMPTS} random openings all ended \
                         the game; choose a smaller K",
                        self.k
                    ))
                })?;
                if drawn.seen.contains(&line) {
                    dealt_again = Some(line);
                } else {
                    let sound = match drawn.judged.get(&line) {
                        Some(&sound) => sound,
                        None => {
                            let sound = keep(&Self::replay(game, &line))?;
                            drawn.judged.insert(line.clone(), sound);
                            sound
                        }
                    };
                    if sound {
                        break line;
                    }
                }
                misses += 1;
                if misses == MAX_REDRAWS {
                    // Every opening has been dealt or refused, as far as the draws can
                    // tell: a new round, from the latest dealt one met.
                    let line = dealt_again.ok_or_else(|| {
                        BadInput::new(format!(
                            "--random-opening {}: {MAX_REDRAWS} random openings in a row \
                             failed the opening check; widen --opening-window, choose a \
                             smaller K or use --opening-check none",
                            self.k
                        ))
                    })?;
                    drawn.seen.clear();
                    break line;
                }
            };
            drawn.seen.insert(line.clone());
            drawn.lines.push(line);
        }
        Ok(drawn.lines[deal as usize].clone())
    }

    /// Replays `line` (moves [`Self::line`] drew in `game`) from the initial position.
    pub fn replay<G: Game>(game: &G, line: &[String]) -> G::State {
        let mut state = game.initial_state();
        for text in line {
            let m = state
                .parse_move(text)
                .expect("a drawn opening replays in the game it was drawn in");
            state.apply(m);
        }
        state
    }
}

impl PartialEq for DistinctDraws {
    /// Equal when they draw alike: the same K (the openings follow from the seed).
    fn eq(&self, other: &DistinctDraws) -> bool {
        self.k == other.k
    }
}

impl Eq for DistinctDraws {}

impl fmt::Debug for DistinctDraws {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DistinctDraws({})", self.k)
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::games::connect4::Connect4;

    use super::*;

    /// Keeps every opening (no soundness check).
    fn always(_: &<Connect4 as Game>::State) -> Result<bool, BadInput> {
        Ok(true)
    }

    #[test]
    fn refused_openings_are_never_dealt() {
        // Refusing the opening `a`: the six other columns are dealt in each round, and
        // `a` is judged once only.
        let draws = DistinctDraws::new(1);
        let mut judged = 0;
        let mut keep = |state: &<Connect4 as Game>::State| {
            judged += 1;
            Ok(!is_a(state))
        };
        let lines: Vec<String> = (0..12)
            .map(|d| draws.line(&Connect4, 1, 9, d, &mut keep).unwrap().join(" "))
            .collect();
        for round in lines.chunks(6) {
            let mut sorted = round.to_vec();
            sorted.sort();
            assert_eq!(sorted, ["b", "c", "d", "e", "f", "g"], "{lines:?}");
        }
        assert_eq!(judged, 7, "each new opening is judged once");
        // A check that refuses everything fails with a clear line.
        let refuse = DistinctDraws::new(1);
        let err = refuse
            .line(&Connect4, 1, 9, 0, &mut |_| Ok(false))
            .unwrap_err();
        assert_eq!(
            err.0,
            "--random-opening 1: 1000 random openings in a row failed the opening check; \
             widen --opening-window, choose a smaller K or use --opening-check none"
        );
    }

    /// Whether the one stone on the board is in column a.
    fn is_a(state: &<Connect4 as Game>::State) -> bool {
        let mut a = Connect4.initial_state();
        a.apply(a.parse_move("a").unwrap());
        state.hash() == a.hash()
    }

    #[test]
    fn openings_repeat_only_once_every_one_has_been_dealt() {
        // Connect Four has 7 one-move openings: deals 0-6 get each column once, deals
        // 7-13 each once again, whatever order the deals are asked in.
        let draws = DistinctDraws::new(1);
        let late = draws.line(&Connect4, 1, 9, 13, &mut always).unwrap();
        let lines: Vec<String> = (0..14)
            .map(|d| {
                draws
                    .line(&Connect4, 1, 9, d, &mut always)
                    .unwrap()
                    .join(" ")
            })
            .collect();
        assert_eq!(late.join(" "), lines[13]);
        for round in lines.chunks(7) {
            let mut sorted = round.to_vec();
            sorted.sort();
            assert_eq!(sorted, ["a", "b", "c", "d", "e", "f", "g"], "{lines:?}");
        }
        assert_ne!(lines[..7], lines[7..]);
        // A fresh value under the same seed deals the same sequence; another seed
        // another one.
        let again = DistinctDraws::new(1);
        assert_eq!(
            again
                .line(&Connect4, 1, 9, 3, &mut always)
                .unwrap()
                .join(" "),
            lines[3]
        );
        let other: Vec<String> = (0..7)
            .map(|d| {
                again
                    .line(&Connect4, 1, 10, d, &mut always)
                    .unwrap()
                    .join(" ")
            })
            .collect();
        assert_ne!(other, lines[..7]);
    }

    #[test]
    fn a_thousand_four_move_openings_are_all_distinct() {
        // Drawn independently, 1,000 of Connect Four's 2,401 four-move openings would
        // repeat about 170 times.
        let draws = DistinctDraws::new(4);
        let mut seen = HashSet::new();
        for deal in 0..1000 {
            let line = draws.line(&Connect4, 4, 1, deal, &mut always).unwrap();
            assert_eq!(line.len(), 4);
            assert!(seen.insert(line), "deal {deal} repeats an opening");
        }
    }
}
