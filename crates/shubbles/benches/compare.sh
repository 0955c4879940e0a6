#!/usr/bin/env bash
# Compares the demo GIF against what a user would otherwise use, in one run:
#  - size: our file against `gifsicle -O3` of the same file;
#  - time: our whole run (simulate, render, encode: `shubbles demo`) against
#    ImageMagick merely assembling the same frames from PNGs
#    (`convert -delay 100 -loop 0 FRAMES -layers Optimize out.gif`).
# Needs gifsicle and ImageMagick (Debian: apt-get install gifsicle imagemagick).
# Usage: benches/compare.sh [RUNS]   (default 20 runs per timed command)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
for tool in gifsicle convert; do
  command -v "$tool" >/dev/null || { echo "compare.sh needs $tool" >&2; exit 1; }
done
convert -version 2>/dev/null | grep -q ImageMagick || { echo "compare.sh needs ImageMagick's convert" >&2; exit 1; }

cargo build --release --quiet
bin=$PWD/target/release/shubbles
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" demo -o "$work/demo.gif"
gifsicle -O3 "$work/demo.gif" -o "$work/demo-O3.gif"
# The frames ImageMagick gets to assemble: our own frames, as full PNGs.
convert "$work/demo.gif" -coalesce "$work/frame-%02d.png"

python3 - "$work" "$bin" "$runs" <<'PY'
import os, statistics, subprocess, sys, time
work, binary, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
ours = os.path.getsize(f"{work}/demo.gif")
squeezed = os.path.getsize(f"{work}/demo-O3.gif")
frames = sorted(f for f in os.listdir(work) if f.startswith("frame-"))
print(f"demo GIF: {ours} bytes, {len(frames)} frames; gifsicle -O3: {squeezed} bytes "
      f"(saves {100 * (ours - squeezed) / ours:.1f} %)")

def median_seconds(command):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=work, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)

# Interleaved pairs would be fairer on a noisy machine; medians of many runs
# are close enough for a ratio this large.
shubbles = median_seconds([binary, "demo", "-o", f"{work}/ours.gif"])
magick = median_seconds(["convert", "-delay", "100", "-loop", "0", *frames,
                         "-layers", "Optimize", f"{work}/magick.gif"])
magick_size = os.path.getsize(f"{work}/magick.gif")
print(f"shubbles demo (simulate, render, encode): {shubbles * 1000:.1f} ms median of {runs}")
print(f"ImageMagick assembling the same frames:   {magick * 1000:.1f} ms median of {runs} ({magick_size} bytes)")
print(f"ratio: ours takes {shubbles / magick:.3f} of ImageMagick's time ({magick / shubbles:.1f}x faster)")
PY
