//! BacCanCat: every test scenario of section 10 of the specification (shared/rules/baccancat.md,
//! T1–T20), against examples/baccancat.vdl, run on the reference interpreter and on both forms of
//! the compiled engine (tests/build.rs generates them into OUT_DIR): the hook form, and the compact
//! form, which lists, counts and plays the moves of the interpreter's positions converted to it (and
//! the positions it reaches converted back, with their history).
//!
//! Positions are built from the scenarios' piece lists: `*` after a cell marks an unmoved piece
//! (castling partners); every other piece counts as having moved. Moves are written as in section
//! 6.10 (`fa-ga`, `hdxld`, `co-cp=Q`, `ee-ec`). Scenarios that start "X to move" in a position reached
//! by a move (eliminations happen at the start of a turn, section 7.1) are reached by playing that
//! move.

use std::collections::BTreeSet;
use std::sync::Arc;

use vdl_runtime::compact::{CompactPosition, Compiled};
use vdl_runtime::interp::{Occupant, Position};
use vdl_runtime::{perft::perft, Interpreter, Variant};
use vdl_tests::{read_text, workspace_root};

#[allow(unused, clippy::all)]
mod game_baccancat {
    include!(concat!(env!("OUT_DIR"), "/game_baccancat.rs"));
}

const SW: usize = 0;
const NW: usize = 1;
const NE: usize = 2;
const SE: usize = 3;

struct Engine {
    name: &'static str,
    v: Interpreter,
    /// The compact form, which then lists, counts and plays the moves.
    compact: Option<Compiled<game_baccancat::compact::Fast>>,
}

fn game() -> vdl_runtime::model::Game {
    let path = workspace_root().join("examples/baccancat.vdl");
    let checked = vdl_dsl::check::check_source(&read_text(&path));
    checked
        .game
        .unwrap_or_else(|| panic!("baccancat.vdl does not check: {:?}", checked.problems))
}

fn options(sub: u32) -> Vec<(String, String)> {
    vec![("subvariant".to_string(), sub.to_string())]
}

fn interpreter(sub: u32) -> Engine {
    Engine {
        name: "interpreter",
        v: Interpreter::with_options(game(), &options(sub)).expect("the game loads"),
        compact: None,
    }
}

fn compiled(sub: u32) -> Engine {
    let v = if sub == 1 {
        game_baccancat::engine().expect("the compiled game loads")
    } else {
        Interpreter::with_options(game(), &options(sub))
            .expect("the game loads")
            .with_generator(Arc::new(game_baccancat::Compiled))
    };
    Engine {
        name: "compiled",
        v,
        compact: None,
    }
}

fn compact(sub: u32) -> Engine {
    let mut c = game_baccancat::compact::fast_engine().expect("the compact game loads");
    c.set_options(&[format!("subvariant={sub}")])
        .expect("the sub-variant is an option");
    Engine {
        name: "compact",
        v: c.interpreter.clone(),
        compact: Some(c),
    }
}

fn for_both(scenario: fn(&Engine)) {
    for_both_in(1, scenario);
}

/// Runs a scenario in a sub-variant on both engines; the test fails naming every engine that failed.
fn for_both_in(sub: u32, scenario: fn(&Engine)) {
    vdl_tests::on_each_engine(
        [interpreter(sub), compiled(sub), compact(sub)].map(|e| (e.name, e)),
        scenario,
    );
}

fn set(moves: &str) -> BTreeSet<String> {
    moves.split_whitespace().map(String::from).collect()
}

impl Engine {
    fn piece(&self, letter: &str) -> usize {
        self.v
            .game
            .pieces
            .iter()
            .position(|p| p.letter == letter)
            .unwrap_or_else(|| panic!("no piece `{letter}`"))
    }

    fn cell(&self, name: &str) -> usize {
        self.v
            .game
            .cells
            .iter()
            .position(|c| c.name == name)
            .unwrap_or_else(|| panic!("no cell `{name}`"))
    }

