//! The contract of [`Encode`], checked along seeded random playouts.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::encoding::{Encode, Encoding, FeatureChanges};
use crate::game::{sample_outcome, Game, State, Turn};

/// What a passing [`check_encoding`] covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EncodingReport {
    /// Positions checked (each from both seats' views).
    pub positions: u64,
    /// Moves and chance outcomes whose feature changes were checked against the
    /// features after them (each from both views).
    pub changes: u64,
    /// The most features active at once.
    pub most_active: usize,
}

/// Plays `playouts` seeded random games from the start and checks [`Encode`]'s
/// contract at every position, from both seats' views: the description is the start's
/// and its plane and scalar names are unique; features are sorted, distinct and in
/// range; scalars are one per declared scalar and within range; the changes announced
/// for the move about to be played are exactly the difference it makes, and undoing it
/// restores the features. Returns what it checked, or the first broken property with
/// the moves that led there.
pub fn check_encoding<G: Game>(game: &G, playouts: u32, seed: u64) -> Result<EncodingReport, String>
where
    G::State: Encode,
{
    let start = game.initial_state();
    let encoding = start.encoding();
    check_description(&encoding)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut report = EncodingReport::default();
    let mut moves = Vec::new();
    let (mut features, mut scalars) = (Vec::new(), Vec::new());
    for _ in 0..playouts {
        let mut state = start.clone();
        let mut line: Vec<String> = Vec::new();
        loop {
            let at = |line: &[String]| format!("after `{}`", line.join(" "));
            if state.encoding() != encoding {
                return Err(format!("{}: the description changed", at(&line)));
            }
            for view in 0..2 {
                features.clear();
                state.features(view, &mut features);
                check_features(&encoding, &features)
                    .map_err(|e| format!("{}, view {view}: {e}", at(&line)))?;
                report.most_active = report.most_active.max(features.len());
                scalars.clear();
                state.scalars(view, &mut scalars);
                check_scalars(&encoding, &scalars)
                    .map_err(|e| format!("{}, view {view}: {e}", at(&line)))?;
            }
            report.positions += 1;
            let m = match state.turn() {
                Turn::Over => break,
                Turn::Chance => sample_outcome(&state, &mut rng),
                Turn::Seat(_) => {
                    moves.clear();
                    state.legal_moves(&mut moves);
                    moves[rng.random_range(0..moves.len())]
                }
            };
            check_move_changes(&mut state, m).map_err(|e| format!("{}, {e}", at(&line)))?;
            report.changes += 2;
            line.push(state.format_move(m));
            state.apply(m);
        }
    }
    Ok(report)
}

/// The features and scalars of `state` as each seat sees it, by seat: what the games'
/// tests compare with values worked out by hand.
pub fn views<S: Encode>(state: &S) -> [(Vec<u32>, Vec<i32>); 2] {
    [0, 1].map(|view| {
        let (mut features, mut scalars) = (Vec::new(), Vec::new());
        state.features(view, &mut features);
        state.scalars(view, &mut scalars);
        (features, scalars)
    })
}

/// Checks, from both seats' views, that `m` (legal at `state`) switches off and on
/// exactly the features [`Encode::feature_changes`] announces for it, and that undoing
/// it restores the features; `state` is left as it was. Returns the first view whose
/// changes are wrong, naming the move.
pub fn check_move_changes<S: Encode>(state: &mut S, m: S::Move) -> Result<(), String> {
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for view in 0..2 {
        before.clear();
        state.features(view, &mut before);
        let mut changes = FeatureChanges::default();
        state.feature_changes(m, view, &mut changes);
        let played = format!("view {view}, move {}", state.format_move(m));
        let undo = state.apply(m);
        after.clear();
        state.features(view, &mut after);
        state.undo(undo);
        check_changes(&before, &after, &mut changes).map_err(|e| format!("{played}: {e}"))?;
        after.clear();
        state.features(view, &mut after);
        if after != before {
            return Err(format!("{played}: undoing it did not restore the features"));
        }
    }
    Ok(())
}

