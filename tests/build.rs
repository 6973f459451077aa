//! Compiles the generated code of every example into this crate (tests/agreement.rs), so that the
//! generated code of every rule file is known to build, and compiled and interpreted engines can be
//! compared move for move.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    println!("cargo:rerun-if-changed={}", examples.display());
    let mut files: Vec<_> = std::fs::read_dir(&examples)
        .expect("examples/")
        .map(|e| e.expect("entry").path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "vdl"));
    files.sort();
    let mut index = String::from(
        "/// Builds a compiled engine.\npub type Constructor = fn() -> Result<vdl_runtime::Interpreter, String>;\n/// Every example's compiled engine: (file stem, engine constructor).\npub const ENGINES: &[(&str, Constructor)] = &[\n",
    );
    let mut fast = String::from(
        "/// Invokes the macro `$check!(stem, constructor)` for every example with a compact form.\nmacro_rules! for_each_compact {\n    ($check:ident) => {\n",
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
            "game_{}",
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
    let out = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(
        Path::new(&out).join("compiled.rs"),
        format!("{modules}\n{index}\n{fast}"),
    )
    .expect("write compiled.rs");
    movegen_inputs(&out);
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
