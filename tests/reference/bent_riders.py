#!/usr/bin/env python3
"""Perft of examples/bent-riders.vdl, written apart from vdl from the pieces' definitions.

Usage: tests/reference/bent_riders.py FEN DEPTH [--divide]
       tests/reference/bent_riders.py FEN --random PLIES SEED   (the FEN after random legal moves, and the moves)

The pieces (docs/language.md, section 3.3; XBetza's crooked and circular riders):
  K  king: one step in any of the 8 directions.
  R  crooked rook `zR`: rook steps, turning a right angle after every step, alternately to one side
     and back (a staircase), either way round.
  B  boyscout `zB`: the same with bishop steps.
  N  quintessence `zNN`: the same with knight leaps (each leap at a right angle to the one before).
  O  rose `qNN`: knight leaps round an octagon, each the next knight leap in one rotational order,
     clockwise or anticlockwise, up to 7 leaps (the 8th would come back).
  S  short rose `NafqNafqafqN`: the rose's first one, two or three leaps.
  F  falcon `afsafzK`: a king step to an empty cell, a 45-degree turn to an empty cell, then a turn
     back (to the first direction): the camel and zebra cells, along an empty path.
A path stops at the first occupied cell, which it may capture if the piece is an enemy. A move may not
leave the mover's king attacked. The board is 6x6, files a-f, ranks 1-6.
"""
import sys

SIZE = 6
ORTHO = [(1, 0), (0, 1), (-1, 0), (0, -1)]
DIAG = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
KNIGHT_CYCLE = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]  # clockwise
COMPASS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]  # anticlockwise


def on(x, y):
    return 0 <= x < SIZE and 0 <= y < SIZE


def perpendiculars(v):
    return [(-v[1], v[0]), (v[1], -v[0])]


def crooked_paths(vectors):
    """Lists of steps: v, p, v, p, ... for each v and each perpendicular p."""
    for v in vectors:
        for p in perpendiculars(v):
            yield [v if k % 2 == 0 else p for k in range(2 * SIZE)]


def rose_paths(leaps=7):
    for i in range(8):
        for d in (1, -1):
            yield [KNIGHT_CYCLE[(i + d * k) % 8] for k in range(leaps)]


def falcon_paths():
    for i in range(8):
        for t in (1, -1):
            first = COMPASS[i]
            turned = COMPASS[(i + t) % 8]
            yield first, turned


def moves_of(board, x, y):
    """Pseudo-legal targets (x, y) of the piece on (x, y)."""
    piece = board[(x, y)]
    white = piece.isupper()
    kind = piece.upper()
    out = []

    def own(c):
        return c in board and board[c].isupper() == white

    def ride(path):
        cx, cy = x, y
        for dx, dy in path:
            cx, cy = cx + dx, cy + dy
            if not on(cx, cy) or (cx, cy) == (x, y):
                return
            if (cx, cy) in board:
                if not own((cx, cy)):
                    out.append((cx, cy))
                return
            out.append((cx, cy))

    if kind == "K":
        for dx, dy in COMPASS:
            c = (x + dx, y + dy)
            if on(*c) and not own(c):
                out.append(c)
    elif kind in "RBN":
        vectors = {"R": ORTHO, "B": DIAG, "N": [k for k in KNIGHT_CYCLE]}[kind]
        for path in crooked_paths(vectors):
            ride(path)
    elif kind == "O":
        for path in rose_paths():
            ride(path)
    elif kind == "S":
        for path in rose_paths(3):
            ride(path)
    elif kind == "F":
        for (ax, ay), (bx, by) in falcon_paths():
            c1 = (x + ax, y + ay)
            c2 = (c1[0] + bx, c1[1] + by)
            c3 = (c2[0] + ax, c2[1] + ay)
            if on(*c1) and on(*c2) and on(*c3) and c1 not in board and c2 not in board and not own(c3):
                out.append(c3)
    return sorted(set(out))


def attacked(board, cell, by_white):
    for (x, y), p in board.items():
        if p.isupper() == by_white and cell in moves_of(board, x, y):
            return True
    return False


def legal(board, white):
    result = []
    for (x, y), p in list(board.items()):
        if p.isupper() != white:
            continue
        for to in moves_of(board, x, y):
            after = dict(board)
            del after[(x, y)]
            after[to] = p
            king = next(c for c, q in after.items() if q == ("K" if white else "k"))
            if not attacked(after, king, not white):
                result.append(((x, y), to, after))
    return result


def perft(board, white, depth):
    moves = legal(board, white)
    if depth == 1:
        return len(moves)
    return sum(perft(after, not white, depth - 1) for _, _, after in moves)


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


def name(c):
    return "abcdef"[c[0]] + str(c[1] + 1)


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


def random_walk(board, white, plies, seed):
    import random

    rng = random.Random(seed)
    played = []
    for _ in range(plies):
        moves = legal(board, white)
        if not moves:
            break
        f, t, board = rng.choice(moves)
        played.append(name(f) + name(t))
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
        for f, t, after in legal(board, white):
            n = 1 if depth == 1 else perft(after, not white, depth - 1)
            print(f"{name(f)}{name(t)}: {n}")
            total += n
        print("nodes", total)
    else:
        print(perft(board, white, depth))


if __name__ == "__main__":
    main()
