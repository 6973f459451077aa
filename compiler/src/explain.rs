//! `vdl explain`: each piece's moves drawn on an empty board around a central cell, one diagram per
//! `moves` statement (per level on 3D boards), so an author can see what the notation means.

use std::fmt::Write;

use vdl_runtime::geometry::{expand_on_empty, Frame, Reach, Shape};
use vdl_runtime::model::{Game, HandOn, MovePart, Moves, Piece, Vec3};

/// A box of cells around the centre, used as an empty board.
struct Box3 {
    radius: i32,
    levels: i32,
}

impl Shape for Box3 {
    fn contains(&self, at: Vec3) -> bool {
        let side = 2 * self.radius + 1;
        (0..side).contains(&at[0])
            && (0..side).contains(&at[1])
            && (0..self.levels).contains(&at[2])
    }
}

/// Explains every piece, or only the one named.
///
/// # Errors
///
/// Returns a message when no piece has the given name.
pub fn explain(game: &Game, piece: Option<&str>) -> Result<String, String> {
    let pieces: Vec<&Piece> = match piece {
        Some(name) => {
            let found = game
                .pieces
                .iter()
                .find(|p| p.name == name || p.letter == name);
            vec![found.ok_or_else(|| {
                let names: Vec<&str> = game.pieces.iter().map(|p| p.name.as_str()).collect();
                format!("no piece `{name}`; the pieces are: {}", names.join(", "))
            })?]
        }
        // The walls' type (`turn { wall }`) is described by the summary.
        None => game
            .pieces
            .iter()
            .take(game.pieces.len() - usize::from(game.wall_piece().is_some()))
            .collect(),
    };
    let mut out = String::new();
    if piece.is_none() {
        let _ = writeln!(out, "{}\n", game.summary());
    }
    let viewer = game.players.first();
    let frame = Frame {
        forward: viewer
            .map(|p| p.forward.clone())
            .unwrap_or_else(|| vec![[0, 1, 0]]),
    };
    for piece in pieces {
        let _ = writeln!(
            out,
            "piece {} ({}){}",
            piece.name,
            piece.letter,
            match piece.royal {
                vdl_runtime::model::Royalty::No => "",
                vdl_runtime::model::Royalty::Yes => ", royal",
                vdl_runtime::model::Royalty::When(_) => ", royal under a condition",
            }
        );
        if let Some(p) = viewer {
            let _ = writeln!(out, "  seen from {}: forward is up", p.name);
        }
        for moves in &piece.moves {
            explain_moves(&mut out, game, moves, &frame);
        }
        for stack in &piece.stacks {
            let (moves, onto) = (&stack.moves, &stack.onto);
            let names: Vec<&str> = onto
                .iter()
                .filter_map(|p| game.pieces.get(*p))
                .map(|p| p.name.as_str())
                .collect();
            let _ = writeln!(
                out,
                "  stacks onto {} (either owner's), with the moves:",
                names.join(" ")
            );
            explain_moves(&mut out, game, moves, &frame);
        }
        for merge in &piece.merges {
            let names: Vec<&str> = merge
                .onto
                .iter()
                .filter_map(|p| game.pieces.get(*p))
                .map(|p| p.name.as_str())
                .collect();
            let into = game.pieces.get(merge.into).map_or("?", |p| p.name.as_str());
            let zone = merge
                .zone
                .and_then(|z| game.zones.get(z))
                .map(|z| format!(" in {}", z.name))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  merges onto a friendly {} into a {into}{zone}, by one step of:",
                names.join(" or ")
            );
            explain_moves(&mut out, game, &merge.moves, &frame);
        }
        for promotion in &piece.promotion_moves {
            explain_promotion_move(&mut out, game, promotion, &frame);
        }
        for property in properties(game, piece) {
            let _ = writeln!(out, "  {property}");
        }
        out.push('\n');
    }
    Ok(out)
}

/// A promotion that is a move of its own (`promote_move`): what the piece may become, where, and with
/// a diagram of its steps (always onto an empty cell).
fn explain_promotion_move(
    out: &mut String,
    game: &Game,
    promotion: &vdl_runtime::model::PromotionMove,
    frame: &Frame,
) {
    let choices: Vec<&str> = promotion
        .choices
        .iter()
        .filter_map(|p| game.pieces.get(*p))
        .map(|p| p.name.as_str())
        .collect();
    let mut how = Vec::new();
    if promotion.in_place {
        how.push("where it stands".to_string());
    }
    if promotion.steps.is_some() {
        how.push("with one step of the moves below onto an empty cell".to_string());
    }
    let _ = writeln!(
        out,
        "  promotes instead of moving (promote_move) to {}: {}",
        choices.join(" or "),
        how.join(", or ")
    );
    if promotion.peaceful {
        let _ = writeln!(
            out,
            "    peaceful: the move may not give check, and the new piece may not attack an enemy piece"
        );
    }
    if promotion.condition.is_some() {
        let _ = writeln!(out, "    only while its condition holds");
    }
    if let Some(steps) = &promotion.steps {
        // The step never captures: drawn as moves to empty cells.
        let mut quiet = steps.clone();
        for part in &mut quiet.parts {
            for leg in &mut part.legs {
                leg.modes = "m".into();
            }
        }
        explain_moves(out, game, &quiet, frame);
    }
}

