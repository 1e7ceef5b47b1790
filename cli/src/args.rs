//! The command line, declared with clap's derive API.
//!
//! Only the shape of the command line lives here: what each flag means is checked in the
//! module that uses it ([`crate::spec`] for spec strings, the commands for the rest), so
//! that every bad input produces the same kind of error, [`BadInput`](crate::bad_input::BadInput).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// The games a run's page embeds unless `--html-games` says otherwise: a 400-game run's
/// page stays a few megabytes.
pub const DEFAULT_HTML_GAMES: usize = 100;

/// `agon`: tournaments, analysis and perft for the games of the Agon toolkit.
///
/// Without a subcommand, `agon` runs a small default tournament into `results/default`
/// (or reprints its summary if that folder already holds the finished run, or continues
/// it if it was stopped).
#[derive(Debug, Parser)]
#[command(name = "agon", version, about, long_about = None)]
pub struct Cli {
    /// What to do; none runs the default tournament.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the games with their parameters and defaults.
    Games,
    /// List the agents with their parameters and defaults; with --game, only those that
    /// play it, the game's evaluator weights, what a network sees of it and its ladder
    /// of levels.
    Agents(AgentsArgs),
    /// Run a round-robin tournament and write games.csv, timings.csv and summary.csv.
    Tournament(TournamentArgs),
    /// Play one game move by move, drawing the board; the agent `human` reads moves from
    /// standard input.
    Play(PlayArgs),
    /// Search one position and print UCI-like `info` lines and a `bestmove` line.
    #[command(alias = "analyze")]
    Analyse(AnalyseArgs),
    /// Count the move paths of each depth from a position (move-generator check).
    Perft(PerftArgs),
    /// Draw one position (after --moves) with coordinates and a legend, as text or, with
    /// --svg, as an SVG picture.
    Show(ShowArgs),
    /// Step through a recorded game of a run folder in the terminal (Enter: next, b: back,
    /// q: quit), each ply drawn over the one before; every ply at once, the legend once,
    /// when the output is not a terminal.
    Replay(ReplayArgs),
    /// Speak the text protocol of docs/protocol.md on standard input and output as an
    /// engine playing with one of Agon's agents, so that other tools can drive it.
    Serve(ServeArgs),
    /// Join the folders of the N shards of one tournament (`tournament --shard I/N`) into
    /// one run folder, byte-identical in games.csv and summary.csv to a single-machine run.
    Merge(MergeArgs),
    /// Run the tournament an experiment file (TOML) describes, into `results/<file stem>`.
    Run(RunArgs),
    /// Recompute a run folder's summary from its games.csv, print it, and draw SVG charts
    /// (ratings.svg, seat0.svg, lengths.svg) into the folder.
    Report(ReportArgs),
    /// Run fixed searches on fixed positions of every game; the last line, `Bench:
    /// <total nodes>`, is the same on every run.
    Bench(BenchArgs),
    /// Fit a game's evaluator weights to the results of games (Texel's method) and write
    /// them to a weights file; prints the held-out loss before and after.
    Tune(TuneArgs),
    /// Train a learned evaluator (a network in the manner of NNUE) on positions of games,
    /// labelled by their results blended with a teacher search's values, and write it to
    /// a network file that agents load with net=FILE; a loss curve (CSV and SVG) is
    /// written beside it.
    Train(TrainArgs),
    /// Run a balance study of a game: self-play at each ladder level and each level
    /// against the one before, for the base game and each --variant; writes study.csv,
    /// balance.csv and charts and prints a verdict per variant, and one comparing each
    /// variant with the base game. With --search, race every combination of the knobs'
    /// values at one level instead and name the fairest variant with its interval.
    Balance(BalanceArgs),
    /// Write a book of checked random openings (one move list per line, as --openings
    /// reads), so that a study or tournament can be repeated on fixed openings.
    Openings(OpeningsArgs),
}

