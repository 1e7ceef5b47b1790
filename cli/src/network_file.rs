//! Network files: a learned evaluator ([`Network`]) as `agon train` writes it and the
//! agents' `net=FILE` parameter reads it.
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
    let bytes = InputFile::read_bytes(&key, "network file", &shown, MAX_FILE_BYTES)?;
    let net = Network::from_bytes(&bytes)
        .map_err(|e| BadInput::new(format!("network file {shown}: {e}")))?;
    let net = Arc::new(net);
    nets.insert(key, Arc::clone(&net));
    Ok(net)
}
