//! Semantic coverage: every entry of the vocabulary (`vdl_dsl::schema::vocabulary`) has a case under
//! `tests/coverage/` that shows its effect, on the interpreter and on the compiled engines.
//!
//! A case is a small rule file. Lines `// expect [with OPTION=VALUE...] [from "POSITION"] [after
//! MOVE...]: CHECK` state what must hold, with figures worked out by hand or taken from an independent
//! engine (the file says which): `perft DEPTH NODES`, `moves MOVE...` (the exact legal moves, `-` for
//! none), `result none | draw REASON | win PLAYER REASON`, `claim ...` (the same, for a claimable
//! result), `position TEXT`, `rejects MOVE`, `summary TEXT` (the game's summary contains TEXT),
//! `scores N...` and `ranking PLACE...` (of the finished game, per player in declaration order; a
//! shared place is `2-3`; `none` when the game has none), `series N...` (the points of a `vdl match`
//! made of the finished game alone), `best DEPTH MOVE` (the move the search chooses at that depth). A statement line ending in `// covers:
//! ENTRY, ENTRY` names the entries it shows; the test removes the line (for a `.when` entry only its
//! condition; for a statement with a block the whole block; for end-line words alone, `end.*.claim`,
//! `end.*.mover`, `end.*.victim`, `end.*.player`, `end.*.at` with `end.*.turn_start` or
//! `end.*.move`, only those words) and demands that the file is then rejected or some expectation
//! fails, so every covered line matters.
//! An entry marked `(default)` states a default: removing it must change nothing. The same
//! expectations run on the compiled engines of the cases in tests/agreement.rs.

use std::collections::BTreeSet;

use vdl_tests::{read_text, workspace_root};

#[path = "coverage_cases.rs"]
mod coverage_cases;
use coverage_cases::{cases, interpreter_of, mutate, run_on_interpreter};

#[test]
fn every_vocabulary_entry_has_a_case() {
    let vocabulary = vdl_dsl::schema::vocabulary();
    let known: BTreeSet<&str> = vocabulary.iter().map(String::as_str).collect();
    let mut covered = BTreeSet::new();
    let mut unknown = Vec::new();
    for case in cases() {
        for c in &case.covered {
            for entry in &c.entries {
                if known.contains(entry.as_str()) {
                    covered.insert(entry.clone());
                } else {
                    unknown.push(format!("{}:{}: `{entry}`", case.name, c.line + 1));
                }
            }
        }
    }
    assert!(unknown.is_empty(), "not vocabulary entries: {unknown:#?}");
    // Entries still waiting for a case are listed in `pending.txt`, which may only shrink: an entry
    // listed there that has a case, or that is no longer in the vocabulary, fails the test too.
    let pending_text = read_text(&workspace_root().join("tests/coverage/pending.txt"));
    let pending: BTreeSet<&str> = pending_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let missing: Vec<&str> = vocabulary
        .iter()
        .map(String::as_str)
        .filter(|e| !covered.contains(*e) && !pending.contains(e))
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {} vocabulary entries have no coverage case: {missing:#?}",
        missing.len(),
        vocabulary.len()
    );
    let stale: Vec<&&str> = pending
        .iter()
        .filter(|e| covered.contains(**e) || !known.contains(**e))
        .collect();
    assert!(
        stale.is_empty(),
        "covered or unknown, remove from tests/coverage/pending.txt: {stale:#?}"
    );
}

#[test]
fn cases_hold_on_the_interpreter() {
    let mut failures = Vec::new();
    for case in cases() {
        assert!(
            !case.expectations.is_empty(),
            "{}: no `// expect` line",
            case.name
        );
        match interpreter_of(&case.source) {
            Ok(engine) => failures.extend(
                run_on_interpreter(&case, &engine)
                    .into_iter()
                    .map(|f| format!("{}: {f}", case.name)),
            ),
            Err(e) => failures.push(format!("{}: {e}", case.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_covered_line_matters() {
    let mut failures = Vec::new();
    for case in cases() {
        for covered in &case.covered {
            let mutated = mutate(&case.source, covered);
            let outcome = match interpreter_of(&mutated) {
                Err(_) => Err(()),
                Ok(engine) => {
                    let broken = run_on_interpreter(&case, &engine);
                    if broken.is_empty() {
                        Ok(())
                    } else {
                        Err(())
                    }
                }
            };
            let at = format!(
                "{}:{} ({})",
                case.name,
                covered.line + 1,
                covered.entries.join(", ")
            );
            match (covered.default, outcome) {
                (false, Ok(())) => failures.push(format!("{at}: removing it changes nothing")),
                (true, Err(())) => failures.push(format!(
                    "{at}: marked (default), but removing it changes something"
                )),
                _ => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn end_words_are_removed_alone() {
    let source = "end {\n  stalemate loss mover when count(enemy, rook) == 2 // covers: end.*.mover\n  no_moves win black when x // covers: end.*.player\n  repetition 3 draw claim at turn_start // covers: end.*.at, end.*.turn_start\n  counting draw claim { // covers: end.*.claim\n  }\n}\n";
    let case = coverage_cases::read_case_text("t", source);
    let lines: Vec<String> = case
        .covered
        .iter()
        .map(|c| {
            mutate(source, c)
                .lines()
                .nth(c.line)
                .unwrap_or("")
                .trim_end()
                .to_string()
        })
        .collect();
    assert_eq!(
        lines,
        [
            "  stalemate loss when count(enemy, rook) == 2",
            "  no_moves win when x",
            "  repetition 3 draw claim",
            "  counting draw {",
        ]
    );
}
