#!/usr/bin/env bash
# Submits the grading array of grade.sbatch and the merge job that waits for all of it.
#   SUBMISSIONS=/shared/submissions GRADES=/shared/grades deploy/slurm/submit.sh SHARDS
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shards="${1:?usage: submit.sh SHARDS (with SUBMISSIONS and GRADES set)}"
: "${SUBMISSIONS:?set SUBMISSIONS}" "${GRADES:?set GRADES}"
array=$(sbatch --parsable --array=0-$((shards - 1)) --export=ALL,SHARDS="$shards" "$here/grade.sbatch")
merge=$(sbatch --parsable --dependency=afterok:"${array%%;*}" --export=ALL,SHARDS="$shards" "$here/grade.sbatch" merge)
echo "grading array: job $array ($shards tasks); merge: job $merge -> $GRADES/merged/gradebook.csv"
