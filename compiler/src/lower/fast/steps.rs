//! Per-cell tables of large boards as step vectors: a table that is exactly, at every cell, the
//! union of some leaps and rides of the board's [`StepTable`] is emitted as a call of
//! [`vdl_runtime::compact::step_table`] naming them, which the engine's compiler evaluates.

use super::{Bits, StepTable};

/// The leaps and rides (indices of [`StepTable::vectors`]) whose union is `values` at every cell,
/// if there are such: the largest such set is every step that never leaves the table, so it is
/// tried alone. A ride that stays in the table makes its first step, a leap, unneeded; a vector
/// that cannot take two steps on the board is only a leap.
pub fn cover(steps: &StepTable, values: &[Bits]) -> Option<(Vec<usize>, Vec<usize>)> {
    if steps.vectors.is_empty() || values.len() != steps.to.len() {
        return None;
    }
    let inside = |v: usize| {
        steps
            .to
            .iter()
            .zip(values)
            .all(|(row, set)| row[v].is_none_or(|to| set.contains(to)))
    };
    let ride_inside = |v: usize| {
        (0..values.len()).all(|cell| {
            let mut at = steps.to[cell][v];
            let mut left = values.len();
            while let Some(to) = at {
                if !values[cell].contains(to) || left == 0 {
                    return false;
                }
                at = steps.to[to][v];
                left -= 1;
            }
            true
        })
    };
    let leaps: Vec<usize> = (0..steps.vectors.len()).filter(|&v| inside(v)).collect();
    // A vector that never takes two steps on the board is a leap, whatever its ride would be.
    let rides_on = |v: usize| {
        steps
            .to
            .iter()
            .any(|row| row[v].is_some_and(|to| steps.to[to][v].is_some()))
    };
    let rides: Vec<usize> = leaps
        .iter()
        .copied()
        .filter(|&v| rides_on(v) && ride_inside(v))
        .collect();
    let leaps: Vec<usize> = leaps.into_iter().filter(|v| !rides.contains(v)).collect();
    let covered = (0..values.len()).all(|cell| {
        let mut set = Bits::ZERO;
        for &v in &leaps {
            if let Some(to) = steps.to[cell][v] {
                set |= Bits::bit(to);
            }
        }
        for &v in &rides {
            let mut at = steps.to[cell][v];
            let mut left = values.len();
            while let (Some(to), true) = (at, left > 0) {
                set |= Bits::bit(to);
                at = steps.to[to][v];
                left -= 1;
            }
        }
        set == values[cell]
    });
    covered.then_some((leaps, rides))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of four cells with the steps right (+1) and left (-1).
    fn line() -> StepTable {
        let to = (0..4)
            .map(|c: usize| vec![(c < 3).then_some(c + 1), c.checked_sub(1)])
            .collect();
        StepTable {
            vectors: vec![[1, 0, 0], [-1, 0, 0]],
            to,
            boxes: None,
        }
    }

    fn sets(cells: &[&[usize]]) -> Vec<Bits> {
        cells
            .iter()
            .map(|c| c.iter().fold(Bits::ZERO, |s, &x| s | Bits::bit(x)))
            .collect()
    }

    #[test]
    fn a_table_of_steps_is_covered_by_its_leaps() {
        let steps = line();
        let right = sets(&[&[1], &[2], &[3], &[]]);
        assert_eq!(cover(&steps, &right), Some((vec![0], vec![])));
        let both = sets(&[&[1], &[0, 2], &[1, 3], &[2]]);
        assert_eq!(cover(&steps, &both), Some((vec![0, 1], vec![])));
    }

    #[test]
    fn a_ride_replaces_its_first_step() {
        let steps = line();
        let ride = sets(&[&[1, 2, 3], &[2, 3], &[3], &[]]);
        assert_eq!(cover(&steps, &ride), Some((vec![], vec![0])));
    }

    #[test]
    fn a_table_that_no_steps_make_is_not_covered() {
        let steps = line();
        // A step right from cell 0 only: the step right from 1 is missing.
        let zone = sets(&[&[1], &[], &[], &[]]);
        assert_eq!(cover(&steps, &zone), None);
        // A jump of two is no step of the table.
        let jump = sets(&[&[2], &[3], &[], &[]]);
        assert_eq!(cover(&steps, &jump), None);
    }

    #[test]
    fn a_step_that_cannot_repeat_is_a_leap() {
        // Two cells and a step of one: from 0 it reaches 1, and from 1 nothing.
        let steps = StepTable {
            vectors: vec![[1, 0, 0]],
            to: vec![vec![Some(1)], vec![None]],
            boxes: None,
        };
        assert_eq!(cover(&steps, &sets(&[&[1], &[]])), Some((vec![0], vec![])));
    }
}
