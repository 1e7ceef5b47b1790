//! The replays a page embeds, encoded compactly.
//!
//! Every string is stored once per page: an [`Interner`] gives each distinct SVG element
//! (a cell, a coordinate, a piece, a highlight, a mark, as the renderer wrote it) and
//! each distinct line of text (a note, a ply told in words) a number, shared by every
//! ply of every game. A ply then stores only how each of its two layers (the board's
//! cells, then the overlay) differs from the previous ply's, as a [`Delta`] of those
//! numbers, with the numbers of its note lines and of its told line (and of what the ply
//! set off, if anything). The cells are stored per ply like the rest because their
//! grounds may change (a Hexstrat tile turned face up); a ply that changes no cell has an
//! empty board delta (the page then stores none), and so has a game's first ply, whose
//! board is the initial position's, which the page stores once.

use std::collections::HashMap;

use agon_engine::picture::Picture;

use crate::reporting::picture::layout::Layout;
use crate::reporting::picture::svg::{board, overlay};
use crate::reporting::picture::Step;

/// Distinct strings, each numbered in order of first use from 0.
#[derive(Clone, Debug, Default)]
pub struct Interner {
    ids: HashMap<String, u32>,
    strings: Vec<String>,
}

impl Interner {
    /// The number of `text`, given it now if it has none.
    pub fn id(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        let id = self.strings.len() as u32;
        self.ids.insert(text.to_string(), id);
        self.strings.push(text.to_string());
        id
    }

    /// Every string, by its number.
    pub fn strings(&self) -> &[String] {
        &self.strings
    }
}

/// How a list of numbers becomes the next one: drop the items at `removed` (positions in
/// the old list, ascending), then insert each `(position, id)` of `added` (positions in
/// the new list, ascending) in turn. Applying it gives the new list exactly, order and
/// repeats included.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    /// Positions in the old list of the items that go.
    pub removed: Vec<u32>,
    /// `(position in the new list, id)` of the items that come.
    pub added: Vec<(u32, u32)>,
}

/// The delta from `before` to `after` that keeps as many items in place as it can: the
/// `k`-th occurrence of an id in `before` is matched with its `k`-th occurrence in
/// `after`, and the kept items are a longest run of matches in the same order on both
/// sides, so a ply that moves one piece removes and adds about one item each.
pub fn delta(before: &[u32], after: &[u32]) -> Delta {
    // Where each occurrence of each id stands in `after`.
    let mut places: HashMap<u32, Vec<usize>> = HashMap::new();
    for (j, id) in after.iter().enumerate() {
        places.entry(*id).or_default().push(j);
    }
    let mut seen: HashMap<u32, usize> = HashMap::new();
    let matches: Vec<Option<usize>> = before
        .iter()
        .map(|id| {
            let k = seen.entry(*id).or_default();
            *k += 1;
            places.get(id).and_then(|p| p.get(*k - 1)).copied()
        })
        .collect();
    let kept = increasing_run(&matches);
    let mut in_after = vec![false; after.len()];
    let mut removed = Vec::new();
    for (i, m) in matches.iter().enumerate() {
        match m {
            Some(j) if kept[i] => in_after[*j] = true,
            _ => removed.push(i as u32),
        }
    }
    let added = after
        .iter()
        .enumerate()
        .filter(|(j, _)| !in_after[*j])
        .map(|(j, id)| (j as u32, *id))
        .collect();
    Delta { removed, added }
}

/// Which entries of `matches` form a longest strictly increasing subsequence of their
/// values (`None` never does): patience sorting with back links, O(n log n).
fn increasing_run(matches: &[Option<usize>]) -> Vec<bool> {
    // tails[l]: the entry ending the best run of length l + 1 found so far.
    let mut tails: Vec<usize> = Vec::new();
    let mut back: Vec<Option<usize>> = vec![None; matches.len()];
    for (i, m) in matches.iter().enumerate() {
        let Some(value) = m else { continue };
        let length = tails.partition_point(|&t| matches[t].expect("tails hold matches") < *value);
        back[i] = length.checked_sub(1).map(|l| tails[l]);
        if length == tails.len() {
            tails.push(i);
        } else {
            tails[length] = i;
        }
    }
    let mut kept = vec![false; matches.len()];
    let mut at = tails.last().copied();
    while let Some(i) = at {
        kept[i] = true;
        at = back[i];
    }
    kept
}

