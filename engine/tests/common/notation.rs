//! An engine state's moves as text, for the rules tests: the legal moves as sorted
//! notation, and the reason a piece of notation is refused.

use agon_engine::State;

/// The legal moves of `s` in its notation, sorted.
pub fn legal<S: State>(s: &S) -> Vec<String> {
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| s.format_move(m)).collect();
    texts.sort();
    texts
}

/// The reason `s` refuses `text`; panics if it parses, or if the error names other text.
#[track_caller]
pub fn refusal<S: State>(s: &S, text: &str) -> String {
    match s.parse_move(text) {
        Ok(m) => panic!("{text:?} parsed as {}", s.format_move(m)),
        Err(e) => {
            assert_eq!(e.text, text);
            e.reason
        }
    }
}

/// Asserts that parsing `text` fails with a reason containing every one of `words`.
#[track_caller]
pub fn refused<S: State>(s: &S, text: &str, words: &[&str]) {
    let reason = refusal(s, text);
    for w in words {
        assert!(
            reason.contains(w),
            "{text:?}: reason {reason:?} lacks {w:?}"
        );
    }
}
