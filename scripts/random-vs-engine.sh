#!/usr/bin/env bash
# The engine (the runtime's search at a fixed depth) against random movers in each seed game, refereed
# by `vdl match`; the engine takes every seat in turn.
#
#   scripts/random-vs-engine.sh [GAMES] [DEPTH]      (defaults: 20 games per game, depth 2)
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-20}"
depth="${2:-2}"
cargo build --release -p vdl
for game in team-mate-chess lords-and-vassals afterlife-chess baccancat armies-of-faith-5; do
    case "$game" in
        baccancat | armies-of-faith-5) players="search,random,random,random" ;;
        *) players="search,random" ;;
    esac
    echo "== $game"
    target/release/vdl match "examples/$game.vdl" --players "$players" --depth "$depth" \
        --games "$games" --max-plies 4000 --seed 1 | tail -n "$(( $(tr -cd ',' <<<"$players" | wc -c) + 2 ))"
done
