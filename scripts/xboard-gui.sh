#!/usr/bin/env bash
# Complete games in the real XBoard GUI, headless, between a compiled vdl engine and Fairy-Max or MaxQi.
#
#   scripts/xboard-gui.sh [GAME] [GAMES] [TIME] [INCREMENT]
#
#   GAME        team-mate-chess (default), capablanca, xiangqi, chess, or all (each of them in turn)
#   GAMES       games per match (default 2); colours alternate, and the match is played twice: with
#               the vdl engine as XBoard's first engine (whose setup XBoard uses) and as its second
#   TIME        minutes (or MIN:SEC) per game (default 0:30); INCREMENT seconds per move (default 1)
#   VDL_ENGINE  an engine already built with `vdl build examples/GAME.vdl -o PATH` (else it is built)
#
# Needs Debian's xboard, fairymax (Fairy-Max and MaxQi) and xvfb:
#   apt-get install -y xboard fairymax xvfb
# The PGN files XBoard saves go to target/xboard-gui/GAME-first.pgn and GAME-second.pgn. The script
# prints each game's result and how it ended, and fails when a game ended by a forfeit, an illegal
# move, a crash or a flag (XBoard's comments on the last move say so), or when vdl's interpreter does
# not accept every move of the saved game (`vdl show --pgn`).
#
# Fairy-Max 5.0b (Debian) crashes now and then on commands it does not know, such as the `computer`
# XBoard sends before each game; XBoard is told to send it nothing there (-firstComputerString "").
#
# Team-Mate Chess is played without the Brute pair promotion, which Fairy-Max predates
# (PairPromotion=0), and with its 64-move rule (XBoard's -ruleMoves, Fairy-Max's "Claim draw after").
set -euo pipefail
cd "$(dirname "$0")/.."
game="${1:-team-mate-chess}"
games="${2:-2}"
time_control="${3:-0:30}"
increment="${4:-1}"
if [ "$game" = all ]; then
    status=0
    for each in chess team-mate-chess capablanca xiangqi; do
        "$0" "$each" "$games" "$time_control" "$increment" || status=1
    done
    exit "$status"
fi

xboard="$(command -v xboard || echo /usr/games/xboard)"
fairymax="$(command -v fairymax || echo /usr/games/fairymax)"
maxqi="$(command -v maxqi || echo /usr/games/maxqi)"
for program in "$xboard" "$fairymax" "$maxqi" "$(command -v xvfb-run || echo missing)"; do
    if [ ! -x "$program" ]; then
        echo "missing $program: apt-get install -y xboard fairymax xvfb" >&2
        exit 2
    fi
done

vdl_options=""
opponent_options=""
extra=()
case "$game" in
    team-mate-chess)
        variant=team-mate
        opponent="$fairymax"
        vdl_options="PairPromotion=0"
        opponent_options="Claim draw after=64"
        extra=(-ruleMoves 64)
        ;;
    capablanca) variant=capablanca; opponent="$fairymax" ;;
    xiangqi) variant=xiangqi; opponent="$maxqi" ;;
    chess) variant=normal; opponent="$fairymax" ;;
    *) echo "GAME is team-mate-chess, capablanca, xiangqi or chess, not $game" >&2; exit 2 ;;
esac

out="$PWD/target/xboard-gui"
mkdir -p "$out"
engine="${VDL_ENGINE:-$out/$game}"
cargo build --release -p vdl
if [ -z "${VDL_ENGINE:-}" ]; then
    target/release/vdl build "examples/$game.vdl" -o "$engine"
fi

# One match: $1 = first or second (the vdl engine's place).
play() {
    local place="$1" pgn="$out/$game-$1.pgn" log="$out/$game-$1.debug"
    local first="$engine xboard" second="$opponent" first_options="$vdl_options"
    local second_options="$opponent_options" quiet=(-secondComputerString "")
    if [ "$place" = second ]; then
        first="$opponent"; second="$engine xboard"
        first_options="$opponent_options"; second_options="$vdl_options"
        quiet=(-firstComputerString "")
    fi
    if [ "$opponent" != "$fairymax" ]; then
        quiet=()
    fi
    rm -f "$pgn"
    # -noGUI still needs a display; XBoard's settings are neither read nor saved.
    # A match that outlasts 20 minutes a game has hung (an engine that died can leave XBoard waiting).
    xvfb-run -a timeout --kill-after=10 $((games * 1200)) "$xboard" -noGUI -xexit -mm -mg "$games" -variant "$variant" \
        -fcp "$first" -fd "$out" -scp "$second" -sd "$out" \
        -firstOptions "$first_options" -secondOptions "$second_options" \
        "${quiet[@]}" \
        -tc "$time_control" -inc "$increment" -xponder "${extra[@]}" \
        -sgf "$pgn" -saveSettingsOnExit false -settingsFile "$out/xboard.settings" \
        -debug -nameOfDebugFile "$log" > "$out/$game-$place.log" 2>&1 || true
}

status=0
for place in first second; do
    play "$place"
    pgn="$out/$game-$place.pgn"
    if [ ! -s "$pgn" ]; then
        echo "$game, vdl as XBoard's $place engine: no game saved (see $out/$game-$place.log)"
        status=1
        continue
    fi
    # Each game: White, Black, the result and the comment before it.
    python3 - "$pgn" "$place" "$game" <<'EOF' || status=1
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
faults = re.compile(r"forfeit|illegal|false|flag|crash|exit|disconnect|timeout|stalled", re.I)
bad = 0
for number, game in enumerate(re.split(r"\n(?=\[Event )", text.strip()), 1):
    tag = lambda name: (re.search(r'\[%s "([^"]*)"\]' % name, game) or [None, "?"])[1]
    body = re.sub(r"\[[^\]]*\]\s*", "", game)
    comments = re.findall(r"\{([^}]*)\}", body)
    last = comments[-1].strip() if comments else ""
    fault = bool(faults.search(last))
    bad += fault
    print(f"{sys.argv[3]} ({sys.argv[2]} engine) game {number}: {tag('White')} - {tag('Black')} "
          f"{tag('Result')} {{{last}}}{'  <-- FAULT' if fault else ''}")
sys.exit(1 if bad else 0)
EOF
    # Every move of every saved game must be legal for vdl's interpreter.
    count="$(grep -c '^\[Event ' "$pgn" || true)"
    for number in $(seq 1 "$count"); do
        if ! target/release/vdl show "examples/$game.vdl" --pgn "$pgn" --game "$number" > /dev/null; then
            echo "$game ($place engine) game $number: vdl does not accept the saved game  <-- FAULT"
            status=1
        fi
    done
done
exit "$status"
