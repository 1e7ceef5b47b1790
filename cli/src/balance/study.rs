//! The plan of a study and its identity: the arms (the base game and each variant), the
//! rungs of the ladder, the runs they make, and `study.csv`, which records all of it so
//! that a resume or a merge can tell the same study from another.
//!
//! **Runs.** For each arm in order (the base game `base`, then `variant-1`, ...), for each
//! rung `i` in the order given: the rung's self-play (folder `<arm>/<rung>-self`), then,
//! from the second rung on, the step from the previous rung (folder
//! `<arm>/<rung>-vs-<previous>`, a match of the rung, agent A, against the previous one).
//! Rungs are named `L<k>` when every agent is a distinct ladder level (`--levels`, or
//! `L<k>=` specs), else `A<i>` by place from 1.
//!
//! **Seeds.** Every run plays with the study's seed itself. Self-play at every rung thus
//! starts game `g` with the same opening and luck (common random numbers), so a change
//! of the first-move advantage from rung to rung is measured on the same starts.
//!
//! **Openings.** Unless `--random-opening K` or `--openings FILE` says otherwise, each
//! arm follows the default rule ([`default_opening`]): on a game with chance, none (every
//! game has its own luck); on a game without, [`DEFAULT_OPENING`] (4) random
//! decisions. With a pie rule the agent to move makes the swap decision inside the
//! opening, and the rest of it is drawn after that ([`crate::running::opening`]): on Invector a
//! random first stone, the swap decision, three more random decisions, so that games
//! vary while the rule's decision stays the players'. On a game without chance a
//! study's random openings (the default's or `--random-opening K`) are drawn without
//! replacement ([`Opening::Distinct`]): no two games of a run share one until every
//! opening has been dealt, so deterministic agents do not replay a game by chance.
//! Random openings are checked for soundness by default (the game's checker,
//! [`GameProfile::opening_check`](crate::games::GameProfile::opening_check);
//! `--opening-check SPEC|none`, `--opening-window V`): an opening the checker finds decided, or far from even, is never dealt.
//!
//! **study.csv** is `key,value` rows: `format`, `toolkit`, `game`, one `agent` per rung
//! (canonical, `L<k>=` for levels), `games`, `seed`, `openings` (the rule as asked), one
//! `arm` per arm (`<name> <game spec> <opening>`, the opening as resolved:
//! `start`, `random:K` (chance games), `distinct:K` (K random decisions drawn without
//! replacement) or `file:<hash>`, followed by ` check <checker> within <window>` when
//! its random openings are checked), one `run` per run folder, `shard` for a shard
//! of the study, and last `digest`, the FNV-1a of the rows before it (16 hex digits). The
//! command and thread count are left out (each run's meta.csv has them), so a merged
//! study's study.csv is the single-machine one's byte for byte.

use std::path::{Path, PathBuf};

use agon_engine::{has_chance, Game};
use anyhow::{Context, Result};

use crate::args::BalanceArgs;
use crate::bad_input::BadInput;
use crate::digest::fnv1a;
use crate::external::Venue;
use crate::games::{self, dispatch, offers_pie_rule, GameCommand, PlayableGame};
use crate::no_follow::write_csv_whole;
use crate::record::toolkit;
use crate::running::opening::{DistinctDraws, Opening, OpeningCheck};
use crate::running::tournament::Plan;
use crate::shard::Shard;
use crate::spec::{AgentSpec, GameSpec};
use crate::tune::DEFAULT_OPENING;

/// Name of the study's plan and identity file.
pub const STUDY_FILE: &str = "study.csv";

/// Version of study.csv's layout.
const STUDY_FORMAT: &str = "1";

/// One arm of a study: the base game or a variant.
#[derive(Clone, Debug)]
pub struct Arm {
    /// `base`, or `variant-<i>` from 1.
    pub name: String,
    /// The game.
    pub game: GameSpec,
    /// How its games start, resolved for this game.
    pub opening: Opening,
    /// Whether the game offers a pie rule (then the first side and the swap rate are
    /// measured).
    pub pie: bool,
    /// The soundness check of its random openings; `None` without random openings or
    /// with `--opening-check none`.
    pub check: Option<OpeningCheck>,
}

