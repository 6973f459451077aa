use vdl_runtime::search::{self, Limits, MaterialEvaluator};
use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, vdl_files, workspace_root};

#[test]
fn explore() {
    for example in vdl_files(&workspace_root().join("examples")) {
        let game = vdl_dsl::check::check_source(&read_text(&example))
            .game
            .unwrap();
        let t = std::time::Instant::now();
        let ev = MaterialEvaluator::new(&game);
        let te = t.elapsed();
        let v = Interpreter::new(game).unwrap();
        let pos = v.start();
        for depth in [1, 2, 3] {
            let t = std::time::Instant::now();
            let r = search::search(&v, &ev, &pos, &Limits::depth(depth));
            let el = t.elapsed();
            println!(
                "{} d{depth}: eval {te:?} best {} score {} nodes {} in {el:?} values {:?}",
                example.file_name().unwrap().to_string_lossy(),
                v.write_move(&pos, r.best.unwrap()),
                r.score,
                r.nodes,
                ev.values()
            );
            if el.as_millis() > 1500 {
                break;
            }
        }
    }
}
