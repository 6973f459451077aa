//! The search over the interpreter: it finds wins in one move, returns a legal move in the start position
//! of every example (including games of four players and several boards), and always returns a move
//! when stopped early. Depths and node limits are small: the interpreter is slow.

use std::sync::atomic::AtomicBool;

use vdl_runtime::search::{self, mate_plies, Evaluator, Limits, MaterialEvaluator, Searcher};
use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, vdl_files, workspace_root};

/// The interpreter and evaluator of `examples/NAME.vdl`.
fn example(name: &str) -> (Interpreter, MaterialEvaluator) {
    let path = workspace_root()
        .join("examples")
        .join(format!("{name}.vdl"));
    load(&path)
}

fn load(path: &std::path::Path) -> (Interpreter, MaterialEvaluator) {
    let checked = vdl_dsl::check::check_source(&read_text(path));
    let game = checked
        .game
        .unwrap_or_else(|| panic!("{} does not check", path.display()));
    let evaluator = MaterialEvaluator::new(&game);
    let interpreter = Interpreter::new(game).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (interpreter, evaluator)
}

/// Searches a position to `depth` and returns the best move's text and the score.
fn best_move(name: &str, fen: &str, depth: u32) -> (String, i32) {
    let (variant, evaluator) = example(name);
    let position = variant
        .parse_position(fen)
        .unwrap_or_else(|e| panic!("{name}: bad FEN {fen}: {e}"));
    let result = search::search(&variant, &evaluator, &position, &Limits::depth(depth));
    let best = result
        .best
        .unwrap_or_else(|| panic!("{name}: no move in {fen}"));
    (variant.write_move(&position, best), result.score)
}

fn is_legal(
    variant: &Interpreter,
    position: &<Interpreter as Variant>::Position,
    mv: vdl_runtime::interp::Move,
) -> bool {
    let mut position = position.clone();
    let mut moves = Vec::new();
    variant.legal_moves(&mut position, &mut moves);
    moves.contains(&mv)
}

#[test]
fn finds_a_back_rank_mate_in_chess() {
    let (best, score) = best_move("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3);
    assert_eq!(best, "a1a8");
    assert_eq!(mate_plies(score), Some(1));
}

#[test]
fn finds_scholars_mate() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1";
    let (best, score) = best_move("chess", fen, 2);
    assert_eq!(best, "f3f7");
    assert_eq!(mate_plies(score), Some(1));
}

#[test]
fn finds_mates_in_one_in_other_games() {
    // A rook mate on the back rank of the 6x6 board, the king covering the rank below.
    let (best, _) = best_move("losalamos", "2k3/6/2K3/6/6/R5 w - - 0 1", 2);
    assert_eq!(best, "a1a6");
    // Two chariots: one holds the ninth rank, the other mates on the tenth (h1h10), or closes the
    // f-file (h1f1): with d10 facing the white general, Black is stalemated, which loses in xiangqi.
    let (best, score) = best_move("xiangqi", "4k4/R8/9/9/9/9/9/9/9/3K3R1 w - - 0 1", 2);
    assert!(best == "h1h10" || best == "h1f1", "{best}");
    assert_eq!(mate_plies(score), Some(1));
}

#[test]
fn finds_wins_that_are_not_mates() {
    // King of the hill: stepping onto a centre square wins at once.
    let (best, score) = best_move("kingofthehill", "8/8/8/8/8/3K4/8/k7 w - - 0 1", 2);
    assert!(["d3d4", "d3e4"].contains(&best.as_str()), "{best}");
    assert_eq!(mate_plies(score), Some(1));
}

#[test]
fn wins_material_when_there_is_no_mate() {
    // The black queen hangs to the knight.
    let (best, score) = best_move("chess", "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1", 2);
    assert_eq!(best, "e3d5");
    assert!(score > 200, "{score}");
}

#[test]
fn returns_a_legal_move_in_every_start_position() {
    let mut searched = 0;
    for path in vdl_files(&workspace_root().join("examples")) {
        let (variant, evaluator) = load(&path);
        let position = variant.start();
        // Enough nodes for depth 1 where the start has many moves (the Amazons: 2176) or where every
        // move captures (clobber10: 180 captures, each with a bounded quiescence, about 2100).
        let mut moves = Vec::new();
        variant.legal_moves(&mut position.clone(), &mut moves);
        let limits = Limits {
            depth: Some(2),
            nodes: Some(4_000.max(4 * moves.len() as u64)),
            time: None,
        };
        let result = search::search(&variant, &evaluator, &position, &limits);
        let best = result
            .best
            .unwrap_or_else(|| panic!("{}: no move", path.display()));
        assert!(is_legal(&variant, &position, best), "{}", path.display());
        assert!(result.depth >= 1, "{}: not even depth 1", path.display());
        searched += 1;
    }
    assert!(searched >= 50, "only {searched} examples");
}

