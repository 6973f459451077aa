#!/bin/sh
# Lists which examples compile to the compact form and, for the others, the first feature the fast
# profile does not cover (the `FALLBACK` of `vdl emit`), in the form docs/performance.md gives them.
# Usage: scripts/compact-coverage.sh [VDL]   (VDL defaults to target/release/vdl)
set -eu
vdl=${1:-target/release/vdl}
compact=""
fallback=""
count=0
for file in examples/*.vdl; do
    name=$(basename "$file" .vdl)
    reason=$("$vdl" emit "$file" | sed -n 's/^ *pub const FALLBACK: &str = "\(.*\)";$/\1/p' | head -n 1)
    if [ -z "$reason" ]; then
        compact="$compact${compact:+, }$name"
        count=$((count + 1))
    else
        fallback="$fallback- $name: $reason
"
    fi
done
echo "Examples in the compact form ($count): $compact."
echo
printf '%s' "$fallback"
