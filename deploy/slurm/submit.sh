#!/usr/bin/env bash
# Submits the grading array of grade.sbatch and the merge job, which runs after the array
# whatever its tasks' outcome (afterany) and names the shares that did not finish. The logs go
# to GRADES/logs/ (grade-ARRAYJOB_TASK.log, merge-JOB.log), never the submitting folder.
#   SUBMISSIONS=/shared/submissions GRADES=/shared/grades deploy/slurm/submit.sh SHARDS
# BLOCKCHECK, GRADE_OPTIONS and JOBS are passed on as grade.sbatch describes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shards="${1:?usage: submit.sh SHARDS (with SUBMISSIONS and GRADES set)}"
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: SHARDS must be a positive number, not '$shards'" >&2; exit 2; }
: "${SUBMISSIONS:?set SUBMISSIONS}" "${GRADES:?set GRADES}"
mkdir -p "$GRADES/logs"   # Slurm opens the logs there but does not create the folder
array=$(sbatch --parsable --array=0-$((shards - 1)) --output="$GRADES/logs/grade-%A_%a.log" \
        --export=ALL,SHARDS="$shards" "$here/grade.sbatch")
array="${array%%;*}"
merge=$(sbatch --parsable --dependency=afterany:"$array" --output="$GRADES/logs/merge-%j.log" \
        --export=ALL,SHARDS="$shards",ARRAY_JOB="$array" "$here/grade.sbatch" merge)
merge="${merge%%;*}"
echo "grading array: job $array ($shards tasks); merge: job $merge -> $GRADES/merged/gradebook.csv; logs: $GRADES/logs/"
