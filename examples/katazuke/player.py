#!/usr/bin/env python3
"""A minimal 片付けマス player for `katazuke play`, Python 3 stdlib only: it claims
the cells next to its current cell that fit in its container, smallest first.
Run: katazuke play --A "python3 examples/katazuke/player.py" --B ... --params FILE"""
import sys

def cell(s): return int(s[1:]) - 1, ord(s[0]) - ord("a")  # "c2" -> (1, 2): row, column
def name(c): return chr(ord("a") + c[1]) + str(c[0] + 1)
def near(c):  # the neighbours of c that hold objects
    r, k = c
    return [n for n in [(r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)] if count.get(n, 0) > 0]

def answer():
    cur, room = current.get(me), capacity - load[me]
    mine = [c for c in count if owner[c] == me and c != cur]
    if cur is None:  # no current cell (cancelled by a place): move to an own cell
        mine.sort(key=lambda c: not near(c))
        return "move " + name(mine[0]) if mine else "pass"
    take, cells = {}, sorted(near(cur), key=lambda c: (count[c], c))
    for c in cells:  # claim whole cells, smallest first, while they fit
        if sum(take.values()) + count[c] <= room: take[c] = count[c]
    if not take and cells and room > 0: take[cells[0]] = room  # else fill up from one cell
    if take:
        items = " ".join(f"{name(c)}:{n}" for c, n in take.items())
        return "clear " + items + (" empty" if sum(take.values()) == room else "")
    if room <= 0: return "empty pass"
    mine = [c for c in mine if near(c)]
    return "move " + name(mine[0]) if mine else "pass"

def played(team, steps):  # apply a refereed turn, either team's
    kind = None
    for s in steps:
        if s == "empty": load[team] = 0
        elif s in ("clear", "place", "move", "pass", "timeout"): kind = s
        elif kind == "move": current[team] = cell(s)
        elif kind in ("clear", "place"):
            c, n = cell(s.split(":")[0]), int(s.split(":")[1]) if ":" in s else 1
            count[c] += n if kind == "place" else -n
            if kind == "clear":
                load[team] += n
                if count[c] == 0: owner[c] = team
            else:  # place: the cell is neutral now, and no one's current cell
                stock[team] -= n
                if owner[c] and current.get(owner[c]) == c: current[owner[c]] = None
                owner[c] = None

me, capacity, stocks, field = None, 0, [0, 0], {}
count, owner, current, load, stock = {}, {}, {}, {}, {}
for line in sys.stdin:
    w = line.split("#")[0].split()  # "#" starts a comment
    try:
        if w[0] == "quit": break
        elif w[0] == "you": me = w[1]
        elif w[0] == "capacity": capacity = int(w[1])
        elif w[0] == "stock": stocks = [int(w[1]), int(w[-1])]  # the first team's, the second's
        elif w[0] == "field":
            rows = [next(sys.stdin).split() for _ in range(int(w[1]))]
            field = {(r, k): int(n) for r, row in enumerate(rows) for k, n in enumerate(row)}
        elif w[0] == "game":  # game N first X: the field as sent, containers empty, stocks full
            count, owner, current, load = dict(field), dict.fromkeys(field), {}, {"A": 0, "B": 0}
            stock = dict(zip([w[3], "B" if w[3] == "A" else "A"], stocks))
        elif w[0] == "start":
            for s in w[2:]:
                c = cell(s.rstrip("*"))
                count[c], owner[c] = 0, w[1]
                if s.endswith("*") or len(w) == 3: current[w[1]] = c  # marked, or the only one
        elif w[0] == "played": played(w[1], w[3:])
        elif w[0] == "isready": print("readyok", flush=True)  # marks where the answer begins
        elif w[0] == "go": print(answer(), flush=True)
    except (IndexError, KeyError, ValueError, StopIteration):  # a malformed line: skip it
        if w and w[0] == "go": print("pass", flush=True)
