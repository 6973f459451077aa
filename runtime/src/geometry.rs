//! Directions and move expansion: the meaning of Betza direction letters in a player's frame, and the
//! cells a move part reaches on an empty board (used by `vdl explain` and as the interpreter's reference).

use crate::model::{MovePart, RiderPath, Vec3};

/// The Betza letter of the universal leaper, which leaps to any cell of its board.
pub const UNIVERSAL_ATOM: char = 'U';

/// How a player (or a board) orients moves: its forward axes.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// One forward axis, or two (a corner army's U and V).
    pub forward: Vec<Vec3>,
}

/// What a move may do on its target cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// It may move there when the cell is empty.
    pub moves: bool,
    /// It may capture there.
    pub captures: bool,
}

fn dot(a: Vec3, b: Vec3) -> i64 {
    (0..3).map(|i| a[i] as i64 * b[i] as i64).sum()
}

/// Returns every permutation and sign variant of a base vector, in a fixed order, without duplicates.
pub fn symmetric_variants(base: Vec3, dimensions: usize) -> Vec<Vec3> {
    let perms: &[[usize; 3]] = if dimensions == 3 {
        &[
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ]
    } else {
        &[[0, 1, 2], [1, 0, 2]]
    };
    let mut out: Vec<Vec3> = Vec::new();
    for p in perms {
        for signs in 0..8 {
            let mut v = [0; 3];
            for i in 0..3 {
                let s = if signs & (1 << i) != 0 { -1 } else { 1 };
                v[i] = s * base[p[i]];
            }
            if dimensions < 3 && v[2] != 0 {
                continue;
            }
            if !out.contains(&v) && v != [0, 0, 0] {
                out.push(v);
            }
        }
    }
    out
}

/// Local coordinates of a 2D vector in a single-axis frame: (right, forward).
fn local(v: Vec3, forward: Vec3) -> (i64, i64) {
    let right = [forward[1], -forward[0], 0];
    (dot(v, right), dot(v, forward))
}

fn narrow(letter: char, x: i64, y: i64) -> bool {
    match letter {
        'f' => y > 0 && y.abs() > x.abs(),
        'b' => y < 0 && y.abs() > x.abs(),
        'l' => x < 0 && x.abs() > y.abs(),
        'r' => x > 0 && x.abs() > y.abs(),
        'v' => y.abs() > x.abs(),
        's' => x.abs() > y.abs(),
        _ => false,
    }
}

fn half(letter: char, x: i64, y: i64) -> bool {
    match letter {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' | 's' | 'h' => true,
        _ => false,
    }
}

/// Tells whether a first-leg vector is selected by the direction letters in a frame.
pub fn first_leg_selects(directions: &str, v: Vec3, frame: &Frame) -> bool {
    if directions.is_empty() {
        return true;
    }
    if frame.forward.len() != 1 || v[2] != 0 || frame.forward[0][2] != 0 {
        // Corner or 3D frames: only forward and backward are defined.
        return directions.chars().any(|c| match c {
            'f' => is_forward(v, frame),
            'b' => is_forward([-v[0], -v[1], -v[2]], frame),
            'v' => is_forward(v, frame) || is_forward([-v[0], -v[1], -v[2]], frame),
            _ => false,
        });
    }
    let (x, y) = local(v, frame.forward[0]);
    let letters: Vec<char> = directions.chars().collect();
    if x == 0 || y == 0 {
        return letters.iter().any(|&c| match c {
            'f' => y > 0,
            'b' => y < 0,
            'l' => x < 0,
            'r' => x > 0,
            'v' => y != 0,
            's' => x != 0,
            _ => false,
        });
    }
    let diagonal = x.abs() == y.abs();
    let mut i = 0;
    while i < letters.len() {
        let c = letters[i];
        let next = letters.get(i + 1).copied();
        if diagonal {
            let crossing = matches!(
                (c, next),
                ('f' | 'b', Some('l' | 'r')) | ('l' | 'r', Some('f' | 'b'))
            );
            if crossing {
                if half(c, x, y) && half(next.unwrap_or('h'), x, y) {
                    return true;
                }
                i += 2;
                continue;
            }
            if half(c, x, y) && c != 'h' {
                return true;
            }
            i += 1;
        } else {
            let selected = match next {
                Some(n) if c == 'h' && (n == 'l' || n == 'r') => chiral(n, x, y),
                Some('h') => half(c, x, y),
                Some(n) => narrow(n, x, y) && half(c, x, y),
                None => narrow(c, x, y),
            };
            if selected {
                return true;
            }
            i += 2;
        }
    }
    false
}