/// Flags of `agon openings`.
#[derive(Clone, Debug, Args)]
pub struct OpeningsArgs {
    /// Game spec, `name:key=value,...`.
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// Random decisions per line (chance outcomes on the way are written out but not
    /// counted); on a game with a pie rule, at most the decisions before the swap.
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub plies: u32,
    /// Lines to write (on a game without chance, all different).
    #[arg(long, value_name = "N")]
    pub count: u64,
    /// Seed of the draws: line i is the opening a study with this seed deals to deal i.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The file to write; an existing file is never replaced.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The soundness check: by default the game's checker, or an agent spec, or `none`.
    #[arg(long, value_name = "SPEC")]
    pub opening_check: Option<String>,
    /// The largest checker value that still counts as balanced (by default the game's).
    #[arg(long, value_name = "V", allow_hyphen_values = true)]
    pub opening_window: Option<f64>,
}

/// Flags of `agon bench`.
#[derive(Clone, Debug, Args)]
pub struct BenchArgs {
    /// Only the searches of this game (e.g. `pig`).
    #[arg(long, value_name = "GAME")]
    pub filter: Option<String>,
    /// After the one-thread pass, run the searches of the agents that take `threads`
    /// again with this many, and print their speed-up (1: no second pass).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
}

/// Flags of `agon tournament`.
#[derive(Clone, Debug, Args)]
pub struct TournamentArgs {
    /// Game spec, `name:key=value,...` (e.g. `invector:width=6,height=5`).
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// Agent specs (e.g. `ab:depth=3 greedy random`); one agent alone plays itself, and
    /// then every game gets its own opening and luck (seat-swapped games of one agent
    /// would be the same game twice).
    #[arg(long, value_name = "AGENT", num_args = 1.., required = true)]
    pub agents: Vec<String>,
    /// Games per pairing; must be even (games 2k and 2k+1 form a seat-swapped pair), and
    /// the run's games (pairings × N) must fit a 64-bit count.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub games: u64,
    /// Master seed from which every random stream of the run is derived.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, at most 1024 (never more than the games to play); 0 means one per
    /// available core. Never changes the results. Each worker holds the tables of one
    /// game's two seats: memory is about T × (hash of both seats) MiB.
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub threads: usize,
    /// Output folder for meta.csv, games.csv, timings.csv and summary.csv.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Play only shard I of N (1 <= I <= N): a contiguous block of whole seat-swapped
    /// pairs, with the seeds of the full run; `agon merge` joins the N shard folders.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Sequential probability ratio test of a two-agent match, `elo0,elo1,alpha,beta`
    /// (logistic Elo, pentanomial pairs, e.g. `0,5,0.05,0.05`): the summary reports its
    /// log-likelihood ratio and decision.
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// Rate agents relative to this one (its label or spec; rated 0) instead of a mean
    /// of zero.
    #[arg(long, value_name = "AGENT")]
    pub anchor: Option<String>,
    /// Continue the unfinished run in --out (same game, agents, games and seed) from
    /// where it stopped; on a new or empty folder, start it.
    #[arg(long)]
    pub resume: bool,
    /// Start each pair's games with K uniformly random decisions (chance outcomes on the
    /// way not counted), the same for both games of the pair (in self-play, each game its
    /// own); 0 means none, at most 1000. With a pie rule the agent to move makes the
    /// swap decision when the opening reaches it, and the rest of the K are drawn after.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub random_opening: u32,
    /// Start pair p's games (in self-play, game p) with line p mod (number of lines) of
    /// FILE: one move list per line, as `--moves` (chance outcomes included), stopping
    /// before a pie-rule swap decision; blank lines and `#` comments are ignored. A
    /// regular file of at most 64 MiB, lines of at most 64 KiB.
    #[arg(long, value_name = "FILE", conflicts_with = "random_opening")]
    pub openings: Option<PathBuf>,
    /// Keep only random openings that a short search finds undecided and near even:
    /// `default` for the game's checker (`agon games` lists each game's), an agent spec
    /// for another, `none` (the default here) for no check. Needs --random-opening.
    #[arg(long, value_name = "SPEC")]
    pub opening_check: Option<String>,
    /// The largest checker value (in its units: evaluator units, or -1..1 rewards for
    /// mcts) that still counts as balanced; alone, it turns on the game's checker.
    #[arg(long, value_name = "V", allow_hyphen_values = true)]
    pub opening_window: Option<f64>,
}

