//! Diagnostics as text (rustc style, via codespan-reporting) or JSON for editors.

use codespan_reporting::diagnostic::Severity;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use vdl_dsl::Error;

/// The most problems a text report shows; a last line says how many more there are. A file can have a
/// problem in nearly every character, and each one shows its line.
pub const MAX_SHOWN: usize = 200;

/// Lines longer than this (in bytes) are shown cut to the parts around their labels, so that a
/// diagnostic costs the same on a long line as on a short one.
const LONG_LINE: usize = 240;

/// Characters kept on each side of a label's start and end on a cut line.
const CONTEXT: usize = 40;

/// Renders problems as text, with colour when `colour` is set: the first [`MAX_SHOWN`], and a count
/// of the others.
pub fn render_text(path: &str, source: &str, problems: &[Error], colour: bool) -> String {
    let file = SimpleFile::new(path, source);
    let lines = LineIndex::new(source);
    let config = term::Config::default();
    let mut buffer = if colour {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    for problem in problems.iter().take(MAX_SHOWN) {
        let diagnostic = problem.to_diagnostic(());
        let long = diagnostic.labels.iter().any(|l| {
            lines.length_at(l.range.start) > LONG_LINE || lines.length_at(l.range.end) > LONG_LINE
        });
        if !long {
            let _ = term::emit(&mut buffer, &config, &file, &diagnostic);
            continue;
        }
        // The same diagnostic against a copy of the file whose long lines are cut around the labels;
        // the location it names is then corrected to the real column.
        let cut = Cut::new(source, &lines, &diagnostic);
        let mut shown = diagnostic.clone();
        for label in &mut shown.labels {
            label.range = cut.map(label.range.start)..cut.map(label.range.end);
        }
        let cut_file = SimpleFile::new(path, cut.text.as_str());
        let mut one = if colour {
            termcolor::Buffer::ansi()
        } else {
            termcolor::Buffer::no_color()
        };
        if term::emit(&mut one, &config, &cut_file, &shown).is_err() {
            continue;
        }
        let text = String::from_utf8_lossy(one.as_slice()).into_owned();
        let text = match diagnostic.labels.first() {
            Some(label) => {
                let (line, column) = line_column(source, label.range.start);
                let (_, cut_column) = line_column(&cut.text, shown.labels[0].range.start);
                text.replacen(
                    &format!("{path}:{line}:{cut_column}"),
                    &format!("{path}:{line}:{column}"),
                    1,
                )
            }
            None => text,
        };
        use std::io::Write as _;
        let _ = buffer.write_all(text.as_bytes());
    }
    let mut out = String::from_utf8_lossy(buffer.as_slice()).into_owned();
    if problems.len() > MAX_SHOWN {
        let more = &problems[MAX_SHOWN..];
        let errors = more.iter().filter(|p| !p.is_warning()).count();
        let warnings = more.len() - errors;
        let count =
            |n: usize, what: &str| format!("{n} more {what}{}", if n == 1 { "" } else { "s" });
        let parts: Vec<String> = [(errors, "error"), (warnings, "warning")]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| count(*n, what))
            .collect();
        out.push_str(&format!(
            "{path}: {} not shown (the first {MAX_SHOWN} problems are above; `--format json` lists every one)\n",
            parts.join(" and ")
        ));
    }
    out
}

/// Where the lines of a text start, and how many characters come before each byte of it, so that a
/// line and a column cost a binary search rather than a scan of the line.
struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    fn new(source: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex {
            starts,
            len: source.len(),
        }
    }

    /// The line (from 0) holding a byte.
    fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// The byte range of a line, without its line break.
    fn line_range(&self, line: usize) -> std::ops::Range<usize> {
        let start = self.starts[line];
        let end = self.starts.get(line + 1).map_or(self.len, |next| next - 1);
        start..end.max(start)
    }

    /// The length in bytes of the line holding a byte.
    fn length_at(&self, offset: usize) -> usize {
        self.line_range(self.line_of(offset)).len()
    }
}

