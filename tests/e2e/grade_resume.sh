#!/usr/bin/env bash
# End to end, `blockcheck grade` across runs and machines: a run killed in the middle and started
# again ends with the same gradebook as an uninterrupted run, without grading again the students
# it had finished; shards merged equal one run; `--gradescope` writes Gradescope's results.json;
# a recorded variant seed reproduces with `check --variant`; bad usage exits 2.
set -euo pipefail
blockcheck="$1"; root="$2"
ws="$(mktemp -d)"; trap 'if [[ -n "${pid:-}" ]]; then kill -9 "$pid" 2>/dev/null || true; fi; rm -rf "$ws"' EXIT
source "$root/tests/e2e/lib/common.sh"
chapter25_workspace "$ws"
subs="$ws/submissions"; solved="$root/tests/solved/ch25"
limits=(--cpu 1 --wall 2 --jobs 2 --cache "$ws/cache" --variants)

student() {  # student ID: every exercise solved
    mkdir -p "$subs/$1"; cp "$solved"/*.cpp "$subs/$1/"
}
for id in ada bob cy; do student "$id"; done
mkdir -p "$subs/tpl" && cp "$root"/chapters/ch25/*.cpp "$subs/tpl/"
# The book's constants: right on the book's inputs, wrong on a variant.
student consts
cp "$root/tests/e2e/lib/book_constants_swiglu_ffn_2d.cpp" "$subs/consts/swiglu_ffn_2d.cpp"
# Slow students (a sleeper each), so that a run can be caught in the middle.
for id in slow1 slow2 slow3 slow4; do
    student "$id"; cp "$root/tests/hostile/sleeper.cpp" "$subs/$id/rms_norm_shift.cpp"
done
n=$(ls "$subs" | wc -l)

# What a run writes is the same for a resumed, a sharded and an uninterrupted run, byte for byte,
# but for the fields that describe the run rather than the result (docs/instructors.md): the
# seconds measured and whether a compile came from the cache.
untimed() { sed 's/ time="[0-9.]*"//' "$1"; }
timeless() { jq 'walk(if type == "object" then del(.seconds, .compile_seconds, .run_seconds, .compile_cached) else . end)' "$1"; }
same_outputs() {  # REFERENCE OTHER WHAT
    local f
    for f in gradebook.csv summary.txt report.html insight.json insight.csv; do
        cmp "$1/$f" "$2/$f" || fail "$3: $f differs from one run"
    done
    cmp <(untimed "$1/junit.xml") <(untimed "$2/junit.xml") || fail "$3: junit.xml differs from one run"
    [[ $(ls "$2/results" | wc -l) == "$n" ]] || fail "$3: $n results files expected"
    for f in "$1"/results/*.json; do
        cmp <(timeless "$f") <(timeless "$2/results/${f##*/}") || fail "$3: results/${f##*/} differs from one run"
    done
    for f in "$1"/gradescope/*.json; do
        cmp "$f" "$2/gradescope/${f##*/}" || fail "$3: gradescope/${f##*/} differs from one run"
    done
}

# 1. The reference: one uninterrupted run.
"$blockcheck" grade "$subs" --out "$ws/ref" "${limits[@]}" > "$ws/ref.log"
[[ $(tr -d '\r' < "$ws/ref/gradebook.csv" | wc -l) == $((n + 1)) ]] || fail "reference gradebook: $n rows expected"

# 2. Killed in the middle (SIGKILL: no chance to clean up), then started again.
"$blockcheck" grade "$subs" --out "$ws/killed" "${limits[@]}" > "$ws/killed1.log" 2>&1 & pid=$!
for _ in $(seq 600); do
    [[ $(ls "$ws/killed/results" 2> /dev/null | wc -l) -ge 3 ]] && break
    sleep 0.05
