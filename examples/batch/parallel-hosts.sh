#!/usr/bin/env bash
# One batch over several machines with GNU parallel: shard k of N runs on
# whichever host parallel picks, each writing into the shared folder
# (NFS, or copy each host's folder back afterwards: the files and
# manifests of different shards never clash). Run it again after a crash:
# --resume keeps what every manifest proves and renders only the rest.
#
#   examples/batch/parallel-hosts.sh scenarios.txt /shared/gifs 16
set -euo pipefail
input=$1 out=$2 shards=${3:-8}
hosts=${HOSTS:-":,server1,server2"}    # ":" is this machine

seq 1 "$shards" | parallel --will-cite --sshlogin "$hosts" --jobs 1 \
  shubbles batch "$input" --out-dir "$out" --shard {}/"$shards" --resume -q
shubbles batch-merge "$out"
