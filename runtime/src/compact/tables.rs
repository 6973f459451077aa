//! Tables of compact engines computed when the engine compiles: the generated code names the step
//! vectors a table is made of, and these `const fn`s build its per-cell bitboards from the board's
//! steps, so that a large board's tables are not written out cell by cell.
//!
//! A step table (`STEP_CELLS` in generated code) holds, per cell and per step vector, the cell that
//! step reaches, or [`NO_STEP`] when it leaves the board.

use super::Wide;

/// "The step leaves the board" in a step table.
pub const NO_STEP: u16 = u16::MAX;

/// Per cell, the cells reached from it by one of the `leaps` (indices into the step vectors) and
/// the cells along the `rides` (each followed until it leaves the board).
#[must_use]
pub const fn step_table<const W: usize, const N: usize, const C: usize>(
    steps: &[[u16; N]; C],
    leaps: &[u16],
    rides: &[u16],
) -> [Wide<W>; C] {
    let mut table = [Wide::<W>::ZERO; C];
    let mut cell = 0;
    while cell < C {
        let mut words = [0u64; W];
        let mut k = 0;
        while k < leaps.len() {
            let to = steps[cell][leaps[k] as usize];
            if to != NO_STEP {
                words[to as usize / 64] |= 1 << (to % 64);
            }
            k += 1;
        }
        k = 0;
        while k < rides.len() {
            let v = rides[k] as usize;
            let mut to = steps[cell][v];
            // A ride cannot be longer than the board has cells (a vector that wraps onto a cycle).
            let mut left = C;
            while to != NO_STEP && left > 0 {
                words[to as usize / 64] |= 1 << (to % 64);
                to = steps[to as usize][v];
                left -= 1;
            }
            k += 1;
        }
        table[cell] = Wide(words);
        cell += 1;
    }
    table
}

/// The step table of boards that are whole boxes, each `(first cell, [files, ranks, levels])`, their
/// cells numbered file first, then rank, then level: per cell, the cell each of the `vectors` reaches
/// on the same board.
#[must_use]
pub const fn box_steps<const N: usize, const C: usize>(
    boards: &[(usize, [u32; 3])],
    vectors: &[[i32; 3]; N],
) -> [[u16; N]; C] {
    let mut steps = [[NO_STEP; N]; C];
    let mut b = 0;
    while b < boards.len() {
        let (first, size) = boards[b];
        let (files, ranks, levels) = (size[0] as i32, size[1] as i32, size[2] as i32);
        let count = (files * ranks * levels) as usize;
        let mut i = 0;
        while i < count && first + i < C {
            let n = i as i32;
            let (x, y, z) = (n % files, n / files % ranks, n / (files * ranks));
            let mut v = 0;
            while v < N {
                let (tx, ty, tz) = (x + vectors[v][0], y + vectors[v][1], z + vectors[v][2]);
                if tx >= 0 && tx < files && ty >= 0 && ty < ranks && tz >= 0 && tz < levels {
                    let to = first + (tx + files * (ty + ranks * tz)) as usize;
                    if to < C {
                        steps[first + i][v] = to as u16;
                    }
                }
                v += 1;
            }
            i += 1;
        }
        b += 1;
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3x2 board: cells 0 1 2 on the first rank, 3 4 5 on the second.
    const BOXED: [[u16; 2]; 6] = box_steps(&[(0, [3, 2, 1])], &[[1, 0, 0], [0, 1, 0]]);

    #[test]
    fn box_steps_stay_on_their_board() {
        assert_eq!(BOXED[0], [1, 3]);
        assert_eq!(BOXED[2], [NO_STEP, 5]);
        assert_eq!(BOXED[4], [5, NO_STEP]);
        // Two boards side by side: a step never crosses from one to the other.
        let two: [[u16; 1]; 4] = box_steps(&[(0, [2, 1, 1]), (2, [2, 1, 1])], &[[1, 0, 0]]);
        assert_eq!(two, [[1], [NO_STEP], [3], [NO_STEP]]);
    }

    #[test]
    fn leaps_and_rides_make_the_cells_they_reach() {
        let table: [Wide<1>; 6] = step_table(&BOXED, &[1], &[0]);
        // From cell 0: the step up (3) and the ride right (1, 2).
        assert_eq!(table[0], Wide([0b001110]));
        // From cell 5 neither leaves the board's last cell.
        assert_eq!(table[5], Wide([0]));
        // From cell 3, the ride right only.
        assert_eq!(table[3], Wide([0b110000]));
    }
}
