#!/usr/bin/env bash
# One batch as a Slurm array job: task i of the array runs shard i
# (SLURM_ARRAY_TASK_ID among SLURM_ARRAY_TASK_COUNT, counted from the
# array's first index), writing into a shared folder. A task that is
# requeued resumes its own shard.
#
#   sbatch examples/batch/slurm-array.sh scenarios.txt /scratch/gifs
#   shubbles batch-merge /scratch/gifs        # once every task is done
#SBATCH --job-name=shubbles-batch
#SBATCH --array=1-16
#SBATCH --cpus-per-task=4
#SBATCH --requeue
set -euo pipefail
shubbles batch "$1" --out-dir "$2" --shard auto --resume --jobs "${SLURM_CPUS_PER_TASK:-1}" -q