    /// A position: `armies` lists each army's pieces (`K ee*, P hc`), `None` for an eliminated army
    /// (dropped out among `among` players); `reserve` the shared reserve (`Q7 T8 G8`), or the
    /// initial one.
    fn position(
        &self,
        side: usize,
        armies: [Option<&str>; 4],
        reserve: Option<&str>,
        among: [u8; 4],
    ) -> Position {
        let mut pos = self.v.start();
        for c in pos.cells.iter_mut() {
            *c = Occupant::EMPTY;
        }
        pos.side = side;
        for (player, army) in armies.iter().enumerate() {
            let Some(army) = army else {
                pos.eliminated |= 1 << player;
                pos.dropped_among[player] = among[player];
                continue;
            };
            for item in army.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (letter, cell) = item.split_once(' ').expect("`L cell`");
                let virgin = cell.ends_with('*');
                let cell = self.cell(cell.trim_end_matches('*'));
                pos.cells[cell] = Occupant::new(self.piece(letter), player, virgin, false);
            }
        }
        if let Some(reserve) = reserve {
            let shared = pos.hands.len() - 1;
            for count in pos.hands[shared].iter_mut() {
                *count = 0;
            }
            for item in reserve.split_whitespace() {
                let (letter, n) = item.split_at(1);
                pos.hands[shared][self.piece(letter)] = n.parse().expect("a count");
            }
        }
        pos.hash = self.v.full_hash(&pos);
        pos
    }

    fn pos(&self, side: usize, armies: [&str; 4]) -> Position {
        self.position(side, armies.map(Some), None, [0; 4])
    }

    /// The shared reserve as `Q8 T7 G8 ...` (types in declaration order, counts above zero).
    fn reserve(&self, pos: &Position) -> String {
        let shared = pos.hands.len() - 1;
        let parts: Vec<String> = pos.hands[shared]
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(p, n)| format!("{}{n}", self.v.game.pieces[p].letter))
            .collect();
        parts.join(" ")
    }

    /// All legal moves, as written; no two share a text (section 6.10).
    fn moves(&self, pos: &mut Position) -> BTreeSet<String> {
        if let Some(c) = &self.compact {
            return vdl_tests::compact_moves(c, pos);
        }
        let mut moves = Vec::new();
        self.v.legal_moves(pos, &mut moves);
        let texts: BTreeSet<String> = moves.iter().map(|m| self.v.write_move(pos, *m)).collect();
        assert_eq!(texts.len(), moves.len(), "two moves with one text");
        texts
    }

    /// Perft on the engine (the compact form's own when it has one).
    fn perft(&self, pos: &mut Position, depth: u32) -> u64 {
        match &self.compact {
            Some(c) => perft(c, &mut CompactPosition::new(c.from_interpreter(pos)), depth),
            None => perft(&self.v, pos, depth),
        }
    }

    fn moves_of(&self, pos: &mut Position, cell: &str) -> BTreeSet<String> {
        self.moves(pos)
            .into_iter()
            .filter(|m| m.starts_with(cell) && m.len() > 2 && "-x".contains(&m[2..3]))
            .collect()
    }

    fn play(&self, pos: &mut Position, moves: &str) {
        if let Some(c) = &self.compact {
            vdl_tests::compact_play(c, pos, moves);
            return;
        }
        for text in moves.split_whitespace() {
            let mv = self
                .v
                .parse_move(pos, text)
                .unwrap_or_else(|e| panic!("{e}"));
            self.v.make(pos, mv);
        }
    }

    fn at(&self, pos: &Position, cell: &str) -> Option<(String, usize, bool)> {
        let occ = pos.cells[self.cell(cell)];
        (!occ.is_empty()).then(|| {
            (
                self.v.game.pieces[occ.piece()].letter.clone(),
                occ.owner(),
                occ.is_virgin(),
            )
        })
    }

    fn scores(&self, pos: &mut Position) -> Vec<f64> {
        let result = self.v.outcome(pos).expect("the game is over");
        self.v.scores(pos, &result).expect("the game has scores")
    }
}

#[test]
fn t1_initial_position() {
    for_both(|e| {
        let mut start = e.v.start();
        assert_eq!(e.reserve(&start), "Q8 T8 G8");
        assert_eq!(
            e.moves(&mut start),
            set(
                "fa-ga fb-gb fc-gc af-ag bf-bg cf-cg fd-ge fe-gf ff-gg ef-fg df-eg \
                 ce-bg ce-dg de-cg de-eg ec-gb ec-gd ed-gc ed-ge \
                 cd-bg cd-dg dc-gb dc-gd dd-cg dd-eg dd-gc dd-ge"
            )
        );
        e.play(&mut start, "fa-ga");
        assert_eq!(start.side, NW);
        assert_eq!(e.perft(&mut start, 1), 27);
    });
    for (sub, count) in [(2, 43), (3, 38), (4, 59)] {
        let e = interpreter(sub);
        assert_eq!(perft(&e.v, &mut e.v.start(), 1), count, "sub-variant {sub}");
        let c = compiled(sub);
        assert_eq!(perft(&c.v, &mut c.v.start(), 1), count, "sub-variant {sub}");
        let k = compact(sub);
        assert_eq!(k.perft(&mut k.v.start(), 1), count, "sub-variant {sub}");
    }
}

