//! The chance test game passes the conformance suite, and the suite catches broken games.

use agon_engine::testing::coin_nim::{CoinNim, CoinNimMove, CoinNimState};
use agon_engine::testing::{check_conformance, Cap, CapUnit, Conformance};
use agon_engine::{
    EndReason, FastPlayout, Game, LengthCap, NullMove, Outcome, PieRule, State, Symmetries, Turn,
};

#[test]
fn coin_nim_conforms() {
    for (stones, cap) in [(7, 6), (1, 1), (20, 60), (5, 3)] {
        let game = CoinNim { stones, cap };
        // One stone: the first decision takes it, before any coin is tossed.
        let cfg = Conformance {
            chance_optional: stones == 1,
            ..Conformance::default()
        };
        let report = check_conformance(&game, &cfg).unwrap();
        assert_eq!(report.playouts, 1000);
        assert!(report.chance_nodes > 0 || stones == 1, "{report:?}");
    }
    let report =
        check_conformance(&CoinNim { stones: 9, cap: 40 }, &Conformance::default()).unwrap();
    assert!(
        report.transpositions > 0,
        "take1 take2 and take2 take1 transpose: {report:?}"
    );
    let reasons: Vec<_> = report.end_reasons.iter().map(|(r, _)| *r).collect();
    assert_eq!(reasons, ["last-stone"]);
    let report = check_conformance(&CoinNim::default(), &Conformance::default()).unwrap();
    let reasons: Vec<_> = report.end_reasons.iter().map(|(r, _)| *r).collect();
    assert_eq!(reasons, ["cap", "last-stone"]);
}

#[test]
fn heads_gives_the_same_seat_another_decision() {
    let mut s = CoinNim::default().initial_state();
    s.apply(CoinNimMove::Take(2));
    assert_eq!(s.turn(), Turn::Chance);
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes, [(CoinNimMove::Heads, 1), (CoinNimMove::Tails, 2)]);
    s.apply(CoinNimMove::Heads);
    assert_eq!(s.turn(), Turn::Seat(0));
    s.apply(CoinNimMove::Take(2));
    s.apply(CoinNimMove::Tails);
    assert_eq!(s.turn(), Turn::Seat(1));
    assert_eq!(
        s.parse_move("take3").unwrap_err().reason,
        "expected take1, take2, heads or tails"
    );
    assert_eq!(
        s.parse_move("heads").unwrap_err().reason,
        "not legal in this position"
    );
    for m in ["take2", "tails", "take1"] {
        let m = s.parse_move(m).unwrap();
        s.apply(m);
    }
    assert_eq!(s.outcome(), Some(Outcome::Win(0)));
    assert_eq!(s.end_reason(), Some(EndReason::Rule("last-stone")));
}

/// A wrapper that breaks one contract, to show the harness notices.
mod broken {
    use super::*;
    use agon_engine::params::{ConfigError, ParamSpec, Params};
    use agon_engine::End;
    use std::fmt;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Fault {
        StaleHash,
        DuplicateMove,
        BadUndo,
        /// Counts a turn only once the next one begins.
        LateTurns,
    }

    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Broken(pub CoinNimState, pub Fault);

    impl fmt::Display for Broken {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.fmt(f)
        }
    }

    impl State for Broken {
        type Chance = agon_engine::WithChance;
        type Move = CoinNimMove;
        type Undo = CoinNimState;
        fn turn(&self) -> Turn {
            self.0.turn()
        }
        fn legal_moves(&self, out: &mut Vec<CoinNimMove>) {
            self.0.legal_moves(out);
            if self.1 == Fault::DuplicateMove && !out.is_empty() {
                out.push(out[0]);
            }
        }
        fn chance_outcomes(&self, out: &mut Vec<(CoinNimMove, u32)>) {
            self.0.chance_outcomes(out)
        }
        fn max_moves(&self) -> usize {
            3
        }
        fn apply(&mut self, m: CoinNimMove) -> CoinNimState {
            self.0.apply(m)
        }
        fn undo(&mut self, undo: CoinNimState) {
            if self.1 != Fault::BadUndo {
                self.0.undo(undo)
            }
        }
        fn hash(&self) -> u64 {
            match self.1 {
                Fault::StaleHash if self.0.ply() > 2 => 7,
                _ => self.0.hash(),
            }
        }
        fn recompute_hash(&self) -> u64 {
            self.0.recompute_hash()
        }
        fn end(&self) -> Option<End> {
            self.0.end()
        }
        fn side(&self, seat: usize) -> &'static str {
            self.0.side(seat)
        }
        fn ply(&self) -> u32 {
            self.0.ply()
        }
        fn turns(&self) -> u32 {
            match self.1 {
                Fault::LateTurns => self.0.turns().saturating_sub(1),
                _ => self.0.turns(),
            }
        }
        fn format_move(&self, m: CoinNimMove) -> String {
            self.0.format_move(m)
        }
        fn parse_move(&self, text: &str) -> Result<CoinNimMove, agon_engine::MoveError> {
            self.0.parse_move(text)
        }
    }

    impl FastPlayout for Broken {}

    impl Symmetries for Broken {}

    impl PieRule for Broken {}

    impl NullMove for Broken {}

    impl LengthCap for Broken {}

    #[derive(Clone, Debug)]
    pub struct BrokenGame(pub Fault);

    impl Game for BrokenGame {
        type State = Broken;
        const NAME: &'static str = "broken";
        const ABOUT: &'static str = "coin nim with one contract broken";
        const HAS_HIDDEN_INFORMATION: bool = false;
        fn param_specs() -> &'static [ParamSpec] {
            &[]
        }
        fn from_params(_: &Params) -> Result<Self, ConfigError> {
            Ok(BrokenGame(Fault::StaleHash))
        }
        fn initial_state(&self) -> Broken {
            Broken(CoinNim::default().initial_state(), self.0)
        }
    }
}

