//! Invector's symmetries, for tables that store a position once for all its images
//! ([`Symmetries::canonical_key`](crate::Symmetries::canonical_key)).
//!
//! Every legal board has one even side and one odd side, and its two centre pits lie
//! across the middle of the even side. The board's mirrors and its half turn keep the
//! pair of centre pits, and with it every cell's distance to the centre, so they keep
//! the rules. The mirror across the even side's middle keeps the checkerboard of
//! colours; the other mirror and the half turn exchange it (they shift `x + y` by an
//! odd number), so they map a position onto one with the colours exchanged, and the
//! other colour to move: the same game from the mover's point of view. Which seat plays
//! which colour (after a pie-rule swap) changes no value from the mover's point of view
//! either, so the key leaves it out. The swap itself is a right of White's only, so
//! while it is available only the colour-keeping mirror applies.

/// The symmetries as numbered for [`crate::Symmetries::canonical_key`]: the identity, the
/// left-right mirror (`x → W-1-x`), the top-bottom mirror (`y → H-1-y`) and the half
/// turn (both). Each is its own inverse.
pub const SYMMETRIES: usize = 4;

/// The cell each cell goes to under each symmetry, whether the symmetry exchanges the
/// colours of the checkerboard, and the Zobrist key of each stone's image.
#[derive(Debug)]
pub struct Images {
    /// `cell[s][p]`: where symmetry `s` takes cell `p`.
    pub cell: [[u8; 128]; SYMMETRIES],
    /// Whether symmetry `s` exchanges Black's and White's cells.
    pub swaps_colours: [bool; SYMMETRIES],
    /// `stone_key[s][c * 128 + p]`: the key of the image under `s` of a stone of colour
    /// `c` on cell `p` (its cell moved, its colour exchanged if `s` exchanges them), so
    /// that the key of a position's image costs one look-up a stone.
    pub stone_key: [[u64; 256]; SYMMETRIES],
}

impl Images {
    /// The images on a `width × height` board, whose stones have the Zobrist keys
    /// `stone_keys` (`c * 128 + p` for colour `c` on cell `p`).
    pub fn new(width: usize, height: usize, stone_keys: &[u64]) -> Images {
        let mut images = Images {
            cell: [[0; 128]; SYMMETRIES],
            swaps_colours: [false; SYMMETRIES],
            stone_key: [[0; 256]; SYMMETRIES],
        };
        for s in 0..SYMMETRIES {
            let (flip_x, flip_y) = (s & 1 == 1, s & 2 == 2);
            // A flip moves x + y by width - 1 or height - 1: odd on the even side.
            let shift = usize::from(flip_x) * (width - 1) + usize::from(flip_y) * (height - 1);
            images.swaps_colours[s] = shift % 2 == 1;
            for p in 0..width * height {
                let (x, y) = (p % width, p / width);
                let x = if flip_x { width - 1 - x } else { x };
                let y = if flip_y { height - 1 - y } else { y };
                images.cell[s][p] = (y * width + x) as u8;
                let flip = usize::from(images.swaps_colours[s]);
                for c in 0..2 {
                    images.stone_key[s][c * 128 + p] = stone_keys[(c ^ flip) * 128 + y * width + x];
                }
            }
        }
        images
    }
}

