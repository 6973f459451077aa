#!/usr/bin/env python3
"""Writes tests/san/chess.san: chess positions with the SAN python-chess gives every legal move.

    python3 tests/reference/san_chess.py > tests/san/chess.san     (pip install chess)

The positions are hand-picked ones (castling, en passant, promotions, disambiguation by file, rank
and square, checks and mates) and positions of seeded random games. For each: a `fen FEN` line, then
one `move UCI SAN` line per legal move, in UCI order. SAN is python-chess's `Board.san`, with `+` and
`#`.
"""

import random
import sys

import chess

FIXED = [
    chess.STARTING_FEN,
    # Kiwipete: castling both ways, en passant after a double step, many captures.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    # En passant, also one that would leave the king in check.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1",
    # Promotions, with capture and check.
    "r1b1k3/1P6/8/8/8/8/8/4K3 w q - 0 1",
    "4k3/8/8/8/8/8/6p1/4K2R b K - 0 1",
    # Disambiguation: by file, by rank, by square.
    "4k3/8/8/8/8/8/8/N3K2N w - - 0 1",
    "4k3/8/8/N7/8/8/8/N3K3 w - - 0 1",
    "4k3/8/8/2Q1Q3/8/2Q5/8/4K3 w - - 0 1",
    "7k/8/8/8/1R5R/8/8/1R2K3 w - - 0 1",
    "k7/8/8/3N1N2/2N3N1/8/2N3N1/3NKN2 w - - 0 1",
    # Pinned pieces do not disambiguate.
    "4k3/8/8/8/8/8/2N1N3/r3K3 w - - 0 1",
    "4k3/8/8/4r3/8/2N5/8/4K1N1 w - - 0 1",
    # Checks, mates, castling into check refused, castling giving check.
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1",
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/5q2/8/R3K2R w KQkq - 0 1",
    "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1",
]


def random_positions(seed, games, every):
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        board = chess.Board()
        ply = 0
        while not board.is_game_over() and ply < 300:
            if ply % every == every - 1:
                positions.append(board.fen())
            board.push(rng.choice(sorted(board.legal_moves, key=lambda m: m.uci())))
            ply += 1
    return positions


def main():
    out = sys.stdout
    out.write("# SAN of every legal move, by python-chess %s (chess.Board.san), written by\n"
              "# tests/reference/san_chess.py\n" % chess.__version__)
    for fen in FIXED + random_positions(1, 12, 9):
        board = chess.Board(fen)
        out.write("fen %s\n" % board.fen())
        for move in sorted(board.legal_moves, key=lambda m: m.uci()):
            out.write("move %s %s\n" % (move.uci(), board.san(move)))


if __name__ == "__main__":
    main()
