#!/usr/bin/env bash
# End to end, the cluster recipes as written: deploy/slurm/grade.sbatch run as every task of its
# array (SLURM_ARRAY_TASK_ID set) and then as the merge, and the two container scripts of
# deploy/kubernetes/grade-job.yaml (read out of the YAML) run with JOB_COMPLETION_INDEX set for
# every index, each end with the gradebook, summary and Canvas import of one unsharded run. A
# failed, a missing and a stale shard are named by the merge, which merges the rest and exits 1.
# The Jobs' shard counts agree, the grading Pods get bubblewrap's security settings, and
# deploy/Dockerfile builds on Debian 12 with apt only. (A real Slurm: tests/long/slurm_single_node.sh.)
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
export LANG=C BLOCKCHECK_ROOT="$root"
source "$root/tests/e2e/lib/common.sh"
subs="$ws/submissions"; solved="$root/tests/solved/ch25"

# Seven students with a few chapter-25 programs each (so that few distinct sources compile).
for id in ada bob cy dee eve; do mkdir -p "$subs/$id"; done
cp "$solved"/rope_quarter_turn_table.cpp "$solved"/swiglu_ffn_2d.cpp "$subs/ada/"
cp "$solved"/rope_quarter_turn_table.cpp "$subs/bob/"
cp "$root"/chapters/ch25/rope_quarter_turn_table.cpp "$root"/chapters/ch25/swiglu_ffn_2d.cpp "$subs/cy/"
cp "$solved"/swiglu_ffn_2d.cpp "$subs/dee/"
cp "$root/tests/hostile/segfault.cpp" "$subs/eve/swiglu_ffn_2d.cpp"
mkdir -p "$subs/=2+3" && cp "$solved"/swiglu_ffn_2d.cpp "$subs/=2+3/"   # a formula for a name
mkdir -p "$subs/@sum" && cp "$solved"/rope_quarter_turn_table.cpp "$subs/@sum/"
options="--chapter ch25 --cache $ws/cache --cpu 1 --wall 2 --lms canvas"

# The reference: one unsharded run.
# shellcheck disable=SC2086
"$blockcheck" grade "$subs" --out "$ws/one" $options > "$ws/one.log"
[[ $(tr -d '\r' < "$ws/one/gradebook.csv" | wc -l) == 8 ]] || fail "the unsharded gradebook should have 7 students"
grep -q "^\"\?'=2+3" "$ws/one/lms-canvas.csv" || fail "a student id starting with = must be defused in lms-canvas.csv"
same() {  # same NAME DIR: DIR's class files equal the unsharded run's
    for f in gradebook.csv summary.txt lms-canvas.csv; do
        cmp "$ws/one/$f" "$2/$f" || fail "$1: $f differs from the unsharded run"
    done
}

# 1. Slurm: the array's tasks, then the dependent merge, by the script itself.
sbatch="$root/deploy/slurm/grade.sbatch"
shards=3
task() {  # task GRADES TASK_ID [BLOCKCHECK]: one array task of job 77
    SLURM_ARRAY_JOB_ID=77 SLURM_ARRAY_TASK_ID=$2 SLURM_ARRAY_TASK_COUNT=$shards SLURM_CPUS_PER_TASK=2 \
    BLOCKCHECK="${3:-$blockcheck}" SUBMISSIONS="$subs" GRADES="$1" GRADE_OPTIONS="$options" bash "$sbatch" > "$1-$2.log" 2>&1
}
merge() {  # merge GRADES [ARRAY_JOB]: the merge job; its status
    local s=0
    ARRAY_JOB="${2:-77}" SHARDS=$shards BLOCKCHECK="$blockcheck" GRADES="$1" GRADE_OPTIONS="$options" \
        bash "$sbatch" merge > "$1-merge.log" 2>&1 || s=$?
    echo "$s"
}
for ((t = 0; t < shards; t++)); do task "$ws/slurm" $t; done
[[ -d "$ws/slurm/shard-1" && -d "$ws/slurm/shard-3" && ! -d "$ws/slurm/shard-4" ]] || fail "slurm: shard-1..3 expected"
[[ $(cat "$ws/slurm/logs/shard-2.exit") == "77 0" ]] || fail "slurm: a task leaves 'JOB STATUS' in logs/shard-K.exit"
[[ $(merge "$ws/slurm") == 0 ]] || fail "slurm: the merge failed: $(cat "$ws/slurm-merge.log")"
same slurm "$ws/slurm/merged"
# The merge runs whatever the tasks' outcome (afterany): a failed task (its blockcheck exits 1)
# and a task that never ran are named, the finished shard is merged, and the merge exits 1.
task "$ws/partial" 0
task "$ws/partial" 1 false || true
[[ $(merge "$ws/partial") == 1 ]] || fail "slurm: a merge with failed shards should exit 1"
grep -qx "  shard-2: failed: blockcheck grade exited 1" "$ws/partial-merge.log" &&
    grep -q "^  shard-3: missing: it left no exit status" "$ws/partial-merge.log" &&
    grep -q "2 of 3 shares did not finish; their logs are in $ws/partial/logs/" "$ws/partial-merge.log" ||
    fail "slurm: the merge should name the failed and the missing shard: $(cat "$ws/partial-merge.log")"
