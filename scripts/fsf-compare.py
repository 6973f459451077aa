#!/usr/bin/env python3
"""Compares vdl's perft with Fairy-Stockfish's own (`go perft`, the engine installed as
/usr/games/fairy-stockfish, 11.1 in Debian) at every position of random games, with pieces put into
the hands: the games are played by pyffish (`pip install pyffish`); at each position a random part of
HAND (FEN letters, upper case White's) replaces the hands of the position text, so that drops are
counted too, as they are in bughouse-like games whose hands the position gives.

    python3 scripts/fsf-compare.py VDL FILE VARIANT [HAND] [GAMES] [PLIES] [DEPTH] [SEED]

VDL is the vdl binary (target/release/vdl), FILE the rule file, VARIANT Fairy-Stockfish's variant
name, HAND the letters to choose from (default none). Prints each mismatch and a summary; exits 1 when
any position differs.
"""
import random
import re
import subprocess
import sys

import pyffish as sf

ENGINE = "/usr/games/fairy-stockfish"


class Engine:
    def __init__(self, variant):
        self.process = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.send("uci")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        while self.process.stdout.readline().strip() != "readyok":
            pass

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def perft(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"{ENGINE} stopped")
            found = re.match(r"Nodes searched: (\d+)", line)
            if found:
                return int(found.group(1))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    vdl, path, variant = sys.argv[1:4]
    hand = sys.argv[4] if len(sys.argv) > 4 else ""
    games, plies, depth, seed = (int(a) for a in (sys.argv[5:9] + ["3", "30", "2", "1"][len(sys.argv) - 5:]))
    rng = random.Random(seed)
    engine = Engine(variant)
    start = sf.start_fen(variant)
    checked = mismatches = 0
    for _ in range(games):
        moves = []
        for _ in range(plies):
            fen = sf.get_fen(variant, start, moves)
            board, rest = fen.split(" ", 1)
            held = "".join(c for c in hand if rng.random() < 0.5)
            with_hand = re.sub(r"\[[^\]]*\]", "", board) + f"[{held}] " + rest
            out = subprocess.run([vdl, "perft", path, str(depth), "--fen", with_hand],
                                 capture_output=True, text=True)
            lines = out.stdout.strip().splitlines()
            got = lines[-1] if lines else out.stderr.strip()
            want = engine.perft(with_hand, depth)
            checked += 1
            if got != f"nodes {want}":
                mismatches += 1
                print(f"mismatch at {with_hand}: vdl says {got!r}, Fairy-Stockfish {want}")
            legal = sf.legal_moves(variant, fen, [])
            if not legal:
                break
            moves.append(rng.choice(legal))
    print(f"{checked} positions, {mismatches} mismatches")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
