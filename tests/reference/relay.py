#!/usr/bin/env python3
"""Perft of tests/inputs/movegen/relay.vdl, written apart from vdl from the pieces' definitions.

Usage: tests/reference/relay.py FEN DEPTH [--divide]

The pieces (docs/language.md, section 3.10; XBetza's `x`):
  K  king `KxK`: one step in any of the 8 directions, moving or capturing; and, from its own cell,
     the moves of any friendly piece standing next to it (the relay lends only its non-capturing
     knight leap, not its relaying).
  E  relay `mNxaN`: a knight leap to an empty cell; and any friendly piece a knight leap away from
     it may make a knight leap (to an empty cell or capturing an enemy), the relay staying put.
  R  rook, B bishop, N knight: as in chess.
A move is its start and target cells: two ways to the same cells are one move. A move may not leave
the mover's king attacked, attacks being the captures the opponent's pieces could make. The board
is 8x8, files a-h, ranks 1-8.
"""
import sys

SIZE = 8
ORTHO = [(1, 0), (0, 1), (-1, 0), (0, -1)]
DIAG = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
KING = ORTHO + DIAG
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def on(x, y):
    return 0 <= x < SIZE and 0 <= y < SIZE


def white(p):
    return p.isupper()


def own_moves(board, x, y, kind, side):
    """Targets of a piece of type `kind` (upper case) of `side` standing on (x, y), without `x` parts."""
    def free_or_enemy(tx, ty):
        q = board.get((tx, ty))
        return q is None or white(q) != side

    out = []
    if kind in "RB":
        for dx, dy in ORTHO if kind == "R" else DIAG:
            tx, ty = x + dx, y + dy
            while on(tx, ty):
                q = board.get((tx, ty))
                if q is None:
                    out.append((tx, ty))
                else:
                    if white(q) != side:
                        out.append((tx, ty))
                    break
                tx, ty = tx + dx, ty + dy
    elif kind in "NK":
        for dx, dy in KNIGHT if kind == "N" else KING:
            tx, ty = x + dx, y + dy
            if on(tx, ty) and free_or_enemy(tx, ty):
                out.append((tx, ty))
    elif kind == "E":  # mN: onto empty cells only
        for dx, dy in KNIGHT:
            tx, ty = x + dx, y + dy
            if on(tx, ty) and (tx, ty) not in board:
                out.append((tx, ty))
    return out


def pseudo(board, side):
    moves = set()
    for (x, y), p in list(board.items()):
        if white(p) != side:
            continue
        kind = p.upper()
        for t in own_moves(board, x, y, kind, side):
            moves.add(((x, y), t))
        if kind == "K":  # borrowing from adjacent friends
            for dx, dy in KING:
                q = board.get((x + dx, y + dy))
                if q is not None and white(q) == side:
                    for t in own_moves(board, x, y, q.upper(), side):
                        moves.add(((x, y), t))
        if kind == "E":  # induction: a friend a knight leap away makes a knight leap
            for dx, dy in KNIGHT:
                fx, fy = x + dx, y + dy
                q = board.get((fx, fy))
                if q is None or white(q) != side:
                    continue
                for ex, ey in KNIGHT:
                    if (ex, ey) == (-dx, -dy):
                        continue  # straight back onto the relay
                    tx, ty = fx + ex, fy + ey
                    if not on(tx, ty):
                        continue
                    r = board.get((tx, ty))
                    if r is None or white(r) != side:
                        moves.add(((fx, fy), (tx, ty)))
    return moves


def make(board, move):
    (f, t) = move
    after = dict(board)
    after[t] = after.pop(f)
    return after


def attacked(board, cell, by):
    return any(t == cell for _, t in pseudo(board, by))


def legal(board, side):
    out = []
    for m in pseudo(board, side):
        after = make(board, m)
        king = next((c for c, p in after.items() if p == ("K" if side else "k")), None)
        if king is None or not attacked(after, king, not side):
            out.append(m)
    return out


def perft(board, side, depth):
    moves = legal(board, side)
    if depth == 1:
        return len(moves)
    return sum(perft(make(board, m), not side, depth - 1) for m in moves)


def parse(fen):
    rows, side = fen.split()[:2]
    board = {}
    for r, row in enumerate(rows.split("/")):
        x = 0
        for c in row:
            if c.isdigit():
                x += int(c)
            else:
                board[(x, SIZE - 1 - r)] = c
                x += 1
    return board, side == "w"


def name(c):
    return "abcdefgh"[c[0]] + str(c[1] + 1)


def main():
    fen, depth = sys.argv[1], int(sys.argv[2])
    board, side = parse(fen)
    if "--divide" in sys.argv:
        for m in sorted(legal(board, side), key=lambda m: name(m[0]) + name(m[1])):
            count = perft(make(board, m), not side, depth - 1) if depth > 1 else 1
            print(f"{name(m[0])}{name(m[1])}: {count}")
    print(f"nodes {perft(board, side, depth)}")


if __name__ == "__main__":
    main()
