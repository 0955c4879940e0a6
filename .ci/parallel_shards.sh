#!/usr/bin/env bash
# Four shards of 2,000 scenarios run through GNU parallel, one of them
# killed with SIGKILL midway and resumed through parallel again, then
# merged: the files and the manifests' lines must be byte for byte those
# of one uninterrupted run (issue 15). Installs GNU parallel if missing.
#
#   .ci/parallel_shards.sh        # after cargo build --release
#
# SHUBBLES_BIN overrides the binary (default target/release/shubbles).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${SHUBBLES_BIN:-target/release/shubbles}")

. .ci/need_parallel.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo run --quiet --locked --release --example make_scenarios -- 2000 > "$work/s.txt" 2>/dev/null
cd "$work"

"$bin" batch s.txt --out-dir one -q

# Shards 1, 3 and 4 side by side; shard 2 alone, to be killed.
parallel --will-cite --halt now,fail=1 "$bin" batch s.txt --out-dir split --shard {}/4 -q ::: 1 3 4
"$bin" batch s.txt --out-dir split --shard 2/4 --jobs 1 -q &
shard=$!
manifest=split/MANIFEST-2-of-4.jsonl
for _ in $(seq 1 2000); do
  lines=$( (wc -l < "$manifest") 2>/dev/null || echo 0)
  [ "$lines" -gt 60 ] && break
  sleep 0.01
done
kill -0 "$shard" 2>/dev/null || { echo "shard 2 ended before it could be killed" >&2; exit 1; }
kill -KILL "$shard"
wait "$shard" 2>/dev/null || true
kept=$(($(wc -l < "$manifest") - 1))
echo "shard 2 killed with $kept of 500 scenarios in its manifest"
if "$bin" batch-merge split >/dev/null 2>&1; then
  echo "batch-merge accepted a killed shard" >&2; exit 1
fi

parallel --will-cite --halt now,fail=1 "$bin" batch s.txt --out-dir split --shard {}/4 --resume ::: 2
"$bin" batch-merge split

# The files, byte for byte.
diff -r -x 'MANIFEST-*' one split
ls -a split | grep -q '^\.shubbles' && { echo "a temporary file was left" >&2; exit 1; }
# The manifests' lines, in input order, are the single run's.
lines() { for f in "$@"; do tail -n +2 "$f"; done | python3 -c '
import json, sys
lines = sorted(sys.stdin, key=lambda line: json.loads(line)["position"])
sys.stdout.write("".join(lines))'; }
cmp <(lines one/MANIFEST-1-of-1.jsonl) <(lines split/MANIFEST-*-of-4.jsonl)
echo "4 shards through GNU parallel, one killed and resumed: identical to one run"
