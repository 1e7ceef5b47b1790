use agon_engine::games::romgon::{Colour, Defence, Romgon, Rotation};
use agon_engine::State;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn name(p: usize) -> String {
    let starts = [0, 6, 13, 21, 30, 38, 45];
    let r = starts.iter().rposition(|&s| s <= p).unwrap();
    format!("{}-{}", r, p - starts[r])
}

#[test]
fn scratch() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let shape = Romgon::default();
    let orig = Romgon::new(Defence::Original, Rotation::Any, 600).unwrap();
    let (mut found_goal, mut found_drag) = (0, 0);
    for _ in 0..2000000 {
        let mut cells: Vec<usize> = (0..51).collect();
        for i in 0..51 {
            let j = rng.random_range(i..51);
            cells.swap(i, j);
        }
        let letters = ["S", "S", "T", "T", "H", "C"];
        let nw = rng.random_range(1..5);
        let nb = rng.random_range(0..3);
        let mut toks = vec![
            format!("R{}", name(cells[0])),
            format!("r{}", name(cells[1])),
        ];
        let facings = ["E", "SE", "SW", "W", "NW", "NE"];
        for k in 0..nw {
            let l = letters[rng.random_range(0..6)];
            let o = if l == "T" {
                format!("@{}", facings[rng.random_range(0..6)])
            } else if l == "H" {
                format!("@{}", ["E", "SE", "SW"][rng.random_range(0..3)])
            } else {
                String::new()
            };
            toks.push(format!("{l}{}{o}", name(cells[2 + k])));
        }
        for k in 0..nb {
            let l = letters[rng.random_range(0..6)].to_lowercase();
            let o = if l == "t" {
                format!("@{}", facings[rng.random_range(0..6)])
            } else if l == "h" {
                "@E".to_string()
            } else {
                String::new()
            };
            toks.push(format!("{l}{}{o}", name(cells[6 + k])));
        }
        let text = toks.join(" ");
        let Ok(s) = shape.position(&text, Colour::White) else {
            continue;
        };
        let Ok(o) = orig.position(&text, Colour::White) else {
            continue;
        };
        if s.turn() == agon_engine::Turn::Over {
            continue;
        }
        let br = s.board().rhombus(Colour::Black).unwrap();
        if s.board().attacked(s.geometry(), br, Colour::White) {
            continue;
        }
        // Black not in check now.
        let mut mv = Vec::new();
        s.legal_moves(&mut mv);
        for m in mv {
            let mut a = s.clone();
            a.apply(m);
            let mut b = o.clone();
            if b.try_apply(m).is_err() {
                continue;
            }
            if found_goal < 3 && a.end_reason() == Some("deadlock") && b.end_reason().is_none() {
                found_goal += 1;
                eprintln!("GOAL [{text}] {}", s.format_move(m));
            }
            if found_drag < 3 && a.end_reason() == Some("draglock") && nb > 0 {
                found_drag += 1;
                eprintln!("DRAG [{text}] {}", s.format_move(m));
            }
        }
        if found_goal >= 3 && found_drag >= 3 {
            break;
        }
    }
}
