//! The memory a run's search tables take, checked before the run starts.
//!
//! An agent with a `hash` parameter allocates a table of at most that many MiB when it
//! is built. A worker plays one game at a time and holds the tables of that game's two
//! seats, and of the opening checker while it judges an opening (the Lazy SMP threads of
//! an agent share its one table; a worker keeps dropped tables for reuse, never more
//! than it had in use at once: `agon_search::table_pool`). So a run needs up to
//! `workers × (the two largest seats' hash + the checker's hash)` MiB of tables.
//!
//! A run that needs more than the machine has (its memory and swap, from
//! `/proc/meminfo`) cannot finish: [`check`] refuses it with one line before anything is
//! built or written. This catches the impossible, not the tight: a run that fits on
//! paper may still fail to allocate a table while other programs hold memory, and then
//! that agent's build reports it as an error (the tables are allocated without
//! aborting). Where `/proc/meminfo` cannot be read, nothing is refused here.

use crate::bad_input::BadInput;
use crate::running::tournament::{workers_for, Plan};
use crate::spec::AgentSpec;

/// The `hash` of `spec` in MiB; 0 for an agent without a table.
fn hash_mib(spec: &AgentSpec) -> u64 {
    spec.params.int("hash").map_or(0, |mb| mb.max(0) as u64)
}

/// The most table memory one worker of `plan` holds at once, in MiB: the two largest
/// tables among the entrants (a pairing seats any two of them; an agent alone plays
/// itself), plus the opening checker's.
pub fn per_worker_mib(plan: &Plan) -> u64 {
    let mut hashes: Vec<u64> = plan.entrants.iter().map(|e| hash_mib(&e.spec)).collect();
    hashes.sort_unstable_by(|a, b| b.cmp(a));
    let seats = match hashes.as_slice() {
        [] => 0,
        [alone] => 2 * alone,
        [first, second, ..] => first + second,
    };
    let checker = plan
        .applied_check()
        .map_or(0, |check| hash_mib(&check.checker));
    seats + checker
}

/// Refuses a run of `plan` on `threads` worker threads whose tables need more memory
/// than this machine has (see the module docs).
pub fn check(plan: &Plan, threads: usize) -> Result<(), BadInput> {
    let range = plan.game_range();
    let workers = workers_for(threads, range.end - range.start);
    let per_worker = per_worker_mib(plan);
    let need = per_worker.saturating_mul(workers as u64);
    match machine_mib() {
        Some(have) if need > have => Err(BadInput::new(format!(
            "the agents' tables need up to {need} MiB at once ({workers} worker{} × {per_worker} \
             MiB, the hash of one game's two seats and of the opening checker), more than \
             this machine's {have} MiB of memory; choose a smaller hash or fewer --threads",
            if workers == 1 { "" } else { "s" }
        ))),
        _ => Ok(()),
    }
}

/// The machine's memory and swap in MiB (`MemTotal` + `SwapTotal` of `/proc/meminfo`),
/// or `None` where that cannot be read.
fn machine_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    total_mib(&text)
}

/// `MemTotal` + `SwapTotal` (a missing `SwapTotal` counts 0) of a `/proc/meminfo` text,
/// in MiB.
fn total_mib(meminfo: &str) -> Option<u64> {
    let kib = |key: &str| {
        meminfo.lines().find_map(|line| {
            let value = line.strip_prefix(key)?.strip_prefix(':')?;
            value.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()
        })
    };
    Some((kib("MemTotal")? + kib("SwapTotal").unwrap_or(0)) >> 10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::GameSpec;

    fn plan(agents: &[&str]) -> Plan {
        let specs = agents
            .iter()
            .map(|a| AgentSpec::parse(a, false).unwrap())
            .collect();
        Plan::new(GameSpec::parse("connect4").unwrap(), specs, 2, 1).unwrap()
    }

    #[test]
    fn a_worker_holds_the_two_largest_tables_of_a_game() {
        assert_eq!(per_worker_mib(&plan(&["random", "greedy"])), 0);
        assert_eq!(per_worker_mib(&plan(&["ab:hash=100"])), 200);
        assert_eq!(
            per_worker_mib(&plan(&[
                "ab:hash=100",
                "random",
                "ab:hash=30",
                "ab:hash=50"
            ])),
            150
        );
        // The default hash counts as written out.
        assert_eq!(
            per_worker_mib(&plan(&["ab", "random"])),
            per_worker_mib(&plan(&["ab:hash=16", "random"]))
        );
    }

    #[test]
    fn the_machines_memory_is_its_ram_and_swap() {
        let meminfo = "MemTotal:       24576000 kB\nMemFree:  1 kB\nSwapTotal:  1024000 kB\n";
        assert_eq!(total_mib(meminfo), Some((24_576_000 + 1_024_000) >> 10));
        assert_eq!(total_mib("MemTotal: 2048 kB\n"), Some(2));
        assert_eq!(total_mib("nothing here\n"), None);
    }
}