/// The chiral halves of an oblique leap: `hr` holds (1,2) and its 90° rotations, `hl` their mirror images.
fn chiral(letter: char, x: i64, y: i64) -> bool {
    let right_handed =
        (x > 0) == (y > 0) && x.abs() < y.abs() || (x > 0) != (y > 0) && x.abs() > y.abs();
    if letter == 'r' {
        right_handed
    } else {
        !right_handed
    }
}

/// Tells whether a vector is forward in a frame: positive along the axis, or non-negative along both
/// axes of a corner frame and not perpendicular to both.
pub fn is_forward(v: Vec3, frame: &Frame) -> bool {
    match frame.forward.as_slice() {
        [axis] => dot(v, *axis) > 0,
        [u, w] => {
            let (a, b) = (dot(v, *u), dot(v, *w));
            a >= 0 && b >= 0 && (a, b) != (0, 0)
        }
        _ => false,
    }
}

/// Angle class of `candidate` relative to `previous`: 0 straight on, 1 a 45° turn, 2 a right angle, 3 a
/// 135° turn, 4 straight back, 5 any other angle; and the side (+1 left, -1 right, 0 none or 3D). For
/// oblique atoms, whose turns are never multiples of 45°, every acute turn counts as class 1 and every
/// obtuse one as class 3.
fn turn_class(previous: Vec3, candidate: Vec3, straight_family: bool) -> (u8, i8) {
    let d = dot(previous, candidate) as f64;
    let norm = ((dot(previous, previous) * dot(candidate, candidate)) as f64).sqrt();
    let cos = d / norm;
    let diagonal = std::f64::consts::FRAC_1_SQRT_2;
    let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
    let class = if near(cos, 1.0) {
        0
    } else if near(cos, -1.0) {
        4
    } else if near(cos, 0.0) {
        2
    } else if straight_family {
        if near(cos, diagonal) {
            1
        } else if near(cos, -diagonal) {
            3
        } else {
            5
        }
    } else if cos > 0.0 {
        1
    } else {
        3
    };
    let cross = previous[0] as i64 * candidate[1] as i64 - previous[1] as i64 * candidate[0] as i64;
    let side = if previous[2] != 0 || candidate[2] != 0 {
        0
    } else {
        cross.signum() as i8
    };
    (class, side)
}

/// Tells whether a continuation-leg vector is selected by relative direction letters, in a move that
/// has not turned to a side yet (so `z` and `q` mean `s`).
pub fn continuation_selects(
    directions: &str,
    previous: Vec3,
    candidate: Vec3,
    straight_family: bool,
) -> bool {
    continuation_selects_after(directions, previous, candidate, straight_family, 0)
}

/// Tells whether a continuation-leg vector is selected by relative direction letters. `last_side` is the
/// side of the move's last turn to a side so far (+1 left, -1 right, 0 none yet): `z` turns to the other
/// side, `q` to the same side, and both mean `s` (either side) while the move has not turned yet.
pub fn continuation_selects_after(
    directions: &str,
    previous: Vec3,
    candidate: Vec3,
    straight_family: bool,
    last_side: i8,
) -> bool {
    let (class, side) = turn_class(previous, candidate, straight_family);
    if directions.is_empty() {
        return if straight_family {
            class == 0 || class == 2
        } else {
            class != 4
        };
    }
    let letters: Vec<char> = directions.chars().collect();
    let side_ok = |c: char| match c {
        'l' => side >= 0,
        'r' => side <= 0,
        'z' => last_side == 0 || side == -last_side,
        'q' => last_side == 0 || side == last_side,
        _ => true,
    };
    let mut i = 0;
    while i < letters.len() {
        let c = letters[i];
        let next = letters.get(i + 1).copied();
        let paired = matches!((c, next), ('f' | 'b', Some('l' | 'r' | 's' | 'z' | 'q')));
        let hit = if paired {
            let n = next.unwrap_or('s');
            let want = if c == 'f' { 1 } else { 3 };
            class == want && side_ok(n)
        } else {
            match c {
                'f' => class == 0,
                'b' => class == 4,
                'v' => class == 0 || class == 4,
                'l' | 'r' | 's' | 'z' | 'q' => class == 2 && side_ok(c),
                _ => false,
            }
        };
        if hit {
            return true;
        }
        i += if paired { 2 } else { 1 };
    }
    false
}