/// Flags of `agon balance`.
#[derive(Clone, Debug, Args)]
pub struct BalanceArgs {
    /// Game spec, `name:key=value,...`: the base game of the study.
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// Ladder levels to study, in increasing order (`2,3,5`, as `agon agents --game G`
    /// lists them; `4,2,3` is refused); by default every level from 2 up.
    #[arg(
        long,
        value_name = "K,K,...",
        value_delimiter = ',',
        conflicts_with = "agents"
    )]
    pub levels: Vec<String>,
    /// An explicit ladder of agent specs instead of --levels, weakest first.
    #[arg(long, value_name = "AGENT", num_args = 1..)]
    pub agents: Vec<String>,
    /// Games of each run (each level's self-play and each step between levels), per
    /// variant; must be even.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub games: u64,
    /// Seed of the study: every run of it plays with this seed.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, at most 1024; 0 means one per core. Never changes the results.
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub threads: usize,
    /// Output folder of the study: study.csv, balance.csv, charts and one run folder
    /// per run.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Continue the unfinished study in --out (the same command) where it stopped.
    #[arg(long)]
    pub resume: bool,
    /// A variant of the game, `key=value,...`, studied as its own arm beside the base
    /// game: the base game's parameters (those of --game, defaults filled in), each key
    /// given here replacing the base's value. Repeatable.
    #[arg(long, value_name = "K=V,...")]
    pub variant: Vec<String>,
    /// Start every game with K uniformly random decisions (as a tournament's), instead
    /// of the default rule: none on a game with chance, else 4 (with a pie rule the
    /// agent makes the swap decision inside the opening).
    #[arg(long, value_name = "K")]
    pub random_opening: Option<u32>,
    /// Start the games with the lines of FILE, as a tournament's --openings.
    #[arg(long, value_name = "FILE", conflicts_with = "random_opening")]
    pub openings: Option<PathBuf>,
    /// The soundness check of the random openings: by default the game's checker
    /// (`agon games` lists each game's), or an agent spec, or `none`. An opening is kept
    /// only if the checker finds no forced result and values it within the window.
    #[arg(long, value_name = "SPEC")]
    pub opening_check: Option<String>,
    /// The largest checker value that still counts as balanced (by default the game's).
    #[arg(long, value_name = "V", allow_hyphen_values = true)]
    pub opening_window: Option<f64>,
    /// Print the runs, their games and an estimated time per run (from a few games of
    /// each), and write nothing.
    #[arg(long)]
    pub plan: bool,
    /// Play only shard I of N of every run (as `agon tournament --shard`); `agon merge`
    /// joins the N study folders. Not with --search: a round's candidates depend on
    /// the rounds before it, so a race runs on one machine (--threads uses every core).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Search for the fairest variant: KEY=V1,V2,... names a knob of the game and the
    /// values to try (repeatable; every combination is a candidate, raced in rounds at
    /// --level until one is left, the rest cannot be told apart at --width, or --budget
    /// is spent). --games is then the games of each check at the levels beside --level.
    #[arg(
        long,
        value_name = "KEY=V1,V2,...",
        conflicts_with_all = ["variant", "levels", "agents", "plan"],
        requires = "level"
    )]
    pub search: Vec<String>,
    /// The ladder level at which --search races its candidates (`agon agents --game G`
    /// lists them); the fairest candidate is then checked at the levels below and above.
    #[arg(long, value_name = "K", requires = "search")]
    pub level: Option<String>,
    /// Games each candidate still in the race plays per round (even).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub round: u64,
    /// The most games the race may play in all (the checks not counted).
    #[arg(long, value_name = "GAMES", default_value_t = 20_000)]
    pub budget: u64,
    /// Stop the race once every candidate left has an interval no wider than this many
    /// points of seat 0's score (percent).
    #[arg(long, value_name = "POINTS", default_value_t = 4.0)]
    pub width: f64,
}

