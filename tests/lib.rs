//! Shared helpers for the workspace tests: paths, the codes declared in dsl/src/error.rs, the header
//! comment of an input file, a small deterministic random number generator, and engines of any
//! `Variant` type behind one object type (`AnyEngine`), on which the seed-game scenarios run.
//!
//! The helpers that call the checker live in the test files themselves (`check_snapshots.rs`,
//! `explain_snapshots.rs`, `robustness.rs`), because the checker crates are dev-dependencies.

use std::any::Any;
use std::path::{Path, PathBuf};

use vdl_runtime::compact::{CompactGame, CompactPosition, Compiled};
use vdl_runtime::interp::Position;
use vdl_runtime::{perft::perft, GameResult, TextError, Variant};

/// The workspace root (the parent of this crate's directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Reads a file as text, panicking with its path on failure.
pub fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The `.vdl` files directly in `dir`, sorted by name.
pub fn vdl_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "vdl"))
        .collect();
    files.sort();
    files
}

/// The codes listed in the `code()` match of dsl/src/error.rs (`"E0001"`, `"W2001"` ...), in order of
/// appearance, read from the source text so that a new code is seen without changing this crate.
pub fn declared_codes(error_rs: &str) -> Vec<String> {
    let start = error_rs
        .find("pub fn code(")
        .expect("dsl/src/error.rs has `pub fn code(`");
    let body = &error_rs[start..];
    let end = body.find("\n    }\n").unwrap_or(body.len());
    quoted_codes(&body[..end])
}

/// Every `"E1234"` / `"W1234"` string literal in `text`, deduplicated, in order of appearance.
pub fn quoted_codes(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out: Vec<String> = Vec::new();
    for i in 0..bytes.len().saturating_sub(6) {
        let window = &bytes[i..i + 7];
        let is_code = window[0] == b'"'
            && matches!(window[1], b'E' | b'W')
            && window[2..6].iter().all(u8::is_ascii_digit)
            && window[6] == b'"';
        if is_code {
            let code = text[i + 1..i + 6].to_string();
            if !out.contains(&code) {
                out.push(code);
            }
        }
    }
    out
}

/// The code an input file announces in its first line, `// E1001: ...` or `// E2009 in a zone ...`.
pub fn announced_code(source: &str) -> Option<String> {
    let first = source.lines().next()?.strip_prefix("// ")?;
    let code: String = first
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    let well_formed = code.len() == 5
        && matches!(code.as_bytes()[0], b'E' | b'W')
        && code[1..].bytes().all(|b| b.is_ascii_digit());
    well_formed.then_some(code)
}

/// The 1-based line and column of a byte offset, counted the way codespan-reporting counts them:
/// lines end at `\n`, columns count characters.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        source[line_start..offset].chars().count() + 1,
    )
}

