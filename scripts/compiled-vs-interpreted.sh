#!/usr/bin/env bash
# Chess: the compiled engine against the same search run on the reference interpreter, both over
# XBoard at equal time, refereed by `vdl match`.
#
#   scripts/compiled-vs-interpreted.sh [GAMES] [TIME]     (defaults: 20 games, 0.1+0.1 = 6 s + 0.1 s)
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-20}"
time_control="${2:-0.1+0.1}"
cargo build --release -p vdl
target/release/vdl build examples/chess.vdl -o target/engines/chess
target/release/vdl match examples/chess.vdl \
    --players "xboard:target/engines/chess xboard,xboard:target/release/vdl engine examples/chess.vdl xboard" \
    --games "$games" --time "$time_control" --openings 4 --seed 1