done
kill -9 "$pid"; wait "$pid" 2> /dev/null || true
done_before=$(ls "$ws/killed/results" | wc -l)
[[ $done_before -ge 3 && $done_before -lt $n ]] || echo "note: killed after $done_before of $n students"
[[ ! -e "$ws/killed/gradebook.csv" ]] || fail "a killed run should not have written the gradebook"
declare -A inode
for f in "$ws"/killed/results/*.json; do inode[$f]=$(stat -c %i "$f"); done
"$blockcheck" grade "$subs" --out "$ws/killed" "${limits[@]}" > "$ws/killed2.log"
# What the killed run had started does not live on (the restart ends the orphans as root).
if [[ $(id -u) == 0 ]]; then
    left="$(ps -eo pid,ppid,stat,uid,etime,args | awk 'NR > 1 && $3 !~ /^Z/ && $4 >= 1900000000')"
    [[ -z "$left" ]] || { echo "$left"; fail "programs of the killed run live on"; }
fi
same_outputs "$ws/ref" "$ws/killed" "the resumed run"
for f in "${!inode[@]}"; do
    [[ $(stat -c %i "$f") == "${inode[$f]}" ]] || fail "$(basename "$f") was graded again after the restart"
done
[[ $(grep -c "unchanged" "$ws/killed2.log") -ge $done_before ]] || fail "the restart should report the finished students unchanged"
echo "killed after $done_before of $n students; the restart graded $((n - done_before)) and kept the rest"

# 3. Nothing changed: nobody is graded again.
start=$(date +%s%N)
"$blockcheck" grade "$subs" --out "$ws/killed" "${limits[@]}" > "$ws/again.log"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q "0 graded, $n unchanged" "$ws/again.log" || fail "an unchanged rerun should grade nobody: $(tail -1 "$ws/again.log")"
cmp "$ws/ref/gradebook.csv" "$ws/killed/gradebook.csv" || fail "the unchanged rerun's gradebook differs"
echo "unchanged rerun of $n students: $ms ms"

# 4. Three shards merged equal one run.
for k in 1 2 3; do "$blockcheck" grade "$subs" --out "$ws/shard$k" --shard "$k/3" "${limits[@]}" > /dev/null; done
rows=0; for k in 1 2 3; do rows=$((rows + $(tr -d '\r' < "$ws/shard$k/gradebook.csv" | wc -l) - 1)); done
[[ $rows == "$n" ]] || fail "the shards should hold $n students together, got $rows"
"$blockcheck" grade --merge "$ws/shard1" "$ws/shard2" "$ws/shard3" --out "$ws/merged" > /dev/null
same_outputs "$ws/ref" "$ws/merged" "the merged shards"
# The slow students timed out: their feedback names the limits, not a time measured under load.
grep -q "stopped at the time limit (1 s CPU, 2 s wall)" "$ws/ref/results/slow1.json" || fail "slow1's timeout should state the limits"

# 5. Gradescope's run_autograder step.
mkdir -p "$ws/autograder/results"
echo '{"users": [{"email": "ada@example.edu", "id": 1, "name": "Ada"}]}' > "$ws/autograder/meta.json"
BLOCKCHECK_GRADESCOPE_SUBMISSION="$subs/consts" BLOCKCHECK_GRADESCOPE_RESULTS="$ws/autograder/results/results.json" \
BLOCKCHECK_GRADESCOPE_METADATA="$ws/autograder/meta.json" \
    "$blockcheck" grade --gradescope --variants --cpu 1 --wall 2 > "$ws/gs.log"
gs="$ws/autograder/results/results.json"
# With --variants the book's-input tests come first, visible and without points; every scored
# test carries its max_score.
[[ $(json 'has("score") and has("output") and ([.tests[] | select(has("max_score"))] | length > 0)
           and all(.tests[] | select(has("score")); has("max_score"))' "$gs") == true ]] \
    || fail "Gradescope's results.json lacks score, output, tests or their max_score"
[[ $(json '[.tests[] | select(.name == "swiglu_ffn_2d: gate")] | length' "$gs") == 1 ]] || fail "Gradescope's results.json lacks swiglu_ffn_2d: gate"
[[ $(json '[.tests[].status] | unique | join(",")' "$gs") == failed,passed ]] || fail "Gradescope's tests should be passed and failed"
[[ $(json '.score' "$gs") == 4[0-8]* ]] || fail "the constants should lose points on ada@example.edu's variant: $(head -3 "$gs")"

# 6. A recorded seed reproduces: the same program checked on that variant scores the same.
seed=$(json '.exercises[] | select(.id == "swiglu_ffn_2d") | .variant' "$ws/ref/results/consts.json")
recorded=$(json '.exercises[] | select(.id == "swiglu_ffn_2d") | .score' "$ws/ref/results/consts.json")
[[ -n "$seed" && -n "$recorded" ]] || fail "no variant seed recorded for consts/swiglu_ffn_2d"
cp "$subs/consts/swiglu_ffn_2d.cpp" "$ws/chapters/ch25/"
"$blockcheck" check swiglu_ffn_2d --variant "$seed" --json > "$ws/check.json" || true
[[ $(json '.score' "$ws/check.json") == "$recorded" ]] || fail "check --variant $seed should score $recorded like the batch did"
"$blockcheck" run swiglu_ffn_2d --variant "$seed" | grep -q "# variant $seed" || fail "run --variant $seed"
echo "variant $seed of consts/swiglu_ffn_2d reproduces: $recorded points"

# 7. Bad usage exits 2.
expect2() { local s=0; "$@" > /dev/null 2>&1 || s=$?; [[ $s == 2 ]] || fail "'$*' should exit 2, got $s"; }
expect2 "$blockcheck" grade --out "$ws/x"
expect2 "$blockcheck" grade "$subs" --shard 4/3 --out "$ws/x"
expect2 "$blockcheck" grade "$ws/no-such-folder" --out "$ws/x"
expect2 "$blockcheck" grade --merge "$subs" --out "$ws/x"
cp -r "$subs/ada" "$ws/ada-again"; mkdir -p "$ws/second"; mv "$ws/ada-again" "$ws/second/ada"
expect2 "$blockcheck" grade "$subs" "$ws/second" --out "$ws/x"
echo "grade resume: 1 passed, 0 failed"