/// Flags of `agon tune`.
#[derive(Clone, Debug, Args)]
pub struct TuneArgs {
    /// Game spec, `name:key=value,...`; with --from, it must be the run's game.
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// The weights file to write (`name = value` lines); written whole or not at all.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Self-play games to sample positions from (at most 1000000).
    #[arg(long, value_name = "N", default_value_t = 200, conflicts_with = "from")]
    pub games: u64,
    /// The agent that plays the games; by default `ab:depth=2`, or `expectimax:depth=2`
    /// on a game with chance.
    #[arg(long, value_name = "AGENT", conflicts_with = "from")]
    pub agent: Option<String>,
    /// Seed of the games (as a tournament's) and of the choice of positions.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Start each game with K uniformly random decisions, as a tournament's
    /// --random-opening; by default 4 (on a game with a pie rule, as many as it allows).
    #[arg(long, value_name = "K", conflicts_with = "from")]
    pub random_opening: Option<u32>,
    /// Sample the games of this run folder (its games.csv, checked as `agon report`
    /// checks it) instead of playing new ones.
    #[arg(long, value_name = "DIR")]
    pub from: Option<PathBuf>,
    /// Worker threads, at most 1024; 0 means one per available core. Never changes the
    /// results.
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub threads: usize,
    /// Start the fit from the weights of this weights file (as an agent's `eval=FILE`)
    /// instead of the evaluator's defaults.
    #[arg(long, value_name = "FILE")]
    pub eval: Option<String>,
}

/// Flags of `agon train`.
#[derive(Clone, Debug, Args)]
pub struct TrainArgs {
    /// Game spec, `name:key=value,...`; with --from, it must be each run's game.
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// The network file to write; the loss curve goes beside it (`<stem>.loss.csv`,
    /// `<stem>.loss.svg`). Each is written whole or not at all.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Sample the games of these run folders (each checked as `agon report` checks it).
    #[arg(long, value_name = "DIR", num_args = 1.., required_unless_present = "self_play")]
    pub from: Vec<PathBuf>,
    /// Play this many self-play games to sample (at most 1000000) instead of reading
    /// run folders.
    #[arg(long, value_name = "N", conflicts_with = "from")]
    pub self_play: Option<u64>,
    /// The agent of --self-play; by default the top level of the game's ladder.
    #[arg(long, value_name = "AGENT", requires = "self_play")]
    pub agent: Option<String>,
    /// Start each self-play game with K uniformly random decisions; by default 4 (on a
    /// game with a pie rule, as many as it allows).
    #[arg(long, value_name = "K", requires = "self_play")]
    pub random_opening: Option<u32>,
    /// The share of a label that is the game's result; the rest is the teacher's value
    /// of the position (0 to 1).
    #[arg(long, value_name = "W", default_value_t = 0.5)]
    pub blend: f64,
    /// The search whose value of each position is blended into its label; by default
    /// `ab:depth=2,hash=1`, or `expectimax:depth=2,hash=1` on a game with chance.
    #[arg(long, value_name = "AGENT")]
    pub teacher: Option<String>,
    /// Width of each accumulator (the first layer).
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub hidden: usize,
    /// Width of the dense layer.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub dense: usize,
    /// The most passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub epochs: u32,
    /// Stop after this many passes without a better validation loss.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub patience: u32,
    /// Positions per step.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub batch: usize,
    /// Adam's learning rate.
    #[arg(long, value_name = "R", default_value_t = 0.001)]
    pub lr: f64,
    /// Seed of the games, the choice of positions, the teacher, the starting weights and
    /// the order of the positions.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads for playing games and the teacher's searches, at most 1024; 0
    /// means one per available core. Never changes the results.
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub threads: usize,
}

/// Flags of `agon merge`.
#[derive(Clone, Debug, Args)]
pub struct MergeArgs {
    /// Output folder of the merged run (new, empty, or holding this merged run).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The shard folders, in any order; all N shards of the run.
    #[arg(value_name = "SHARD_DIR", num_args = 1.., required = true)]
    pub shards: Vec<PathBuf>,
    /// Rate agents relative to this one (its label or spec; rated 0) instead of a mean
    /// of zero.
    #[arg(long, value_name = "AGENT")]
    pub anchor: Option<String>,
}

