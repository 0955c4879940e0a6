#!/usr/bin/env bash
# The three animation formats against each other, in one run: for each
# animation, the bytes of the GIF, the animated PNG and the lossless WebP,
# and the whole-process time of writing each (the formats alternating
# within every round; medians). Where libwebp's gif2webp is installed
# (Debian: apt-get install webp), also what a user would otherwise do for a
# WebP: convert our GIF with `gif2webp` (its defaults: lossless, effort
# 75 of 100, method 4), timed alone, after our GIF was written; 3 rounds at
# most, as it is slow.
# Usage: crates/shubbles/benches/formats.sh [ROUNDS]   (default 7)
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-7}
cargo build --release --quiet --bin shubbles --bin katazuke
cargo run --release --quiet -p shubbles --example long_run -- 100 > /tmp/formats-long.txt
cargo run --release --quiet -p katazuke --example random_match -- 7 7 1 120 240 > /tmp/formats-m200.ktz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$rounds" <<'PY'
import os, shutil, statistics, subprocess, sys, time
work, rounds = sys.argv[1], int(sys.argv[2])
shubbles, katazuke = "target/release/shubbles", "target/release/katazuke"
fig, ops = ".........@...o....ooo..xox...", "+>|<-v+^+"
long = open("/tmp/formats-long.txt").read().split()
animations = [
    ("demo (26 frames)", [shubbles, "demo"]),
    ("smooth demo", [shubbles, "smooth", fig, ops]),
    ("smooth `long_run -- 100`", [shubbles, "smooth", long[0], long[1]]),
    ("replay of practice.ktz", [katazuke, "replay", "examples/katazuke/practice.ktz"]),
    ("replay of a 201-turn 7x7 match", [katazuke, "replay", "/tmp/formats-m200.ktz"]),
]
gif2webp = shutil.which("gif2webp")
print("| animation | GIF | APNG | WebP | APNG / GIF | WebP / GIF | time GIF | time APNG | time WebP |"
      + (" gif2webp of our GIF | its time |" if gif2webp else ""))
print("| --- " * (9 + (2 if gif2webp else 0)) + "|")
for name, command in animations:
    times = {ext: [] for ext in ("gif", "apng", "webp")}
    for _ in range(rounds):
        for ext in times:
            out = f"{work}/a.{ext}"
            start = time.perf_counter()
            subprocess.run(command + ["-q", "-o", out] if command[0] == shubbles else command + ["-o", out],
                           check=True, stderr=subprocess.DEVNULL)
            times[ext].append(time.perf_counter() - start)
    size = {ext: os.path.getsize(f"{work}/a.{ext}") for ext in times}
    median = {ext: statistics.median(t) for ext, t in times.items()}
    row = (f"| {name} | {size['gif']:,} | {size['apng']:,} | {size['webp']:,} "
           f"| {size['apng'] / size['gif']:.2f} | {size['webp'] / size['gif']:.2f} "
           f"| {median['gif'] * 1000:.0f} ms | {median['apng'] * 1000:.0f} ms | {median['webp'] * 1000:.0f} ms |")
    if gif2webp:
        conversions = []
        for _ in range(min(rounds, 3)):
            start = time.perf_counter()
            subprocess.run([gif2webp, "-quiet",
                            f"{work}/a.gif", "-o", f"{work}/converted.webp"], check=True)
            conversions.append(time.perf_counter() - start)
        row += (f" {os.path.getsize(f'{work}/converted.webp'):,} "
                f"| {statistics.median(conversions) * 1000:.0f} ms |")
    print(row, flush=True)
PY