#[test]
fn paranoid_search_plays_for_the_side_to_move() {
    // Baccancat has four players; after one move the second player searches from its own side.
    let (variant, evaluator) = example("baccancat");
    assert_eq!(Evaluator::<Interpreter>::players(&evaluator), 4);
    let mut position = variant.start();
    for _ in 0..2 {
        let result = search::search(&variant, &evaluator, &position, &Limits::depth(1));
        let best = result.best.expect("a move");
        assert!(is_legal(&variant, &position, best));
        variant.make(&mut position, best);
    }
    assert_eq!(position.side, 2);
}

#[test]
fn a_raised_stop_flag_still_gives_a_legal_move() {
    let (variant, evaluator) = example("chess");
    let position = variant.start();
    let stop = AtomicBool::new(true);
    let result = Searcher::new().search(
        &variant,
        &evaluator,
        &position,
        &Limits::default(),
        &stop,
        &mut |_| panic!("no iteration completes"),
    );
    assert!(is_legal(&variant, &position, result.best.expect("a move")));
    assert_eq!(result.depth, 0);
}

#[test]
fn a_node_limit_ends_the_search() {
    let (variant, evaluator) = example("chess");
    let position = variant.start();
    let limits = Limits {
        nodes: Some(300),
        ..Limits::default()
    };
    let result = search::search(&variant, &evaluator, &position, &limits);
    assert!(result.nodes <= 300, "{} nodes", result.nodes);
    assert!(is_legal(&variant, &position, result.best.expect("a move")));
}

#[test]
fn iterations_are_reported_in_order() {
    let (variant, evaluator) = example("chess");
    let position = variant.start();
    let stop = AtomicBool::new(false);
    let mut depths = Vec::new();
    let result = Searcher::new().search(
        &variant,
        &evaluator,
        &position,
        &Limits::depth(3),
        &stop,
        &mut |it| {
            assert!(!it.pv.is_empty());
            depths.push(it.depth);
        },
    );
    assert_eq!(depths, [1, 2, 3]);
    assert_eq!(result.depth, 3);
    assert_eq!(
        search::line_text(&variant, &position, &result.pv).len(),
        result.pv.len()
    );
}

#[test]
fn searches_are_deterministic() {
    let (variant, evaluator) = example("shogi");
    let position = variant.start();
    let first = search::search(&variant, &evaluator, &position, &Limits::depth(2));
    let second = search::search(&variant, &evaluator, &position, &Limits::depth(2));
    assert_eq!(first, second);
}

#[test]
fn a_finished_game_has_no_best_move() {
    let (variant, evaluator) = example("chess");
    let position = variant
        .parse_position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1")
        .expect("a position");
    let result = search::search(&variant, &evaluator, &position, &Limits::depth(2));
    assert_eq!(result.best, None);
    assert_eq!(mate_plies(result.score), Some(0));
}

#[test]
fn values_come_from_the_rule_file_or_from_mobility() {
    let (_, chess) = example("chess");
    assert_eq!(&chess.values()[..5], [100, 300, 320, 500, 900]);
    // 3check gives no values: they are estimated, in the usual order.
    let (_, estimated) = example("3check");
    let [pawn, knight, bishop, rook, queen, _king] = estimated.values() else {
        panic!("six pieces")
    };
    assert!(pawn < knight && knight < bishop && bishop < rook && rook < queen);
}

#[test]
fn a_third_repetition_is_claimable_not_automatic_in_chess() {
    let (variant, _) = example("chess");
    let mut position = variant.start();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (i, text) in shuffle.iter().chain(&shuffle).enumerate() {
        assert!(
            variant.claimable(&position).is_none(),
            "nothing to claim before move {i}"
        );
        assert_eq!(variant.repeats(&position), i >= 4, "before move {i}");
        let mv = variant.parse_move(&mut position, text).expect("legal");
        variant.make(&mut position, mv);
    }
    assert!(variant.repeats(&position), "the start position recurs");
    // The start position for the third time: a draw to claim, and the game goes on otherwise.
    let claim = variant.claimable(&position).expect("a claimable draw");
    assert_eq!(claim.winner, None);
    assert!(variant.outcome(&mut position).is_none());
}

#[test]
fn finds_a_mate_in_two_that_starts_with_a_quiet_move() {
    // 1. Kb6 (or Qh7) Kb8 2. Qh8# (Qb7#): no check on the first move, so pruning must not hide it.
    let (best, score) = best_move("chess", "k7/8/2K5/8/8/8/8/7Q w - - 0 1", 5);
    assert_eq!(mate_plies(score), Some(3), "{best}");
    assert!(["c6b6", "h1h7"].contains(&best.as_str()), "{best}");
}