/// Flags of `agon run`.
#[derive(Clone, Debug, Args)]
pub struct RunArgs {
    /// The experiment file (e.g. `experiments/connect4-ladder.toml`).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Output folder instead of `results/<file stem>`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Worker threads, instead of the file's `threads`; 0 means one per core.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Play only shard I of N, as `agon tournament --shard`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Continue the experiment's unfinished run, as `agon tournament --resume`.
    #[arg(long)]
    pub resume: bool,
}

/// Flags of `agon report`.
#[derive(Clone, Debug, Args)]
pub struct ReportArgs {
    /// The run folder (holding meta.csv and games.csv, or games.csv.gz in its place).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Rate agents relative to this one (its label or spec; rated 0) instead of the run's
    /// own anchor (meta.csv's, or a mean of zero). A report that differs from the run's
    /// is printed only, or written with --out.
    #[arg(long, value_name = "AGENT")]
    pub anchor: Option<String>,
    /// Write summary.csv and the charts (and report.html, with --html) into this folder
    /// (not a run folder) instead of the run folder, which is then left unchanged.
    #[arg(long, value_name = "OUTDIR")]
    pub out: Option<PathBuf>,
    /// Also write report.html: one page, opened from disk, with the summary, the charts,
    /// the list of games and a replayer of the games it embeds.
    #[arg(long)]
    pub html: bool,
    /// The most games report.html embeds for its replayer (each pairing's first games,
    /// pair by pair); the others are listed with the `agon replay` command that shows
    /// them.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_HTML_GAMES, requires = "html")]
    pub html_games: usize,
}

/// Flags of `agon play`.
#[derive(Clone, Debug, Args)]
pub struct PlayArgs {
    /// Game spec, `name:key=value,...`.
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// The agents of seat 0 and seat 1; `human` reads moves from standard input.
    #[arg(long, value_names = ["A", "B"], num_args = 2, required = true)]
    pub agents: Vec<String>,
    /// Seed of the agents' and chance's random streams (as game 0 of a tournament).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}

/// Flags of `agon agents`.
#[derive(Clone, Debug, Args)]
pub struct AgentsArgs {
    /// Game spec: list only the agents that play it, then its evaluator's weights (for
    /// `eval=FILE`) and its ladder (`level:k`) as lines `level <k> <agent spec>`.
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
}

/// A position on the command line, for `analyse`, `show` and `perft`: a game and the
/// moves from its start.
#[derive(Clone, Debug, Args)]
pub struct PositionArgs {
    /// Game spec, `name:key=value,...`.
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// Moves from the initial position, in notation, separated by spaces (chance
    /// outcomes included).
    #[arg(
        long,
        value_name = "MOVES",
        default_value = "",
        allow_hyphen_values = true
    )]
    pub moves: String,
}

/// Flags of `agon analyse`.
#[derive(Clone, Debug, Args)]
pub struct AnalyseArgs {
    /// The game and the moves to its position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Agent spec of the searcher (e.g. `ab:depth=6`).
    #[arg(long, value_name = "AGENT")]
    pub agent: String,
    /// Seed of the agent's random stream.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}

/// Flags of `agon show`.
#[derive(Clone, Debug, Args)]
pub struct ShowArgs {
    /// The game and the moves to its position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Write the position as an SVG picture to this file instead of drawing it as text.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// Flags of `agon serve`.
#[derive(Clone, Debug, Args)]
pub struct ServeArgs {
    /// The agent that answers each `go` (e.g. `mcts:iters=1000`).
    #[arg(long, value_name = "AGENT")]
    pub agent: String,
    /// The game, until `setoption name game value <game spec>` names another.
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
}

/// Flags of `agon replay`.
#[derive(Clone, Debug, Args)]
pub struct ReplayArgs {
    /// The run folder (holding meta.csv and games.csv, or games.csv.gz in its place).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The game's index (games.csv's `game` column).
    #[arg(value_name = "INDEX")]
    pub index: u64,
}

/// Flags of `agon perft`.
#[derive(Clone, Debug, Args)]
pub struct PerftArgs {
    /// The game and the moves to its position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Deepest depth to count (plies; every decision and chance outcome is one).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Print the count below each first move at the deepest depth, then the total.
    #[arg(long)]
    pub divide: bool,
}