/// The side of the turn from `previous` to `candidate`: +1 left (counter-clockwise), -1 right, 0 for
/// none (straight on or back, or a turn out of the plane).
pub fn turn_side(previous: Vec3, candidate: Vec3) -> i8 {
    if previous[2] != 0 || candidate[2] != 0 {
        return 0;
    }
    let cross = previous[0] as i64 * candidate[1] as i64 - previous[1] as i64 * candidate[0] as i64;
    cross.signum() as i8
}

/// The side a move has turned to last, after a turn from `previous` to `next`: that turn's side, or
/// `last_side` when it did not turn to a side.
pub fn side_after(last_side: i8, previous: Vec3, next: Vec3) -> i8 {
    match turn_side(previous, next) {
        0 => last_side,
        side => side,
    }
}

/// The step of a crooked or circular rider after `step` (a path whose first step was `first`), turning
/// to `side` (+1 left, -1 right). Crooked: a right angle, alternately to `side` and back, so the steps
/// alternate between `first` and `first` turned; circular: the smallest turn to `side` among the atom's
/// own vectors (a right angle for `W` and `F`, the rose's turn for `N`).
pub fn bent_step(path: RiderPath, first: Vec3, step: Vec3, side: i8) -> Vec3 {
    let turned = |v: Vec3| {
        if side > 0 {
            [-v[1], v[0], v[2]]
        } else {
            [v[1], -v[0], v[2]]
        }
    };
    match path {
        RiderPath::Straight => step,
        RiderPath::Crooked => {
            if step == first {
                turned(first)
            } else {
                first
            }
        }
        RiderPath::Circular => symmetric_variants(step, 2)
            .into_iter()
            .filter(|&v| turn_side(step, v) == side)
            .max_by_key(|&v| dot(step, v))
            .unwrap_or(step),
    }
}

/// The candidate vectors of a continuation leg: compass directions scaled by the atom's step for
/// orthogonal and diagonal atoms (so a 45° turn of a wazir step is a ferz step), the atom's own
/// variants for oblique atoms.
pub fn continuation_candidates(base: Vec3, dimensions: usize) -> (Vec<Vec3>, bool) {
    let nonzero: Vec<i32> = base.iter().copied().filter(|&c| c != 0).collect();
    let straight = nonzero.iter().all(|&c| c.abs() == nonzero[0].abs());
    if !straight || nonzero.is_empty() {
        return (symmetric_variants(base, dimensions), false);
    }
    let k = nonzero[0].abs();
    let mut out = Vec::new();
    let zs: &[i32] = if dimensions == 3 { &[-1, 0, 1] } else { &[0] };
    for &z in zs {
        for y in -1..=1 {
            for x in -1..=1 {
                if (x, y, z) != (0, 0, 0) {
                    out.push([x * k, y * k, z * k]);
                }
            }
        }
    }
    (out, true)
}

/// The offsets a lame (`n`) leap must find empty, or a must-jump (`j`) leap occupied: the straight path
/// of an orthogonal or diagonal leap, the orthogonal neighbour on the long axis of an oblique one (the
/// xiangqi horse).
pub fn lame_path(v: Vec3) -> Vec<Vec3> {
    let abs = v.map(i32::abs);
    let nonzero: Vec<i32> = abs.iter().copied().filter(|&c| c != 0).collect();
    let max = *abs.iter().max().unwrap_or(&0);
    if nonzero.iter().all(|&c| c == max) {
        return (1..max).map(|k| v.map(|c| c.signum() * k)).collect();
    }
    let axis = (0..3).max_by_key(|&i| abs[i]).unwrap_or(0);
    let mut d = [0; 3];
    d[axis] = v[axis].signum();
    vec![d]
}

/// A board shape for expansion: its size and which coordinates exist.
pub trait Shape {
    /// Tells whether a coordinate is a cell.
    fn contains(&self, at: Vec3) -> bool;
}

