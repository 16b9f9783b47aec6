#!/usr/bin/env bash
# End to end, the cluster recipes as written: deploy/slurm/grade.sbatch run as every task of its
# array (SLURM_ARRAY_TASK_ID set) and then as the merge, and the two container scripts of
# deploy/kubernetes/grade-job.yaml (read out of the YAML) run with JOB_COMPLETION_INDEX set for
# every index, each end with the gradebook, summary and Canvas import of one unsharded run. The
# Jobs' shard counts agree, and deploy/Dockerfile builds on Debian 12 with apt only.
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
export LANG=C BLOCKCHECK_ROOT="$root"
fail() { echo "FAIL: $*" >&2; exit 1; }
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
for ((task = 0; task < shards; task++)); do
    SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_COUNT=$shards SLURM_CPUS_PER_TASK=2 BLOCKCHECK="$blockcheck" \
    SUBMISSIONS="$subs" GRADES="$ws/slurm" GRADE_OPTIONS="$options" bash "$sbatch" > "$ws/slurm-$task.log"
done
[[ -d "$ws/slurm/shard-1" && -d "$ws/slurm/shard-3" && ! -d "$ws/slurm/shard-4" ]] || fail "slurm: shard-1..3 expected"
SHARDS=$shards BLOCKCHECK="$blockcheck" SUBMISSIONS="$subs" GRADES="$ws/slurm" GRADE_OPTIONS="$options" \
    bash "$sbatch" merge > "$ws/slurm-merge.log"
same slurm "$ws/slurm/merged"
echo "slurm: $shards array tasks and the merge reproduce the unsharded gradebook"

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
mkdir -p "$ws/bin" && ln -s "$blockcheck" "$ws/bin/blockcheck"
grade_script="$(job_script blockcheck-grade)"; merge_script="$(job_script blockcheck-merge)"
grep -q JOB_COMPLETION_INDEX <<< "$grade_script" || fail "the grading Job's script does not use JOB_COMPLETION_INDEX"
for ((index = 0; index < n; index++)); do
    JOB_COMPLETION_INDEX=$index SHARDS=$n SUBMISSIONS="$subs" GRADES="$ws/k8s" GRADE_OPTIONS="$options" \
    PATH="$ws/bin:$PATH" bash -c "$grade_script" > "$ws/k8s-$index.log"
done
SHARDS=$n GRADES="$ws/k8s" GRADE_OPTIONS="$options" PATH="$ws/bin:$PATH" bash -c "$merge_script" > "$ws/k8s-merge.log"
same kubernetes "$ws/k8s/merged"
echo "kubernetes: $n indexed completions and the merge Job reproduce the unsharded gradebook"

# 3. The Dockerfile: Debian 12, packages from apt only (the list `./blockcheck --packages` prints).
docker="$root/deploy/Dockerfile"
[[ $(grep -c '^FROM ' "$docker") == 1 ]] && grep -q '^FROM debian:12$' "$docker" || fail "Dockerfile: one FROM debian:12 expected"
! grep -Eiq 'curl|wget|pip |npm |git clone|^ADD ' "$docker" || fail "Dockerfile: fetches something outside Debian and the repository"
grep -q 'apt-get install .*blockcheck --packages' "$docker" || fail "Dockerfile: packages should come from ./blockcheck --packages"
echo "cluster recipes: 3 passed, 0 failed"
