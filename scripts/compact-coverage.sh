#!/bin/sh
# Lists which examples compile to the compact form and, for the others, the first feature the fast
# profile does not cover (the `FALLBACK` of `vdl emit`), in the form docs/performance.md gives them;
# then the semantic-coverage cases and test inputs outside the compact form, with theirs.
# Usage: scripts/compact-coverage.sh [VDL]   (VDL defaults to target/release/vdl)
set -eu
vdl=${1:-target/release/vdl}
fallback_of() {
    "$vdl" emit "$1" | sed -n 's/^ *pub const FALLBACK: &str = "\(.*\)";$/\1/p' | head -n 1
}
compact=""
fallback=""
count=0
for file in examples/*.vdl; do
    name=$(basename "$file" .vdl)
    reason=$(fallback_of "$file")
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
cases=0
outside=""
for file in tests/coverage/*.vdl tests/inputs/*/*.vdl; do
    case "$file" in tests/coverage/*) cases=$((cases + 1)) ;; esac
    reason=$(fallback_of "$file")
    if [ -n "$reason" ]; then
        outside="$outside- $file: $reason
"
    fi
done
echo
echo "Semantic-coverage cases ($cases) and test inputs outside the compact form:"
printf '%s' "$outside"