#[test]
fn the_harness_catches_broken_contracts() {
    use broken::{BrokenGame, Fault};
    let cfg = Conformance {
        playouts: 20,
        ..Conformance::default()
    };
    let err = check_conformance(&BrokenGame(Fault::StaleHash), &cfg).unwrap_err();
    assert!(err.contains("recompute_hash"), "{err}");
    let err = check_conformance(&BrokenGame(Fault::DuplicateMove), &cfg).unwrap_err();
    assert!(err.contains("listed twice"), "{err}");
    let err = check_conformance(&BrokenGame(Fault::BadUndo), &cfg).unwrap_err();
    assert!(err.contains("did not restore"), "{err}");
}

#[test]
fn a_turn_is_a_seats_takes_up_to_a_tails() {
    let mut s = CoinNim { stones: 9, cap: 40 }.initial_state();
    assert_eq!(s.turns(), 0);
    // Seat 0 takes, heads, takes again: still its first turn; tails ends it.
    for (text, turns) in [("take1", 1), ("heads", 1), ("take2", 1), ("tails", 1)] {
        s.try_apply(s.parse_move(text).unwrap()).unwrap();
        assert_eq!(s.turns(), turns, "after {text}");
    }
    // Seat 1's first take begins turn 2.
    s.try_apply(CoinNimMove::Take(1)).unwrap();
    assert_eq!((s.turns(), s.ply()), (2, 5));
}

#[test]
fn the_harness_checks_turns_and_the_caps_count() {
    use broken::{BrokenGame, Fault};
    let cfg = Conformance {
        playouts: 20,
        ..Conformance::default()
    };
    // A first ply that begins no turn is refused...
    let err = check_conformance(&BrokenGame(Fault::LateTurns), &cfg).unwrap_err();
    assert!(err.contains("moved turns from 0 to 0 (ply 1)"), "{err}");
    // ...and so is a cap that does not end the game at its limit of what it counts.
    let cap = |unit, limit| Conformance {
        cap: Some(Cap { unit, limit }),
        ..Conformance::default()
    };
    let game = CoinNim::default();
    check_conformance(&game, &cap(CapUnit::Decisions, 6)).unwrap();
    let err = check_conformance(&game, &cap(CapUnit::Decisions, 5)).unwrap_err();
    assert!(
        err.contains("ended by the cap (cap) after 6 decisions, not 5"),
        "{err}"
    );
    let err = check_conformance(&game, &cap(CapUnit::Turns, 6)).unwrap_err();
    assert!(err.contains("turns, not 6"), "{err}");
}

#[test]
fn pictures_keep_their_contract_and_tell_the_coin() {
    use agon_engine::picture::Depict;
    let game = CoinNim::default();
    assert!(agon_engine::testing::check_pictures(&game, 20, 3).unwrap() > 40);
    let mut state = game.initial_state();
    agon_engine::play_moves(&mut state, "take2").unwrap();
    let picture = state.picture();
    assert_eq!(picture.pieces[0].label.as_deref(), Some("5"));
    assert_eq!(picture.notes, ["the coin is about to be tossed"]);
    let heads = state.parse_move("heads").unwrap();
    assert_eq!(state.event(heads), "heads: seat 0 decides again");
}
