//! A naive reference implementation of Hexstrat, written from the rules spec
//! (described in `docs/games/hexstrat.md`) alone, for checking the engine.
//!
//! It shares no code with the engine: cells are `(q, r)` pairs looked up by scanning a
//! list, squads live in a `Vec` (a destroyed squad is removed from it), moves are
//! produced as notation strings with the position they lead to, and every rule is a
//! plain loop. It trades speed for being obviously right (a position is cloned per
//! move). The tests use it to derive perft counts, to cross-check the engine node by
//! node, to show (through [`Mutation`]) that those comparisons notice a broken rule, and
//! (through the events each move reports) that the mid-game perft positions exercise
//! combat, advances, impeded squads, blocked Mechs and seize counts below them.
//!
//! Every test binary that includes this module uses a different part of it.
#![allow(dead_code)]

/// A deliberately broken rule, to show that the tests' comparisons are sensitive.
/// [`Mutation::None`] plays the rules of the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// The rules as written.
    None,
    /// A surviving defender does not strike back.
    NoStrikeBack,
    /// A winning attacker never advances.
    NoAdvance,
    /// A Mech may enter a Mountain like any squad.
    MechClimbs,
    /// The turn never ends by itself: `end` is always needed.
    NoAutomaticEnd,
    /// Entering the enemy Headquarters does not impede.
    NoHqImpede,
    /// A seize count of 2 already wins.
    SeizeAtTwo,
    /// Terrain gives no bonus in combat.
    NoTerrainBonus,
    /// Chance outcomes are the three tile types even when one is used up.
    FullBag,
}

/// The six directions `(dq, dr)` of the spec.
const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Tile words in the spec's order (also the order of the bag counts).
pub const TILE_WORDS: [&str; 3] = ["plains", "forest", "mountain"];

/// What lies on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// A face-down tile.
    Hidden,
    /// A face-up tile: 0 Plains, 1 Forest, 2 Mountain.
    Tile(usize),
    /// A seat's Headquarters.
    Hq(usize),
}

/// One squad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Squad {
    pub seat: usize,
    /// `I`, `R` or `M`.
    pub kind: char,
    pub q: i32,
    pub r: i32,
    pub units: i32,
    pub impeded: bool,
    pub acted: bool,
}

/// The attack value of the spec's table.
fn atk(attacker: char, defender: char) -> i32 {
    let row = match attacker {
        'I' => [1, 3, 2],
        'R' => [2, 1, 3],
        _ => [4, 2, 1],
    };
    match defender {
        'I' => row[0],
        'R' => row[1],
        _ => row[2],
    }
}

/// Whether `(q, r)` is on the side-4 hexagon.
pub fn on_board(q: i32, r: i32) -> bool {
    q.abs() <= 3 && r.abs() <= 3 && (q + r).abs() <= 3
}

/// `a`..`g` for q, `1`..`7` for r.
pub fn name(q: i32, r: i32) -> String {
    format!("{}{}", (b'a' + (q + 3) as u8) as char, r + 4)
}