#[test]
fn t1_perft_two_agrees_between_engines() {
    let (a, b) = (interpreter(1), compiled(1));
    assert_eq!(
        perft(&a.v, &mut a.v.start(), 2),
        perft(&b.v, &mut b.v.start(), 2)
    );
    assert_eq!(perft(&a.v, &mut a.v.start(), 2), 27 * 27);
    let k = compact(1);
    assert_eq!(
        k.perft(&mut k.v.start(), 3),
        perft(&a.v, &mut a.v.start(), 3)
    );
}

#[test]
fn t2_pawns() {
    for_both(|e| {
        let mut pos = e.pos(
            SW,
            [
                "K ee, P hc, P bh",
                "K el, N ib",
                "K ll, N id, R ci",
                "K le, N ic",
            ],
        );
        assert_eq!(e.moves_of(&mut pos, "hc"), set("hcxib hcxid"));
        assert_eq!(e.moves_of(&mut pos, "bh"), set("bh-bi bhxci"));
    });
}

#[test]
fn t3_yeoman() {
    for_both(|e| {
        let mut pos = e.pos(SW, ["K ee, Y gg", "K el, B gh", "K ll, R hh", "K le, N hg"]);
        assert_eq!(e.moves_of(&mut pos, "gg"), set("ggxgh ggxhg"));
        let mut pos = e.pos(SW, ["K ee, Y gg", "K el, B gh", "K ll", "K le, N hg"]);
        assert_eq!(e.moves_of(&mut pos, "gg"), set("gg-hh ggxgh ggxhg"));
    });
}

#[test]
fn t4_cannon_screens() {
    for_both(|e| {
        let mut pos = e.pos(
            SW,
            [
                "K ee, C hh, P hj, B dh, N hd",
                "K el, R gh, N mh",
                "K ll, N hm",
                "K le, B kh",
            ],
        );
        assert_eq!(
            e.moves_of(&mut pos, "hh"),
            set("hh-hi hh-ih hh-jh hh-hg hh-hf hh-he hhxhm hhxmh")
        );
    });
}

#[test]
fn t5_tank_own_king_as_screen() {
    for_both(|e| {
        let mut pos = e.pos(
            SW,
            [
                "K ee, T jj, N jm, P jg, R gj",
                "K el, R jd, N cc, P bj, Y eo",
                "K op, P kk, B nn, R jo, N hl",
                "K le, P lj, N lh",
            ],
        );
        assert_eq!(
            e.moves_of(&mut pos, "jj"),
            set(
                "jj-jk jj-jl jj-kj jj-ki jj-ji jj-jh jj-ii jj-hh jj-gg jj-ff jj-ij jj-hj jj-ik \
                 jjxjo jjxnn jjxjd jjxcc jjxbj jjxeo"
            )
        );
    });
}

#[test]
fn t6_check_through_a_new_screen() {
    for_both(|e| {
        let mut pos = e.pos(SW, ["K ee, N cg", "K al", "K ll, C ek", "K le"]);
        assert_eq!(
            e.moves_of(&mut pos, "cg"),
            set("cg-af cg-ah cg-be cg-bi cg-de cg-di")
        );
        assert_eq!(
            e.moves_of(&mut pos, "ee"),
            set("ee-dd ee-de ee-df ee-ed ee-ef ee-fd ee-fe ee-ff")
        );
    });
}

