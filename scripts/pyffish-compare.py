#!/usr/bin/env python3
"""Compares vdl's move generation with pyffish (Fairy-Stockfish's Python binding, `pip install pyffish`)
along random games: at every position of GAMES random games of at most PLIES moves (chosen by
pyffish), `vdl perft FILE DEPTH --fen FEN` must equal the count of pyffish's `legal_moves` to DEPTH.

    python3 scripts/pyffish-compare.py VDL FILE VARIANT [GAMES] [PLIES] [DEPTH] [SEED]

VDL is the vdl binary (target/release/vdl), FILE the rule file, VARIANT pyffish's variant name.
Prints each mismatch and a summary; exits 1 when any position differs.
"""
import random
import subprocess
import sys

import pyffish as sf


def pyffish_perft(variant, fen, depth):
    moves = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(pyffish_perft(variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    vdl, path, variant = sys.argv[1:4]
    games, plies, depth, seed = (int(a) for a in (sys.argv[4:8] + ["3", "30", "1", "1"][len(sys.argv) - 4:]))
    rng = random.Random(seed)
    start = sf.start_fen(variant)
    checked = mismatches = 0
    for _ in range(games):
        moves = []
        for _ in range(plies):
            fen = sf.get_fen(variant, start, moves)
            out = subprocess.run([vdl, "perft", path, str(depth), "--fen", fen],
                                 capture_output=True, text=True)
            lines = out.stdout.strip().splitlines()
            got = lines[-1] if lines else out.stderr.strip()
            want = pyffish_perft(variant, fen, depth)
            checked += 1
            if got != f"nodes {want}":
                mismatches += 1
                print(f"mismatch at {fen}: vdl says {got!r}, pyffish {want}")
            legal = sf.legal_moves(variant, fen, [])
            if not legal:
                break
            moves.append(rng.choice(legal))
    print(f"{checked} positions, {mismatches} mismatches")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