fn hq_of(seat: usize) -> (i32, i32) {
    if seat == 0 {
        (0, -2)
    } else {
        (0, 2)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// The winner, or `None` for a draw.
    pub winner: Option<usize>,
    /// `rout`, `seize` or `cap`.
    pub reason: &'static str,
}

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveTurn {
    Seat(usize),
    Chance,
    Over,
}

/// A position.
#[derive(Clone, Debug)]
pub struct Position {
    pub mutation: Mutation,
    pub max_rounds: i32,
    /// Every cell with its ground.
    pub cells: Vec<((i32, i32), Ground)>,
    /// Face-down tiles left: plains, forest, mountain.
    pub bag: [i32; 3],
    pub squads: Vec<Squad>,
    pub to_move: usize,
    /// A move onto a face-down cell waiting for its reveal: (seat, kind, cell).
    pub pending: Option<(usize, char, (i32, i32))>,
    pub seize: [i32; 2],
    /// Turns completed.
    pub turns: i32,
    pub end: Option<End>,
    pub plies: usize,
}

impl Position {
    /// The start with a bag of `bag` tiles and the cap `max_rounds`.
    pub fn start(bag: [i32; 3], max_rounds: i32, mutation: Mutation) -> Position {
        let mut cells = Vec::new();
        for q in -3..=3 {
            for r in -3..=3 {
                if on_board(q, r) {
                    let ground = if (q, r) == hq_of(0) {
                        Ground::Hq(0)
                    } else if (q, r) == hq_of(1) {
                        Ground::Hq(1)
                    } else {
                        Ground::Hidden
                    };
                    cells.push(((q, r), ground));
                }
            }
        }
        assert_eq!(cells.len(), 37);
        let mut squads = Vec::new();
        for seat in 0..2 {
            let (q, r) = hq_of(seat);
            for (kind, units) in [('I', 6), ('R', 6), ('M', 4)] {
                squads.push(Squad {
                    seat,
                    kind,
                    q,
                    r,
                    units,
                    impeded: false,
                    acted: false,
                });
            }
        }
        Position {
            mutation,
            max_rounds,
            cells,
            bag,
            squads,
            to_move: 0,
            pending: None,
            seize: [0, 0],
            turns: 0,
            end: None,
            plies: 0,
        }
    }

    pub fn ground(&self, at: (i32, i32)) -> Ground {
        self.cells
            .iter()
            .find(|(c, _)| *c == at)
            .expect("on board")
            .1
    }

    fn set_ground(&mut self, at: (i32, i32), g: Ground) {
        for (c, ground) in self.cells.iter_mut() {
            if *c == at {
                *ground = g;
            }
        }
    }

    fn squad_index(&self, seat: usize, kind: char) -> Option<usize> {
        self.squads
            .iter()
            .position(|s| s.seat == seat && s.kind == kind)
    }

    fn squads_at(&self, seat: usize, at: (i32, i32)) -> Vec<usize> {
        (0..self.squads.len())
            .filter(|&i| self.squads[i].seat == seat && (self.squads[i].q, self.squads[i].r) == at)
            .collect()
    }

    pub fn turn(&self) -> NaiveTurn {
        if self.end.is_some() {
            NaiveTurn::Over
        } else if self.pending.is_some() {
            NaiveTurn::Chance
        } else {
            NaiveTurn::Seat(self.to_move)
        }
    }

    fn attack_bonus(&self, at: (i32, i32)) -> i32 {
        if self.mutation == Mutation::NoTerrainBonus {
            return 0;
        }
        match self.ground(at) {
            Ground::Tile(2) => 1,
            _ => 0,
        }
    }

    fn defence_bonus(&self, at: (i32, i32)) -> i32 {
        if self.mutation == Mutation::NoTerrainBonus {
            return 0;
        }
        match self.ground(at) {
            Ground::Tile(1) | Ground::Tile(2) => 1,
            _ => 0,
        }
    }

    /// The reveal outcomes with their weights.
    pub fn outcomes(&self) -> Vec<(String, u32)> {
        if self.turn() != NaiveTurn::Chance {
            return Vec::new();
        }
        (0..3)
            .filter(|&t| self.bag[t] > 0 || self.mutation == Mutation::FullBag)
            .map(|t| (TILE_WORDS[t].to_string(), self.bag[t].max(1) as u32))
            .collect()
    }

    /// Every next position with the move that leads there, in notation, and the events
    /// the move caused (`attack`, `advance`, `destroyed`, `struck-back`, `impeded`,
    /// `blocked`, `seize-start`, `seize-count`, `seize`, `rout`, `cap`, `end-turn`).
    pub fn children(&self) -> Vec<(String, Position, Vec<&'static str>)> {
        let mut out = Vec::new();
        match self.turn() {
            NaiveTurn::Over => {}
            NaiveTurn::Chance => {
                let (seat, kind, at) = self.pending.unwrap();
                for (word, _) in self.outcomes() {
                    let t = TILE_WORDS.iter().position(|w| *w == word).unwrap();
                    let mut c = self.clone();
                    let mut ev = Vec::new();
                    c.pending = None;
                    c.set_ground(at, Ground::Tile(t));
                    c.bag[t] -= 1;
                    let i = c.squad_index(seat, kind).unwrap();
                    if kind == 'M' && t == 2 && self.mutation != Mutation::MechClimbs {
                        ev.push("blocked");
                    } else {
                        c.enter(i, at, &mut ev);
                    }
                    let i = c.squad_index(seat, kind).unwrap();
                    c.squads[i].acted = true;
                    c.after_action(&mut ev);
                    c.plies += 1;
                    out.push((word, c, ev));
                }
            }
            NaiveTurn::Seat(seat) => {
                for kind in ['I', 'R', 'M'] {
                    let Some(i) = self.squad_index(seat, kind) else {
                        continue;
                    };
                    let s = self.squads[i];
                    if s.acted {
                        continue;
                    }
                    if s.impeded {
                        let mut c = self.clone();
                        let mut ev = Vec::new();
                        c.squads[i].impeded = false;
                        c.squads[i].acted = true;
                        c.after_action(&mut ev);
                        c.plies += 1;
                        out.push((format!("{kind}:recover"), c, ev));
                        continue;
                    }
                    for (dq, dr) in DIRECTIONS {
                        let to = (s.q + dq, s.r + dr);
                        if !on_board(to.0, to.1) {
                            continue;
                        }
                        if !self.squads_at(seat, to).is_empty() {
                            continue;
                        }
                        let enemies = self.squads_at(1 - seat, to);
                        let text = format!("{kind}:{}", name(to.0, to.1));
                        if enemies.is_empty() {
                            let ground = self.ground(to);
                            if kind == 'M'
                                && ground == Ground::Tile(2)
                                && self.mutation != Mutation::MechClimbs
                            {
                                continue;
                            }
                            let mut c = self.clone();
                            let mut ev = Vec::new();
                            if ground == Ground::Hidden {
                                c.pending = Some((seat, kind, to));
                            } else {
                                c.enter(i, to, &mut ev);
                                c.squads[i].acted = true;
                                c.after_action(&mut ev);
                            }
                            c.plies += 1;
                            out.push((text, c, ev));
                        } else if enemies.len() == 1 {
                            let mut c = self.clone();
                            let mut ev = Vec::new();
                            c.attack(seat, kind, enemies[0], to, &mut ev);
                            c.plies += 1;
                            out.push((text, c, ev));
                        } else {
                            for &e in &enemies {
                                let mut c = self.clone();
                                let mut ev = Vec::new();
                                let t = self.squads[e].kind;
                                c.attack(seat, kind, e, to, &mut ev);
                                c.plies += 1;
                                out.push((format!("{text}/{t}"), c, ev));
                            }
                        }
                    }
                }
                let mut c = self.clone();
                let mut ev = Vec::new();
                c.end_turn(&mut ev);
                c.plies += 1;
                out.push(("end".to_string(), c, ev));
            }
        }
        out
    }

    /// Squad `i` moves into `to`, with the entry effects.
    fn enter(&mut self, i: usize, to: (i32, i32), ev: &mut Vec<&'static str>) {
        let s = self.squads[i];
        self.squads[i].q = to.0;
        self.squads[i].r = to.1;
        let enemy_hq = hq_of(1 - s.seat);
        if s.kind == 'M' && self.ground(to) == Ground::Tile(1) {
            self.squads[i].impeded = true;
            ev.push("impeded");
        }
        if to == enemy_hq {
            if self.mutation != Mutation::NoHqImpede {
                self.squads[i].impeded = true;
                ev.push("impeded");
            }
            if s.kind == 'I' {
                self.seize[s.seat] = 1;
                ev.push("seize-start");
            }
        }
    }

    /// Squad `kind` of `seat` attacks squad `d` on `to`.
    fn attack(
        &mut self,
        seat: usize,
        kind: char,
        d: usize,
        to: (i32, i32),
        ev: &mut Vec<&'static str>,
    ) {
        ev.push("attack");
        let a = self.squad_index(seat, kind).unwrap();
        let from = (self.squads[a].q, self.squads[a].r);
        let dkind = self.squads[d].kind;
        let damage = (atk(kind, dkind) + self.attack_bonus(from) - self.defence_bonus(to)).max(0);
        self.squads[d].units -= damage;
        if self.squads[d].units <= 0 {
            ev.push("destroyed");
            self.squads.remove(d);
            if self.routed(1 - seat, ev) {
                return;
            }
            let a = self.squad_index(seat, kind).unwrap();
            let may_enter = self.squads_at(1 - seat, to).is_empty()
                && !(kind == 'M'
                    && self.ground(to) == Ground::Tile(2)
                    && self.mutation != Mutation::MechClimbs)
                && self.mutation != Mutation::NoAdvance;
            if may_enter {
                ev.push("advance");
                self.enter(a, to, ev);
            }
        } else if self.mutation != Mutation::NoStrikeBack {
            let back = (atk(dkind, kind) + self.attack_bonus(to) - self.defence_bonus(from)).max(0);
            if back > 0 {
                ev.push("struck-back");
            }
            self.squads[a].units -= back;
            if self.squads[a].units <= 0 {
                ev.push("destroyed");
                self.squads.remove(a);
                if self.routed(seat, ev) {
                    return;
                }
                self.after_action(ev);
                return;
            }
        }
        let a = self.squad_index(seat, kind).unwrap();
        self.squads[a].acted = true;
        self.after_action(ev);
    }

    /// Whether `seat` has no units left; if so the other seat wins.
    fn routed(&mut self, seat: usize, ev: &mut Vec<&'static str>) -> bool {
        if self.squads.iter().any(|s| s.seat == seat) {
            return false;
        }
        ev.push("rout");
        self.end = Some(End {
            winner: Some(1 - seat),
            reason: "rout",
        });
        true
    }

    /// After an action: the turn ends by itself once every surviving squad acted.
    fn after_action(&mut self, ev: &mut Vec<&'static str>) {
        if self.mutation == Mutation::NoAutomaticEnd {
            return;
        }
        let seat = self.to_move;
        if self
            .squads
            .iter()
            .filter(|s| s.seat == seat)
            .all(|s| s.acted)
        {
            self.end_turn(ev);
        }
    }

    /// The turn ends: the cap, then the other side's seize check.
    fn end_turn(&mut self, ev: &mut Vec<&'static str>) {
        ev.push("end-turn");
        for s in self.squads.iter_mut() {
            s.acted = false;
        }
        self.turns += 1;
        if self.turns == 2 * self.max_rounds {
            ev.push("cap");
            self.end = Some(End {
                winner: None,
                reason: "cap",
            });
            return;
        }
        self.to_move = 1 - self.to_move;
        let seat = self.to_move;
        // The count goes on only if the Infantry that started it is still there.
        let still_there = self
            .squads
            .iter()
            .any(|s| s.seat == seat && s.kind == 'I' && (s.q, s.r) == hq_of(1 - seat));
        if self.seize[seat] > 0 && still_there {
            self.seize[seat] += 1;
            ev.push("seize-count");
            let wins = if self.mutation == Mutation::SeizeAtTwo {
                2
            } else {
                3
            };
            if self.seize[seat] >= wins {
                ev.push("seize");
                self.end = Some(End {
                    winner: Some(seat),
                    reason: "seize",
                });
            }
        } else {
            self.seize[seat] = 0;
        }
    }

    /// The legal moves (decisions or outcomes) in notation.
    pub fn moves(&self) -> Vec<String> {
        self.children().into_iter().map(|(m, _, _)| m).collect()
    }

    /// Plays one move given in notation.
    pub fn play_one(&mut self, m: &str) -> Result<Vec<&'static str>, String> {
        let (_, next, ev) = self
            .children()
            .into_iter()
            .find(|(t, _, _)| t == m)
            .ok_or_else(|| format!("{m} is not offered (offered: {:?})", self.moves()))?;
        *self = next;
        Ok(ev)
    }

    /// Plays a space-separated list of moves.
    pub fn play(&mut self, moves: &str) -> Result<(), String> {
        for m in moves.split_whitespace() {
            self.play_one(m)?;
        }
        Ok(())
    }

    /// The count of paths of exactly `depth` plies.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let children = self.children();
        if depth == 1 {
            return children.len() as u64;
        }
        children.iter().map(|(_, c, _)| c.perft(depth - 1)).sum()
    }

    /// Per first move, the count below it.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.children()
            .into_iter()
            .map(|(m, c, _)| (m, c.perft(depth.saturating_sub(1))))
            .collect()
    }

    /// Every event that happens on some path of at most `depth` plies.
    pub fn events_below(&self, depth: u32, seen: &mut Vec<&'static str>) {
        if depth == 0 {
            return;
        }
        for (_, c, ev) in self.children() {
            for e in ev {
                if !seen.contains(&e) {
                    seen.push(e);
                }
            }
            c.events_below(depth - 1, seen);
        }
    }
}
