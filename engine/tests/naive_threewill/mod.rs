//! A naive reference model of 3Will, written from the rules (`docs/games/threewill.md`)
//! alone and sharing no code with the engine: the board is a `Vec` of stacks (each a `Vec` of
//! `'W'`/`'B'`, bottom first), cards are plain counters (the bank kept separately), and
//! every node lists its children with their notation, by obvious loops. It is slow and
//! simple on purpose: perft counts and move lists of the engine are checked against it.
#![allow(dead_code)]

/// Where in the turn the model stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Waiting for a die roll; `free` if it is a Free roll.
    Roll { free: bool },
    /// The mover picks an operation under the rolled face.
    Choose { free: bool, face: u32 },
    /// A stacking attempt from (x, y) to (x, y) waits for its throw.
    Throw { src: (i32, i32), dst: (i32, i32) },
    /// `free` or `done`.
    FreeOrDone,
    /// The challenger picks; `claimant` declared; `then_free` says what was due.
    Pick { claimant: usize, then_free: bool },
    /// The hidden card: picked agent at (x, y, level) with level 0 top, 1 held.
    Reveal {
        claimant: usize,
        then_free: bool,
        picked: (i32, i32, usize),
    },
    /// Over: winner or draw.
    End { winner: Option<usize> },
}

#[derive(Clone, Debug)]
pub struct Naive {
    pub max_turns: u32,
    /// stacks[x][y], bottom first.
    pub stacks: Vec<Vec<Vec<char>>>,
    pub to_move: usize,
    pub dr: [u32; 2],
    pub fr: [u32; 2],
    pub bank: u32,
    pub challenged: bool,
    pub step: Step,
    pub turns_done: u32,
}

fn colour(seat: usize) -> char {
    if seat == 0 {
        'W'
    } else {
        'B'
    }
}

fn goal_row(c: char) -> i32 {
    if c == 'W' {
        7
    } else {
        0
    }
}

