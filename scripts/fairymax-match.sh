#!/usr/bin/env bash
# Team-Mate Chess: the compiled vdl engine against Fairy-Max over XBoard, refereed by `vdl match`.
#
#   scripts/fairymax-match.sh [GAMES] [TIME]      (defaults: 10 games, 0.5+1 = 30 s + 1 s per move)
#
# Fairy-Max (Debian package fairymax) names the game `team-mate` and predates the Brute pair
# promotion, so the game is played with the option pair_promotion=off, which the referee applies to
# its own rules and sends to the vdl engine as `option PairPromotion=0`. Fairy-Max claims draws after
# 50 moves by default; the game's rule is 64 moves, so it is told `Claim draw after=64`.
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-10}"
time_control="${2:-0.5+1}"
fairymax="$(command -v fairymax || echo /usr/games/fairymax)"
if [ ! -x "$fairymax" ]; then
    echo "Fairy-Max is not installed: apt-get install -y fairymax" >&2
    exit 2
fi
engine="target/engines/team-mate-chess"
cargo build --release -p vdl
target/release/vdl build examples/team-mate-chess.vdl -o "$engine"
target/release/vdl match examples/team-mate-chess.vdl \
    --players "xboard:$engine xboard,xboard:$fairymax" \
    --variant team-mate --setup pair_promotion=off --engine-option "Claim draw after=64" \
    --games "$games" --time "$time_control" --openings 2 --seed 1