#[test]
fn t7_promotion_choices() {
    for_both(|e| {
        let armies = ["K ee, P co, Y oo", "K el", "K ll, R dp, N po", "K le"];
        let mut pos = e.pos(SW, armies);
        assert_eq!(
            e.moves_of(&mut pos, "co"),
            set("co-cp=Q co-cp=T co-cp=G coxdp=Q coxdp=T coxdp=G")
        );
        assert_eq!(
            e.moves_of(&mut pos, "oo"),
            set("oo-pp=Q oo-pp=T oo-pp=G ooxpo=Q ooxpo=T ooxpo=G")
        );
        e.play(&mut pos, "co-cp=T");
        assert_eq!(e.reserve(&pos), "Q8 T7 G8");
        assert_eq!(e.at(&pos, "cp"), Some(("T".into(), SW, true)));
        assert_eq!(pos.side, NW);
        // (b) a reserve of 2 Rooks and 1 Cannon.
        let mut pos = e.position(SW, armies.map(Some), Some("R2 C1"), [0; 4]);
        assert_eq!(
            e.moves_of(&mut pos, "co"),
            set("co-cp=R co-cp=C coxdp=R coxdp=C")
        );
        assert_eq!(
            e.moves_of(&mut pos, "oo"),
            set("oo-pp=R oo-pp=C ooxpo=R ooxpo=C")
        );
    });
}

#[test]
fn t8_promotion_on_capture() {
    for_both(|e| {
        let armies = [
            "K ee, R hd, N gg, C cj",
            "K el, L hi, N cl",
            "K ll, A cn",
            "K pc, B ld",
        ];
        let start = e.pos(SW, armies);
        let mut pos = start.clone();
        e.play(&mut pos, "hdxld");
        assert_eq!(e.at(&pos, "ld"), Some(("Q".into(), SW, true)));
        assert_eq!(e.reserve(&pos), "Q7 T8 G8");
        assert_eq!(pos.side, NW);
        let mut pos = start.clone();
        e.play(&mut pos, "ggxhi");
        assert_eq!(e.at(&pos, "hi"), Some(("G".into(), SW, true)));
        assert_eq!(e.reserve(&pos), "Q8 T8 G7");
        let mut pos = start.clone();
        e.play(&mut pos, "cjxcn");
        assert_eq!(e.at(&pos, "cn"), Some(("T".into(), SW, true)));
        assert_eq!(e.at(&pos, "cl"), Some(("N".into(), NW, false)));
        assert_eq!(e.reserve(&pos), "Q8 T7 G8");
        // (d) no Queen in the reserve: the Rook stays a Rook.
        let mut pos = e.position(SW, armies.map(Some), Some("T8 G8"), [0; 4]);
        e.play(&mut pos, "hdxld");
        assert_eq!(e.at(&pos, "ld"), Some(("R".into(), SW, false)));
        assert_eq!(e.reserve(&pos), "T8 G8");
    });
}

#[test]
fn t9_castling_with_rooks() {
    for_both(|e| {
        let mut pos = e.pos(
            SW,
            [
                "K ee*, R eb*, R ea*, R be*, R ae*, N ce, N de",
                "K el",
                "K ll",
                "K le",
            ],
        );
        assert_eq!(
            e.moves_of(&mut pos, "ee"),
            set("ee-dd ee-df ee-ec ee-ed ee-ef ee-fd ee-fe ee-ff")
        );
        e.play(&mut pos, "ee-ec");
        assert_eq!(e.at(&pos, "ec").map(|o| o.0), Some("K".into()));
        assert_eq!(e.at(&pos, "ed"), Some(("R".into(), SW, false)));
        assert_eq!(e.at(&pos, "ea"), Some(("R".into(), SW, true)));
        // (b) no Rook on eb, the King has moved before: castling with ea.
        let mut pos = e.pos(
            SW,
            [
                "K ee, R ea*, R be*, R ae*, N ce, N de",
                "K el",
                "K ll",
                "K le",
            ],
        );
        assert!(e.moves_of(&mut pos, "ee").contains("ee-ec"));
        e.play(&mut pos, "ee-ec");
        assert_eq!(e.at(&pos, "ed"), Some(("R".into(), SW, false)));
        assert_eq!(e.at(&pos, "ea"), None);
        // (c) the ea Rook has moved.
        let mut pos = e.pos(
            SW,
            [
                "K ee, R ea, R be*, R ae*, N ce, N de",
                "K el",
                "K ll",
                "K le",
            ],
        );
        assert!(!e.moves_of(&mut pos, "ee").contains("ee-ec"));
        assert!(!e.moves_of(&mut pos, "ee").contains("ee-ce"));
    });
}

