//! Each game's facts beyond its rules, one [`GameProfile`] per game: its strength ladder,
//! its default opening check and its searches in `agon bench`. The registry
//! (`register_games!`) names each game's profile beside its evaluator, so a game added
//! without one does not compile, and the ladder, the opening check and the bench read
//! these and nothing else.

use agon_engine::games::{apv, connect4, hexstrat, invector, pig, romgon, threewill};

/// What the command line knows of a game besides its rules.
#[derive(Clone, Copy, Debug)]
pub struct GameProfile {
    /// The strength ladder: agent specs at reproducible budgets (depth, nodes or
    /// iterations, never time, one thread), weakest first, each measured to beat the one
    /// below on the game's default parameters (`experiments/ladder/` and
    /// `docs/games/<game>.md` hold the evidence). `level:k` is rung k
    /// ([`crate::ladder`]).
    pub ladder: &'static [&'static str],
    /// The default soundness check of random openings (`running::opening::check`).
    pub opening_check: OpeningDefault,
    /// The game's searches in `agon bench`, in printing order (the bench prints the
    /// games in registry order).
    pub bench: &'static [BenchCase],
}

/// A game's default opening checker and window. The window is in the checker's units
/// (the game's evaluator units for every default) and lies above every value the checker
/// gave to hundreds of random four-decision openings of the game (the figures are in
/// docs/balance.md), so that the check removes openings already decided, not the unusual
/// ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpeningDefault {
    /// The checker's agent spec.
    pub checker: &'static str,
    /// The largest magnitude of the checker's value that counts as balanced.
    pub window: f64,
}

/// One search of `agon bench`.
#[derive(Clone, Copy, Debug)]
pub struct BenchCase {
    /// Game spec (`invector:width=5,height=4`), of the game whose profile lists it.
    pub game: &'static str,
    /// Short name of the position, printed in the table.
    pub label: &'static str,
    /// Moves from the game's start, in notation (chance outcomes included).
    pub moves: &'static str,
    /// Agent spec, with a budget that fixes the node count (a depth or node limit,
    /// never a time limit).
    pub agent: &'static str,
}

/// A bench search of the game `game` (a spec) at `label` after `moves`.
const fn case(
    game: &'static str,
    label: &'static str,
    moves: &'static str,
    agent: &'static str,
) -> BenchCase {
    BenchCase {
        game,
        label,
        moves,
        agent,
    }
}

/// Invector: two stones of material is the check's window.
pub const INVECTOR: GameProfile = GameProfile {
    ladder: &[
        "random",
        "ab:depth=1",
        "ab:depth=4",
        "ab:depth=6",
        "ab:lmr=true,nodes=50000",
        "ab:lmr=true,net=builtin:invector,nodes=32000",
    ],
    opening_check: OpeningDefault {
        checker: "ab:depth=4,hash=1",
        window: 200.0,
    },
    bench: &[
        case("invector", "8x7-start", "", "ab:depth=5"),
        case("invector", "8x7-midgame", invector::MIDGAME, "ab:depth=6"),
        case("invector:width=5,height=4", "5x4-start", "", "ab:depth=7"),
        case(
            "invector",
            "8x7-midgame",
            invector::MIDGAME,
            "mcts:iters=5000",
        ),
    ],
};

/// Connect Four.
pub const CONNECT4: GameProfile = GameProfile {
    ladder: &[
        "random",
        "greedy",
        "ab:depth=2",
        "ab:depth=5",
        "ab:depth=10",
        "ab:depth=14",
    ],
    opening_check: OpeningDefault {
        checker: "ab:depth=8,hash=1",
        window: 60.0,
    },
    bench: &[
        case("connect4", "start", "", "ab:depth=12"),
        case("connect4", "midgame", connect4::MIDGAME, "ab:depth=12"),
        case("connect4", "start", "", "mcts:iters=50000"),
    ],
};

/// Pig.
pub const PIG: GameProfile = GameProfile {
    ladder: &["random", "mcts:iters=100", "greedy", "optimal"],
    opening_check: OpeningDefault {
        checker: "expectimax:depth=3,hash=1",
        window: 200.0,
    },
    bench: &[
        case("pig", "start", "", "star2:depth=10"),
        case("pig", "start", "", "expectimax:depth=10"),
        case("pig", "midgame", pig::MIDGAME, "star2:depth=10"),
        case("pig", "midgame", pig::MIDGAME, "expectimax:depth=10"),
        case("pig", "midgame", pig::MIDGAME, "mcts:iters=5000"),
    ],
};

/// APV.
pub const APV: GameProfile = GameProfile {
    ladder: &[
        "random",
        "greedy",
        "ab:depth=2",
        "ab:depth=3",
        "ab:depth=5,followups=1,lmp=true,lmr=true,null=true,qwins=true",
    ],
    opening_check: OpeningDefault {
        checker: "ab:depth=4,hash=1",
        window: 300.0,
    },
    bench: &[
        case("apv", "start", "", "ab:depth=7"),
        case("apv", "midgame", apv::MIDGAME, "ab:depth=6"),
        case("apv", "midgame", apv::MIDGAME, "mcts:iters=2000"),
    ],
};

/// Romgon: a hexagon's worth is the check's window.
pub const ROMGON: GameProfile = GameProfile {
    ladder: &[
        "random",
        "greedy",
        "ab:depth=2",
        "ab:depth=4",
        "ab:depth=6",
        "ab:depth=8,lmp=true,lmr=true,null=true",
    ],
    opening_check: OpeningDefault {
        checker: "ab:depth=4,hash=1",
        window: 500.0,
    },
    bench: &[
        case("romgon", "start", "", "ab:depth=6"),
        case("romgon", "midgame", romgon::MIDGAME, "ab:depth=6"),
        case("romgon", "midgame", romgon::MIDGAME, "mcts:iters=2000"),
    ],
};

/// 3Will.
pub const THREEWILL: GameProfile = GameProfile {
    ladder: &[
        "random",
        "greedy",
        "star2:depth=2",
        "mcts:c=0.7,iters=2000,plies=80,rollout=greedy",
    ],
    opening_check: OpeningDefault {
        checker: "star2:depth=2,hash=1",
        window: 300.0,
    },
    bench: &[
        case("threewill", "start", "", "star2:depth=3"),
        case("threewill", "midgame", threewill::MIDGAME, "star2:depth=3"),
        case(
            "threewill",
            "midgame",
            threewill::MIDGAME,
            "mcts:iters=5000",
        ),
    ],
};

/// Hexstrat.
pub const HEXSTRAT: GameProfile = GameProfile {
    ladder: &[
        "random",
        "greedy",
        "star2:depth=2",
        "star2:depth=3",
        "star2:depth=3,eval=builtin:hexstrat-hunt,history=true,quiesce=true",
    ],
    opening_check: OpeningDefault {
        checker: "star2:depth=2,hash=1",
        window: 300.0,
    },
    bench: &[
        case("hexstrat", "start", "", "star2:depth=4"),
        case("hexstrat", "midgame", hexstrat::MIDGAME, "star2:depth=5"),
        case(
            "hexstrat",
            "midgame",
            hexstrat::MIDGAME,
            "expectimax:depth=4",
        ),
        case("hexstrat", "midgame", hexstrat::MIDGAME, "mcts:iters=5000"),
    ],
};
