#!/usr/bin/env bash
# Times `vdl build` of examples from a warm engine cache: the runtime is compiled once (by a first
# build into the same cache), then each example is built from scratch (its own crate is new) and
# once more (up to date). Prints a Markdown table: wall and CPU seconds of each build.
#
#   scripts/build-times.sh [VDL] [EXAMPLE...]    (defaults: target/release/vdl, every example)
set -euo pipefail
cd "$(dirname "$0")/.."
vdl="${1:-target/release/vdl}"
shift || true
if [ "$#" -eq 0 ]; then
    set -- examples/*.vdl
fi
cache="$(mktemp -d)"
out="$(mktemp -d)"
trap 'rm -rf "$cache" "$out"' EXIT
# Warm the cache: the runtime and its dependencies.
"$vdl" build examples/chess.vdl -o "$out/warm" --cache-dir "$cache" > /dev/null 2>&1
echo "| example | generated lines | build, warm cache: wall s | CPU s | again (up to date): wall s |"
echo "|---|---|---|---|---|"
for file in "$@"; do
    name="$(basename "$file" .vdl)"
    lines="$("$vdl" emit "$file" | wc -l)"
    /usr/bin/time -f '%e %U %S' -o "$out/time" "$vdl" build "$file" -o "$out/$name" --cache-dir "$cache" > /dev/null 2>&1
    read -r wall user system < "$out/time"
    /usr/bin/time -f '%e' -o "$out/again" "$vdl" build "$file" -o "$out/$name" --cache-dir "$cache" > /dev/null 2>&1
    again="$(cat "$out/again")"
    cpu="$(echo "$user $system" | awk '{printf "%.1f", $1 + $2}')"
    echo "| $name | $lines | $wall | $cpu | $again |"
    rm -f "$out/$name"
done