#[test]
fn t10_castling_restrictions() {
    for_both(|e| {
        let mut pos = e.pos(
            SW,
            [
                "K ee*, R eb*, R ea*, R be*, R ae*",
                "K el",
                "K ll",
                "K le, R kd",
            ],
        );
        assert_eq!(
            e.moves_of(&mut pos, "ee"),
            set("ee-ce ee-de ee-df ee-ef ee-fe ee-ff")
        );
        let mut pos = e.pos(
            SW,
            ["K ee*, R ea*, R be*, R ae*", "K el", "K ll, C ek", "K le"],
        );
        let king = e.moves_of(&mut pos, "ee");
        assert!(!king.contains("ee-ec"));
        assert!(king.contains("ee-ed"));
        assert!(king.contains("ee-ce"));
        let mut pos = e.pos(
            SW,
            [
                "K ee*, R eb*, R ea*, R be*, R ae*",
                "K el",
                "K ll, B hh",
                "K le",
            ],
        );
        assert_eq!(
            e.moves_of(&mut pos, "ee"),
            set("ee-de ee-df ee-ed ee-ef ee-fd ee-fe")
        );
    });
}

#[test]
fn t11_cathedral() {
    for_both(|e| {
        let armies = "K ee*, B bb*, B aa*, R eb*, R be*, N ec, N ed, N ce, N de";
        let mut pos = e.pos(SW, [armies, "K el", "K ll", "K le"]);
        let castles: BTreeSet<String> = e
            .moves_of(&mut pos, "ee")
            .into_iter()
            .filter(|m| m == "ee-cc" || m == "ee-ec" || m == "ee-ce")
            .collect();
        assert_eq!(castles, set("ee-cc"));
        e.play(&mut pos, "ee-cc");
        assert_eq!(e.at(&pos, "cc").map(|o| o.0), Some("K".into()));
        assert_eq!(e.at(&pos, "dd"), Some(("B".into(), SW, false)));
        let without = "K ee*, B aa*, R eb*, R be*, N ec, N ed, N ce, N de";
        let mut pos = e.pos(SW, [without, "K el", "K ll", "K le"]);
        e.play(&mut pos, "ee-cc");
        assert_eq!(e.at(&pos, "dd"), Some(("B".into(), SW, false)));
        assert_eq!(e.at(&pos, "aa"), None);
        // Only toward the army's own corner (§6.5, condition 3): an unmoved SW Bishop on hh is no
        // partner; NE's cathedral goes toward its corner pp.
        let mut pos = e.pos(SW, ["K ee*, B hh*", "K el", "K ll*, B oo*", "K le"]);
        assert!(!e.moves_of(&mut pos, "ee").contains("ee-gg"));
        let mut pos = e.pos(NE, ["K ee*, B ab*", "K el", "K ll*, B oo*", "K le"]);
        assert!(e.moves_of(&mut pos, "ll").contains("ll-nn"));
    });
}

#[test]
fn t12_queen_castling() {
    for_both(|e| {
        let mut pos = e.position(
            SW,
            [
                Some("K ee, Q hh*, Q ei*, Q he"),
                Some("K bp"),
                Some("K op"),
                Some("K pc"),
            ],
            Some("Q5 T8 G8"),
            [0; 4],
        );
        let king = e.moves_of(&mut pos, "ee");
        let two_cells: BTreeSet<String> = king
            .into_iter()
            .filter(|m| {
                let b = m.as_bytes();
                (b[3] as i32 - b[0] as i32).abs() == 2 || (b[4] as i32 - b[1] as i32).abs() == 2
            })
            .collect();
        assert_eq!(two_cells, set("ee-gg ee-eg"));
        e.play(&mut pos, "ee-gg");
        assert_eq!(e.at(&pos, "ff"), Some(("Q".into(), SW, false)));
    });
}

