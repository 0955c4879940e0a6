#!/usr/bin/env bash
# One tournament over several machines with GNU parallel: shard k of N
# runs on whichever host parallel picks, each writing its own results
# file into a shared folder (NFS, or copy the files back afterwards: the
# shards' files never clash). Run it again after a crash: each shard
# resumes its own file and plays only what is missing. Then merge.
#
#   examples/katazuke/shards/parallel-hosts.sh /shared/tournament 8
set -euo pipefail
out=$1 shards=${2:-8}
hosts=${HOSTS:-":,server1,server2"}    # ":" is this machine
players=(builtin:4 builtin:mcts:4 "python3 /opt/bots/mine.py")

seq 1 "$shards" | parallel --will-cite --sshlogin "$hosts" --jobs 1 \
  katazuke tournament "${players[@]@Q}" --fields 500 --clock virtual -j 2 \
  --shard {}/"$shards" --results "$out"/tournament-{}-of-"$shards".jsonl -q ">" /dev/null
katazuke tournament-merge "$out"/tournament-*-of-"$shards".jsonl -o "$out"/tournament.jsonl
