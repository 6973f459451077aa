//! The limits on what a rule file may contain. Each one bounds work or memory in a later stage (the
//! parser's and checker's recursion, the cell and zone tables of the engines), and each is reported as a
//! located diagnostic with its own code; docs/language.md, section 1.6, lists them.

/// Largest rule file, in bytes (4 MiB): readers stop at it (`E0012` from the parser).
pub const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;

/// Deepest nesting of brackets `( )`, `[ ]` and `{ }` (`E0010`).
pub const MAX_NESTING: usize = 64;

/// Deepest expression in a condition: each `not`, operator (`or`, `and`, a comparison, `+`, `-`) and
/// function call is one level (`E0011`). A sum of N terms is N - 1 levels deep.
pub const MAX_EXPR_DEPTH: usize = 128;

/// Most cells of all boards together (`E2016`).
pub const MAX_CELLS: usize = 4096;

/// Most files, ranks or levels of one board (`E2035`).
pub const MAX_SIDE: u32 = 64;

/// Most zones (`E2046`).
pub const MAX_ZONES: usize = 1024;

/// Most Betza legs of all move strings together: each atom is one leg, and each `a` adds one (`E2047`).
/// Every leg is prepared for every player, so this bounds the engines' move tables.
pub const MAX_BETZA_LEGS: usize = 4096;

/// Most move-table entries of all move strings together (`E2050`), estimated before anything is
/// generated: for every Betza part, player and cell, each direction of each leg counts the cells it
/// can reach (one for a leap, the board's longest side less one for a slide, or its range if
/// shorter). The compiled engines' tables, and the time and memory spent generating and compiling
/// them, grow with this number; the largest example, Armies of Faith 5, has about 3.6 million.
pub const MAX_MOVE_TABLE_ENTRIES: usize = 1 << 23;

/// Most paths one Betza part may take from a cell (`E2051`), bounded before anything runs: the
/// product, over its legs, of the directions a leg may take and the cells a step or a slide reaches
/// (one for a leap, the board's longest side less one for a slide). The interpreter walks every path
/// of a multi-leg move when it generates moves and when it looks for attacks, so this bounds the work
/// of one move generation; each further rider leg multiplies it (`RaRaRaR` on a 64x64 board would take
/// about 4 × 10⁹ paths from one cell). The largest part of the examples takes a few thousand.
pub const MAX_MOVE_PATHS: u64 = 100_000;