#[test]
fn t13_elimination_by_the_player_about_to_move() {
    for_both(|e| {
        // NW's move lh-jg vacates file l: at the start of NE's turn the NE Rook attacks the SE King.
        let mut pos = e.position(
            NW,
            [
                Some("K ee"),
                Some("K el, N lh"),
                Some("K oo, R lj"),
                Some("K le, R pe, Q nc, P kb"),
            ],
            Some("Q7 T8 G8"),
            [0; 4],
        );
        e.play(&mut pos, "lh-jg");
        assert_eq!(pos.side, NE);
        assert!(pos.is_eliminated(SE));
        assert_eq!(e.reserve(&pos), "P1 R1 Q8 T8 G8");
        assert!(["le", "pe", "nc", "kb"]
            .iter()
            .all(|c| e.at(&pos, c).is_none()));
        assert_eq!(pos.dropped_among[SE], 4);
        e.play(&mut pos, "oo-op");
        assert_eq!(pos.side, SW);
        e.play(&mut pos, "ee-ef");
        assert_eq!(pos.side, NW);
        e.play(&mut pos, "el-em");
        assert_eq!(pos.side, NE);
        // Simultaneous: a NE Bishop on hb also attacks the SW King through gc and fd.
        let mut pos = e.position(
            NW,
            [
                Some("K ee"),
                Some("K el, N lh"),
                Some("K oo, R lj, B hb"),
                Some("K le, R pe, Q nc, P kb"),
            ],
            Some("Q7 T8 G8"),
            [0; 4],
        );
        e.play(&mut pos, "lh-jg");
        assert_eq!(pos.side, NE);
        assert!(pos.is_eliminated(SW) && pos.is_eliminated(SE));
        assert_eq!(e.reserve(&pos), "P1 R1 Q8 T8 G8");
        // If NE later eliminates NW: SW 0, SE 0, NW 2, NE 4.
        let mut end = e.position(NE, [None, None, Some("K oo"), None], None, [4, 2, 0, 4]);
        assert_eq!(e.scores(&mut end), vec![0.0, 2.0, 4.0, 0.0]);
    });
}

#[test]
fn t14_ordinary_checkmate() {
    for_both(|e| {
        // SW's Knight leaves am, uncovering the Rook on ak: NW is in check with no legal move.
        let mut pos = e.pos(
            SW,
            ["K ee, R ak, R bk, N am", "K ap, P ck, N hh", "K ll", "K le"],
        );
        e.play(&mut pos, "am-cl");
        assert!(pos.is_eliminated(NW));
        assert_eq!(pos.side, NE);
        assert_eq!(e.reserve(&pos), "P1 Q8 T8 N1 G8");
        assert_eq!(pos.dropped_among[NW], 4);
        assert!(e.v.outcome(&mut pos).is_none());
    });
}

#[test]
fn t15_third_elimination_ends_the_game() {
    for_both(|e| {
        let mut pos = e.position(
            SW,
            [
                Some("K ee, R ak, R bk, N am"),
                None,
                Some("K ap, Y kk"),
                None,
            ],
            None,
            [0, 3, 0, 4],
        );
        e.play(&mut pos, "am-cl");
        assert!(pos.is_eliminated(NE));
        let result = e.v.outcome(&mut pos).expect("over");
        assert_eq!(result.winner, Some(SW));
        assert_eq!(result.reason, "last_survivor");
        assert_eq!(e.scores(&mut pos), vec![3.0, 1.0, 2.0, 0.0]);
        assert_eq!(e.perft(&mut pos, 1), 0);
    });
}

#[test]
fn t16_marriage() {
    for_both(|e| {
        let armies = ["K hh, Q ih, T hi, G kh", "K el", "K ll", "K pc"];
        let mut pos = e.position(SW, armies.map(Some), Some("Q7 T7 G7"), [0; 4]);
        e.play(&mut pos, "kh-ii");
        let result = e.v.outcome(&mut pos).expect("over");
        assert_eq!(
            (result.winner, result.reason.as_str()),
            (Some(SW), "formation")
        );
        assert_eq!(e.scores(&mut pos), vec![6.0, 0.0, 0.0, 0.0]);
        let mut pos = e.position(
            SW,
            [Some(armies[0]), None, Some(armies[2]), Some(armies[3])],
            Some("Q7 T7 G7"),
            [0, 4, 0, 0],
        );
        e.play(&mut pos, "kh-ii");
        assert_eq!(e.scores(&mut pos), vec![4.0, 0.0, 1.0, 1.0]);
    });
}

#[test]
fn t17_exhausted_reserve() {
    for_both(|e| {
        let armies = ["K ee, P ho", "K el", "K ll", "K le"];
        let mut pos = e.position(SW, armies.map(Some), Some(""), [0; 4]);
        assert_eq!(e.moves_of(&mut pos, "ho"), set("ho-hp"));
        e.play(&mut pos, "ho-hp");
        let result = e.v.outcome(&mut pos).expect("over");
        assert_eq!(result.winner, Some(SW));
        assert_eq!(e.scores(&mut pos), vec![6.0, 0.0, 0.0, 0.0]);
        let mut pos = e.position(SW, armies.map(Some), Some("T1"), [0; 4]);
        assert_eq!(e.moves_of(&mut pos, "ho"), set("ho-hp=T"));
        e.play(&mut pos, "ho-hp=T");
        assert!(e.v.outcome(&mut pos).is_none());
        assert_eq!(pos.side, NW);
        assert_eq!(e.reserve(&pos), "");
    });
}