#[test]
fn sees_a_mate_against_itself_coming() {
    // White threatens Ra8 mate: Black must give his king air or step towards the centre.
    let (best, score) = best_move("chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", 4);
    assert!(mate_plies(score).is_none(), "{best} {score}");
    assert!(
        ["f7f6", "g7g6", "h7h6", "f7f5", "g7g5", "h7h5", "g8f8"].contains(&best.as_str()),
        "{best}"
    );
}

#[test]
fn checks_are_told_apart() {
    let (variant, _) = example("chess");
    let mut checked = variant
        .parse_position("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1")
        .expect("FEN");
    assert!(variant.in_check(&mut checked));
    let mut quiet = variant
        .parse_position("3k4/8/8/8/8/8/8/4R1K1 b - - 0 1")
        .expect("FEN");
    assert!(!variant.in_check(&mut quiet));
}

#[test]
fn a_pass_is_taken_back_exactly() {
    let (variant, _) = example("chess");
    let mut position = variant
        .parse_position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")
        .expect("FEN");
    let (text, hash) = (variant.write_position(&position), variant.hash(&position));
    let undo = variant
        .make_null(&mut position)
        .expect("chess allows a pass");
    assert_eq!(variant.hash(&position), variant.full_hash(&position));
    assert!(variant.write_position(&position).contains(" b "));
    assert!(
        !variant.write_position(&position).contains("e6"),
        "no en passant after a pass"
    );
    variant.unmake_null(&mut position, undo);
    assert_eq!(
        (variant.write_position(&position), variant.hash(&position)),
        (text, hash)
    );
}

#[test]
fn null_moves_only_where_zugzwang_is_rare() {
    for (name, allowed) in [
        ("chess", true),
        ("xiangqi", true),
        ("clobber", false),
        ("antichess", false),
        ("breakthrough", false),
        ("lords-and-vassals", false),
    ] {
        let (variant, evaluator) = example(name);
        assert_eq!(
            evaluator.null_move_allowed(&variant.start()),
            allowed,
            "{name}"
        );
    }
    // Without pieces other than pawns and the king, zugzwang is likely: no null move.
    let (variant, evaluator) = example("chess");
    let ending = variant
        .parse_position("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1")
        .expect("FEN");
    assert!(!evaluator.null_move_allowed(&ending));
}

#[test]
fn estimated_values_rank_compound_pieces() {
    let (variant, capablanca) = example("capablanca");
    let value = |evaluator: &MaterialEvaluator, game: &Interpreter, name: &str| {
        let index = game
            .game
            .pieces
            .iter()
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("no {name}"));
        evaluator.values()[index]
    };
    let v = |name| value(&capablanca, &variant, name);
    assert_eq!(v("pawn"), 100);
    assert!(v("pawn") * 2 < v("knight"));
    assert!(v("knight") < v("bishop") && v("bishop") < v("rook"));
    assert!(v("rook") < v("archbishop") && v("archbishop") < v("chancellor"));
    assert!(v("chancellor") < v("queen"));
    assert!(v("rook") * 2 > v("queen"), "two rooks outweigh the queen");
    // Xiangqi: the chariot is the strongest; horse and cannon come next; confined pieces are worth less.
    let (variant, xiangqi) = example("xiangqi");
    let v = |name| value(&xiangqi, &variant, name);
    for other in ["horse", "cannon", "advisor", "elephant", "soldier"] {
        assert!(v("chariot") > v(other) * 3 / 2, "chariot against {other}");
    }
    for weaker in ["advisor", "elephant"] {
        assert!(
            v("horse") > v(weaker) && v("cannon") > v(weaker),
            "{weaker}"
        );
    }
}

#[test]
fn a_passed_pawn_counts_for_more_than_a_blocked_one() {
    let (variant, evaluator) = example("chess");
    let score = |fen: &str| {
        let position = variant.parse_position(fen).expect("FEN");
        evaluator.evaluate(&position, 0)
    };
    // The same material; in the first the white pawn on d5 has no black pawn ahead or beside it.
    let passed = score("4k3/p7/8/3P4/8/8/8/4K3 w - - 0 1");
    let blocked = score("4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1");
    assert!(passed > blocked + 20, "{passed} against {blocked}");
    // An advanced passed pawn is worth more than one at home.
    let advanced = score("4k3/p7/3P4/8/8/8/8/4K3 w - - 0 1");
    let home = score("4k3/p7/8/8/8/8/3P4/4K3 w - - 0 1");
    assert!(advanced > home, "{advanced} against {home}");
}

#[test]
fn the_king_is_safer_behind_its_pawns() {
    let (variant, evaluator) = example("chess");
    let score = |fen: &str| {
        let position = variant.parse_position(fen).expect("FEN");
        evaluator.evaluate(&position, 0)
    };
    // With every other piece still on the board: the king at home, or stepped out in front.
    let sheltered = score("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let exposed = score("rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w kq - 0 1");
    assert!(sheltered > exposed, "{sheltered} against {exposed}");
}