/// One rung of the study's ladder.
#[derive(Clone, Debug)]
pub struct Rung {
    /// `L<k>` or `A<i>` (see the module docs): the folder names' part.
    pub name: String,
    /// k of `L<k>`, or i of `A<i>`: balance.csv's `level`.
    pub number: usize,
    /// The agent.
    pub spec: AgentSpec,
}

/// What a run of the study is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKind {
    /// Rung `i`'s self-play.
    SelfPlay(usize),
    /// Rung `i` (agent A) against rung `i - 1`.
    Step(usize),
}

/// One run of the study: an ordinary run folder.
#[derive(Clone, Debug)]
pub struct StudyRun {
    /// Its folder, relative to the study's.
    pub folder: PathBuf,
    /// The tournament plan (the shard's slice for a shard of the study).
    pub plan: Plan,
}

/// Everything that determines a study.
#[derive(Clone, Debug)]
pub struct Study {
    /// The base game.
    pub game: GameSpec,
    /// The base game, then each variant.
    pub arms: Vec<Arm>,
    /// The ladder, weakest first.
    pub rungs: Vec<Rung>,
    /// Games of each run.
    pub games: u64,
    /// Seed of every run.
    pub seed: u64,
    /// The opening rule as asked: `default`, `random:K` or `file:<path>`.
    pub openings: String,
    /// The slice of every run this study folder plays.
    pub shard: Option<Shard>,
}

impl Study {
    /// The study the command line asks for, every part checked (game, variants, levels
    /// or agents, games, opening against each arm, shard) before anything is written.
    pub fn from_args(args: &BalanceArgs) -> Result<Study> {
        let game = GameSpec::parse(&args.game)?;
        let rungs = rungs(&game, &args.levels, &args.agents)?;
        let (asked, openings, check) = asked_openings(args, &game)?;
        let mut games = vec![game.clone()];
        for text in &args.variant {
            let variant = variant_of(&game, text)?;
            if let Some(same) = games.iter().position(|g| *g == variant) {
                return Err(BadInput::new(format!(
                    "--variant {text:?} is the same game as {} ({variant}); each arm must \
                     differ",
                    arm_name(same)
                ))
                .into());
            }
            games.push(variant);
        }
        let arms = games
            .into_iter()
            .enumerate()
            .map(|(i, spec)| {
                checked_arm(
                    arm_name(i),
                    spec,
                    &rungs,
                    args.seed,
                    asked.as_ref(),
                    check.as_ref(),
                )
            })
            .collect::<Result<Vec<_>>>()?;
        // Asked for on the command line: what a tournament, checking only on request,
        // would resolve.
        let asked_check = OpeningCheck::from_args(
            &game,
            args.opening_check.as_deref(),
            args.opening_window,
            false,
        )?
        .is_some();
        if asked_check && arms.iter().all(|a| a.check.is_none()) {
            return Err(BadInput::new(
                "--opening-check and --opening-window judge random openings, and no arm of \
                 this study has them (a game with chance starts from its first position by \
                 default); add --random-opening K",
            )
            .into());
        }
        let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
        let study = Study {
            game,
            arms,
            rungs,
            games: args.games,
            seed: args.seed,
            openings,
            shard,
        };
        // Plan::new checks --games; with_shard that every run has a pair per shard.
        let runs = study.runs()?.len() as u128;
        // Every run plays --games games: their sum must fit, as a tournament's does, so
        // that the plan and the progress count them.
        if u128::from(study.games) * runs > u128::from(u64::MAX) {
            return Err(BadInput::new(format!(
                "--games {} with {runs} runs makes more than {} games in all; at most {} \
                 games per run",
                study.games,
                u64::MAX,
                (u128::from(u64::MAX) / runs) as u64 & !1
            ))
            .into());
        }
        Ok(study)
    }

