//! [`BadInput`], the error of every input the user can fix. A leaf of the crate: every
//! layer refuses bad input, so the type depends on nothing of the crate.

/// Input the user can fix: an unknown game, agent or parameter, a bad value, an illegal
/// move, an odd `--games`, an output folder holding another run.
///
/// `main` prints it as one line (`error: <message>`) and exits with code 2. The message
/// names the problem and, where there are any, the valid choices; it never contains a
/// line break.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

impl BadInput {
    /// A bad-input error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        BadInput(message.into())
    }
}
