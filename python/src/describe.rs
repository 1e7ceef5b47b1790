//! A position's picture (the engine's `Picture`: the plain data every renderer draws) as
//! Python dicts and lists, for viewers of one's own.

use agon_engine::picture::{Ground, Mark, Picture, Symbol};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// `picture` as a dict: `cells` (each with `name`, `x`, `y` in board units with `y` up,
/// `shape`, `ground`), `pieces` (`cell` index, `shape`, `ink`, `label`, `facing` in
/// degrees, `inactive`), `marks` (`arrow` with `from`, `to`, `ink`, or `pending` with
/// `cell`), `notes` (lines of text) and `legend` (`symbol`, `meaning`).
pub fn picture_dict<'py>(py: Python<'py>, picture: &Picture) -> PyResult<Bound<'py, PyDict>> {
    let cells = PyList::empty(py);
    for cell in &picture.cells {
        let d = PyDict::new(py);
        d.set_item("name", &cell.name)?;
        d.set_item("x", cell.x)?;
        d.set_item("y", cell.y)?;
        d.set_item("shape", word(cell.shape))?;
        d.set_item("ground", ground(cell.ground))?;
        cells.append(d)?;
    }
    let pieces = PyList::empty(py);
    for piece in &picture.pieces {
        let d = PyDict::new(py);
        d.set_item("cell", piece.cell)?;
        d.set_item("shape", word(piece.shape))?;
        d.set_item("ink", word(piece.ink))?;
        d.set_item("label", piece.label.as_deref())?;
        d.set_item("facing", piece.facing)?;
        d.set_item("inactive", piece.inactive)?;
        pieces.append(d)?;
    }
    let marks = PyList::empty(py);
    for mark in &picture.marks {
        let d = PyDict::new(py);
        match *mark {
            Mark::Arrow { from, to, ink: i } => {
                d.set_item("kind", "arrow")?;
                d.set_item("from", from)?;
                d.set_item("to", to)?;
                d.set_item("ink", word(i))?;
            }
            Mark::Pending { cell } => {
                d.set_item("kind", "pending")?;
                d.set_item("cell", cell)?;
            }
        }
        marks.append(d)?;
    }
    let legend = PyList::empty(py);
    for key in &picture.legend {
        let d = PyDict::new(py);
        d.set_item("symbol", symbol(key.symbol))?;
        d.set_item("meaning", &key.meaning)?;
        legend.append(d)?;
    }
    let dict = PyDict::new(py);
    dict.set_item("cells", cells)?;
    dict.set_item("pieces", pieces)?;
    dict.set_item("marks", marks)?;
    dict.set_item("notes", &picture.notes)?;
    dict.set_item("legend", legend)?;
    Ok(dict)
}

/// An enum value's name in lower case (`HexPointy` is `hexpointy`).
fn word(value: impl std::fmt::Debug) -> String {
    format!("{value:?}").to_lowercase()
}

/// `plain`, `hidden`, `zone:<ink>` or `terrain:<index>`.
fn ground(g: Ground) -> String {
    match g {
        Ground::Plain => "plain".into(),
        Ground::Hidden => "hidden".into(),
        Ground::Zone(i) => format!("zone:{}", word(i)),
        Ground::Terrain(t) => format!("terrain:{t}"),
    }
}

/// `piece:<shape>:<ink>` (with `:facing` when drawn with a facing), `ground:<ground>`,
/// `arrow:<ink>`, `pending` or `inactive` (the faded style of a piece that cannot act).
fn symbol(s: Symbol) -> String {
    match s {
        Symbol::Piece {
            shape,
            ink: i,
            facing,
        } => format!(
            "piece:{}:{}{}",
            word(shape),
            word(i),
            if facing { ":facing" } else { "" }
        ),
        Symbol::Ground(g) => format!("ground:{}", ground(g)),
        Symbol::Arrow(i) => format!("arrow:{}", word(i)),
        Symbol::Pending => "pending".into(),
        Symbol::Inactive => "inactive".into(),
    }
}
