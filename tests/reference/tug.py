#!/usr/bin/env python3
"""Perft of examples/tug.vdl, written apart from vdl from the pieces' definitions.

Usage: tests/reference/tug.py FEN DEPTH [--divide]
       tests/reference/tug.py FEN --random PLIES SEED   (the FEN after random legal moves, and the moves)

The pieces (docs/language.md, sections 3.1 and 3.3; XBetza's `u` on a later leg):
  K  king: one step in any of the 8 directions.
  N  knight.
  T  tug `RafucR`: a rook; or it slides along a line over empty cells to one of them, X, slides on
     the same way to the first piece, and if that is an enemy takes its cell while the enemy is put
     on X (the enemy is pulled back to any empty cell the tug passed).
A move may not leave the mover's king attacked; a piece attacks the cells its moves capture on (a tug's
pull attacks the pulled piece). Moves with the same result are one move. A pull is written through the
cell the pulled piece lands on: `a1a3,a3a5`. The board is 6x6, files a-f, ranks 1-6.
"""
import sys

SIZE = 6
ORTHO = [(1, 0), (0, 1), (-1, 0), (0, -1)]
COMPASS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def on(c):
    return 0 <= c[0] < SIZE and 0 <= c[1] < SIZE


def add(c, d, k=1):
    return (c[0] + k * d[0], c[1] + k * d[1])


def own_moves(board, origin, kind, white):
    """Moves (from, to, pulled-to or None) a piece of `kind` makes from `origin` (its owner `white`)."""
    out = set()

    def friend(c):
        return c in board and board[c].isupper() == white

    def enemy(c):
        return c in board and board[c].isupper() != white

    if kind == "K":
        for d in COMPASS:
            c = add(origin, d)
            if on(c) and not friend(c):
                out.add((origin, c, None))
    if kind == "N":
        for d in KNIGHT:
            c = add(origin, d)
            if on(c) and not friend(c):
                out.add((origin, c, None))
    if kind == "T":
        for d in ORTHO:
            k = 1
            while on(add(origin, d, k)):
                c = add(origin, d, k)
                if c in board:
                    if enemy(c):
                        out.add((origin, c, None))
                    break
                out.add((origin, c, None))
                # Pulling: X = c (empty); slide on to the first piece.
                j = k + 1
                while on(add(origin, d, j)):
                    y = add(origin, d, j)
                    if y in board:
                        if enemy(y):
                            out.add((origin, y, c))
                        break
                    j += 1
                k += 1
    return out


def pseudo(board, white):
    out = set()
    for c, p in board.items():
        if p.isupper() == white:
            out |= own_moves(board, c, p.upper(), white)
    return out


def play(board, move):
    f, t, pulled = move
    after = dict(board)
    victim = after.get(t)
    after[t] = after.pop(f)
    if pulled is not None:
        after[pulled] = victim
    return after


def attacked(board, cell, by_white):
    return any(t == cell for _, t, _ in pseudo(board, by_white))


def legal(board, white):
    result = []
    for m in sorted(pseudo(board, white), key=lambda m: (m[0], m[1], m[2] or (-1, -1))):
        after = play(board, m)
        king = next(c for c, q in after.items() if q == ("K" if white else "k"))
        if not attacked(after, king, not white):
            result.append((m, after))
    return result


def perft(board, white, depth):
    moves = legal(board, white)
    if depth == 1:
        return len(moves)
    return sum(perft(after, not white, depth - 1) for _, after in moves)


def parse(fen):
    fields = fen.split()
    board = {}
    for r, row in enumerate(fields[0].split("/")):
        x = 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
            else:
                board[(x, SIZE - 1 - r)] = ch
                x += 1
    return board, fields[1] == "w"


def write(board, white):
    rows = []
    for y in range(SIZE - 1, -1, -1):
        row, empty = "", 0
        for x in range(SIZE):
            if (x, y) in board:
                row += (str(empty) if empty else "") + board[(x, y)]
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if white else " b") + " - - 0 1"


def name(c):
    return "abcdef"[c[0]] + str(c[1] + 1)


def text(move):
    f, t, pulled = move
    if pulled is None:
        return name(f) + name(t)
    return f"{name(f)}{name(pulled)},{name(pulled)}{name(t)}"


def random_walk(board, white, plies, seed):
    import random

    rng = random.Random(seed)
    played = []
    for _ in range(plies):
        moves = legal(board, white)
        if not moves:
            break
        m, board = rng.choice(moves)
        played.append(text(m))
        white = not white
    print(write(board, white))
    print(" ".join(played))


def main():
    board, white = parse(sys.argv[1])
    if sys.argv[2] == "--random":
        random_walk(board, white, int(sys.argv[3]), int(sys.argv[4]))
        return
    depth = int(sys.argv[2])
    if "--divide" in sys.argv:
        total = 0
        for m, after in legal(board, white):
            n = 1 if depth == 1 else perft(after, not white, depth - 1)
            print(f"{text(m)}: {n}")
            total += n
        print("nodes", total)
    else:
        print(perft(board, white, depth))


if __name__ == "__main__":
    main()
