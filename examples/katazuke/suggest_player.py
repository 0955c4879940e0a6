"""Any build of katazuke as a player over the protocol: each `go` is
answered with that build's `katazuke suggest [--level LEVEL]` on the match
log rebuilt from the lines heard so far. Two builds can then play each
other in one tournament (BENCHMARKS.md measures the computer player
against the build of issue 22's day this way). `suggest` searches afresh
each turn, where the built-in player keeps its tables from one turn to
the next; otherwise it is the same search.

    python3 suggest_player.py KATAZUKE [LEVEL]

Without LEVEL, `suggest` plays at its own default level.
"""
import json
import os
import subprocess
import sys
import tempfile

binary = sys.argv[1]
level = ["--level", sys.argv[2]] if len(sys.argv) > 2 else []
params, rows, header, games, rows_left, turn = {}, [], [], [], 0, 0
handle, log = tempfile.mkstemp(suffix=".ktz")
os.close(handle)
try:
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if rows_left:
            rows.append("  " + " ".join(words))
            rows_left -= 1
            continue
        key = words[0]
        if key in ("capacity", "stock", "team_time", "game_time"):
            params[key] = int(words[1])
        elif key == "field":
            rows, rows_left = [], int(words[1])
        elif key == "game":
            # The log's header is game 1's parameters (game 2 repeats them).
            header = header or [
                "katazuke 1",
                f"capacity: {params['capacity']}",
                f"stock: {params['stock']}",
                f"team time: {params['team_time'] / 1000}",
                f"game time: {params['game_time'] / 1000}",
                "field:",
                *rows,
            ]
            games.append(["", f"game {words[1]}", f"first: {words[3]}"])
            turn = 0
        elif key == "start":
            cells = words[2:] if len(words) > 3 else [words[2].rstrip("*")]
            games[-1].append(f"{words[1]} start: {' '.join(cells)}")
        elif key == "played":
            turn += 1
            team, charged, steps = words[1], int(words[2]), " ".join(words[3:])
            duration = "" if steps == "timeout" else f" {charged / 1000}"
            games[-1].append(f"{turn}. {team}{duration} {steps}")
        elif key == "isready":
            print("readyok", flush=True)
        elif key == "go":
            with open(log, "w") as out:
                out.write("\n".join(header + [l for game in games for l in game]) + "\n")
            found = subprocess.run(
                [binary, "suggest", log, *level, "--json"],
                capture_output=True,
                text=True,
            )
            try:
                print(json.loads(found.stdout)["action"], flush=True)
            except (ValueError, KeyError):
                sys.stderr.write(found.stderr)
                print("pass", flush=True)
        elif key == "quit":
            break
finally:
    os.unlink(log)