[[ $(tr -d '\r' < "$ws/partial/merged/gradebook.csv" | wc -l) == $(($(ls "$ws/partial/shard-1/results" | wc -l) + 1)) ]] ||
    fail "slurm: the merged gradebook should hold shard 1's students"
# Exit statuses of another array job are not this run's.
[[ $(merge "$ws/slurm" 78) == 1 ]] && grep -q "shard-1: missing: its exit status is from job 77, not from array job 78" "$ws/slurm-merge.log" ||
    fail "slurm: a status of another job should not count: $(cat "$ws/slurm-merge.log")"
submit="$root/deploy/slurm/submit.sh"
grep -q -- '--dependency=afterany:' "$submit" && ! grep -q afterok "$submit" "$sbatch" || fail "slurm: the merge must depend with afterany"
grep -q -- '--output="$GRADES/logs/grade-%A_%a.log"' "$submit" && grep -q -- '--output="$GRADES/logs/merge-%j.log"' "$submit" ||
    fail "slurm: submit.sh should put the logs under GRADES/logs"
! grep -q '^#SBATCH --output' "$sbatch" || fail "slurm: no default log name (a merge's %a would be 4294967294)"
for f in "$sbatch" "$root/docs/platforms.md"; do
    grep -qF -- '--array=0-(N-1)' "$f" && ! grep -qE -- '--array=0-N([^-]|$)|0-N-1' "$f" || fail "$f: the array is --array=0-(N-1)"
done
grep -q "BLOCKCHECK=/shared/blockcheck/build/blockcheck" "$root/docs/platforms.md" || fail "docs: how to point at blockcheck on a bare node"
echo "slurm: $shards array tasks and the merge reproduce the unsharded gradebook; failed and missing shards are named"