    /// The runs, in the order they are played (see the module docs).
    pub fn runs(&self) -> Result<Vec<StudyRun>, BadInput> {
        let mut runs = Vec::new();
        for (arm, kind, folder) in slots(self.arms.len(), &self.rungs) {
            let agents = match kind {
                RunKind::SelfPlay(i) => vec![self.rungs[i].spec.clone()],
                RunKind::Step(i) => {
                    vec![self.rungs[i].spec.clone(), self.rungs[i - 1].spec.clone()]
                }
            };
            let game = &self.arms[arm];
            let mut plan = Plan::new(game.game.clone(), agents, self.games, self.seed)?
                .with_opening(game.opening.clone())
                .with_opening_check(game.check.clone());
            if let Some(shard) = self.shard {
                plan = plan.with_shard(shard)?;
            }
            runs.push(StudyRun { folder, plan });
        }
        Ok(runs)
    }

    /// What the measurements need of this study.
    pub fn layout(&self) -> Layout {
        Layout {
            arms: self.arms.iter().map(|a| (a.game.clone(), a.pie)).collect(),
            runs: slots(self.arms.len(), &self.rungs),
            rungs: self.rungs.clone(),
        }
    }

    /// The rows of study.csv (see the module docs), the digest last.
    pub fn rows(&self) -> Result<Vec<(String, String)>> {
        let mut rows: Vec<(String, String)> = vec![
            ("format".into(), STUDY_FORMAT.into()),
            ("toolkit".into(), toolkit()),
            ("game".into(), self.game.to_string()),
        ];
        rows.extend(
            self.rungs
                .iter()
                .map(|r| ("agent".into(), r.spec.to_string())),
        );
        rows.push(("games".into(), self.games.to_string()));
        rows.push(("seed".into(), self.seed.to_string()));
        rows.push(("openings".into(), self.openings.clone()));
        for arm in &self.arms {
            let opening = match &arm.opening {
                Opening::Start => "start".to_string(),
                Opening::Random(k) => format!("random:{k}"),
                Opening::Distinct(draws) => format!("distinct:{}", draws.k()),
                Opening::Book(book) => format!("file:{}", book.hash),
            };
            let check = arm
                .check
                .as_ref()
                .map_or(String::new(), |c| format!(" check {}", c.describe()));
            rows.push((
                "arm".into(),
                format!("{} {} {opening}{check}", arm.name, arm.game),
            ));
        }
        for run in self.runs()? {
            rows.push(("run".into(), folder_text(&run.folder)));
        }
        if let Some(shard) = self.shard {
            rows.push(("shard".into(), shard.to_string()));
        }
        let digest = digest(&rows);
        rows.push(("digest".into(), digest));
        Ok(rows)
    }
}

/// What the measurements of a study need, from a [`Study`] or from its study.csv
/// ([`Layout::of_rows`]): each arm's game and whether it offers a pie rule, the rungs,
/// and the runs as (arm, kind, folder) in the order played.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Each arm's game and pie rule.
    pub arms: Vec<(GameSpec, bool)>,
    /// The rungs, weakest first.
    pub rungs: Vec<Rung>,
    /// The runs.
    pub runs: Vec<(usize, RunKind, PathBuf)>,
}

impl Layout {
    /// The layout a study.csv's rows record; fails on rows this build cannot read.
    pub fn of_rows(rows: &[(String, String)]) -> Result<Layout> {
        let values = |key: &'static str| rows.iter().filter(move |(k, _)| k == key).map(|(_, v)| v);
        let specs = values("agent")
            .map(|text| AgentSpec::parse(text, false))
            .collect::<Result<Vec<_>, _>>()?;
        let mut arms = Vec::new();
        for text in values("arm") {
            let spec = text.split(' ').nth(1).unwrap_or_default();
            let game = GameSpec::parse(spec)?;
            let pie = offers_pie_rule(&game)?;
            arms.push((game, pie));
        }
        let rungs = name_rungs(specs);
        Ok(Layout {
            runs: slots(arms.len(), &rungs),
            arms,
            rungs,
        })
    }
}

