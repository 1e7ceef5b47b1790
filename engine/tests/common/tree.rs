//! A naive model written as a tree of positions: each position lists its children by
//! notation, and the walks over the tree (play a line, count, divide) follow from that.

/// A position of a naive model that knows its children.
pub trait Tree: Clone {
    /// Each legal move or chance outcome in the game's notation, with the position it
    /// leads to (none once the game is over).
    fn children(&self) -> Vec<(String, Self)>;

    /// The position after `moves` (space separated), or the first move not offered.
    fn after(&self, moves: &str) -> Result<Self, String> {
        let mut p = self.clone();
        for m in moves.split_whitespace() {
            p = p
                .children()
                .into_iter()
                .find(|(text, _)| text == m)
                .map(|(_, c)| c)
                .ok_or_else(|| format!("{m} is not offered"))?;
        }
        Ok(p)
    }

    /// Paths of exactly `depth` plies below this position, none below a finished game.
    fn count(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children()
            .iter()
            .map(|(_, c)| c.count(depth - 1))
            .sum()
    }

    /// Each child's notation with its count at `depth - 1` (0 stays 0), in the order
    /// [`Tree::children`] lists them.
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.children()
            .into_iter()
            .map(|(m, c)| (m, c.count(depth.saturating_sub(1))))
            .collect()
    }
}
