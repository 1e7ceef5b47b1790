//! The `ext` agent's spec: its name and parameters, which the spec parser, the agent
//! listing and the outside-program agent ([`crate::external`]) all read. A leaf, so that
//! parsing a spec needs nothing of the machinery that runs a program.

use agon_engine::{ParamKind, ParamSpec};

use crate::bad_input::BadInput;

/// The name of the agent in a spec (`ext:cmd=...`).
pub const NAME: &str = "ext";

/// The per-move time limit when the spec names none.
pub const DEFAULT_TIMEOUT: &str = "10s";

/// The parameters of `ext`. `cmd`, `args`, `dir` and `name` are free text (no `,`, and
/// no `=` in a value of another parameter's spelling); `depth`, `nodes` and `movetime`
/// are the limits sent with each `go` (without them, a plain `go`: the program's own
/// budget).
pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "args",
        kind: ParamKind::File,
        default: None,
        omitted_at_default: false,
        help: "the program's arguments, separated by spaces",
    },
    ParamSpec {
        name: "cmd",
        kind: ParamKind::File,
        default: None,
        omitted_at_default: false,
        help: "the program: a path (relative to the current folder) or a name on PATH",
    },
    ParamSpec {
        name: "depth",
        kind: ParamKind::Int { min: 1, max: 1000 },
        default: None,
        omitted_at_default: false,
        help: "sent as `go depth N` (no clock); without depth, nodes or movetime, a plain `go`",
    },
    ParamSpec {
        name: "dir",
        kind: ParamKind::File,
        default: None,
        omitted_at_default: false,
        help: "the program's working folder",
    },
    ParamSpec {
        name: "movetime",
        kind: ParamKind::Duration,
        default: None,
        omitted_at_default: false,
        help: "sent as `go movetime MS`; shorter than timeout",
    },
    ParamSpec {
        name: "name",
        kind: ParamKind::File,
        default: None,
        omitted_at_default: false,
        help: "the label in tables and records instead of the spec",
    },
    ParamSpec {
        name: "nodes",
        kind: ParamKind::Int {
            min: 1,
            max: i64::MAX,
        },
        default: None,
        omitted_at_default: false,
        help: "sent as `go nodes N` (no clock)",
    },
    ParamSpec {
        name: "timeout",
        kind: ParamKind::Duration,
        default: Some(DEFAULT_TIMEOUT),
        omitted_at_default: false,
        help: "per move: a program that has not answered by then is stopped and forfeits",
    },
];

/// The refusal of an `ext` spec without `cmd`.
pub fn missing_cmd() -> BadInput {
    BadInput::new(format!(
        "agent {NAME}: missing cmd=PATH (the program to run; valid parameters: {})",
        PARAMS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
    ))
}