/// SplitMix64: a tiny deterministic generator, so that a failing case can be replayed from its seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Makes a generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A random element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Runs a scenario on each engine (name, engine), one after the other, going on when one fails; then
/// fails with every failure, each named by its engine. The seed-game scenario files run each scenario
/// on the interpreter and the compiled engine this way.
pub fn on_each_engine<E>(
    engines: impl IntoIterator<Item = (&'static str, E)>,
    scenario: impl Fn(&E),
) {
    let mut failures = Vec::new();
    for (name, engine) in engines {
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| scenario(&engine)));
        if let Err(payload) = run {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{name}: {message}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A position of an `AnyEngine`: the engine's own position type, erased.
pub struct AnyPosition(Box<dyn Any>);

impl AnyPosition {
    /// The position as the engine's own type, if it is `T`; scenarios that set a field the position
    /// text does not carry use it on the engines whose positions are the interpreter's.
    pub fn downcast_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.0.downcast_mut()
    }
}

/// A game engine with its position and move types erased, so that one scenario runs unchanged on the
/// interpreter, the hook form and the compact form. Moves are their texts: `legal_moves` writes each
/// legal move in the game's notation, and `play` reads one.
pub trait AnyEngine {
    fn start(&self) -> AnyPosition;
    fn parse_position(&self, text: &str) -> Result<AnyPosition, TextError>;
    fn write_position(&self, position: &AnyPosition) -> String;
    /// The legal moves, each as (game notation, protocol notation), in the engine's order.
    fn legal_moves(&self, position: &mut AnyPosition) -> Vec<(String, String)>;
    /// Reads a move and returns it written in the game's notation, without playing it.
    fn parse_move(&self, position: &mut AnyPosition, text: &str) -> Result<String, TextError>;
    /// Reads a move and plays it.
    fn play(&self, position: &mut AnyPosition, text: &str) -> Result<(), TextError>;
    fn outcome(&self, position: &mut AnyPosition) -> Option<GameResult>;
    fn hash(&self, position: &AnyPosition) -> u64;
    fn full_hash(&self, position: &AnyPosition) -> u64;
    fn perft(&self, position: &mut AnyPosition, depth: u32) -> u64;
}

impl<V: Variant> AnyEngine for V
where
    V::Position: 'static,
{
    fn start(&self) -> AnyPosition {
        AnyPosition(Box::new(Variant::start(self)))
    }

    fn parse_position(&self, text: &str) -> Result<AnyPosition, TextError> {
        Ok(AnyPosition(Box::new(Variant::parse_position(self, text)?)))
    }

    fn write_position(&self, position: &AnyPosition) -> String {
        Variant::write_position(self, own::<V>(position))
    }

    fn legal_moves(&self, position: &mut AnyPosition) -> Vec<(String, String)> {
        let position = own_mut::<V>(position);
        let mut moves = Vec::new();
        Variant::legal_moves(self, position, &mut moves);
        moves
            .into_iter()
            .map(|m| {
                (
                    self.write_move(position, m),
                    self.write_protocol_move(position, m),
                )
            })
            .collect()
    }

    fn parse_move(&self, position: &mut AnyPosition, text: &str) -> Result<String, TextError> {
        let position = own_mut::<V>(position);
        let mv = Variant::parse_move(self, position, text)?;
        Ok(self.write_move(position, mv))
    }

    fn play(&self, position: &mut AnyPosition, text: &str) -> Result<(), TextError> {
        let position = own_mut::<V>(position);
        let mv = Variant::parse_move(self, position, text)?;
        self.make(position, mv);
        Ok(())
    }

    fn outcome(&self, position: &mut AnyPosition) -> Option<GameResult> {
        Variant::outcome(self, own_mut::<V>(position))
    }

    fn hash(&self, position: &AnyPosition) -> u64 {
        Variant::hash(self, own::<V>(position))
    }

    fn full_hash(&self, position: &AnyPosition) -> u64 {
        Variant::full_hash(self, own::<V>(position))
    }

    fn perft(&self, position: &mut AnyPosition, depth: u32) -> u64 {
        perft(self, own_mut::<V>(position), depth)
    }
}

fn own<V: Variant>(position: &AnyPosition) -> &V::Position
where
    V::Position: 'static,
{
    position
        .0
        .downcast_ref()
        .expect("a position of this engine")
}

fn own_mut<V: Variant>(position: &mut AnyPosition) -> &mut V::Position
where
    V::Position: 'static,
{
    position
        .0
        .downcast_mut()
        .expect("a position of this engine")
}

/// The legal moves of a compact form in an interpreter position, as written; the count of them
/// agrees and no two share a text. The seed-game scenario files read the compact form's moves so.
pub fn compact_moves<G: CompactGame>(
    c: &Compiled<G>,
    pos: &Position,
) -> std::collections::BTreeSet<String> {
    let mut position = CompactPosition::new(c.from_interpreter(pos));
    let mut moves = Vec::new();
    Variant::legal_moves(c, &mut position, &mut moves);
    assert_eq!(c.count_legal_moves(&mut position), moves.len() as u64);
    let texts: std::collections::BTreeSet<String> =
        moves.iter().map(|m| c.write_move(&position, *m)).collect();
    assert_eq!(texts.len(), moves.len(), "two moves with one text");
    texts
}

/// Plays the moves (`e2-e4 e7-e5`) with a compact form on an interpreter position, keeping the
/// history the interpreter keeps (the hash of each position before a move).
pub fn compact_play<G: CompactGame>(c: &Compiled<G>, pos: &mut Position, moves: &str) {
    for text in moves.split_whitespace() {
        let mut position = CompactPosition::new(c.from_interpreter(pos));
        let mv =
            Variant::parse_move(c, &mut position, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        c.make(&mut position, mv);
        let mut next = c.to_interpreter(&position.board);
        next.history = pos.history.clone();
        next.history.push(pos.hash);
        *pos = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_codes_in_the_code_match_only() {
        let text = "/// `E9999` in prose\npub fn code(&self) -> &'static str {\n        A => \"E0001\",\n        B => \"W2001\",\n        C => \"E0001\",\n    }\n\nfn other() { \"E7777\" }";
        assert_eq!(declared_codes(text), vec!["E0001", "W2001"]);
    }

    #[test]
    fn reads_the_announced_code() {
        assert_eq!(
            announced_code("// E1001: an unknown letter\ngame g").as_deref(),
            Some("E1001")
        );
        assert_eq!(
            announced_code("// W2001 in a block").as_deref(),
            Some("W2001")
        );
        assert_eq!(announced_code("// a comment\n"), None);
        assert_eq!(announced_code("game g"), None);
    }

    #[test]
    fn counts_lines_and_columns_in_characters() {
        let text = "ab\né→x\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        assert_eq!(line_column(text, "ab\né→".len()), (2, 3));
        assert_eq!(line_column(text, text.len()), (3, 1));
    }

    #[test]
    fn the_generator_is_deterministic() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        assert!((0..1000).all(|_| a.below(3) < 3));
    }
}
