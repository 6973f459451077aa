//! Snapshots of `vdl check` diagnostics, one per input under `inputs/check/{ok,err}/`, and the rule that
//! every error and warning code has an input that produces it.

use std::path::Path;

use vdl_dsl::check::check_source;
use vdl_tests::{announced_code, declared_codes, read_text, vdl_files, workspace_root};

/// Codes in dsl/src/error.rs that no rule file can produce today, each with the reason. A code listed
/// here must not be produced by any input: when the checker starts emitting it, move it out of this list
/// and add an input under `inputs/check/err/`.
const UNREACHABLE: &[&str] = &[
    // InvalidSetup: declared, but nothing in dsl/src constructs it.
    "E2040",
    // FileTooLarge: needs a file over `limits::MAX_SOURCE_BYTES` (4 MiB), too large to keep as an input;
    // robustness.rs (`hostile_inputs_get_the_limits_diagnostics`) builds one and checks it.
    "E0012",
];

/// The one helper of this stage: checks a file and renders what a user would see, without colour and
/// with the bare file name, so that snapshots do not depend on the machine.
fn check_report(path: &Path) -> String {
    let source = read_text(path);
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a UTF-8 file name");
    let checked = check_source(&source);
    let output = if checked.problems.is_empty() {
        "(no problems)\n".to_string()
    } else {
        vdl::report::render_text(name, &source, &checked.problems, false)
    };
    format!("----- SOURCE\n{source}----- OUTPUT\n{output}")
}

/// The codes that checking a file produces.
fn codes_of(path: &Path) -> Vec<&'static str> {
    check_source(&read_text(path))
        .problems
        .iter()
        .map(|p| p.code())
        .collect()
}

fn inputs(kind: &str) -> Vec<std::path::PathBuf> {
    vdl_files(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("inputs/check")
            .join(kind),
    )
}

#[test]
fn check() {
    insta::glob!("inputs/check/**/*.vdl", |path| {
        insta::assert_snapshot!(check_report(path));
    });
}

#[test]
fn ok_inputs_have_no_problems() {
    let ok = inputs("ok");
    assert!(!ok.is_empty(), "no inputs under inputs/check/ok");
    for path in ok {
        let checked = check_source(&read_text(&path));
        let codes: Vec<&str> = checked.problems.iter().map(|p| p.code()).collect();
        assert!(
            codes.is_empty() && checked.game.is_some(),
            "{} should check cleanly, got {codes:?}",
            path.display()
        );
    }
}

#[test]
fn err_inputs_produce_the_code_they_announce() {
    let err = inputs("err");
    assert!(!err.is_empty(), "no inputs under inputs/check/err");
    for path in err {
        let source = read_text(&path);
        let announced = announced_code(&source).unwrap_or_else(|| {
            panic!(
                "{} must start with `// CODE: what it shows`",
                path.display()
            )
        });
        let codes = codes_of(&path);
        assert!(
            codes.contains(&announced.as_str()),
            "{} announces {announced} but produces {codes:?}",
            path.display()
        );
    }
}

/// A `_cascade` input pins one mistake whose follow-on errors are dropped: it gives exactly one error.
#[test]
fn cascade_inputs_give_one_error() {
    let cascades: Vec<_> = inputs("err")
        .into_iter()
        .filter(|p| {
            p.file_stem()
                .and_then(|s| s.to_str())
                .is_some_and(|s| s.ends_with("_cascade"))
        })
        .collect();
    assert!(
        !cascades.is_empty(),
        "no `_cascade` inputs under inputs/check/err"
    );
    for path in cascades {
        let checked = check_source(&read_text(&path));
        let errors: Vec<&str> = checked
            .problems
            .iter()
            .filter(|p| !p.is_warning())
            .map(|p| p.code())
            .collect();
        assert_eq!(
            errors.len(),
            1,
            "{} should give one error, got {errors:?}",
            path.display()
        );
    }
}

#[test]
fn every_code_has_an_err_input() {
    let declared = declared_codes(&read_text(&workspace_root().join("dsl/src/error.rs")));
    assert!(
        declared.len() > 10,
        "could not read the codes of dsl/src/error.rs: {declared:?}"
    );
    let mut produced: Vec<&'static str> = inputs("err").iter().flat_map(|p| codes_of(p)).collect();
    produced.sort_unstable();
    produced.dedup();

    let missing: Vec<&String> = declared
        .iter()
        .filter(|c| !produced.contains(&c.as_str()) && !UNREACHABLE.contains(&c.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "codes without an input under tests/inputs/check/err/: {missing:?}"
    );

    let stale: Vec<&&str> = UNREACHABLE
        .iter()
        .filter(|c| produced.contains(*c) || !declared.iter().any(|d| d == **c))
        .collect();
    assert!(
        stale.is_empty(),
        "UNREACHABLE lists codes that are produced by an input or no longer declared: {stale:?}"
    );
}

/// Every code the checker declares has its page in docs/errors.md, a row in that page's index and a
/// row in the reference's table of codes (docs/language.md section 5).
#[test]
fn every_code_is_documented() {
    let declared = declared_codes(&read_text(&workspace_root().join("dsl/src/error.rs")));
    let errors = read_text(&workspace_root().join("docs/errors.md"));
    let language = read_text(&workspace_root().join("docs/language.md"));
    let mut missing = Vec::new();
    for code in &declared {
        if !errors.contains(&format!("\n## {code}: ")) {
            missing.push(format!("{code}: no section in docs/errors.md"));
        }
        if !errors.contains(&format!("\n| [{code}](#")) {
            missing.push(format!("{code}: no row in the index of docs/errors.md"));
        }
        if !language.contains(&format!("\n| [{code}](errors.md#")) {
            missing.push(format!("{code}: no row in docs/language.md section 5"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