/// The line and column (both from 1, the column in characters) of a byte of a text.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// A copy of a text whose long lines are cut to the parts around a diagnostic's labels (the cuts
/// marked `…`), with the map from offsets in the text to offsets in the copy.
struct Cut {
    text: String,
    /// For each kept part: its start in the text, its end, and its start in the copy.
    kept: Vec<(usize, usize, usize)>,
}

impl Cut {
    fn new<T>(
        source: &str,
        lines: &LineIndex,
        diagnostic: &codespan_reporting::diagnostic::Diagnostic<T>,
    ) -> Cut {
        // The parts of long lines to keep: around each label's start and end.
        let mut keep: Vec<(usize, usize)> = Vec::new();
        let mut long_lines: Vec<usize> = Vec::new();
        for label in &diagnostic.labels {
            for offset in [label.range.start, label.range.end] {
                let line = lines.line_of(offset);
                let range = lines.line_range(line);
                if range.len() <= LONG_LINE {
                    continue;
                }
                long_lines.push(line);
                let back = |mut at: usize, n: usize| {
                    for _ in 0..n {
                        match source[range.start..at].chars().next_back() {
                            Some(c) => at -= c.len_utf8(),
                            None => break,
                        }
                    }
                    at
                };
                let forward = |mut at: usize, n: usize| {
                    for _ in 0..n {
                        match source[at..range.end].chars().next() {
                            Some(c) => at += c.len_utf8(),
                            None => break,
                        }
                    }
                    at
                };
                let at = offset.clamp(range.start, range.end);
                keep.push((back(at, CONTEXT), forward(at, CONTEXT)));
            }
        }
        long_lines.sort_unstable();
        long_lines.dedup();
        keep.sort_unstable();
        // Merge overlapping parts.
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (s, e) in keep {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        // The copy: short lines as they are, long lines as their kept parts.
        let mut text = String::with_capacity(source.len().min(1 << 16));
        let mut kept = Vec::new();
        let mut at = 0;
        let mut parts = merged.iter().peekable();
        for line in long_lines {
            let range = lines.line_range(line);
            kept.push((at, range.start, text.len()));
            text.push_str(&source[at..range.start]);
            let mut cut_at = range.start;
            while let Some(&&(s, e)) = parts.peek() {
                if s > range.end {
                    break;
                }
                parts.next();
                if s > cut_at {
                    text.push('…');
                }
                kept.push((s, e, text.len()));
                text.push_str(&source[s..e]);
                cut_at = e;
            }
            if cut_at < range.end {
                text.push('…');
            }
            at = range.end;
        }
        kept.push((at, source.len(), text.len()));
        text.push_str(&source[at..]);
        Cut { text, kept }
    }

    /// An offset of the text in the copy (every label end lies in a kept part).
    fn map(&self, offset: usize) -> usize {
        let i = self
            .kept
            .partition_point(|&(s, _, _)| s <= offset)
            .saturating_sub(1);
        let (s, e, to) = self.kept[i];
        to + offset.clamp(s, e) - s
    }
}

/// Renders problems as a JSON array of objects with code, severity, message, file, line, column, byte
/// range, labels and notes.
pub fn render_json(path: &str, source: &str, problems: &[Error]) -> String {
    let lines = LineIndex::new(source);
    let columns = Columns::new(source);
    let mut items = Vec::new();
    for problem in problems {
        let diagnostic = problem.to_diagnostic(());
        let location = |offset: usize| -> (usize, usize) {
            let offset = offset.min(source.len());
            let line = lines.line_of(offset);
            let start = lines.starts[line];
            (line + 1, columns.before(offset) - columns.before(start) + 1)
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

/// How many characters come before each byte of a text, to count columns without scanning lines.
struct Columns(Vec<u32>);

impl Columns {
    fn new(source: &str) -> Columns {
        let mut before = Vec::with_capacity(source.len() + 1);
        let mut count = 0u32;
        for (i, c) in source.char_indices() {
            while before.len() < i {
                before.push(count);
            }
            before.push(count);
            count += 1;
            let _ = c;
        }
        while before.len() <= source.len() {
            before.push(count);
        }
        Columns(before)
    }

    fn before(&self, offset: usize) -> usize {
        self.0[offset.min(self.0.len() - 1)] as usize
    }
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
