"""A second, independent move generator for Lords and Vassals, written directly from the specification
(shared/rules/lords-and-vassals.md: moves 4.2, turns 6.2, freezing 6.6, captures 6.7.1, counters 6.8,
the capture win of 7.1), used to cross-check the perft counts in tests/perft/lords-and-vassals.perft.
Repetition and the no-capture limit do not matter at these depths and are left out.

    python3 tests/reference/lords_and_vassals.py "POSITION" DEPTH ["MOVE MOVE ..."]

prints the root moves' counts in ASCII order, then `nodes N`, like `vdl perft --divide`.
"""
import sys
D4 = [(0,1),(0,-1),(1,0),(-1,0)]
CORNERS = {(0,0):[(0,1),(1,0)], (7,0):[(7,1),(6,0)], (0,7):[(0,6),(1,7)], (7,7):[(7,6),(6,7)]}
def on(x,y): return 0<=x<8 and 0<=y<8
def name(c): return "abcdefgh"[c[0]]+str(c[1]+1)
def cell(n): return ("abcdefgh".index(n[0]), int(n[1:])-1)

def parse(text):
    f = text.split()
    board = {}
    ranks = f[0].split('/')
    for r, rank in enumerate(ranks):
        y = 7-r; x = 0; i = 0
        while i < len(rank):
            ch = rank[i]
            if ch.isdigit(): x += int(ch); i += 1; continue
            if ch == '(':
                j = rank.index(')', i); inner = rank[i+1:j]; i = j+1
                top = piece(inner[0]); bot = piece(inner[1])
                board[(x,y)] = [top, bot]
            else:
                board[(x,y)] = [piece(ch), None]; i += 1
            x += 1
    side = f[1] if len(f) > 1 else 'b'
    done = int(f[2]) if len(f) > 2 else 0
    frozen = f[3] if len(f) > 3 else '-'
    counts = [int(n) for n in f[4].split(',')] if len(f) > 4 else [0,0,0,0]
    if frozen != '-':
        for item in frozen.split(','):
            if '/' in item:
                c = cell(item.split('/')[0]); board[c][1] = board[c][1][:2]+(True,)
            else:
                c = cell(item); board[c][0] = board[c][0][:2]+(True,)
    return {'board': {k:tuple(v) for k,v in board.items()}, 'side': side, 'done': done,
            'counts': {'b': [counts[0],counts[1]], 'w': [counts[2],counts[3]]}}

def piece(ch):
    return ('w' if ch.isupper() else 'b', ch.upper(), False)

def ctrl(board, c):
    u = board.get(c)
    return u[0][0] if u else None

def other(p): return 'w' if p == 'b' else 'b'

def moves(pos):
    board = pos['board']; P = pos['side']; out = []
    stacks = sum(1 for u in board.values() if u[1] is not None and u[0][0] == P)
    for s, (top, bot) in board.items():
        if top[0] != P or top[2]: continue
        for v in D4:
            a = (s[0]+v[0], s[1]+v[1])
            if not on(*a): continue
            if bot is not None:
                if a not in board: out.append((s, a))
                continue
            if a not in board: out.append((s, a)); continue
            ua = board[a]
            b = (s[0]+2*v[0], s[1]+2*v[1])
            if ua[1] is None and ua[0][0] != P and ua[0][1] == top[1] and on(*b) and b not in board:
                out.append((s, b))
            if top[1] == 'L' and ua[1] is None and ua[0][1] == 'V' and stacks < 2:
                out.append((s, a))
    return out

def play(pos, mv):
    board = dict(pos['board']); P = pos['side']; O = other(P)
    counts = {k: list(v) for k, v in pos['counts'].items()}
    s, d = mv
    top, bot = board[s]
    jump = abs(s[0]-d[0]) + abs(s[1]-d[1]) == 2
    unpin = bot is not None
    if d in board:  # pin
        board[d] = (top, board[d][0])
    else:
        board[d] = (top, None)
    if unpin: board[s] = (bot, None)
    else: del board[s]
    C = set()
    for v in D4:
        a = (d[0]+v[0], d[1]+v[1])
        if ctrl(board, a) == O:
            run = []; k = a
            while ctrl(board, k) == O: run.append(k); k = (k[0]+v[0], k[1]+v[1])
            if ctrl(board, k) == P: C.update(run)
        elif ctrl(board, a) == P:
            if ctrl(board, (a[0]+v[0], a[1]+v[1])) == P: C.add(a)
    for c, adj in CORNERS.items():
        if d in adj and c in board:
            n = adj[0] if adj[1] == d else adj[1]
            if ctrl(board, n) == P: C.add(c)
    for c in C:
        t, b = board[c]
        if t[0] == O: counts[P][0 if t[1] == 'L' else 1] += 1
        if b is not None: board[c] = (b, None)
        else: del board[c]
    if jump or unpin or C:
        t, b = board[d]; board[d] = (t[:2]+(True,), b)
    new = {'board': board, 'side': P, 'done': pos['done']+1, 'counts': counts}
    if won(new): return new
    if new['done'] == 4 or not moves(new):
        for c, (t, b) in list(board.items()):
            board[c] = (t[:2]+(False,), None if b is None else b[:2]+(False,))
        new['side'] = O; new['done'] = 0
    return new

def won(pos):
    return any(n >= 5 for v in pos['counts'].values() for n in v)

def perft(pos, depth):
    if depth == 0: return 1
    if won(pos): return 0
    ms = moves(pos)
    if depth == 1: return len(ms)
    return sum(perft(play(pos, m), depth-1) for m in ms)

def letter(p): return p[1] if p[0] == 'w' else p[1].lower()

def to_text(pos):
    board = pos['board']; ranks = []
    for y in range(7, -1, -1):
        out = ''; e = 0
        for x in range(8):
            u = board.get((x, y))
            if not u: e += 1; continue
            if e: out += str(e); e = 0
            out += letter(u[0]) if u[1] is None else '(' + letter(u[0]) + letter(u[1]) + ')'
        if e: out += str(e)
        ranks.append(out)
    frozen = []
    for y in range(8):
        for x in range(8):
            u = board.get((x, y))
            if u and u[0][2]: frozen.append(name((x, y)))
            if u and u[1] is not None and u[1][2]: frozen.append(name((x, y)) + '/v')
    c = pos['counts']
    return f"{'/'.join(ranks)} {pos['side']} {pos['done']} {','.join(frozen) or '-'} {c['b'][0]},{c['b'][1]},{c['w'][0]},{c['w'][1]}"


if __name__ == '__main__':
    text = sys.argv[1]; depth = int(sys.argv[2])
    pos = parse(text)
    if len(sys.argv) > 3:
        for m in sys.argv[3].split():
            a, b = m.split('-'); pos = play(pos, (cell(a), cell(b)))
    for m in sorted(moves(pos), key=lambda m: name(m[0])+'-'+name(m[1])):
        print(f"{name(m[0])}-{name(m[1])}: {perft(play(pos, m), depth-1) if depth > 1 else 1}")
    print("nodes", perft(pos, depth))