/// Lists the cells a move part reaches from `from` on an empty board, with what it may do there.
/// Legs that need an occupied cell (hops, locust captures, must-jump leaps, induction and borrowing
/// `x`) reach nothing on an empty board.
pub fn expand_on_empty(
    part: &MovePart,
    from: Vec3,
    frame: &Frame,
    shape: &dyn Shape,
    dimensions: usize,
) -> Vec<(Vec3, Reach)> {
    // The cells reached, in the order first reached, with where each is in the list: a multi-leg
    // rider reaches most cells by many paths.
    let mut out = Reached::default();
    for base in &part.vectors {
        let starts: Vec<Vec3> = symmetric_variants(*base, dimensions)
            .into_iter()
            .filter(|v| first_leg_selects(&part.legs[0].directions, *v, frame))
            .collect();
        for v in starts {
            if part.path != RiderPath::Straight {
                bent_ride(part, from, v, shape, &mut out);
                continue;
            }
            walk(
                part,
                0,
                from,
                v,
                *base,
                part.range != 1,
                0,
                shape,
                dimensions,
                &mut out,
            );
        }
    }
    out.cells
}

/// The cells an expansion has reached, and where each is in the list.
#[derive(Default)]
struct Reached {
    cells: Vec<(Vec3, Reach)>,
    index: std::collections::HashMap<Vec3, usize>,
}

/// Adds a target with what the final leg's modes let the move do there.
fn add_reach(out: &mut Reached, at: Vec3, modes: &str) {
    let only_move = modes.contains('m') && !modes.contains('c') && !modes.contains('d');
    let only_capture =
        !modes.contains('m') && (modes.contains('c') || modes.contains('d') || modes.contains('e'));
    let reach = Reach {
        moves: !only_capture,
        captures: !only_move,
    };
    match out.index.get(&at) {
        Some(&i) => {
            let r = &mut out.cells[i].1;
            r.moves |= reach.moves;
            r.captures |= reach.captures;
        }
        None => {
            out.index.insert(at, out.cells.len());
            out.cells.push((at, reach));
        }
    }
}