fn check_description(e: &Encoding) -> Result<(), String> {
    if e.rows == 0 || e.cols == 0 || e.planes.is_empty() && e.scalars.is_empty() {
        return Err(format!("{}: an empty encoding", e.id));
    }
    let mut names: Vec<&str> = e.planes.iter().map(|p| p.name).collect();
    names.extend(e.scalars.iter().map(|s| s.name));
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    if names.len() != count {
        return Err(format!("{}: two planes or scalars share a name", e.id));
    }
    if let Some(s) = e.scalars.iter().find(|s| s.max < 1) {
        return Err(format!("{}: scalar {} has maximum {}", e.id, s.name, s.max));
    }
    Ok(())
}

fn check_features(e: &Encoding, features: &[u32]) -> Result<(), String> {
    if let Some(w) = features.windows(2).find(|w| w[0] >= w[1]) {
        return Err(format!("features not increasing: {} then {}", w[0], w[1]));
    }
    match features.last() {
        Some(&f) if f >= e.features() => {
            Err(format!("feature {f} out of range (0..{})", e.features()))
        }
        _ => Ok(()),
    }
}

fn check_scalars(e: &Encoding, values: &[i32]) -> Result<(), String> {
    if values.len() != e.scalars.len() {
        return Err(format!(
            "{} scalars, {} declared",
            values.len(),
            e.scalars.len()
        ));
    }
    for (s, &v) in e.scalars.iter().zip(values) {
        if !(0..=s.max).contains(&v) {
            return Err(format!("scalar {} is {v}, outside 0..={}", s.name, s.max));
        }
    }
    Ok(())
}

/// Appends to `out` the members of sorted `a` that are not in sorted `b`.
fn sorted_difference(a: &[u32], b: &[u32], out: &mut Vec<u32>) {
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() || b[j] != x {
            out.push(x);
        }
    }
}

/// The announced `changes` (sorted here) against the true difference of `before` and
/// `after`.
fn check_changes(
    before: &[u32],
    after: &[u32],
    changes: &mut FeatureChanges,
) -> Result<(), String> {
    changes.off.sort_unstable();
    changes.on.sort_unstable();
    let (mut off, mut on) = (Vec::new(), Vec::new());
    sorted_difference(before, after, &mut off);
    sorted_difference(after, before, &mut on);
    if changes.off != off || changes.on != on {
        return Err(format!(
            "announced off {:?} on {:?}, but the move switched off {off:?} and on {on:?}",
            changes.off, changes.on
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{Plane, Scalar};

    fn encoding() -> Encoding {
        let p = Plane {
            name: "p",
            meaning: "",
        };
        Encoding {
            id: "t/1".into(),
            rows: 1,
            cols: 4,
            planes: vec![p],
            scalars: vec![Scalar {
                name: "s",
                meaning: "",
                max: 3,
            }],
        }
    }

    #[test]
    fn sorted_difference_keeps_what_the_other_lacks() {
        let mut out = Vec::new();
        sorted_difference(&[1, 3, 5, 9], &[0, 3, 4, 9, 10], &mut out);
        assert_eq!(out, [1, 5]);
        out.clear();
        sorted_difference(&[], &[1], &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn broken_features_and_scalars_are_named() {
        let e = encoding();
        assert!(check_features(&e, &[0, 2, 3]).is_ok());
        assert_eq!(
            check_features(&e, &[2, 2]).unwrap_err(),
            "features not increasing: 2 then 2"
        );
        assert_eq!(
            check_features(&e, &[1, 4]).unwrap_err(),
            "feature 4 out of range (0..4)"
        );
        assert!(check_scalars(&e, &[3]).is_ok());
        assert_eq!(
            check_scalars(&e, &[4]).unwrap_err(),
            "scalar s is 4, outside 0..=3"
        );
        assert_eq!(check_scalars(&e, &[]).unwrap_err(), "0 scalars, 1 declared");
        let mut twice = e.clone();
        twice.scalars[0].name = "p";
        assert!(check_description(&twice).is_err());
    }

    #[test]
    fn announced_changes_must_be_the_whole_difference() {
        let mut right = FeatureChanges {
            off: vec![3],
            on: vec![2, 0],
        };
        assert!(check_changes(&[1, 3], &[0, 1, 2], &mut right).is_ok());
        let mut missing = FeatureChanges {
            off: vec![3],
            on: vec![2],
        };
        assert_eq!(
            check_changes(&[1, 3], &[0, 1, 2], &mut missing).unwrap_err(),
            "announced off [3] on [2], but the move switched off [3] and on [0, 2]"
        );
    }
}