#[test]
fn t18_stalemate() {
    for_both(|e| {
        let mut pos = e.pos(SE, ["K ee, Q nb", "K el", "K ll", "K pa"]);
        let result = e.v.outcome(&mut pos).expect("over");
        assert_eq!((result.winner, result.reason.as_str()), (None, "stalemate"));
        assert_eq!(e.scores(&mut pos), vec![1.5; 4]);
        assert_eq!(e.perft(&mut pos, 1), 0);
    });
}

#[test]
fn t18_inactivity_draw_scales_with_the_survivors() {
    for_both(|e| {
        let mut pos = e.pos(SW, ["K ee", "K el", "K ll", "K le"]);
        pos.halfmove = 199;
        pos.hash = e.v.full_hash(&pos);
        assert!(e.v.outcome(&mut pos).is_none());
        e.play(&mut pos, "ee-ef");
        let result = e.v.outcome(&mut pos).expect("over");
        assert_eq!((result.winner, result.reason.as_str()), (None, "move rule"));
        // With three players, 150 turns.
        let mut pos = e.position(
            SW,
            [Some("K ee"), Some("K el"), Some("K ll"), None],
            None,
            [0, 0, 0, 4],
        );
        pos.halfmove = 149;
        e.play(&mut pos, "ee-ef");
        assert!(e.v.outcome(&mut pos).is_some());
    });
}

#[test]
fn t19_sub_variant_leapers() {
    for_both_in(3, |e| {
        let mut pos = e.pos(SW, ["K ee, H hh", "K el", "K ll", "K le"]);
        assert_eq!(
            e.moves_of(&mut pos, "hh"),
            set(
                "hh-ji hh-jg hh-fi hh-fg hh-ij hh-if hh-gj hh-gf hh-kh hh-eh hh-hk hh-he \
                 hh-ki hh-kg hh-ei hh-eg hh-ik hh-ie hh-gk hh-ge hh-kk hh-ke hh-ek"
            )
        );
    });
    for_both_in(4, |e| {
        let mut pos = e.pos(SW, ["K ee, J hh", "K el", "K ll", "K le"]);
        let moves = e.moves_of(&mut pos, "hh");
        assert_eq!(moves.len(), 32);
        assert!(set("hh-mi hh-cg hh-im hh-gc").is_subset(&moves));
    });
    for_both_in(2, |e| {
        let mut pos = e.pos(SW, ["K ee, U hh", "K el", "K ll", "K le"]);
        assert_eq!(
            e.moves_of(&mut pos, "hh"),
            set("hh-kj hh-kf hh-ej hh-ef hh-jk hh-je hh-fk hh-fe \
                 hh-mi hh-mg hh-ci hh-cg hh-im hh-ic hh-gm hh-gc")
        );
    });
}

#[test]
fn t20_sub_variant_3_promotion_on_capture() {
    for_both_in(3, |e| {
        let mut pos = e.pos(SW, ["K ee, S hh", "K el, E hk", "K ll", "K le"]);
        assert_eq!(e.reserve(&pos), "Q8 T8 H8");
        assert_eq!(
            e.moves_of(&mut pos, "hh"),
            set("hh-ji hh-jg hh-fi hh-fg hh-ij hh-if hh-gj hh-gf hh-kh hh-eh hh-he hhxhk")
        );
        e.play(&mut pos, "hhxhk");
        assert_eq!(e.at(&pos, "hk"), Some(("H".into(), SW, true)));
        assert_eq!(e.reserve(&pos), "Q8 T8 H7");
    });
}

#[test]
fn sub_variant_4_first_move_checkmate() {
    // Section 8: in sub-variant 4, SW's `cd-dg` checkmates NW's boxed-in King at once.
    for_both_in(4, |e| {
        let mut pos = e.v.start();
        e.play(&mut pos, "cd-dg");
        assert!(pos.is_eliminated(NW));
        assert_eq!(pos.side, NE);
    });
}
