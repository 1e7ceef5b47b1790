//! Network files: a learned evaluator ([`Network`]) as `agon train` writes it and the
//! agents' `net=FILE` parameter reads it.
//!
//! `net=builtin:<game>` names a network built into the binary instead of a file: the
//! committed network of that game under `results/networks/` ([`BUILT_IN`]), so that a
//! ladder's learned rung plays wherever `agon` runs.
//!
//! A file is read once per process ([`load`]), so every game of a run scores with the
//! same network even if the file is replaced while it runs; meta.csv records its
//! [`digest`]. A network file is a regular file of at most [`MAX_FILE_BYTES`] (see
//! [`crate::input_file`]); a file that is not a network, or a damaged one, is refused
//! with one line.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use agon_engine::network::Network;

use crate::bad_input::BadInput;
use crate::digest::fnv1a;
use crate::input_file::InputFile;

/// The largest network file read: 64 MiB, far above the networks trained here (a few
/// hundred KiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// How a built-in network is named in `net=`.
pub const BUILT_IN_PREFIX: &str = "builtin:";

/// The networks built into the binary, by name (the game's): the committed files under
/// `results/networks/`, whose README gives the commands that trained them.
pub const BUILT_IN: &[(&str, &[u8])] = &[
    ("apv", include_bytes!("../../results/networks/apv.net")),
    (
        "hexstrat",
        include_bytes!("../../results/networks/hexstrat.net"),
    ),
    (
        "invector",
        include_bytes!("../../results/networks/invector.net"),
    ),
    (
        "romgon",
        include_bytes!("../../results/networks/romgon.net"),
    ),
    (
        "threewill",
        include_bytes!("../../results/networks/threewill.net"),
    ),
];

/// What `path` names in `table` when it is `builtin:<name>`; `None` when it is a path
/// to a file. An unknown name is refused with one line naming the valid ones; `what`
/// ("network", "weights") says what was asked for.
pub fn built_in<T: Copy>(
    path: &str,
    table: &[(&str, T)],
    what: &str,
) -> Result<Option<T>, BadInput> {
    let Some(name) = path.strip_prefix(BUILT_IN_PREFIX) else {
        return Ok(None);
    };
    match table.iter().find(|(n, _)| *n == name) {
        Some(&(_, entry)) => Ok(Some(entry)),
        None => {
            let valid: Vec<String> = table
                .iter()
                .map(|(n, _)| format!("{BUILT_IN_PREFIX}{n}"))
                .collect();
            Err(BadInput::new(format!(
                "no built-in {what} {path:?} (valid: {})",
                valid.join(", ")
            )))
        }
    }
}

/// A fingerprint of `net` (16 hex digits): the FNV-1a hash of its file's bytes.
pub fn digest(net: &Network) -> String {
    format!("{:016x}", fnv1a(&net.to_bytes()))
}

/// The network of the file at `path`, read on its first use in this process and
/// remembered (see the module docs).
pub fn load(path: &str) -> Result<Arc<Network>, BadInput> {
    static NETS: OnceLock<Mutex<BTreeMap<PathBuf, Arc<Network>>>> = OnceLock::new();
    let key = PathBuf::from(path);
    let mut nets = NETS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(net) = nets.get(&key) {
        return Ok(Arc::clone(net));
    }
    let shown = format!("{path:?}");
    let bytes = match built_in(path, BUILT_IN, "network")? {
        Some(bytes) => bytes.to_vec(),
        None => InputFile::read_bytes(&key, "network file", &shown, MAX_FILE_BYTES)?,
    };
    let net = Network::from_bytes(&bytes)
        .map_err(|e| BadInput::new(format!("network file {shown}: {e}")))?;
    let net = Arc::new(net);
    nets.insert(key, Arc::clone(&net));
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_network_reads_and_an_unknown_one_names_the_valid() {
        for (name, bytes) in BUILT_IN {
            let net = load(&format!("{BUILT_IN_PREFIX}{name}")).unwrap();
            assert_eq!(net.to_bytes(), *bytes);
            assert!(net.encoding().starts_with(&format!("{name}/")), "{name}");
        }
        let err = load("builtin:nope").unwrap_err();
        assert!(
            err.0
                .starts_with("no built-in network \"builtin:nope\" (valid: builtin:"),
            "{}",
            err.0
        );
    }
}
