//! The transposition table: positions already searched, keyed by their hash, with the best move found
//! and a score bound. One entry per slot, always replaced.

use super::MATE_BOUND;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One searched position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry<M> {
    pub key: u64,
    pub best: Option<M>,
    /// The score, with wins and losses counted from this position rather than from the root.
    pub score: i32,
    pub depth: u32,
    pub bound: Bound,
}

/// A fixed-size table of entries, indexed by the low bits of the key.
#[derive(Clone, Debug)]
pub(super) struct Table<M> {
    entries: Vec<Option<Entry<M>>>,
}

impl<M: Copy> Table<M> {
    /// Makes an empty table of `size` entries, rounded down to a power of two (at least one).
    pub fn new(size: usize) -> Table<M> {
        let size = if size == 0 {
            1
        } else {
            1 << (usize::BITS - 1 - size.leading_zeros())
        };
        Table {
            entries: vec![None; size],
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    /// Returns the entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores an entry, replacing whatever was in its slot.
    pub fn store(&mut self, entry: Entry<M>) {
        let slot = self.slot(entry.key);
        self.entries[slot] = Some(entry);
    }
}

/// Converts a score at `ply` from the root into one counted from the position itself, so that a stored
/// win keeps its distance wherever the position is found again.
pub(super) fn to_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// Converts a stored score back into one counted from the root, at `ply`.
pub(super) fn from_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn size_is_a_power_of_two() {
        assert_eq!(Table::<u8>::new(1000).entries.len(), 512);
        assert_eq!(Table::<u8>::new(0).entries.len(), 1);
    }

    #[test]
    fn mate_scores_keep_their_distance() {
        assert_eq!(from_table(to_table(MATE - 5, 3), 7), MATE - 9);
        assert_eq!(from_table(to_table(-MATE + 5, 3), 1), -MATE + 3);
        assert_eq!(from_table(to_table(120, 3), 9), 120);
    }
}
