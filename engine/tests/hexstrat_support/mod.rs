//! The hand-built positions (a duel between two squads among them) and move helpers that Hexstrat's rules tests
//! (`hexstrat.rs`, `hexstrat_combat.rs`) share.

use agon_engine::games::hexstrat::{Hexstrat, HexstratState, Setup, SquadSetup, Tile, Unit};
use agon_engine::{play_moves, Game, State};

/// The position after `moves` from the start of the default rules.
pub fn after(moves: &str) -> HexstratState {
    let mut s = Hexstrat::default().initial_state();
    play_moves(&mut s, moves).unwrap_or_else(|e| panic!("{moves}: {e}"));
    s
}

/// The legal decisions (or reveal outcomes with their weights) in notation.
pub fn legal(s: &HexstratState) -> Vec<String> {
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|&m| s.format_move(m)).collect();
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    out.extend(
        outcomes
            .iter()
            .map(|&(m, w)| format!("{}@{w}", s.format_move(m))),
    );
    out
}

/// Plays `text`, which must be legal.
pub fn play(s: &mut HexstratState, text: &str) {
    let m = s
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{s}"));
    s.try_apply(m).unwrap();
}

/// The reason `text` is refused, checking it is refused by parse and leaves `s` alone.
pub fn refused(s: &HexstratState, text: &str) -> String {
    s.parse_move(text)
        .expect_err(&format!("{text} should be refused"))
        .reason
}

/// A hand-built position under the default rules.
pub fn position(setup: Setup) -> HexstratState {
    Hexstrat::default()
        .position(&setup)
        .unwrap_or_else(|e| panic!("{e}: {setup:?}"))
}

/// The ground of a squad: a tile, or `None` for a Headquarters.
pub type Ground = Option<Tile>;

/// Cells for a combat between seat 0 (attacker) and seat 1 on the given grounds: an
/// attacker on its Headquarters d2 attacks d3; a defender on its Headquarters d6 is
/// attacked from d5; otherwise d3 attacks d4.
pub fn combat_cells(a: Ground, d: Ground) -> (&'static str, &'static str) {
    match (a, d) {
        (None, _) => ("d2", "d3"),
        (_, None) => ("d5", "d6"),
        _ => ("d3", "d4"),
    }
}

/// A position where seat 0's `a` squad (`a_units`) on `a_ground` may attack seat 1's
/// `d` squad (`d_units`) on `d_ground`; each side also has one bystander squad far away
/// (so neither a rout nor the end of the turn follows unless the test wants it).
pub fn duel(
    a: Unit,
    a_ground: Ground,
    a_units: u8,
    d: Unit,
    d_ground: Ground,
    d_units: u8,
) -> HexstratState {
    let (ac, dc) = combat_cells(a_ground, d_ground);
    let mut tiles = vec![("g1", Tile::Plains), ("a7", Tile::Plains)];
    for (c, g) in [(ac, a_ground), (dc, d_ground)] {
        if let Some(t) = g {
            tiles.push((c, t));
        }
    }
    let other = |u: Unit| Unit::ALL.into_iter().find(|&x| x != u).unwrap();
    position(Setup {
        tiles,
        squads: vec![
            SquadSetup::new(0, a, ac, a_units),
            SquadSetup::new(0, other(a), "g1", 1),
            SquadSetup::new(1, d, dc, d_units),
            SquadSetup::new(1, other(d), "a7", 1),
        ],
        ..Setup::default()
    })
}
