//! APV's compact [`Debug`](fmt::Debug) of a position: its fields, bitboards in hex.

use std::fmt;

use super::ApvState;

impl fmt::Debug for ApvState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApvState")
            .field("rules", &self.rules)
            .field("units", &self.units.map(|s| s.map(|b| format!("{b:#x}"))))
            .field("orders", &self.orders)
            .field("waits", &self.waits)
            .field("to_move", &self.to_move)
            .field("moved", &self.moved)
            .field("issued", &self.issued)
            .field("end", &self.end)
            .field("turns", &self.turns)
            .field("ply", &self.ply)
            .field("turn_start", &self.turn_start)
            .field("hash", &format_args!("{:#x}", self.hash))
            .finish()
    }
}