/// The runs of `arms` arms over `rungs`, in the order played: (arm, kind, folder).
fn slots(arms: usize, rungs: &[Rung]) -> Vec<(usize, RunKind, PathBuf)> {
    let mut slots = Vec::new();
    for arm in 0..arms {
        for (i, rung) in rungs.iter().enumerate() {
            let folder = Path::new(&arm_name(arm)).join(format!("{}-self", rung.name));
            slots.push((arm, RunKind::SelfPlay(i), folder));
            if i > 0 {
                let folder = Path::new(&arm_name(arm)).join(format!(
                    "{}-vs-{}",
                    rung.name,
                    rungs[i - 1].name
                ));
                slots.push((arm, RunKind::Step(i), folder));
            }
        }
    }
    slots
}

/// The name of arm `i`: `base`, then `variant-1`, ...
fn arm_name(i: usize) -> String {
    if i == 0 {
        "base".into()
    } else {
        format!("variant-{i}")
    }
}

/// The study.csv rows of the whole study whose shard has `rows`: the same rows without
/// the shard, the digest recomputed (what [`Study::rows`] gives without a shard).
pub fn whole_rows(rows: &[(String, String)]) -> Vec<(String, String)> {
    let mut whole: Vec<(String, String)> = rows
        .iter()
        .filter(|(k, _)| k != "shard" && k != "digest")
        .cloned()
        .collect();
    let digest = digest(&whole);
    whole.push(("digest".into(), digest));
    whole
}

