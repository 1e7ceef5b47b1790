//! Pictures of positions drawn for people: one renderer for every game.
//!
//! Each game describes a position as an [`agon_engine::picture::Picture`]; this module
//! draws it as SVG ([`svg`], for `agon show --svg` and the HTML report), beside the
//! engine's text drawing ([`agon_engine::picture::text`], for the terminal). [`replay`]
//! walks a recorded game and gives, for every ply, the picture, the cells the ply changed
//! and the ply told in words.

pub mod layout;
pub mod svg;

use agon_engine::picture::{Depict, Picture};
use agon_engine::Turn;

use crate::bad_input::BadInput;
use crate::position::play_notated;

/// One position of a replayed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The position after the plies so far.
    pub picture: Picture,
    /// The cells the last ply changed (empty at the start).
    pub changed: Vec<usize>,
    /// The last ply in notation (empty at the start).
    pub notation: String,
    /// The last ply in words: a chance outcome as its event ("rolled 5"), a decision as
    /// the seat and side that made it and the move.
    pub told: String,
    /// What the last ply set off beyond itself, in words ([`Depict::aftermath`]: an APV
    /// order that fires as the turn passes), to be told after `told`. Kept apart from
    /// it because `told` recurs (`south (seat 1) plays no-order`) where this varies, so
    /// a page stores each once.
    pub aftermath: Option<String>,
}

impl Step {
    /// The ply in words, with what it set off: `told`, then `; ` and the aftermath.
    pub fn told_whole(&self) -> String {
        match &self.aftermath {
            Some(aftermath) => format!("{}; {aftermath}", self.told),
            None => self.told.clone(),
        }
    }
}

