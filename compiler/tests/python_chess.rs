//! python-chess against a built chess engine and vdl's PGN: `scripts/python-chess-check.py`, run when
//! `VDL_PYTHON_CHESS=1` (it needs python3 with python-chess, `pip install chess`, and builds the engine
//! first, which takes minutes; `VDL_PYTHON_CHESS_ENGINE=PATH` uses one built already).

use std::process::Command;

#[test]
fn python_chess_plays_the_built_engine_and_reads_vdls_pgn() {
    if std::env::var("VDL_PYTHON_CHESS").as_deref() != Ok("1") {
        eprintln!("skipped: set VDL_PYTHON_CHESS=1 to run python-chess against a built engine");
        return;
    }
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let vdl = env!("CARGO_BIN_EXE_vdl");
    let engine = match std::env::var("VDL_PYTHON_CHESS_ENGINE") {
        Ok(path) => path,
        Err(_) => {
            let dir = std::env::temp_dir().join(format!("vdl-python-chess-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("temp dir");
            let path = dir.join("chess").to_string_lossy().into_owned();
            let built = Command::new(vdl)
                .args(["build", "examples/chess.vdl", "-o", &path])
                .current_dir(root)
                .status()
                .expect("vdl build runs");
            assert!(built.success(), "vdl build examples/chess.vdl failed");
            path
        }
    };
    let output = Command::new("python3")
        .args([
            "scripts/python-chess-check.py",
            "--vdl",
            vdl,
            "--engine",
            &format!("{engine} uci"),
        ])
        .current_dir(root)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && text.contains("all checks passed"),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