/// A run folder as study.csv writes it: `/`-separated on every system.
pub(super) fn folder_text(folder: &Path) -> String {
    folder
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// FNV-1a of the rows as `key=value` lines, 16 hex digits.
pub(super) fn digest(rows: &[(String, String)]) -> String {
    let text: String = rows.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// The game of `--variant text` (`key=value,...`) on the base game `base`: the base
/// game's parameters, each key the variant gives replacing the base's value of that key.
/// A key or value the game does not know is a [`BadInput`] naming the variant.
fn variant_of(base: &GameSpec, text: &str) -> Result<GameSpec, BadInput> {
    let given = GameSpec::parse(&format!("{}:{}", base.name, text.trim()))
        .map_err(|e| BadInput::new(format!("--variant {text:?}: {}", e.0)))?;
    // The parse accepted the text, so each item is `key=value` with a known key.
    let keys: Vec<&str> = text
        .split(',')
        .filter_map(|item| item.split_once('='))
        .map(|(key, _)| key.trim())
        .collect();
    let mut variant = base.clone();
    for name in given.params.names().filter(|n| keys.contains(n)) {
        if let Some(value) = given.params.get(name) {
            variant.params.insert(name, value.clone());
        }
    }
    Ok(variant)
}

/// The rungs of `--levels` (ladder levels of `game`, in increasing order; by default
/// every level from 2 up) or `--agents`.
pub(super) fn rungs(
    game: &GameSpec,
    levels: &[String],
    agents: &[String],
) -> Result<Vec<Rung>, BadInput> {
    let specs: Vec<AgentSpec> = if agents.is_empty() {
        let ladder = games::ladder(game.name);
        if ladder.len() < 2 {
            return Err(BadInput::new(format!(
                "{} has no ladder of levels; give the players with --agents A B ...",
                game.name
            )));
        }
        let valid = format!("valid: 1 to {}", ladder.len());
        let ks: Vec<usize> = if levels.is_empty() {
            (2..=ladder.len()).collect()
        } else {
            levels
                .iter()
                .map(|text| {
                    text.trim()
                        .parse::<usize>()
                        .ok()
                        .filter(|k| (1..=ladder.len()).contains(k))
                        .ok_or_else(|| {
                            BadInput::new(format!(
                                "--levels: {text:?} is not a level of the {} ladder ({valid})",
                                game.name
                            ))
                        })
                })
                .collect::<Result<_, _>>()?
        };
        if ks.windows(2).any(|w| w[0] > w[1]) {
            let text = |ks: &[usize]| ks.iter().map(usize::to_string).collect::<Vec<_>>();
            let mut sorted = ks.clone();
            sorted.sort_unstable();
            sorted.dedup();
            return Err(BadInput::new(format!(
                "--levels {}: levels must be given in increasing order, e.g. {}",
                text(&ks).join(","),
                text(&sorted).join(",")
            )));
        }
        ks.iter()
            .map(|k| AgentSpec::parse_for_game(&format!("level:{k}"), game, false))
            .collect::<Result<_, _>>()?
    } else {
        agents
            .iter()
            .map(|a| AgentSpec::parse_for_game(a, game, false))
            .collect::<Result<_, _>>()?
    };
    for (i, spec) in specs.iter().enumerate() {
        if specs[..i].contains(spec) {
            return Err(BadInput::new(format!(
                "the ladder names {spec} twice; each rung must be a different agent"
            )));
        }
    }
    Ok(name_rungs(specs))
}

/// The rungs of these agents, named as the module docs say.
fn name_rungs(specs: Vec<AgentSpec>) -> Vec<Rung> {
    let levels: Vec<usize> = specs.iter().filter_map(|s| s.level).collect();
    let by_level = levels.len() == specs.len()
        && levels
            .iter()
            .enumerate()
            .all(|(i, k)| !levels[..i].contains(k));
    specs
        .into_iter()
        .enumerate()
        .map(|(i, spec)| {
            let (name, number) = match spec.level {
                Some(k) if by_level => (format!("L{k}"), k),
                _ => (format!("A{}", i + 1), i + 1),
            };
            Rung { name, number, spec }
        })
        .collect()
}

/// The openings the command line asks for on `game`: the opening (`None`: the default
/// rule, [`default_opening`]), the rule as study.csv records it (`default`, `random:K` or
/// `file:<path>`), and the soundness check of random openings (the game's by default).
pub(super) fn asked_openings(
    args: &BalanceArgs,
    game: &GameSpec,
) -> Result<(Option<Opening>, String, Option<OpeningCheck>)> {
    let (asked, text) = match (&args.openings, args.random_opening) {
        (Some(path), _) => (
            Some(Opening::from_args(0, Some(path))?),
            format!("file:{}", path.display()),
        ),
        (None, Some(k)) => (Some(Opening::from_args(k, None)?), format!("random:{k}")),
        (None, None) => (None, "default".to_string()),
    };
    let check = OpeningCheck::from_args(
        game,
        args.opening_check.as_deref(),
        args.opening_window,
        true,
    )?;
    Ok((asked, text, check))
}

/// The arm `name` playing `game`: every rung's agent checked against it and its opening
/// resolved (the one `asked` for, or the default rule's) and probed at `seed`, with the
/// soundness `check` of its random openings where it has them.
pub(super) fn checked_arm(
    name: String,
    game: GameSpec,
    rungs: &[Rung],
    seed: u64,
    asked: Option<&Opening>,
    check: Option<&OpeningCheck>,
) -> Result<Arm> {
    let mut checked = None;
    dispatch(
        &game,
        CheckArm {
            rungs,
            seed,
            asked,
            check,
            out: &mut checked,
        },
    )?;
    let (opening, pie, check) = checked.expect("CheckArm sets the opening");
    Ok(Arm {
        name,
        game,
        opening,
        pie,
        check,
    })
}

/// The opening of the default rule for games of type `G` (see the module docs).
pub fn default_opening<G: Game>() -> Opening {
    if has_chance::<G::State>() {
        Opening::Start
    } else {
        Opening::Random(DEFAULT_OPENING)
    }
}

/// Checks an arm: every rung's agent builds and readies for its game, and its opening
/// (the one asked for, or the default rule's) fits it, the first deal's drawn
/// ([`Opening::probe`]); sets the opening and whether the game offers a pie rule.
struct CheckArm<'a> {
    rungs: &'a [Rung],
    /// The study's seed, for the probe of the first deal's opening.
    seed: u64,
    asked: Option<&'a Opening>,
    check: Option<&'a OpeningCheck>,
    out: &'a mut Option<(Opening, bool, Option<OpeningCheck>)>,
}

impl GameCommand for CheckArm<'_> {
    fn run<G: PlayableGame>(self, game: G, spec: &GameSpec) -> Result<()> {
        let start = game.initial_state();
        let venue = Venue {
            game: spec,
            log: None,
        };
        for rung in self.rungs {
            G::build_agent_for(&rung.spec, &venue, &start)
                .map_err(|e| BadInput::new(format!("{spec}: {}", e.0)))?;
        }
        let opening = match self.asked.cloned().unwrap_or_else(default_opening::<G>) {
            // Drawn without replacement, fresh for this arm.
            Opening::Random(k) if !has_chance::<G::State>() => {
                Opening::Distinct(DistinctDraws::new(k))
            }
            opening => opening,
        };
        opening
            .check(&game)
            .map_err(|e| BadInput::new(format!("{spec}: {}", e.0)))?;
        let check = match opening {
            Opening::Random(_) | Opening::Distinct(_) => self.check.cloned(),
            Opening::Start | Opening::Book(_) => None,
        };
        if let Some(check) = &check {
            check
                .ready(&game, spec)
                .map_err(|e| BadInput::new(format!("{spec}: {}", e.0)))?;
        }
        opening
            .probe(&game, self.seed, check.as_ref())
            .map_err(|e| match e.downcast::<BadInput>() {
                Ok(bad) => BadInput::new(format!("{spec}: {}", bad.0)).into(),
                Err(e) => e,
            })?;
        *self.out = Some((opening, game.pie_swap_decision().is_some(), check));
        Ok(())
    }
}