/// Every position of a game from `start` along `moves` (notation, space-separated):
/// `moves.len() + 1` steps, the start first. A move that does not parse or is illegal
/// where it stands is a [`BadInput`] naming it.
pub fn replay<S: Depict>(start: &S, moves: &str) -> Result<Vec<Step>, BadInput> {
    let mut state = start.clone();
    let mut steps = vec![Step {
        picture: state.picture(),
        changed: Vec::new(),
        notation: String::new(),
        told: String::new(),
        aftermath: None,
    }];
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    for (i, text) in tokens.iter().enumerate() {
        let at = format!("move {} of {}, {text:?}", i + 1, tokens.len());
        let told = match state.turn() {
            Turn::Over => return Err(BadInput::new(format!("{at}: the game is already over"))),
            Turn::Chance => match state.parse_move(text) {
                Ok(m) => state.event(m),
                Err(_) => String::new(),
            },
            Turn::Seat(seat) => format!("{} (seat {seat}) plays {text}", state.side(seat)),
        };
        let before = state.clone();
        play_notated(&mut state, text, &at)?;
        let played = before.parse_move(text).expect("a move just played parses");
        let aftermath = before.aftermath(played, &state);
        let picture = state.picture();
        let changed = svg::changed_cells(&steps[steps.len() - 1].picture, &picture);
        steps.push(Step {
            picture,
            changed,
            notation: (*text).to_string(),
            told,
            aftermath,
        });
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use agon_engine::games::apv::Apv;
    use agon_engine::games::connect4::Connect4;
    use agon_engine::games::hexstrat::Hexstrat;
    use agon_engine::picture::text;
    use agon_engine::Game;

    use super::*;

    #[test]
    fn replay_gives_every_position_with_the_cells_each_ply_changed() {
        let steps = replay(&Connect4.initial_state(), "d d e").unwrap();
        assert_eq!(steps.len(), 4);
        let name = |s: &Step| -> Vec<String> {
            s.changed
                .iter()
                .map(|&c| s.picture.cells[c].name.clone())
                .collect()
        };
        assert_eq!(name(&steps[0]), Vec::<String>::new());
        assert_eq!(name(&steps[1]), ["d1"]);
        assert_eq!(name(&steps[2]), ["d2"]);
        assert_eq!(name(&steps[3]), ["e1"]);
        assert_eq!(steps[2].told, "yellow (seat 1) plays d");
        assert_eq!(steps[3].notation, "e");
    }

    /// The names of the cells a step highlights.
    fn highlighted(step: &Step) -> Vec<&str> {
        step.changed
            .iter()
            .map(|&c| step.picture.cells[c].name.as_str())
            .collect()
    }

    #[test]
    fn a_ply_that_only_places_a_mark_or_turns_a_tile_highlights_its_cells() {
        // APV: the order decision moves nothing; its arrow's two cells are highlighted.
        let steps = replay(&Apv::default().initial_state(), "d7-d5 order:f7-f5 e3-f4").unwrap();
        assert_eq!(highlighted(&steps[1]), ["d5", "d7"]);
        assert_eq!(highlighted(&steps[2]), ["f5", "f7"]);
        // Hexstrat: the move onto a face-down tile waits, drawn as an arrow and a ring;
        // the reveal turns the tile face up and moves the squad in.
        let steps = replay(&Hexstrat::default().initial_state(), "I:c2 forest").unwrap();
        assert_eq!(highlighted(&steps[1]), ["c2", "d2"]);
        assert_eq!(highlighted(&steps[2]), ["c2", "d2"]);
        assert_eq!(steps[2].told, "revealed forest at c2");
        // An order left when the cap ends the game is dropped from the picture, and its
        // cells are not highlighted: nothing happened there.
        let capped = Apv::new(true, false, 2).unwrap();
        let steps = replay(&capped.initial_state(), "d7-d5 order:f7-f5 e3-f4 no-order").unwrap();
        assert!(steps[3].picture.marks.len() == 1 && steps[4].picture.marks.is_empty());
        assert_eq!(highlighted(&steps[4]), Vec::<&str>::new());
        assert_eq!(steps[4].told_whole(), "south (seat 1) plays no-order");
    }

    #[test]
    fn a_fired_order_is_told_with_the_ply_that_passed_the_turn() {
        let steps = replay(
            &Apv::default().initial_state(),
            "d7-d5 order:f7-f5 e3-f4 no-order",
        )
        .unwrap();
        assert_eq!(steps[3].told, "south (seat 1) plays e3-f4");
        assert_eq!(steps[3].aftermath, None);
        assert_eq!(steps[4].told, "south (seat 1) plays no-order");
        assert_eq!(
            steps[4].told_whole(),
            "south (seat 1) plays no-order; north's order f7-f5 fires: its Veil moves to f5"
        );
        // The fired order's move is highlighted with the ply.
        assert_eq!(highlighted(&steps[4]), ["f5", "f7"]);
    }

    #[test]
    fn a_bad_move_names_itself_and_the_legal_moves() {
        let err = replay(&Connect4.initial_state(), "d h").unwrap_err();
        assert!(err.to_string().starts_with("move 2 of 2, \"h\": "), "{err}");
        assert!(
            err.to_string().contains("(legal here: a b c d e f g)"),
            "{err}"
        );
    }

    #[test]
    fn text_draws_coordinates_stones_the_last_move_and_a_legend() {
        let steps = replay(&Connect4.initial_state(), "d d e").unwrap();
        let last = &steps[3];
        let text = text::draw(&last.picture, &last.changed) + &text::legend(&last.picture);
        let expected = "\
a6  .     .     .     .     .     .     .  g6
a5  .     .     .     .     .     .     .  g5
a4  .     .     .     .     .     .     .  g4
a3  .     .     .     .     .     .     .  g3
a2  .     .     .     Y     .     .     .  g2
a1  .     .     .     R    [R]    .     .  g1
yellow (seat 1) to drop a stone
legend: R red stone (seat 0) · Y yellow stone (seat 1) · [ ] the last move
";
        assert_eq!(text, expected);
    }

    #[test]
    fn svg_draws_each_cell_stone_and_highlight_once() {
        let steps = replay(&Connect4.initial_state(), "d d e").unwrap();
        let last = &steps[3];
        let svg = svg::document(&last.picture, &last.changed);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>\n"));
        // 42 cells and one highlight are polygons; three stones and two legend discs.
        assert_eq!(svg.matches("<polygon").count(), 43);
        assert_eq!(svg.matches("<circle").count(), 5);
        assert_eq!(
            svg.matches("fill=\"#d7263d\"").count(),
            3,
            "two red stones, one key"
        );
        assert_eq!(
            svg.matches("fill=\"#f4c20d\"").count(),
            2,
            "one yellow stone, one key"
        );
        assert!(svg.contains(">yellow (seat 1) to drop a stone</text>"));
        assert!(svg.contains(">e1</text>"));
        assert_eq!(svg.matches("<text").count(), 42 + 1 + 3);
    }
}