/// Whether the symmetry `s` of `images` applies to a position: any does, except that
/// one which exchanges the colours does not while White may still swap.
#[inline]
pub fn applies(images: &Images, s: usize, swap_available: bool) -> bool {
    !(swap_available && images.swaps_colours[s])
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::SYMMETRIES;
    use crate::games::invector::{Invector, InvectorKnobs, InvectorMove, InvectorState};
    use crate::{Game, Seat, State, Symmetries, Turn};

    /// The image of `s` under symmetry `sym`, with the seats' colours exchanged too when
    /// `relabel` (as after the pie rule's swap, which the key also leaves out).
    fn image(s: &InvectorState, sym: usize, relabel: bool) -> InvectorState {
        let images = &s.geo.images;
        let flip = usize::from(images.swaps_colours[sym]);
        let mut stones = [0u128; 2];
        for (c, &bb) in s.stones.iter().enumerate() {
            for p in 0..s.geo.cells() {
                if bb >> p & 1 == 1 {
                    stones[c ^ flip] |= 1u128 << images.cell[sym][p];
                }
            }
        }
        let to_move = if flip == 1 {
            s.to_move.other()
        } else {
            s.to_move
        };
        let mut t = InvectorState {
            stones,
            to_move,
            swapped: s.swapped != relabel,
            ..s.clone()
        };
        t.hash = t.recompute_hash();
        t.image_keys = t.recompute_image_keys();
        t
    }

    fn sorted_moves(s: &InvectorState) -> Vec<InvectorMove> {
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        moves.sort();
        moves
    }

    /// Whether the seat to move in `s` wins with best play (memoised by the hash).
    fn mover_wins(s: &mut InvectorState, memo: &mut HashMap<u64, bool>) -> bool {
        if let Some(&known) = memo.get(&s.hash) {
            return known;
        }
        let Turn::Seat(mover) = s.turn() else {
            unreachable!("called on a finished game")
        };
        let mut moves = Vec::new();
        s.legal_moves(&mut moves);
        let wins = moves.into_iter().any(|m| {
            let undo = s.apply(m);
            let won = match s.turn() {
                Turn::Over => s.end().unwrap().outcome.score(mover) > 0,
                Turn::Seat(next) => mover_wins(s, memo) == (next == mover),
                Turn::Chance => unreachable!(),
            };
            s.undo(undo);
            won
        });
        memo.insert(s.hash, wins);
        wins
    }

    /// Along random games on boards of both shapes, with and without the pie rule: every
    /// image of a position shares its canonical key, has exactly the mapped legal
    /// moves, and (checked by exhaustive search on the small boards) the same value
    /// for its mover; the images of a line's positions stay images of each other.
    #[test]
    fn images_have_the_mapped_moves_the_same_key_and_value() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for (w, h) in [(5, 4), (4, 5), (7, 2), (3, 4), (4, 3), (2, 3)] {
            for pie in [false, true] {
                check_images(Invector::new(w, h, pie).unwrap(), &mut rng);
            }
        }
    }

    /// The same with the designer's knobs turned: they shape the start (which need not
    /// be symmetric: the handicap) and numbers the rules read for both colours alike, so
    /// every symmetry still keeps the value.
    #[test]
    fn images_keep_their_value_with_the_knobs_turned() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for (w, h, lose_at, hole, stride, handicap) in [
            (5, 4, 1, 0, 2, 1),
            (4, 5, 0, 1, 2, 0),
            (3, 4, 1, 1, 1, 1),
            (4, 3, 0, 0, 2, 2),
            (7, 2, 2, 0, 3, 0),
        ] {
            for pie in [false, true] {
                let knobs = InvectorKnobs {
                    lose_at,
                    hole,
                    stride,
                    handicap,
                };
                let rules = Invector::new(w, h, pie).unwrap().with_knobs(knobs).unwrap();
                check_images(rules, &mut rng);
            }
        }
    }

    /// Twenty random games of `rules`, each compared move by move with its image under
    /// a random symmetry (solved exactly on boards of at most 12 cells).
    fn check_images(rules: Invector, rng: &mut ChaCha8Rng) {
        let (w, h, pie) = (rules.width(), rules.height(), rules.pie());
        let exact = w * h <= 12;
        let mut memo = HashMap::new();
        for _ in 0..20 {
            let mut s = rules.initial_state();
            let sym = rng.random_range(0..SYMMETRIES);
            // A swap sets the seats' colours, so relabel only without one.
            let relabel = !pie && rng.random_bool(0.5);
            while let Turn::Seat(_) = s.turn() {
                let applies = super::applies(&s.geo.images, sym, s.swap_available());
                let t = image(&s, sym, relabel);
                if applies {
                    assert_eq!(s.canonical_key().0, t.canonical_key().0, "{s}\n{t}");
                }
                let (_, canonical) = s.canonical_key();
                assert!(super::applies(
                    &s.geo.images,
                    canonical.into(),
                    s.swap_available()
                ));
                let mapped: Vec<_> = {
                    let mut v: Vec<_> = sorted_moves(&s)
                        .into_iter()
                        .map(|m| s.map_move(m, sym as u8))
                        .collect();
                    v.sort();
                    v
                };
                assert_eq!(mapped, sorted_moves(&t), "{s}\n{t}");
                if exact && applies {
                    let (mut a, mut b) = (s.clone(), t.clone());
                    assert_eq!(mover_wins(&mut a, &mut memo), mover_wins(&mut b, &mut memo));
                }
                let moves = sorted_moves(&s);
                let m = moves[rng.random_range(0..moves.len())];
                let mover: Seat = s.seat_of(s.to_move);
                let image_mover: Seat = t.seat_of(t.to_move);
                s.apply(m);
                let mut t = t;
                t.apply(s.map_move(m, sym as u8));
                if let Some(end) = s.end() {
                    let image_end = t.end().expect("the image ends too");
                    assert_eq!(
                        end.outcome.score(mover),
                        image_end.outcome.score(image_mover)
                    );
                } else {
                    assert_eq!(image(&s, sym, relabel), t);
                }
            }
        }
    }
}