/// One position of an embedded game, as the page stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The board layer's element numbers from the previous ply's (from none at the
    /// start).
    pub board: Delta,
    /// The overlay's element numbers from the previous ply's (from none at the start).
    pub overlay: Delta,
    /// The numbers of the position's note lines.
    pub notes: Vec<u32>,
    /// The number of the ply told in words (the empty line at the start).
    pub told: u32,
    /// The number of what the ply set off beyond itself, told after it, if anything.
    pub aftermath: Option<u32>,
}

/// The strings of a page's replays and the encoder that numbers them.
#[derive(Clone, Debug, Default)]
pub struct Encoder {
    /// SVG elements of both layers.
    pub elements: Interner,
    /// Note lines and plies told.
    pub texts: Interner,
}

impl Encoder {
    /// The numbers of the board layer of `picture` drawn on `layout`: what a page stores
    /// once, for the initial position, and every game's board starts from.
    pub fn board(&mut self, picture: &Picture, layout: &Layout) -> Vec<u32> {
        self.number(board(picture, layout))
    }

    fn number(&mut self, elements: Vec<String>) -> Vec<u32> {
        elements.iter().map(|e| self.elements.id(e)).collect()
    }

    /// The plies of one replayed game (its [`Step`]s, the start first), drawn on
    /// `layout`, its board layer from `start` (the numbers [`Encoder::board`] gave the
    /// initial position, so a game from there stores no cell before one changes): one
    /// [`Ply`] per step, whose layers decode to exactly the renderer's [`board`] and
    /// [`overlay`] of the step's picture.
    pub fn game(&mut self, steps: &[Step], layout: &Layout, start: &[u32]) -> Vec<Ply> {
        let mut previous_board = start.to_vec();
        let mut previous: Vec<u32> = Vec::new();
        steps
            .iter()
            .map(|step| {
                let cells = self.number(board(&step.picture, layout));
                let ids = self.number(overlay(&step.picture, layout, &step.changed));
                let ply = Ply {
                    board: delta(&previous_board, &cells),
                    overlay: delta(&previous, &ids),
                    notes: step
                        .picture
                        .notes
                        .iter()
                        .map(|n| self.texts.id(n))
                        .collect(),
                    told: self.texts.id(&step.told),
                    aftermath: step.aftermath.as_deref().map(|a| self.texts.id(a)),
                };
                previous_board = cells;
                previous = ids;
                ply
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use agon_engine::games::apv::Apv;
    use agon_engine::games::connect4::Connect4;
    use agon_engine::games::hexstrat::Hexstrat;
    use agon_engine::Game;

    use super::*;
    use crate::reporting::picture::replay;

    /// The page's decoding, in Rust: `delta` applied to `list`.
    fn apply(list: &[u32], delta: &Delta) -> Vec<u32> {
        let mut out: Vec<u32> = list
            .iter()
            .enumerate()
            .filter(|(i, _)| !delta.removed.contains(&(*i as u32)))
            .map(|(_, id)| *id)
            .collect();
        for &(at, id) in &delta.added {
            out.insert(at as usize, id);
        }
        out
    }

    #[test]
    fn a_delta_rebuilds_the_next_list_exactly_keeping_what_it_can() {
        let cases: [(&[u32], &[u32]); 7] = [
            (&[], &[1, 2, 3]),
            (&[1, 2, 3], &[]),
            (&[9, 1, 2, 3], &[8, 1, 2, 4, 3]),
            (&[1, 2, 3, 4], &[4, 3, 2, 1]),
            (&[5, 5, 6], &[5, 6, 5, 5]),
            (&[1, 2, 1, 2], &[2, 1, 2, 1]),
            (&[7, 8], &[7, 8]),
        ];
        for (before, after) in cases {
            let d = delta(before, after);
            assert_eq!(apply(before, &d), after, "{before:?} -> {after:?}: {d:?}");
        }
        // One highlight replaced and one piece added: two additions, one removal.
        assert_eq!(
            delta(&[9, 1, 2, 3], &[8, 1, 2, 4, 3]),
            Delta {
                removed: vec![0],
                added: vec![(0, 8), (3, 4)]
            }
        );
        assert_eq!(delta(&[7, 8], &[7, 8]), Delta::default());
        assert_eq!(delta(&[1, 2, 3, 4], &[4, 3, 2, 1]).removed.len(), 3);
    }

    /// The strings of `ids`.
    fn strings<'a>(encoder: &'a Encoder, ids: &[u32]) -> Vec<&'a str> {
        ids.iter()
            .map(|&id| encoder.elements.strings()[id as usize].as_str())
            .collect()
    }

    #[test]
    fn every_ply_of_a_game_decodes_to_the_renderers_layers() {
        let moves = "d d e c c c b a f g g g a a";
        let steps = replay(&Connect4.initial_state(), moves).unwrap();
        let layout = Layout::of(&steps[0].picture.cells);
        let mut encoder = Encoder::default();
        let start = encoder.board(&steps[0].picture, &layout);
        let plies = encoder.game(&steps, &layout, &start);
        assert_eq!(plies.len(), steps.len());
        let (mut cells, mut list) = (start.clone(), Vec::new());
        for (step, ply) in steps.iter().zip(&plies) {
            cells = apply(&cells, &ply.board);
            list = apply(&list, &ply.overlay);
            assert_eq!(strings(&encoder, &cells), board(&step.picture, &layout));
            assert_eq!(
                strings(&encoder, &list),
                overlay(&step.picture, &layout, &step.changed)
            );
            let texts = encoder.texts.strings();
            let notes: Vec<&str> = ply
                .notes
                .iter()
                .map(|&n| texts[n as usize].as_str())
                .collect();
            assert_eq!(notes, step.picture.notes);
            assert_eq!(texts[ply.told as usize], step.told);
            assert_eq!(ply.aftermath, None);
        }
        // The board starts as the page's, 42 cells and their names stored once; each ply
        // after the start drops the old highlight and adds a stone and its highlight:
        // nothing else is stored.
        assert_eq!(start.len(), 84);
        assert_eq!(plies[0].board, Delta::default());
        for ply in &plies[2..] {
            assert_eq!(ply.board, Delta::default(), "{ply:?}");
            assert_eq!(ply.overlay.removed.len(), 1, "{ply:?}");
            assert_eq!(ply.overlay.added.len(), 2, "{ply:?}");
        }
        // A second game reuses the numbers of the first.
        let known = encoder.elements.strings().len();
        encoder.game(&steps, &layout, &start);
        assert_eq!(encoder.elements.strings().len(), known);
    }

    #[test]
    fn what_a_ply_set_off_is_stored_apart_from_the_ply_told() {
        let moves = "d7-d5 order:f7-f5 e3-f4 no-order";
        let steps = replay(&Apv::default().initial_state(), moves).unwrap();
        let layout = Layout::of(&steps[0].picture.cells);
        let mut encoder = Encoder::default();
        let start = encoder.board(&steps[0].picture, &layout);
        let plies = encoder.game(&steps, &layout, &start);
        let texts = encoder.texts.strings();
        let told: Vec<&str> = plies
            .iter()
            .map(|p| texts[p.told as usize].as_str())
            .collect();
        assert_eq!(told[4], "south (seat 1) plays no-order");
        let set_off: Vec<Option<&str>> = plies
            .iter()
            .map(|p| p.aftermath.map(|a| texts[a as usize].as_str()))
            .collect();
        assert_eq!(
            set_off,
            [
                None,
                None,
                None,
                None,
                Some("north's order f7-f5 fires: its Veil moves to f5")
            ]
        );
    }

    #[test]
    fn a_tile_turned_face_up_changes_its_cell_from_that_ply_on() {
        let steps = replay(&Hexstrat::default().initial_state(), "I:c2 forest R:e1").unwrap();
        let layout = Layout::of(&steps[0].picture.cells);
        let mut encoder = Encoder::default();
        let start = encoder.board(&steps[0].picture, &layout);
        let plies = encoder.game(&steps, &layout, &start);
        let mut cells = start;
        for (step, ply) in steps.iter().zip(&plies) {
            cells = apply(&cells, &ply.board);
            assert_eq!(strings(&encoder, &cells), board(&step.picture, &layout));
        }
        // The move onto c2 leaves the board alone; the reveal repaints c2 and its name
        // (forest, with the ink of a face-up tile's name); the next move changes no cell.
        let c2 = steps[0].picture.cell_named("c2").unwrap() as u32;
        assert_eq!(plies[1].board, Delta::default());
        assert_eq!(plies[2].board.removed, [2 * c2, 2 * c2 + 1]);
        let added: Vec<u32> = plies[2].board.added.iter().map(|&(at, _)| at).collect();
        assert_eq!(added, [2 * c2, 2 * c2 + 1]);
        assert!(strings(&encoder, &cells)[2 * c2 as usize].contains("fill=\"#4f8a4a\""));
        assert_eq!(plies[3].board, Delta::default());
    }
}
