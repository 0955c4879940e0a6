#!/usr/bin/env python3
"""A straightforward breadth-first search for the puzzle of BOX.md, in plain
Python: the baseline that `shubbles solve` is compared with in
BENCHMARKS.md. It implements the rules from BOX.md §1-§5 on its own
(strings and coordinates, no bit tricks), so it also cross-checks the answer
length of the Rust solver.

Usage: python3 benches/baseline_bfs.py [STATE]   (default: Figure 1(a))
Prints the answer, its length, the states visited and the time taken.
"""

import sys
import time
from collections import deque

ROWS = [(0, 5), (1, 6), (1, 5), (0, 5), (1, 6)]
POS = [(x, y) for y, (a, b) in enumerate(ROWS) for x in range(a, b + 1)]
CELL = {p: i for i, p in enumerate(POS)}
OPENING = 28
DIRS = {"<": (-1, 0), ">": (1, 0), "^": (0, -1), "v": (0, 1)}
GRAVITY = [(0, 1), (1, 0), (0, -1), (-1, 0)]
OPS = "+-|<>^v"  # the order the Rust solver tries them in


def settle(cells, o):
    """Falls tick by tick (BOX.md §4); None when a smole leaves."""
    dx, dy = GRAVITY[o]
    cells = list(cells)
    while True:
        creatures = [i for i, c in enumerate(cells) if c in "ox"]
        supported = set()
        changed = True
        while changed:
            changed = False
            for i in creatures:
                if i in supported:
                    continue
                x, y = POS[i]
                below = CELL.get((x + dx, y + dy))
                if below is None:
                    # Outside the box: a wall, unless it is the opening.
                    if not (i == OPENING and o == 0):
                        supported.add(i)
                        changed = True
                elif cells[below] == "@" or below in supported:
                    supported.add(i)
                    changed = True
        moving = [i for i in creatures if i not in supported]
        if not moving:
            return "".join(cells)
        new = list(cells)
        for i in moving:
            new[i] = "."
        for i in moving:
            x, y = POS[i]
            below = CELL.get((x + dx, y + dy))
            if below is None:  # through the opening
                if cells[i] == "x":
                    return None
            else:
                new[below] = cells[i]
        cells = new


def apply(state, op):
    cells, o = state
    if op in "+-|":
        o = (o + {"+": 1, "-": 3, "|": 2}[op]) % 4
    else:
        s = cells.index("@")
        x, y = POS[s]
        dx, dy = DIRS[op]
        to = CELL.get((x + dx, y + dy))
        if to is None or cells[to] != ".":
            return None
        gx, gy = GRAVITY[o]
        above = CELL.get((x - gx, y - gy))
        if above is not None and cells[above] in "ox":
            return None
        c = list(cells)
        c[s], c[to] = ".", "@"
        cells = "".join(c)
    cells = settle(cells, o)
    return None if cells is None else (cells, o)


def solve(start):
    begin = (start, 0)
    if "o" not in start:
        return "", 1
    parent = {begin: None}
    queue = deque([begin])
    while queue:
        state = queue.popleft()
        for op in OPS:
            nxt = apply(state, op)
            if nxt is None or nxt in parent:
                continue
            parent[nxt] = (state, op)
            if "o" not in nxt[0]:
                path = []
                while parent[nxt] is not None:
                    nxt, op = parent[nxt]
                    path.append(op)
                return "".join(reversed(path)), len(parent)
            queue.append(nxt)
    return None, len(parent)


def main():
    start = sys.argv[1] if len(sys.argv) > 1 else ".........@...o....ooo..xox..."
    t = time.perf_counter()
    answer, visited = solve(start)
    elapsed = time.perf_counter() - t
    if answer is None:
        print("no solution")
    else:
        print(answer)
        print("length", len(answer))
    print("states visited", visited)
    print("seconds %.2f" % elapsed)


if __name__ == "__main__":
    main()
