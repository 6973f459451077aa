//! `vdl build`'s engine cache with real Cargo builds: a second build of an unchanged file compiles
//! nothing and gives the same engine, and a changed file gets a new engine. Compiling engines takes
//! minutes, so the test is ignored by default:
//! `cargo test -p vdl-tests --test build_cache -- --ignored`. Its cache is `target/build-cache-test`
//! (kept between runs, so that the runtime is compiled once).

use std::path::Path;
use std::process::Command;

use vdl::build::cache::{Cache, Request};
use vdl_tests::{read_text, workspace_root};

fn perft(engine: &Path, depth: u32) -> String {
    let output = Command::new(engine)
        .args(["perft", &depth.to_string()])
        .output()
        .expect("the engine runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

#[test]
#[ignore = "compiles engines with Cargo (minutes); run with -- --ignored"]
fn an_unchanged_file_is_not_rebuilt_and_a_changed_one_is() {
    let cache = Cache::new(workspace_root().join("target/build-cache-test"));
    let source = read_text(&workspace_root().join("examples/chess.vdl"));
    let code = vdl::build::generate("examples/chess.vdl", &source).expect("chess compiles");
    let request = Request {
        game: "chess",
        source: &source,
        code: &code,
        lto: false,
    };
    // Whatever an earlier run left, the first build of this session ends with the engine in place.
    let first = cache
        .build(&request, &mut |_| {}, &vdl::build::compile_crate)
        .expect("chess builds");
    assert_eq!(perft(&first.engine, 3), "nodes 8902");
    // `ENGINE --help` prints the usage on standard output and succeeds.
    let help = Command::new(&first.engine)
        .arg("--help")
        .output()
        .expect("the engine runs");
    assert!(help.status.success(), "{help:?}");
    assert!(String::from_utf8_lossy(&help.stdout).starts_with("usage: ENGINE"));
    let modified = std::fs::metadata(&first.engine)
        .and_then(|m| m.modified())
        .expect("the engine's time");
    let no_compile = |_: &Path, _: &str, _: &Path| -> Result<std::path::PathBuf, String> {
        Err("an unchanged file was compiled again".into())
    };
    let second = cache
        .build(&request, &mut |_| {}, &no_compile)
        .expect("the cached engine");
    assert!(second.up_to_date);
    assert_eq!(second.engine, first.engine);
    assert_eq!(
        std::fs::metadata(&second.engine)
            .and_then(|m| m.modified())
            .expect("the engine's time"),
        modified
    );
    // A changed rule file gets its own engine, compiled anew (its crate is removed first, in case an
    // earlier run left it).
    let changed_source = format!("{source}\n// changed\n");
    let changed_code =
        vdl::build::generate("examples/chess.vdl", &changed_source).expect("still compiles");
    let changed = Request {
        source: &changed_source,
        code: &changed_code,
        ..request
    };
    let _ = std::fs::remove_dir_all(cache.crate_dir(&changed));
    let mut compiled = false;
    let third = cache
        .build(
            &changed,
            &mut |_| compiled = true,
            &vdl::build::compile_crate,
        )
        .expect("the changed file builds");
    assert!(compiled && !third.up_to_date);
    assert_ne!(third.engine, first.engine);
    assert_eq!(perft(&third.engine, 3), "nodes 8902");
}
