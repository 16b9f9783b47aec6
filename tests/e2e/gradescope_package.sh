#!/usr/bin/env bash
# End to end, `blockcheck gradescope-package`: the zip unpacked into a copy of Gradescope's
# /autograder tree with the built binary where setup.sh would build it, then run_autograder on an
# honest, a wrong and a hostile submission; every results.json is checked against Gradescope's
# schema and its per-test visibility. setup.sh's own build from scratch is a long run
# (tests/long/gradescope_setup_build.sh): a whole optimised build of the project.
set -euo pipefail
blockcheck="$1"; root="$2"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
export BLOCKCHECK_ROOT="$root"   # LANG=C comes after the build: ccache hashes the locale
source "$root/tests/e2e/lib/common.sh"
solved="$root/tests/solved/ch25"
ag="$ws/autograder"   # stands for /autograder

# 1. The package, as Gradescope unpacks it: the zip in source/, run_autograder copied beside it.
LANG=C "$blockcheck" gradescope-package "$ws/autograder.zip" --chapter ch25 --variants > "$ws/package.log"
grep -q "grades 10 exercises, 49 points" "$ws/package.log" || fail "package summary: $(cat "$ws/package.log")"
mkdir -p "$ag/source" "$ag/results"
(cd "$ag/source" && cmake -E tar xf "$ws/autograder.zip")
for f in setup.sh run_autograder blockcheck CMakeLists.txt checker/main.cpp chapters/blockcheck.hpp data/exercises/ch25; do
    [[ -e "$ag/source/$f" ]] || fail "the zip lacks $f"
done
[[ -x "$ag/source/setup.sh" && -x "$ag/source/run_autograder" ]] || fail "setup.sh and run_autograder must be executable"
[[ ! -e "$ag/source/build" && ! -e "$ag/source/.git" && ! -e "$ag/source/tests" ]] || fail "the zip holds build output, .git or tests"
grep -qx "grade_options=(--chapter 'ch25' --variants)" "$ag/source/run_autograder" || fail "run_autograder's options not filled in"
cp "$ag/source/run_autograder" "$ag/run_autograder"

# 2. Where setup.sh's build step puts the binary (tests/long/gradescope_setup_build.sh runs it).
# (with the jail-session runner that is built beside it)
mkdir -p "$ag/source/build" && cp "$blockcheck" "$(dirname "$blockcheck")/blockcheck-jail" "$ag/source/build/"
[[ -x "$ag/source/build/blockcheck" ]] || fail "setup.sh build made no build/blockcheck"
export LANG=C