# 2. Kubernetes: the container scripts and settings, read from the YAML.
yaml="$root/deploy/kubernetes/grade-job.yaml"
job_script() {  # job_script JOB: the `args: - |` block of that Job's container, unindented
    awk -v job="$1" '
        /^---/ { current = "" }
        /^  name: / { current = $2 }
        current == job && $0 == "        args:" { state = 1; next }
        state == 1 { if ($0 != "        - |") { print "args of " job " is not a block" > "/dev/stderr"; exit 1 } state = 2; next }
        state == 2 && /^          / { print substr($0, 11); next }
        state == 2 && /^ *$/ { print ""; next }
        state == 2 { state = 3 }
        END { if (state < 2) { print "no args block in " job > "/dev/stderr"; exit 1 } }' "$yaml"
}
job_field() {  # job_field JOB KEY: a spec field (completions, parallelism) or an env value
    awk -v job="$1" -v key="$2" '
        /^---/ { current = "" }
        /^  name: / { current = $2 }
        current != job { next }
        $0 == "  " key ":" || $1 == key ":" { print $2; exit }
        $0 == "        - name: " key { getline; gsub(/^ *value: |"/, ""); print; exit }' "$yaml"
}
n=$(job_field blockcheck-grade completions)
[[ "$n" =~ ^[0-9]+$ ]] || fail "grade-job.yaml: no completions"
[[ $(job_field blockcheck-grade SHARDS) == "$n" && $(job_field blockcheck-merge SHARDS) == "$n" ]] ||
    fail "grade-job.yaml: SHARDS of both Jobs must equal completions ($n)"
[[ $(job_field blockcheck-grade completionMode) == Indexed ]] || fail "the grading Job must be Indexed"
for setting in "hostUsers: false" "seccompProfile: {type: Unconfined}" "procMount: Unmasked"; do
    grep -qF "$setting" "$yaml" || fail "grade-job.yaml: the grading Pods need $setting for bubblewrap"
done
mkdir -p "$ws/bin" && ln -s "$blockcheck" "$ws/bin/blockcheck"
grade_script="$(job_script blockcheck-grade)"; merge_script="$(job_script blockcheck-merge)"
grep -q 'exec bash "$BLOCKCHECK_ROOT/deploy/slurm/grade.sbatch"$' <<< "$grade_script" ||
    fail "the grading Job should run grade.sbatch from the image"
for ((index = 0; index < n; index++)); do
    JOB_COMPLETION_INDEX=$index SHARDS=$n SUBMISSIONS="$subs" GRADES="$ws/k8s" GRADE_OPTIONS="$options" \
    JOBS="$(job_field blockcheck-grade JOBS)" PATH="$ws/bin:$PATH" bash -c "$grade_script" > "$ws/k8s-$index.log"
done
k8s_merge() { SHARDS=$n GRADES="$ws/k8s" GRADE_OPTIONS="$options" PATH="$ws/bin:$PATH" bash -c "$merge_script" > "$ws/k8s-merge.log" 2>&1; }
k8s_merge || fail "kubernetes: the merge Job failed: $(cat "$ws/k8s-merge.log")"
same kubernetes "$ws/k8s/merged"
rm "$ws/k8s/logs/shard-2.exit"
! k8s_merge && grep -q "^  shard-2: missing" "$ws/k8s-merge.log" || fail "kubernetes: the merge Job should name a missing shard"
echo "kubernetes: $n indexed completions and the merge Job reproduce the unsharded gradebook; a missing shard is named"

# 3. The Dockerfile: Debian 12, packages from apt only (the list `./blockcheck --packages` prints).
docker="$root/deploy/Dockerfile"
[[ -z "$(grep '^FROM ' "$docker" | grep -v -e '^FROM debian:12$' -e '^FROM debian:12 AS [a-z]*$')" ]] && grep -q '^FROM debian:12$' "$docker" ||
    fail "Dockerfile: every stage FROM debian:12 expected"
grep -q 'blockcheck --files' "$docker" || fail "Dockerfile: the image's files should come from ./blockcheck --files (the product list)"
# The copy step of the first stage, run here on the repository: the listed files, and they hold base/.
mkdir -p "$ws/image"
(cd "$root" && bash blockcheck --files | tar -cf - -T - | tar -xf - -C "$ws/image") 2> "$ws/tar.err" ||
    fail "Dockerfile: the copy of the listed files failed: $(cat "$ws/tar.err")"
[[ -f "$ws/image/base/value.hpp" && -f "$ws/image/CMakeLists.txt" && ! -e "$ws/image/tests" ]] || fail "Dockerfile: the listed files should hold base/ and no tests/"
! grep -Eiq 'curl|wget|pip |npm |git clone|^ADD ' "$docker" || fail "Dockerfile: fetches something outside Debian and the repository"
grep -q 'apt-get install .*blockcheck --packages' "$docker" || fail "Dockerfile: packages should come from ./blockcheck --packages"
grep -q -- "--security-opt seccomp=unconfined --security-opt systempaths=unconfined" "$docker" ||
    fail "Dockerfile: the docker run options bubblewrap needs should be documented"
echo "cluster recipes: 3 passed, 0 failed"