fn name(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

impl Naive {
    pub fn new(max_turns: u32) -> Naive {
        let mut stacks = vec![vec![Vec::new(); 8]; 8];
        for x in 0..8 {
            stacks[x][1].push('W');
            stacks[x][6].push('B');
        }
        Naive {
            max_turns,
            stacks,
            to_move: 0,
            dr: [4, 4],
            fr: [0, 0],
            bank: 0,
            challenged: false,
            step: Step::Roll { free: false },
            turns_done: 0,
        }
    }

    fn top(&self, x: i32, y: i32) -> Option<char> {
        self.stacks[x as usize][y as usize].last().copied()
    }

    fn is_locked(c: char, y: i32) -> bool {
        y == goal_row(c)
    }

    /// Agents of colour c on their goal row, any level.
    fn locked_of(&self, c: char) -> usize {
        let y = goal_row(c);
        (0..8)
            .map(|x| {
                self.stacks[x][y as usize]
                    .iter()
                    .filter(|&&a| a == c)
                    .count()
            })
            .sum()
    }

    fn active_of(&self, c: char) -> usize {
        let mut n = 0;
        for x in 0..8 {
            for y in 0..8 {
                if self.top(x, y) == Some(c) && !Self::is_locked(c, y) {
                    n += 1;
                }
            }
        }
        n
    }

    fn wins(&self, seat: usize) -> bool {
        let me = colour(seat);
        let them = colour(1 - seat);
        self.locked_of(me) >= 3 || self.active_of(them) == 0
    }

    /// The (dx, dy) of a face from White's side.
    fn directions(face: u32) -> Vec<(i32, i32)> {
        match face {
            1 => vec![(0, 1)],
            5 => vec![(-1, 1)],
            4 => vec![(1, 1)],
            3 => vec![(-1, 0)],
            2 => vec![(1, 0)],
            6 => vec![(0, -1), (-1, -1), (1, -1)],
            _ => panic!("face {face}"),
        }
    }

    fn finish_turn(&mut self) {
        self.turns_done += 1;
        if self.turns_done == self.max_turns {
            self.step = Step::End { winner: None };
        } else {
            self.to_move = 1 - self.to_move;
            self.step = Step::Roll { free: false };
        }
    }

    /// Picks for `claimant`'s declaration, as (x, y, level, text).
    fn picks(&self, claimant: usize) -> Vec<(i32, i32, usize, String)> {
        let me = colour(claimant);
        let them = colour(1 - claimant);
        let primary = self.locked_of(me) >= 3;
        let supp = self.active_of(them) == 0;
        let mut out = Vec::new();
        for y in 0..8 {
            for x in 0..8 {
                let st = &self.stacks[x as usize][y as usize];
                let n = st.len();
                for level in 0..n {
                    // level 0 = top (last), 1 = held (first of two)
                    let a = st[n - 1 - level];
                    if a != me {
                        continue;
                    }
                    let mut ok = primary && y == goal_row(me);
                    if supp && level == 0 && n == 2 && st[0] == them {
                        ok = true;
                    }
                    if ok {
                        let t = if level == 1 {
                            format!("{}/2", name(x, y))
                        } else {
                            name(x, y)
                        };
                        out.push((x, y, level, t));
                    }
                }
            }
        }
        out
    }

    /// After an operation: declarations, the challenge, or continue.
    fn check_after(&mut self, then_free: bool) {
        let order = [self.to_move, 1 - self.to_move];
        for claimant in order {
            if self.wins(claimant) {
                if !self.challenged && !self.picks(claimant).is_empty() {
                    self.step = Step::Pick {
                        claimant,
                        then_free,
                    };
                } else {
                    self.step = Step::End {
                        winner: Some(claimant),
                    };
                }
                return;
            }
        }
        if then_free {
            self.step = Step::FreeOrDone;
        } else {
            self.finish_turn();
        }
    }

    /// Every next node with the move text that leads to it (weights ignored).
    pub fn children(&self) -> Vec<(String, Naive)> {
        let mut out = Vec::new();
        match self.step.clone() {
            Step::End { .. } => {}
            Step::Roll { free } => {
                for face in 1..=6 {
                    let mut c = self.clone();
                    c.step = Step::Choose { free, face };
                    out.push((face.to_string(), c));
                }
            }
            Step::Throw { src, dst } => {
                let mut c = self.clone();
                // The source's top goes onto the target.
                let agent = c.stacks[src.0 as usize][src.1 as usize].pop().unwrap();
                c.stacks[dst.0 as usize][dst.1 as usize].push(agent);
                if c.stacks[dst.0 as usize][dst.1 as usize].len() == 3 {
                    let t = &mut c.stacks[dst.0 as usize][dst.1 as usize];
                    let out_index = if Self::is_locked(t[0], dst.1) { 1 } else { 0 };
                    let ejected = t.remove(out_index);
                    c.stacks[src.0 as usize][src.1 as usize].insert(0, ejected);
                }
                c.check_after(false);
                out.push(("hit".to_string(), c));
                let mut c = self.clone();
                c.finish_turn();
                out.push(("miss".to_string(), c));
            }
            Step::FreeOrDone => {
                let mut c = self.clone();
                c.fr[c.to_move] -= 1;
                c.bank += 1;
                c.step = Step::Roll { free: true };
                out.push(("free".to_string(), c));
                let mut c = self.clone();
                c.finish_turn();
                out.push(("done".to_string(), c));
            }
            Step::Pick {
                claimant,
                then_free,
            } => {
                for (x, y, level, text) in self.picks(claimant) {
                    let mut c = self.clone();
                    c.challenged = true;
                    c.step = Step::Reveal {
                        claimant,
                        then_free,
                        picked: (x, y, level),
                    };
                    out.push((format!("pick:{text}"), c));
                }
            }
            Step::Reveal {
                claimant,
                then_free,
                picked,
            } => {
                let mut c = self.clone();
                c.step = Step::End {
                    winner: Some(claimant),
                };
                out.push(("stands".to_string(), c));
                let them = colour(1 - claimant);
                for y in 0..8 {
                    for x in 0..8 {
                        let n = self.stacks[x as usize][y as usize].len();
                        for level in 0..n {
                            if self.stacks[x as usize][y as usize][n - 1 - level] != them {
                                continue;
                            }
                            let mut c = self.clone();
                            let (px, py, pl) = picked;
                            let pn = c.stacks[px as usize][py as usize].len();
                            let a = c.stacks[px as usize][py as usize][pn - 1 - pl];
                            c.stacks[px as usize][py as usize][pn - 1 - pl] = them;
                            c.stacks[x as usize][y as usize][n - 1 - level] = a;
                            let mut done = false;
                            for s in [claimant, 1 - claimant] {
                                if !done && c.wins(s) {
                                    c.step = Step::End { winner: Some(s) };
                                    done = true;
                                }
                            }
                            if !done {
                                if then_free {
                                    c.step = Step::FreeOrDone;
                                } else {
                                    c.finish_turn();
                                }
                            }
                            let t = if level == 1 {
                                format!("twin:{}/2", name(x, y))
                            } else {
                                format!("twin:{}", name(x, y))
                            };
                            out.push((t, c));
                        }
                    }
                }
            }
            Step::Choose { free, face } => {
                let me = colour(self.to_move);
                let flip = if me == 'W' { 1 } else { -1 };
                let mut any_plain = false;
                let pay_ok = self.dr[self.to_move] > 0 || self.bank > 0;
                for y in 0..8 {
                    for x in 0..8 {
                        if self.top(x, y) != Some(me) || Self::is_locked(me, y) {
                            continue;
                        }
                        for (dx, dy) in Self::directions(face) {
                            let (mut tx, ty) = (x + dx * flip, y + dy * flip);
                            if !(0..8).contains(&ty) {
                                continue;
                            }
                            let mut leap = false;
                            if !(0..=7).contains(&tx) {
                                if !free {
                                    continue;
                                }
                                tx = if tx < 0 { 7 } else { 0 };
                                leap = true;
                            }
                            match self.top(tx, ty) {
                                None => {
                                    let mut c = self.clone();
                                    let src = c.stacks[x as usize][y as usize].clone();
                                    // Carry the held agent unless it is locked.
                                    if src.len() == 2 && Self::is_locked(src[0], y) {
                                        c.stacks[x as usize][y as usize] = vec![src[0]];
                                        c.stacks[tx as usize][ty as usize] = vec![src[1]];
                                    } else {
                                        c.stacks[x as usize][y as usize] = Vec::new();
                                        c.stacks[tx as usize][ty as usize] = src;
                                    }
                                    let sep = if leap { '~' } else { '-' };
                                    if !leap {
                                        any_plain = true;
                                    }
                                    let then_free = !leap && c.fr[c.to_move] > 0;
                                    c.check_after(then_free);
                                    out.push((format!("{}{sep}{}", name(x, y), name(tx, ty)), c));
                                }
                                Some(t) => {
                                    if Self::is_locked(t, ty) || !pay_ok {
                                        continue;
                                    }
                                    let mut c = self.clone();
                                    let me_seat = c.to_move;
                                    if c.dr[me_seat] > 0 {
                                        c.dr[me_seat] -= 1;
                                        c.bank += 1;
                                    } else {
                                        c.bank -= 1;
                                        c.fr[1 - me_seat] += 1;
                                    }
                                    c.step = Step::Throw {
                                        src: (x, y),
                                        dst: (tx, ty),
                                    };
                                    out.push((format!("{}*{}", name(x, y), name(tx, ty)), c));
                                }
                            }
                        }
                    }
                }
                if !any_plain {
                    let mut c = self.clone();
                    c.finish_turn();
                    out.push(("pass".to_string(), c));
                }
            }
        }
        out
    }

    /// Who wins, once the game is over.
    pub fn result(&self) -> Option<Option<usize>> {
        match self.step {
            Step::End { winner } => Some(winner),
            _ => None,
        }
    }
}
