#!/usr/bin/env bash
# A tournament of 120 matches split into four shards run through GNU
# parallel, one of them killed with SIGKILL midway and resumed through
# parallel again, then merged: the merged results file must be byte for
# byte the one a single run writes, and the standings the same (issue 23).
#
#   .ci/tournament_shards.sh      # after cargo build --release
#
# KATAZUKE_BIN overrides the binary (default target/release/katazuke).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${KATAZUKE_BIN:-target/release/katazuke}")

. .ci/need_parallel.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
players=(builtin:1 builtin:greedy builtin:random builtin:mcts:1)
options=(--fields 20 --clock virtual --think-ms 600000 -q)

"$bin" tournament "${players[@]}" "${options[@]}" --results one.jsonl > one.txt

# Shards 1, 3 and 4 side by side; shard 2 alone, to be killed.
parallel --will-cite --halt now,fail=1 "$bin" tournament "${players[@]}" "${options[@]}" \
  --shard {}/4 ">" /dev/null ::: 1 3 4
"$bin" tournament "${players[@]}" "${options[@]}" --shard 2/4 > /dev/null &
shard=$!
results=tournament-2-of-4.jsonl
for _ in $(seq 1 6000); do
  lines=$( (wc -l < "$results") 2>/dev/null || echo 0)
  [ "$lines" -gt 6 ] && break
  sleep 0.01
done
kill -0 "$shard" 2>/dev/null || { echo "shard 2 ended before it could be killed" >&2; exit 1; }
kill -KILL "$shard"
wait "$shard" 2>/dev/null || true
kept=$(($(wc -l < "$results") - 1))
echo "shard 2 killed with $kept of its 30 matches written"
if "$bin" tournament-merge tournament-*-of-4.jsonl >/dev/null 2>&1; then
  echo "tournament-merge accepted a killed shard" >&2; exit 1
fi

parallel --will-cite --halt now,fail=1 "$bin" tournament "${players[@]}" "${options[@]}" \
  --shard {}/4 ">" /dev/null ::: 2
"$bin" tournament-merge tournament-*-of-4.jsonl -o merged.jsonl > merged.txt

# The results and the standings, byte for byte.
cmp one.jsonl merged.jsonl
cmp one.txt merged.txt
echo "4 tournament shards through GNU parallel, one killed and resumed: identical to one run"
