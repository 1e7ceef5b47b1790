//! [`AgentError`]: why an agent could not be built or readied. A leaf of the crate, so
//! that the agent trait, which returns it, and the registry, which builds every agent,
//! both depend on it and not on each other.

/// Why an agent could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    /// No agent has this name.
    #[error("unknown agent {name:?} (valid: {valid})")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The valid names, comma-separated.
        valid: String,
    },
    /// The agent searches with alpha-beta, which cannot handle chance nodes. The message
    /// suggests the strongest agents that can ([`CHANCE_SUGGESTIONS`](crate::registry::CHANCE_SUGGESTIONS)).
    #[error(
        "agent {name:?} needs a deterministic game: alpha-beta cannot search chance \
         nodes (for games with chance use {suggest})"
    )]
    NeedsDeterministic {
        /// The agent asked for.
        name: String,
        /// The agents to suggest instead, in words.
        suggest: String,
    },
    /// The agent cannot play the game it was readied for ([`crate::Agent::prepare`]):
    /// the optimal agent's table would be too large, say.
    #[error("agent {name:?} cannot play this game: {reason}")]
    Unplayable {
        /// The agent asked for.
        name: String,
        /// Why not, and what to do instead.
        reason: String,
    },
    /// Two parameters that each parse but make no sense together.
    #[error("agent {name:?}: {reason}")]
    Conflict {
        /// The agent asked for.
        name: String,
        /// What does not fit, and what to do instead.
        reason: String,
    },
    /// The agent's table cannot be allocated: the machine (or the process's limit) has
    /// not the memory its `hash` asks for.
    #[error(
        "agent {name:?}: cannot allocate its table of hash={hash_mb} MiB (not enough \
         memory; choose a smaller hash)"
    )]
    OutOfMemory {
        /// The agent asked for.
        name: String,
        /// Its `hash`.
        hash_mb: usize,
    },
}
