//! `vdl bench`: perft speed of the interpreter, the compiled engine and Fairy-Stockfish (UCI `go perft`)
//! on the same positions and depths, in one run, with their ratios. All three count the leaves of the
//! last ply without playing them (Fairy-Stockfish and vdl both return the number of legal moves at
//! depth 1).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// One benchmark position.
#[derive(Clone, Debug)]
pub struct Case {
    /// The example file stem (`chess`) and Fairy-Stockfish's variant name.
    pub variant: &'static str,
    /// A label.
    pub label: &'static str,
    /// The position (FEN), or `None` for the start position.
    pub fen: Option<&'static str>,
    /// The depth.
    pub depth: u32,
    /// Whether Fairy-Stockfish plays the variant under this name (the seed games are vdl's own).
    pub fairy_stockfish: bool,
}

/// The rows: chess start (6) and Kiwipete (5), capablanca (5), shatranj (6), xiangqi (5), shogi (5),
/// measured against Fairy-Stockfish; then the five seed games at the depths their compiled engines
/// are measured against the interpreter: Team-Mate Chess (5), Lords and Vassals (5), Afterlife Chess
/// (5), BacCanCat (4), Armies of Faith 5 (3).
pub const CASES: &[Case] = &[
    Case {
        variant: "chess",
        label: "startpos",
        fen: None,
        depth: 6,
        fairy_stockfish: true,
    },
    Case {
        variant: "chess",
        label: "kiwipete",
        fen: Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        depth: 5,
        fairy_stockfish: true,
    },
    Case {
        variant: "capablanca",
        label: "startpos",
        fen: None,
        depth: 5,
        fairy_stockfish: true,
    },
    Case {
        variant: "shatranj",
        label: "startpos",
        fen: None,
        depth: 6,
        fairy_stockfish: true,
    },
    Case {
        variant: "xiangqi",
        label: "startpos",
        fen: None,
        depth: 5,
        fairy_stockfish: true,
    },
    Case {
        variant: "shogi",
        label: "startpos",
        fen: None,
        depth: 5,
        fairy_stockfish: true,
    },
    Case {
        variant: "team-mate-chess",
        label: "startpos",
        fen: None,
        depth: 5,
        fairy_stockfish: false,
    },
    Case {
        variant: "lords-and-vassals",
        label: "startpos",
        fen: None,
        depth: 5,
        fairy_stockfish: false,
    },
    Case {
        variant: "afterlife-chess",
        label: "startpos",
        fen: None,
        depth: 5,
        fairy_stockfish: false,
    },
    Case {
        variant: "baccancat",
        label: "startpos",
        fen: None,
        depth: 4,
        fairy_stockfish: false,
    },
    Case {
        variant: "armies-of-faith-5",
        label: "startpos",
        fen: None,
        depth: 3,
        fairy_stockfish: false,
    },
];

/// A measured run: nodes and seconds.
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    /// Leaf nodes counted.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Measure {
    /// Nodes per second.
    pub fn rate(self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }
}

/// Runs Fairy-Stockfish's `go perft` and times it from the command to its answer.
///
/// # Errors
///
/// Returns a message when the program cannot be run or does not answer.
pub fn fairy_stockfish(program: &Path, case: &Case) -> Result<Measure, String> {
    let mut child = Command::new(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut lines = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
    let position = match case.fen {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    writeln!(
        stdin,
        "uci\nsetoption name UCI_Variant value {}\n{position}\nisready",
        case.variant
    )
    .map_err(|e| e.to_string())?;
    for line in lines.by_ref() {
        if line.map_err(|e| e.to_string())?.trim() == "readyok" {
            break;
        }
    }
    let started = Instant::now();
    writeln!(stdin, "go perft {}", case.depth).map_err(|e| e.to_string())?;
    let mut nodes = None;
    for line in lines.by_ref() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(n) = line.strip_prefix("Nodes searched:") {
            nodes = n.trim().parse().ok();
            break;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let _ = writeln!(stdin, "quit");
    let _ = child.wait();
    let nodes = nodes.ok_or("Fairy-Stockfish gave no node count")?;
    Ok(Measure { nodes, seconds })
}

/// Runs a compiled engine's perft and times the whole process.
///
/// # Errors
///
/// Returns a message when the engine cannot be run or prints no count.
pub fn engine(program: &Path, case: &Case) -> Result<Measure, String> {
    let mut command = Command::new(program);
    command.arg("perft").arg(case.depth.to_string());
    if let Some(fen) = case.fen {
        command.arg("--fen").arg(fen);
    }
    let started = Instant::now();
    let output = command
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&output.stdout);
    let nodes = text
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("nodes "))
        .and_then(|n| n.parse().ok())
        .ok_or("the engine printed no count")?;
    Ok(Measure { nodes, seconds })
}

/// Runs shakmaty's perft (bulk counting, like the others) on a chess case, in this process.
///
/// # Errors
///
/// Returns a message when the position cannot be read.
#[cfg(feature = "shakmaty")]
pub fn shakmaty(case: &Case) -> Result<Measure, String> {
    use shakmaty::{fen::Fen, CastlingMode, Chess};
    let position: Chess = match case.fen {
        Some(text) => Fen::from_ascii(text.as_bytes())
            .map_err(|e| e.to_string())?
            .into_position(CastlingMode::Standard)
            .map_err(|e| e.to_string())?,
        None => Chess::default(),
    };
    let started = Instant::now();
    let nodes = shakmaty::perft(&position, case.depth);
    Ok(Measure {
        nodes,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Without the `shakmaty` feature there is no shakmaty measurement.
///
/// # Errors
///
/// Always: says how to get one.
#[cfg(not(feature = "shakmaty"))]
pub fn shakmaty(_case: &Case) -> Result<Measure, String> {
    Err("build vdl with --features shakmaty".into())
}