/// Writes study.csv into `dir`, whole or not at all.
pub fn write_study(dir: &Path, rows: &[(String, String)]) -> Result<()> {
    write_csv_whole(&dir.join(STUDY_FILE), |w| {
        w.write_record(["key", "value"])?;
        for (key, value) in rows {
            w.write_record([key, value])?;
        }
        Ok(())
    })
}

/// The rows of the study.csv in `dir`, or `None` when there is none.
pub fn read_study(dir: &Path) -> Result<Option<Vec<(String, String)>>> {
    let path = dir.join(STUDY_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let mut reader =
        csv::Reader::from_path(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let rows = reader
        .records()
        .map(|r| {
            let r = r?;
            Ok((
                r.get(0).unwrap_or_default().to_string(),
                r.get(1).unwrap_or_default().to_string(),
            ))
        })
        .collect::<Result<Vec<_>, csv::Error>>()
        .map_err(|e| BadInput::new(format!("{} is not a study file: {e}", path.display())))?;
    Ok(Some(rows))
}

/// The first row in which two study.csv's differ: `<key> "<theirs>" there, "<ours>"
/// here`, or with the key on both sides when the keys differ (`nothing` for a missing
/// row); `None` when they are the same.
pub fn difference(ours: &[(String, String)], theirs: &[(String, String)]) -> Option<String> {
    let n = ours.len().max(theirs.len());
    (0..n).find_map(|i| {
        let (a, b) = (ours.get(i), theirs.get(i));
        if a == b {
            return None;
        }
        Some(match (a, b) {
            (Some((ka, va)), Some((kb, vb))) if ka == kb => {
                format!("{ka} {vb:?} there, {va:?} here")
            }
            _ => {
                let row = |r: Option<&(String, String)>| {
                    r.map_or("nothing".into(), |(k, v)| format!("{k} {v:?}"))
                };
                format!("{} there, {} here", row(b), row(a))
            }
        })
    })
}