/// The cells of a crooked or circular rider's paths from `from` starting with `first`, turning either way.
fn bent_ride(part: &MovePart, from: Vec3, first: Vec3, shape: &dyn Shape, out: &mut Reached) {
    let limit = if part.range == 0 {
        64
    } else {
        part.range as usize
    };
    for side in [1, -1] {
        let mut at = from;
        let mut step = first;
        for _ in 0..limit {
            at = [at[0] + step[0], at[1] + step[1], at[2] + step[2]];
            if !shape.contains(at) || at == from {
                break;
            }
            add_reach(out, at, &part.legs[0].modes);
            step = bent_step(part.path, first, step, side);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn walk(
    part: &MovePart,
    leg: usize,
    from: Vec3,
    step: Vec3,
    base: Vec3,
    rider: bool,
    last_side: i8,
    shape: &dyn Shape,
    dims: usize,
    out: &mut Reached,
) {
    let modes = &part.legs[leg].modes;
    let last = leg + 1 == part.legs.len();
    if modes.contains('p')
        || modes.contains('g')
        || modes.contains('j')
        || modes.contains('x')
        || (!last && modes.contains('c'))
        || (!last && modes.contains('d'))
    {
        return;
    }
    let limit = if rider {
        if part.range == 0 || part.range == 1 {
            64
        } else {
            part.range as usize
        }
    } else {
        1
    };
    let mut at = from;
    for _ in 0..limit {
        at = [at[0] + step[0], at[1] + step[1], at[2] + step[2]];
        if !shape.contains(at) {
            break;
        }
        if last {
            add_reach(out, at, modes);
        } else {
            let toggles = modes.contains('y') || modes.contains('g');
            let next_rider = if toggles { !rider } else { rider };
            let (candidates, straight) = continuation_candidates(base, dims);
            let directions = &part.legs[leg + 1].directions;
            for c in candidates {
                if continuation_selects_after(directions, step, c, straight, last_side) {
                    let side = side_after(last_side, step, c);
                    walk(
                        part,
                        leg + 1,
                        at,
                        c,
                        base,
                        next_rider,
                        side,
                        shape,
                        dims,
                        out,
                    );
                }
            }
        }
    }
}

/// The frame fixed by the boards a move set is limited to, when they all have the same `forward`
/// (a corridor whose forward is the same for every player).
pub fn board_frame(game: &crate::model::Game, moves: &crate::model::Moves) -> Option<Frame> {
    let first = game.boards.get(*moves.boards.first()?)?.forward?;
    moves
        .boards
        .iter()
        .all(|&b| game.boards[b].forward == Some(first))
        .then(|| Frame {
            forward: vec![first],
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Leg;

    struct Square(i32);
    impl Shape for Square {
        fn contains(&self, at: Vec3) -> bool {
            (0..self.0).contains(&at[0]) && (0..self.0).contains(&at[1]) && at[2] == 0
        }
    }

    fn part(legs: &[(&str, &str)], base: Vec3, range: u8) -> MovePart {
        MovePart {
            legs: legs
                .iter()
                .map(|(d, m)| Leg {
                    directions: d.to_string(),
                    modes: m.to_string(),
                })
                .collect(),
            atom: 'X',
            vectors: vec![base],
            range,
            initial: false,
            path: RiderPath::Straight,
            hand_on: crate::model::HandOn::None,
        }
    }

    fn targets(p: &MovePart, forward: Vec3) -> Vec<Vec3> {
        let frame = Frame {
            forward: vec![forward],
        };
        let mut t: Vec<Vec3> = expand_on_empty(p, [4, 4, 0], &frame, &Square(9), 2)
            .into_iter()
            .map(|(c, _)| c)
            .collect();
        t.sort();
        t
    }

    #[test]
    fn knight_direction_pairs_follow_xboard() {
        let rel = |d: &str| -> Vec<Vec3> {
            targets(&part(&[(d, "")], [2, 1, 0], 1), [0, 1, 0])
                .into_iter()
                .map(|c| [c[0] - 4, c[1] - 4, 0])
                .collect()
        };
        assert_eq!(rel("f"), vec![[-1, 2, 0], [1, 2, 0]]);
        assert_eq!(rel("fr"), vec![[2, 1, 0]]);
        assert_eq!(rel("rf"), vec![[1, 2, 0]]);
        assert_eq!(rel("fs"), vec![[-2, 1, 0], [2, 1, 0]]);
        assert_eq!(rel("fh").len(), 4);
        assert_eq!(rel("hr").len() + rel("hl").len(), 8);
    }

    #[test]
    fn black_forward_is_mirrored() {
        let pawn = part(&[("f", "m")], [1, 0, 0], 1);
        assert_eq!(targets(&pawn, [0, -1, 0]), vec![[4, 3, 0]]);
        assert_eq!(targets(&pawn, [0, 1, 0]), vec![[4, 5, 0]]);
    }

    #[test]
    fn mao_is_a_bent_knight() {
        let mao = part(&[("", "m"), ("fs", "")], [1, 0, 0], 1);
        assert_eq!(targets(&mao, [0, 1, 0]).len(), 8);
    }

    #[test]
    fn griffon_slides_after_a_diagonal_step() {
        let griffon = part(&[("", "y"), ("fs", "")], [1, 1, 0], 1);
        // From the centre of a 9x9 board: 4 diagonal first steps, each followed by 2 slides of 3 cells.
        assert_eq!(targets(&griffon, [0, 1, 0]).len(), 24);
    }

    #[test]
    fn three_d_forty_five_degree_turns_are_exact() {
        // A root-2 step turns 45° only onto its two orthogonal components (Armies of Faith §4.3, MT).
        let (candidates, straight) = continuation_candidates([1, 0, 0], 3);
        let turns: Vec<Vec3> = candidates
            .into_iter()
            .filter(|c| continuation_selects("fs", [1, 1, 0], *c, straight))
            .collect();
        assert_eq!(turns, vec![[1, 0, 0], [0, 1, 0]]);
        // An orthogonal step has four 45° continuations.
        let (candidates, straight) = continuation_candidates([1, 0, 0], 3);
        assert_eq!(
            candidates
                .into_iter()
                .filter(|c| continuation_selects("fs", [1, 0, 0], *c, straight))
                .count(),
            4
        );
    }

    #[test]
    fn three_d_atoms_have_full_symmetry() {
        assert_eq!(symmetric_variants([1, 0, 0], 3).len(), 6);
        assert_eq!(symmetric_variants([1, 1, 0], 3).len(), 12);
        assert_eq!(symmetric_variants([1, 1, 1], 3).len(), 8);
        assert_eq!(symmetric_variants([2, 1, 0], 3).len(), 24);
        assert_eq!(symmetric_variants([2, 1, 0], 2).len(), 8);
    }
}