fn explain_moves(out: &mut String, game: &Game, moves: &Moves, frame: &Frame) {
    let mut heading = format!("  moves \"{}\"", moves.betza);
    if !moves.boards.is_empty() {
        let names: Vec<&str> = moves
            .boards
            .iter()
            .filter_map(|b| game.boards.get(*b))
            .map(|b| b.name.as_str())
            .collect();
        let _ = write!(heading, " on {}", names.join(" "));
    }
    if moves.condition.is_some() {
        heading.push_str(" (conditional)");
    }
    let _ = writeln!(out, "{heading}");
    for part in &moves.parts {
        let _ = writeln!(out, "    {}", describe_part(part));
    }
    let three_d = game.dimensions == 3;
    let leap = moves
        .parts
        .iter()
        .flat_map(|p| p.vectors.iter())
        .flat_map(|v| v.iter())
        .map(|c| c.abs())
        .max()
        .unwrap_or(1);
    let legs = moves
        .parts
        .iter()
        .map(|p| p.legs.len() as i32)
        .max()
        .unwrap_or(1);
    // A crooked or circular rider's path bends back and forth: a wider board shows its shape.
    let bent = moves
        .parts
        .iter()
        .any(|p| p.path != vdl_runtime::model::RiderPath::Straight);
    let radius = if bent {
        (leap * 3).clamp(5, 8)
    } else {
        (leap * legs).clamp(3, 8)
    };
    let levels = if three_d { 2 * leap.clamp(1, 3) + 1 } else { 1 };
    let shape = Box3 { radius, levels };
    let centre = [radius, radius, levels / 2];
    let mut reached: Vec<(Vec3, Reach)> = Vec::new();
    for part in &moves.parts {
        if part.vectors.is_empty() {
            continue;
        }
        for (cell, reach) in expand_on_empty(part, centre, frame, &shape, game.dimensions) {
            match reached.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, r)) => {
                    r.moves |= reach.moves;
                    r.captures |= reach.captures;
                }
                None => reached.push((cell, reach)),
            }
        }
    }
    for z in (0..levels).rev() {
        if three_d {
            let _ = writeln!(out, "    level {:+}", z - levels / 2);
        }
        for y in (0..2 * radius + 1).rev() {
            let mut line = String::from("    ");
            for x in 0..2 * radius + 1 {
                let at = [x, y, z];
                let c = if at == centre {
                    '@'
                } else {
                    match reached.iter().find(|(c, _)| *c == at).map(|(_, r)| *r) {
                        Some(Reach {
                            moves: true,
                            captures: true,
                        }) => 'X',
                        Some(Reach {
                            moves: true,
                            captures: false,
                        }) => 'm',
                        Some(Reach {
                            moves: false,
                            captures: true,
                        }) => 'c',
                        _ => '.',
                    }
                };
                line.push(c);
                line.push(' ');
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    let _ = writeln!(
        out,
        "    (@ the piece, X move or capture, m move only, c capture only)"
    );
    // Induction and borrowing (`x`) need a friendly piece where the `x` leg ends: those cells.
    let mut handing: Vec<Vec3> = Vec::new();
    for part in &moves.parts {
        let upto = match part.hand_on {
            HandOn::None => continue,
            HandOn::Induction(leg) => leg,
            HandOn::Borrowing => part.legs.len() - 1,
        };
        let mut legs = part.legs[..=upto].to_vec();
        legs[upto].modes = "m".into();
        let path = MovePart {
            legs,
            hand_on: HandOn::None,
            ..part.clone()
        };
        for (cell, _) in expand_on_empty(&path, centre, frame, &shape, game.dimensions) {
            if !handing.contains(&cell) {
                handing.push(cell);
            }
        }
    }
    if handing.is_empty() {
        return;
    }
    let _ = writeln!(out, "    where a friendly piece takes the move over (`x`):");
    for z in (0..levels).rev() {
        if three_d {
            let _ = writeln!(out, "    level {:+}", z - levels / 2);
        }
        for y in (0..2 * radius + 1).rev() {
            let mut line = String::from("    ");
            for x in 0..2 * radius + 1 {
                let at = [x, y, z];
                line.push(if at == centre {
                    '@'
                } else if handing.contains(&at) {
                    'x'
                } else {
                    '.'
                });
                line.push(' ');
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    let _ = writeln!(
        out,
        "    (x a friendly piece there makes the rest of the move, or lends its moves to the piece)"
    );
}

/// Describes a part in words: its legs, atom, range and conditions.
fn describe_part(part: &MovePart) -> String {
    let kind = match (part.atom, part.range) {
        ('O', _) => format!("castling, king moves {} cells", part.range),
        ('U', _) => "universal leap to any cell".to_string(),
        (_, 0) => format!("{} rider (unlimited)", part.atom),
        (_, 1) => format!("{} leap", part.atom),
        (_, n) => format!("{} rider up to {n} steps", part.atom),
    };
    let kind = match part.path {
        vdl_runtime::model::RiderPath::Straight => kind,
        vdl_runtime::model::RiderPath::Crooked => {
            format!("crooked {kind}, turning a right angle alternately either way")
        }
        vdl_runtime::model::RiderPath::Circular => {
            format!("circular {kind}, turning the same way at every step")
        }
    };
    let mut words = vec![kind];
    if part.initial {
        words.push("only if the piece has not moved".into());
    }
    for (i, leg) in part.legs.iter().enumerate() {
        let mut leg_words = Vec::new();
        if !leg.directions.is_empty() {
            leg_words.push(format!("directions `{}`", leg.directions));
        }
        if leg.directions.contains('z') {
            leg_words.push("`z` turning opposite to the previous turn".into());
        }
        if leg.directions.contains('q') {
            leg_words.push("`q` turning like the previous turn".into());
        }
        for m in leg.modes.chars() {
            leg_words.push(
                match m {
                    'm' => "to an empty cell",
                    'c' => "capturing",
                    'd' => "capturing a friendly piece",
                    'e' => "en passant",
                    'p' => "hopping over a screen (not drawn)",
                    'g' => "grasshopper hop (not drawn)",
                    'n' => "blocked by pieces on the way",
                    'j' => "must jump an occupied cell (not drawn)",
                    'y' => "turning into a slider",
                    'o' => "wrapping around the edge",
                    'u' if i > 0 => "unloading the captured piece where this leg started",
                    'u' => "unloading the captured piece",
                    'x' if i + 1 < part.legs.len() => {
                        "onto a friendly piece, which makes the remaining legs"
                    }
                    'x' => "onto a friendly piece, whose moves the piece makes from its own cell",
                    't' => "not capturing royals",
                    _ => "turning",
                }
                .to_string(),
            );
        }
        if !leg_words.is_empty() || part.legs.len() > 1 {
            let label = if part.legs.len() > 1 {
                format!("leg {}: ", i + 1)
            } else {
                String::new()
            };
            words.push(format!(
                "{label}{}",
                if leg_words.is_empty() {
                    "any direction".to_string()
                } else {
                    leg_words.join(", ")
                }
            ));
        }
    }
    words.join("; ")
}

/// The piece's properties beyond its moves, one line each.
fn properties(game: &Game, piece: &vdl_runtime::model::Piece) -> Vec<String> {
    let name = |p: usize| {
        game.pieces
            .get(p)
            .map_or("?", |p| p.name.as_str())
            .to_string()
    };
    let names = |ps: &[usize]| ps.iter().map(|&p| name(p)).collect::<Vec<_>>().join(" ");
    let zone = |z: usize| {
        game.zones
            .get(z)
            .map_or("?", |z| z.name.as_str())
            .to_string()
    };
    let mut out = Vec::new();
    if piece.pawn {
        out.push("pawn".to_string());
    }
    if let Some(p) = piece.promoted_from {
        out.push(format!("promoted_from {}", name(p)));
    }
    if let Some(p) = piece.demote_to {
        out.push(format!("demote_to {}", name(p)));
    }
    if !piece.cannot_hop.is_empty() {
        out.push(format!("cannot_hop {}", names(&piece.cannot_hop)));
    }
    match piece.facing {
        Some(vdl_runtime::model::Facing::Illegal) => out.push("facing illegal".into()),
        Some(vdl_runtime::model::Facing::MustBreak) => out.push("facing must_break".into()),
        None => {}
    }
    if piece.perspective == vdl_runtime::model::Perspective::Player {
        out.push("perspective player".into());
    }
    if !piece.movable_by.is_empty() {
        out.push("movable_by".into());
    }
    if let Some(z) = piece.virgin_in {
        out.push(format!("virgin_in {}", zone(z)));
    }
    if let Some((types, royal)) = &piece.captures_only {
        let mut list = names(types);
        if *royal {
            list = format!("{list} royal").trim().to_string();
        }
        out.push(format!("captures_only {list}"));
    }
    if piece.never_captures {
        out.push("never_captures".into());
    }
    if piece.check_evasion.is_some() {
        out.push("check_evasion capture_checker".into());
    }
    if piece.immune {
        out.push("immune".into());
    }
    if let Some(z) = piece.confined {
        out.push(format!("confined {}", zone(z)));
    }
    if let Some(n) = piece.count_limit {
        out.push(format!("count_limit {n}"));
    }
    if let Some(z) = piece.drop_zone {
        out.push(format!("drop_zone {}", zone(z)));
    }
    if piece.no_drop_mate {
        out.push("no_drop_mate".into());
    }
    if let Some(n) = piece.drop_file_limit {
        out.push(format!("drop_file_limit {n}"));
    }
    if piece.points != 0 {
        out.push(format!("points {}", piece.points));
    }
    out
}
