//! Random playouts of every example (and of the pick-up coverage case): at every ply, every legal move is made and taken back, and the
//! position and its hash must come back exactly; the incremental hash must equal a recomputed one; and
//! the position text must read back to the same position; and attack detection (which looks outwards
//! from the attacked cell) must agree with generating every piece's attacks.

use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, vdl_files, workspace_root, Rng};

#[test]
fn make_unmake_restores_position_and_hash() {
    let root = workspace_root();
    let games: usize = std::env::var("VDL_PLAYOUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let mut rng = Rng::new(0x5eed);
    let mut positions = 0;
    let mut variants = 0;
    // Pick-up moves have no example game yet: their coverage case plays along.
    let files = vdl_files(&root.join("examples"))
        .into_iter()
        .chain([root.join("tests/coverage/pick_up.vdl")]);
    for example in files {
        let checked = vdl_dsl::check::check_source(&read_text(&example));
        let Some(game) = checked.game else {
            panic!("{} does not check", example.display())
        };
        // Games with several boards or 3D boards have no FEN start yet.
        let Ok(variant) = Interpreter::new(game) else {
            continue;
        };
        variants += 1;
        for _ in 0..games {
            let mut position = variant.start();
            for _ in 0..80 {
                let mut moves = Vec::new();
                variant.legal_moves(&mut position, &mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    let before = position.clone();
                    let undo = variant.make(&mut position, mv);
                    assert_eq!(
                        variant.hash(&position),
                        variant.full_hash(&position),
                        "{}: incremental hash after {}",
                        example.display(),
                        variant.write_move(&before, mv)
                    );
                    variant.unmake(&mut position, mv, undo);
                    assert_eq!(
                        position,
                        before,
                        "{}: unmake of {}",
                        example.display(),
                        variant.write_move(&before, mv)
                    );
                }
                if let Err(e) = variant.check_attacks(&position) {
                    panic!(
                        "{}: {e} in {}",
                        example.display(),
                        variant.write_position(&position)
                    );
                }
                // The position text reads back to the same position.
                let text = variant.write_position(&position);
                let reread = variant.parse_position(&text).unwrap_or_else(|e| {
                    panic!("{}: `{text}` does not read back: {e}", example.display())
                });
                assert_eq!(
                    variant.write_position(&reread),
                    text,
                    "{}",
                    example.display()
                );
                positions += 1;
                let mv = *rng.pick(&moves);
                variant.make(&mut position, mv);
            }
        }
    }
    assert!(variants >= 20, "only {variants} examples ran");
    assert!(positions > 1000, "only {positions} positions");
}
