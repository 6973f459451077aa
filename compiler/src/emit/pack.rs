//! Layout of the static tables in formatted source: prettyplease gives every element of an array a
//! line of its own, which turns a table of a few thousand values into as many lines. [`pack_tables`]
//! lays out each `static` and `const` array again, filling lines up to [`WIDTH`] columns with the elements that
//! fit on one line, and writing an array whose elements are all the same as a repeat expression
//! (`[0; 64]`). Only whitespace changes and repeats are introduced; the tokens are otherwise the
//! ones prettyplease printed, in the same order.

/// The column at which packed lines end, as rustfmt's default.
pub const WIDTH: usize = 100;

/// The source `text` with the initialiser of every `static` and `const` array laid out packed. An initialiser
/// that holds anything but literals, paths, calls, tuples and arrays (a string, a closure) is left
/// as it was.
pub fn pack_tables(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(end) = table_end(&lines, i) {
            let indent = line.len() - line.trim_start().len();
            let head = line.trim_end().strip_suffix('[').unwrap_or(line);
            let body: String = lines[i..=end]
                .iter()
                .map(|l| l.trim())
                .collect::<Vec<_>>()
                .join(" ");
            let init = body
                .strip_prefix(head.trim_start())
                .and_then(|rest| rest.strip_suffix(';'));
            if let Some(expr) = init.and_then(parse) {
                let mut packed = Vec::new();
                layout(&expr, &head[..indent], head.trim_start(), ";", &mut packed);
                for packed_line in packed {
                    out.push_str(&packed_line);
                    out.push('\n');
                }
                i = end + 1;
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
        i += 1;
    }
    out
}

/// The index of the line that closes the `static` or `const` array opened on line `start`, if it opens one.
fn table_end(lines: &[&str], start: usize) -> Option<usize> {
    let line = lines[start];
    let trimmed = line.trim_start();
    let item = trimmed.strip_prefix("pub ").unwrap_or(trimmed);
    if !((item.starts_with("static ") || item.starts_with("const ")) && line.ends_with("= [")) {
        return None;
    }
    let close = format!("{}];", &line[..line.len() - trimmed.len()]);
    (start + 1..lines.len()).find(|&j| lines[j] == close)
}

/// An expression of a table: a token run such as `0x0f`, `NO_CELL` or `u8::MAX`, or a bracketed list
/// after an optional head, such as `Wide([1, 0])` or `(3, false)`.
#[derive(Debug, PartialEq)]
enum Expr {
    Atom(String),
    List {
        head: String,
        open: char,
        items: Vec<Expr>,
        /// A tuple of one element, written with its comma: `(1,)`, not the parenthesised `(1)`.
        tuple: bool,
    },
}

/// Parses an initialiser, or `None` when it holds something other than table data.
fn parse(text: &str) -> Option<Expr> {
    let chars: Vec<char> = text.chars().collect();
    let mut at = 0;
    let expr = parse_expr(&chars, &mut at)?;
    skip_space(&chars, &mut at);
    (at == chars.len()).then_some(expr)
}

fn skip_space(chars: &[char], at: &mut usize) {
    while *at < chars.len() && chars[*at].is_whitespace() {
        *at += 1;
    }
}

fn closer(open: char) -> char {
    if open == '[' {
        ']'
    } else {
        ')'
    }
}

fn parse_expr(chars: &[char], at: &mut usize) -> Option<Expr> {
    skip_space(chars, at);
    let mut head = String::new();
    while *at < chars.len() {
        let c = chars[*at];
        if c.is_alphanumeric() || matches!(c, '_' | ':' | '-' | '.' | '&') {
            head.push(c);
            *at += 1;
        } else {
            break;
        }
    }
    match chars.get(*at) {
        Some(&open) if open == '[' || open == '(' => {
            *at += 1;
            let close = closer(open);
            let mut items = Vec::new();
            let mut comma = false;
            loop {
                skip_space(chars, at);
                if chars.get(*at) == Some(&close) {
                    *at += 1;
                    break;
                }
                items.push(parse_expr(chars, at)?);
                skip_space(chars, at);
                comma = false;
                match chars.get(*at) {
                    Some(',') => {
                        *at += 1;
                        comma = true;
                    }
                    Some(&c) if c == close => {}
                    _ => return None,
                }
            }
            let tuple = open == '(' && head.is_empty() && items.len() == 1 && comma;
            Some(Expr::List {
                head,
                open,
                items,
                tuple,
            })
        }
        _ if head.is_empty() => None,
        _ => Some(Expr::Atom(head)),
    }
}

/// The expression on one line. A tuple of one element keeps its comma.
fn flat(expr: &Expr) -> String {
    match expr {
        Expr::Atom(text) => text.clone(),
        Expr::List {
            head,
            open,
            items,
            tuple,
        } => {
            if let Some(repeat) = repeat(expr) {
                return repeat;
            }
            let inner: Vec<String> = items.iter().map(flat).collect();
            let comma = if *tuple { "," } else { "" };
            format!("{head}{open}{}{comma}{}", inner.join(", "), closer(*open))
        }
    }
}

/// An array of two or more equal elements as a repeat expression, `[ELEMENT; COUNT]`.
fn repeat(expr: &Expr) -> Option<String> {
    match expr {
        Expr::List {
            head,
            open: '[',
            items,
            ..
        } if head.is_empty() && items.len() > 1 => {
            let first = flat(&items[0]);
            items[1..]
                .iter()
                .all(|item| item == &items[0])
                .then(|| format!("[{first}; {}]", items.len()))
        }
        _ => None,
    }
}

/// Lays `expr` out from column `indent.len()`, after `prefix` and before `suffix`, into `out`:
/// on one line when it fits, otherwise with its elements filling lines one level deeper.
fn layout(expr: &Expr, indent: &str, prefix: &str, suffix: &str, out: &mut Vec<String>) {
    let one_line = format!("{indent}{prefix}{}{suffix}", flat(expr));
    let Expr::List {
        head, open, items, ..
    } = expr
    else {
        out.push(one_line);
        return;
    };
    if one_line.len() <= WIDTH {
        out.push(one_line);
        return;
    }
    if repeat(expr).is_some() {
        let prefix = format!("{prefix}[");
        let suffix = format!("; {}]{suffix}", items.len());
        layout(&items[0], indent, &prefix, &suffix, out);
        return;
    }
    // `Wide([..])`: the call's one argument opens on the same line.
    if let [inner @ Expr::List {
        head: inner_head, ..
    }] = items.as_slice()
    {
        if !head.is_empty() && inner_head.is_empty() && *open == '(' {
            let prefix = format!("{prefix}{head}(");
            let suffix = format!("){suffix}");
            layout(inner, indent, &prefix, &suffix, out);
            return;
        }
    }
    out.push(format!("{indent}{prefix}{head}{open}"));
    let deeper = format!("{indent}    ");
    let mut line = String::new();
    for item in items {
        let text = format!("{},", flat(item));
        if deeper.len() + text.len() > WIDTH {
            if !line.is_empty() {
                out.push(std::mem::take(&mut line));
            }
            layout(item, &deeper, "", ",", out);
            continue;
        }
        if !line.is_empty() && line.len() + 1 + text.len() > WIDTH {
            out.push(std::mem::take(&mut line));
        }
        if line.is_empty() {
            line = format!("{deeper}{text}");
        } else {
            line.push(' ');
            line.push_str(&text);
        }
    }
    if !line.is_empty() {
        out.push(line);
    }
    out.push(format!("{indent}{}{suffix}", closer(*open)));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text without whitespace, every repeat expression `[X; N]` of the initialisers written
    /// out and the trailing commas before closing brackets dropped, as it is before and after
    /// packing.
    fn tokens(text: &str) -> String {
        let mut text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        // Expand the innermost repeat with a numeric count until none is left.
        while let Some(semi) = (0..text.len()).find(|&s| {
            text[s..].starts_with(';')
                && text[s + 1..].starts_with(|c: char| c.is_ascii_digit())
                && text[s + 1..]
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .starts_with(']')
        }) {
            let close = semi + text[semi..].find(']').unwrap_or(0);
            let count: usize = text[semi + 1..close].parse().unwrap_or(0);
            let mut depth = 0;
            let mut start = semi;
            for (index, c) in text[..semi].char_indices().rev() {
                match c {
                    ')' | ']' => depth += 1,
                    '(' | '[' if depth > 0 => depth -= 1,
                    '[' => {
                        start = index;
                        break;
                    }
                    _ => {}
                }
            }
            let element = text[start + 1..semi].to_string();
            let expanded = vec![element; count].join(",");
            text = format!("{}[{}]{}", &text[..start], expanded, &text[close + 1..]);
        }
        text.replace(",]", "]").replace(",)", ")")
    }

    const SAMPLE: &str = "fn a() {}
    static RAYS: [Bits; 4] = [
        Wide([0x00000000000001fe, 0, 0]),
        Wide([0, 0, 0]),
        Wide([0, 0, 0]),
        Wide([0x0000000000000100, 0, 0]),
    ];
    static STEPS: [[(u8, bool); 3]; 2] = [
        [
            (11, true),
            (NO_CELL, false),
            (NO_CELL, false),
        ],
        [
            (NO_CELL, false),
            (NO_CELL, false),
            (NO_CELL, false),
        ],
    ];
    static NAMES: [&str; 2] = [
        \"a\",
        \"b\",
    ];
";

    #[test]
    fn packing_keeps_the_tokens() {
        let packed = pack_tables(SAMPLE);
        assert_eq!(tokens(&packed), tokens(SAMPLE));
        assert!(packed.contains("[(NO_CELL, false); 3]"), "{packed}");
        assert!(
            packed.contains(
                "    static RAYS: [Bits; 4] = [\n        Wide([0x00000000000001fe, 0, 0]), Wide([0; 3]),"
            ),
            "{packed}"
        );
        // The table of strings is not table data: it stays as it was.
        assert!(packed
            .contains("    static NAMES: [&str; 2] = [\n        \"a\",\n        \"b\",\n    ];"));
        assert!(packed.lines().count() < SAMPLE.lines().count());
    }

    #[test]
    fn long_elements_get_lines_of_their_own() {
        let long = format!("({})", vec!["NO_CELL"; 20].join(", "));
        let text = format!("static T: [X; 2] = [\n    {long},\n    (1, 2),\n];\n");
        let packed = pack_tables(&text);
        assert!(packed.lines().all(|line| line.len() <= WIDTH), "{packed}");
        assert_eq!(tokens(&packed), tokens(&text));
    }

    #[test]
    fn one_element_tuples_keep_their_comma() {
        let tuple = parse("[(1,), (2,)]").expect("parses");
        assert_eq!(flat(&tuple), "[(1,), (2,)]");
        let parenthesised = parse("[(1), (2)]").expect("parses");
        assert_eq!(flat(&parenthesised), "[(1), (2)]");
    }
}
