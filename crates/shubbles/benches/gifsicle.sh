#!/usr/bin/env bash
# Our GIFs against the lossless optimiser, in one run: for each animation,
# its bytes, the bytes of `gifsicle -O3` of it, and what gifsicle saves
# (target, issue 25: at most 0.2 %). With a baseline (the release folder of
# an earlier build holding `shubbles` and `katazuke`), also the
# whole-process time of writing each animation with both builds, the two
# alternating within every round (medians, and new / baseline).
# Needs gifsicle (Debian: apt-get install gifsicle).
# Usage: crates/shubbles/benches/gifsicle.sh [ROUNDS] [BASELINE_DIR]
#   e.g. git worktree add /tmp/old REV && (cd /tmp/old && cargo build --release)
#        crates/shubbles/benches/gifsicle.sh 7 /tmp/old/target/release
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-7}
baseline=${2:-}
command -v gifsicle >/dev/null || { echo "gifsicle.sh needs gifsicle" >&2; exit 1; }
cargo build --release --quiet --bin shubbles --bin katazuke
cargo run --release --quiet -p shubbles --example long_run -- 100 > /tmp/gifsicle-long.txt
cargo run --release --quiet -p katazuke --example random_match -- 7 7 1 120 240 > /tmp/gifsicle-m200.ktz
cargo run --release --quiet -p shubbles --example make_scenarios -- 200 > /tmp/gifsicle-s200.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$rounds" "$baseline" <<'PY'
import os, statistics, subprocess, sys, time
work, rounds, baseline = sys.argv[1], int(sys.argv[2]), sys.argv[3]
builds = {"new": "target/release"}
if baseline:
    builds["baseline"] = baseline
fig, ops = ".........@...o....ooo..xox...", "+>|<-v+^+"
long = open("/tmp/gifsicle-long.txt").read().split()
text = ["--caption", "--numbers"]
animations = [
    ("demo (26 frames)", "shubbles", ["demo"]),
    ("smooth demo", "shubbles", ["smooth", fig, ops]),
    ("smooth `long_run -- 100`", "shubbles", ["smooth", long[0], long[1]]),
    ("demo with captions and numbers", "shubbles", ["gif", fig, ops] + text),
    ("smooth demo with captions and numbers", "shubbles", ["smooth", fig, ops] + text),
    ("smooth `long_run -- 100` with captions and numbers", "shubbles",
     ["smooth", long[0], long[1]] + text),
    ("replay of practice.ktz", "katazuke", ["replay", "examples/katazuke/practice.ktz"]),
    ("replay of a 201-turn 7x7 match", "katazuke", ["replay", "/tmp/gifsicle-m200.ktz"]),
    ("200 random scenarios (batch, gif)", "shubbles",
     ["batch", "--format", "gif", "/tmp/gifsicle-s200.txt"]),
    ("200 random scenarios (batch, smooth)", "shubbles",
     ["batch", "--format", "smooth", "/tmp/gifsicle-s200.txt"]),
]

def run(build, binary, args, out):
    command = [f"{builds[build]}/{binary}"] + args
    if args[0] == "batch":
        subprocess.run(["rm", "-rf", out], check=True)
        command += ["-q", "--out-dir", out]
    else:
        command += ["-o", out]
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start

def gifs(out):
    if os.path.isdir(out):
        return [os.path.join(out, f) for f in sorted(os.listdir(out)) if f.endswith(".gif")]
    return [out]

header = "| animation | ours | `gifsicle -O3` | gifsicle saves | largest saving on one file |"
if baseline:
    header += " time, baseline | time, new | new / baseline |"
print(header)
print("| --- " * (header.count("|") - 1) + "|")
for name, binary, args in animations:
    times = {build: [] for build in builds}
    for _ in range(rounds if baseline else 1):
        for build in builds:
            times[build].append(run(build, binary, args, f"{work}/{build}.gif"))
    ours = theirs = 0
    worst = 0.0
    for path in gifs(f"{work}/new.gif"):
        optimised = subprocess.run(["gifsicle", "-O3", path], check=True,
                                   capture_output=True).stdout
        size = os.path.getsize(path)
        ours += size
        theirs += len(optimised)
        worst = max(worst, 100 * (size - len(optimised)) / size)
    row = (f"| {name} | {ours:,} | {theirs:,} | {100 * (ours - theirs) / ours:.2f} % "
           f"| {worst:.2f} % |")
    if baseline:
        old, new = (statistics.median(times[b]) for b in ("baseline", "new"))
        row += f" {old * 1000:.0f} ms | {new * 1000:.0f} ms | {new / old:.2f} |"
    print(row, flush=True)
PY
