#!/usr/bin/env bash
# One tournament as a Slurm array job: task i of the array plays shard i
# (SLURM_ARRAY_TASK_ID among SLURM_ARRAY_TASK_COUNT, counted from the
# array's first index) into its own results file in a shared folder. A
# task that is requeued resumes its own shard.
#
#   sbatch examples/katazuke/shards/slurm-array.sh /scratch/tournament
#   katazuke tournament-merge /scratch/tournament/tournament-*-of-16.jsonl   # once every task is done
#SBATCH --job-name=katazuke-tournament
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
#SBATCH --requeue
set -euo pipefail
cd "$1"
katazuke tournament builtin:4 builtin:mcts:4 builtin:5 --fields 1000 --clock virtual \
  --shard auto --jobs "${SLURM_CPUS_PER_TASK:-1}" -q > /dev/null