# 3. run_autograder on three submissions.
echo '{"users": [{"email": "ada@example.edu", "id": 1, "name": "Ada"}]}' > "$ag/submission_metadata.json"
echo "BLOCKCHECK-SECRET" > "$ag/source/secret.txt"
submit() {  # submit NAME: run_autograder on $ws/NAME as /autograder/submission; results in $ws/NAME.json
    rm -rf "$ag/submission" "$ag/results/results.json" && cp -r "$ws/$1" "$ag/submission"
    (cd "$ag" && ./run_autograder) > "$ws/$1.log" 2>&1 || { cat "$ws/$1.log"; fail "run_autograder failed on $1"; }
    cp "$ag/results/results.json" "$ws/$1.json"
}
mkdir -p "$ws/honest" "$ws/wrong" "$ws/hostile"
cp "$solved"/*.cpp "$ws/honest/"
cp "$solved/rope_quarter_turn_table.cpp" "$ws/wrong/"
cp "$root/tests/e2e/lib/book_constants_swiglu_ffn_2d.cpp" "$ws/wrong/swiglu_ffn_2d.cpp"
cp "$root/tests/hostile/fs_hunter.cpp" "$ws/hostile/rms_norm_zero_row.cpp"
cp "$root/tests/hostile/fork_storm.cpp" "$ws/hostile/swiglu_ffn_2d.cpp"
cp "$root/tests/hostile/segfault.cpp" "$ws/hostile/rms_norm_shift.cpp"
cp "$solved/rope_quarter_turn_table.cpp" "$ws/hostile/"
for s in honest wrong hostile; do submit "$s"; done

# Gradescope's schema: https://gradescope-autograders.readthedocs.io/en/latest/specs/
schema='
  def vis: . == null or IN("visible", "hidden", "after_due_date", "after_published");
  (.score | type == "number") and (.output | type == "string")
  and (.output_format | IN("text", "html", "simple_format", "md", "ansi")) and (.visibility | vis)
  and (.stdout_visibility | vis) and (.tests | type == "array" and length > 0)
  and all(.tests[]; (.name | type == "string") and (.status | IN("passed", "failed"))
          and (.output | type == "string") and (.visibility | vis)
          and ((has("score") | not) or ((.score | type == "number") and (.max_score | type == "number")
                                        and .score >= 0 and .score <= .max_score)))
  and ((.score - ([.tests[] | .score // 0] | add)) | fabs < 1e-9)'
for s in honest wrong hostile; do
    jq -e "$schema" "$ws/$s.json" > /dev/null || fail "$s: results.json does not follow Gradescope's schema"
done
q() { jq -r "$2" "$ws/$1.json"; }
# Variant inputs: the scored tests show after the due date; the book's inputs are visible feedback.
[[ $(q honest '.score') == 49 ]] || fail "honest: 49 points expected, got $(q honest .score)"
[[ $(q honest '[.tests[] | select(has("max_score")) | .visibility] | unique | join(",")') == after_due_date ]] ||
    fail "with --variants the scored tests should show after the due date"
[[ $(q honest '[.tests[] | select(has("max_score") | not) | .visibility] | unique | join(",")') == visible ]] ||
    fail "the book's-input feedback tests should be visible"
[[ $(q honest '[.tests[] | select(.status != "passed")] | length') == 0 ]] || fail "honest: every test should pass"
[[ $(q wrong '[.tests[] | select(.name == "swiglu_ffn_2d: gate (book'"'"'s inputs)") | .status][0]') == passed ]] ||
    fail "wrong: the book's constants pass on the book's inputs"
[[ $(q wrong '[.tests[] | select(.name == "swiglu_ffn_2d: gate") | .status][0]') == failed ]] ||
    fail "wrong: the book's constants fail on the variant's inputs"
wrong_score=$(q wrong .score)
[[ $(jq -n "$wrong_score >= 6 and $wrong_score < 12") == true ]] || fail "wrong: 6 to 11 points expected (rope_quarter_turn_table and part of swiglu_ffn_2d), got $wrong_score"
for part in "rms_norm_zero_row" "swiglu_ffn_2d" "rms_norm_shift"; do
    [[ $(q hostile "[.tests[] | select(has(\"max_score\") and (.name | startswith(\"$part:\"))) | .score] | add") == 0 ]] ||
        fail "hostile: $part should score 0"
done
[[ $(q hostile .score) == 6 ]] || fail "hostile: only rope_quarter_turn_table's 6 points expected, got $(q hostile .score)"
! grep -q BLOCKCHECK-SECRET "$ws"/*.json || fail "a hostile program read the grader's files"
echo "variants: honest $(q honest .score)/49, wrong $wrong_score/49, hostile $(q hostile .score)/49"

# 4. Without --variants: every test scored and visible (only run_autograder changes).
"$blockcheck" gradescope-package "$ws/plain.zip" --chapter ch25 > /dev/null
(cd "$ws" && mkdir plain && cd plain && cmake -E tar xf "$ws/plain.zip" run_autograder)
grep -qx "grade_options=(--chapter 'ch25')" "$ws/plain/run_autograder" || fail "plain run_autograder's options"
cp "$ws/plain/run_autograder" "$ag/run_autograder"
submit honest
[[ $(q honest '.score') == 49 && $(q honest '[.tests[] | .visibility] | unique | join(",")') == visible ]] ||
    fail "without --variants: 49 points and every test visible expected"
[[ $(q honest '[.tests[] | select(has("max_score") | not)] | length') == 0 ]] || fail "without --variants every test is scored"

# 5. No sandbox on Gradescope's machine (forced here): run_autograder runs nothing and fails
# loudly, with a results.json that says why; packed with --no-sandbox it grades and says so.
no_sandbox() {  # no_sandbox NAME: run_autograder on $ws/NAME without a sandbox; its status
    rm -rf "$ag/submission" && cp -r "$ws/$1" "$ag/submission"
    local s=0
    (cd "$ag" && BLOCKCHECK_GRADE_ISOLATION=$([[ $(id -u) == 0 ]] && echo uid_only || echo limits_only) ./run_autograder) > "$ws/$1.log" 2>&1 || s=$?
    cp "$ag/results/results.json" "$ws/$1.json"
    echo "$s"
}
s=$(no_sandbox honest)
[[ $s == 4 ]] || fail "run_autograder without a sandbox should exit 4, got $s: $(cat "$ws/honest.log")"
grep -q "refusing to run the students' programs: no sandbox works here" "$ws/honest.log" || fail "run_autograder's log should explain"
[[ $(q honest .score) == 0 ]] && q honest .output | grep -q "could not isolate programs" ||
    fail "the refused results.json should score 0 and say why: $(cat "$ws/honest.json")"
"$blockcheck" gradescope-package "$ws/unsafe.zip" --chapter ch25 --no-sandbox > /dev/null 2> "$ws/unsafe.log"
grep -q -- "--no-sandbox: where Gradescope's machine has no sandbox" "$ws/unsafe.log" || fail "gradescope-package --no-sandbox should warn"
(cd "$ws" && mkdir unsafe && cd unsafe && cmake -E tar xf "$ws/unsafe.zip" run_autograder)
grep -qx "grade_options=(--chapter 'ch25' --no-sandbox)" "$ws/unsafe/run_autograder" || fail "--no-sandbox not packed"
cp "$ws/unsafe/run_autograder" "$ag/run_autograder"
s=$(no_sandbox honest)
[[ $s == 0 && $(q honest .score) == 49 ]] || fail "packed with --no-sandbox: 49 points and exit 0 expected, got $s"
q honest .output | grep -q "^Graded without a sandbox" || fail "packed with --no-sandbox: the output should tell the student"
# A grader that cannot run at all still leaves a results.json and a non-zero exit.
mv "$ag/source/build/blockcheck" "$ag/source/build/blockcheck.moved"
s=$(no_sandbox honest)
[[ $s != 0 && $(q honest .score) == 0 ]] && q honest .output | grep -q "The autograder failed" ||
    fail "run_autograder without its grader should fail loudly: status $s, $(cat "$ws/honest.json")"
mv "$ag/source/build/blockcheck.moved" "$ag/source/build/blockcheck"

# 6. Bad usage exits 2.
expect2() { local s=0; "$@" > /dev/null 2>&1 || s=$?; [[ $s == 2 ]] || fail "'$*' should exit 2, got $s"; }
expect2 "$blockcheck" gradescope-package "$ws/x.tar"
expect2 "$blockcheck" gradescope-package "$ws/x.zip" --chapter no_such_chapter
echo "gradescope package: 6 passed, 0 failed"
