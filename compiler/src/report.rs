//! Diagnostics as text (rustc style, via codespan-reporting) or JSON for editors.

use codespan_reporting::diagnostic::Severity;
use codespan_reporting::files::{Files, SimpleFile};
use codespan_reporting::term::{self, termcolor};
use vdl_dsl::Error;

/// Renders problems as text, with colour when `colour` is set.
pub fn render_text(path: &str, source: &str, problems: &[Error], colour: bool) -> String {
    let file = SimpleFile::new(path, source);
    let config = term::Config::default();
    let mut buffer = if colour {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    for problem in problems {
        let diagnostic = problem.to_diagnostic(());
        if term::emit(&mut buffer, &config, &file, &diagnostic).is_err() {
            continue;
        }
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

/// Renders problems as a JSON array of objects with code, severity, message, file, line, column, byte
/// range, labels and notes.
pub fn render_json(path: &str, source: &str, problems: &[Error]) -> String {
    let file = SimpleFile::new(path, source);
    let mut items = Vec::new();
    for problem in problems {
        let diagnostic = problem.to_diagnostic(());
        let location = |offset: usize| -> (usize, usize) {
            let line = file.line_index((), offset).unwrap_or(0);
            let column = file.column_number((), line, offset).unwrap_or(1);
            (line + 1, column)
        };
        let (line, column) = location(problem.span.start as usize);
        let labels: Vec<String> = diagnostic
            .labels
            .iter()
            .map(|l| {
                let (line, column) = location(l.range.start);
                format!(
                    "{{\"primary\":{},\"start\":{},\"end\":{},\"line\":{line},\"column\":{column},\"message\":{}}}",
                    l.style == codespan_reporting::diagnostic::LabelStyle::Primary,
                    l.range.start,
                    l.range.end,
                    quote(&l.message)
                )
            })
            .collect();
        let notes: Vec<String> = diagnostic.notes.iter().map(|n| quote(n)).collect();
        let severity = if diagnostic.severity == Severity::Warning {
            "warning"
        } else {
            "error"
        };
        items.push(format!(
            "{{\"code\":{},\"severity\":\"{severity}\",\"message\":{},\"file\":{},\"line\":{line},\"column\":{column},\"start\":{},\"end\":{},\"labels\":[{}],\"notes\":[{}]}}",
            quote(problem.code()),
            quote(&diagnostic.message),
            quote(path),
            problem.span.start,
            problem.span.end,
            labels.join(","),
            notes.join(",")
        ));
    }
    format!("[{}]", items.join(","))
}

/// Quotes a string as JSON.
pub fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
