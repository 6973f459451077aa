//! Compiles the generated code of every example and every semantic-coverage case into this crate
//! (tests/agreement.rs, tests/coverage.rs), so that the generated code of every rule file is known to
//! build, and compiled and interpreted engines can be compared move for move.

use std::fmt::Write;
use std::path::Path;

/// The `.vdl` files of a directory, sorted.
fn vdl_files(dir: &Path) -> Vec<std::path::PathBuf> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "vdl"));
    files.sort();
    files
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = String::from(
        "/// Builds a compiled engine.\n#[allow(dead_code)]\npub type Constructor = fn() -> Result<vdl_runtime::Interpreter, String>;\n",
    );
    // The examples, and the semantic-coverage cases (tests/coverage.rs).
    for (files, prefix, list, each) in [
        (
            vdl_files(&root.join("../examples")),
            "game",
            "ENGINES",
            "for_each_compact",
        ),
        (
            vdl_files(&root.join("coverage")),
            "case",
            "CASE_ENGINES",
            "for_each_compact_case",
        ),
    ] {
        out.push_str(&generate(files, prefix, list, each));
    }
    let dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(Path::new(&dir).join("compiled.rs"), out).expect("write compiled.rs");
    movegen_inputs(&dir);
}

/// Generates the code of every file into `OUT_DIR` and returns the modules that include it, the list
/// of engine constructors and the macro running a check on every compact form.
fn generate(files: Vec<std::path::PathBuf>, prefix: &str, list: &str, each: &str) -> String {
    let mut index = format!(
        "/// Compiled engines: (file stem, engine constructor).\n#[allow(dead_code)]\npub const {list}: &[(&str, Constructor)] = &[\n",
    );
    let mut fast = format!(
        "/// Invokes the macro `$check!(stem, constructor)` for every file with a compact form.\n#[allow(unused_macros)]\nmacro_rules! {each} {{\n    ($check:ident) => {{\n",
    );
    let mut modules = String::new();
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a name")
            .to_string();
        let module = format!(
            "{prefix}_{}",
            stem.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        );
        let generated =
            vdl::build::generate_to_out_dir(&path, &module).unwrap_or_else(|e| panic!("{e}"));
        let code = std::fs::read_to_string(&generated).expect("generated code");
        if code.contains("pub fn fast_engine") {
            let _ = writeln!(
                fast,
                "        $check!({stem:?}, {module}::compact::fast_engine);"
            );
        }
        let _ = writeln!(modules, "#[allow(unused, clippy::all)]\npub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}");
        let _ = writeln!(index, "    ({stem:?}, {module}::engine),");
    }
    index.push_str("];\n");
    fast.push_str("    };\n}\n");
    format!("{modules}\n{index}\n{fast}")
}

/// Compiles the small games of `inputs/movegen/` (tests/movegen.rs) the same way: `movegen.rs` in
/// OUT_DIR lists (file stem, hook engine, compact engine if the game has one).
fn movegen_inputs(out: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("inputs/movegen");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("inputs/movegen/")
        .map(|e| e.expect("entry").path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "vdl"));
    files.sort();
    let mut modules = String::new();
    let mut entries = String::from(
        "/// Every movegen input: (file stem, its hook engine, its compact engine when it has one), each\n/// as a `Probe` (tests/movegen.rs).\npub const MOVEGEN: &[(&str, Build, Option<Build>)] = &[\n",
    );
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a name")
            .to_string();
        let module = format!(
            "movegen_{}",
            stem.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        );
        let generated =
            vdl::build::generate_to_out_dir(&path, &module).unwrap_or_else(|e| panic!("{e}"));
        let code = std::fs::read_to_string(&generated).expect("generated code");
        let _ = writeln!(modules, "#[allow(unused, clippy::all)]\npub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}.rs\")); }}");
        let compact = if code.contains("pub fn fast_engine") {
            format!("Some(|| Ok(Box::new({module}::compact::fast_engine()?)))")
        } else {
            "None".to_string()
        };
        let _ = writeln!(
            entries,
            "    ({stem:?}, || Ok(Box::new({module}::engine()?)), {compact}),"
        );
    }
    entries.push_str("];\n");
    std::fs::write(
        Path::new(out).join("movegen.rs"),
        format!("{modules}\n{entries}"),
    )
    .expect("write movegen.rs");
}
