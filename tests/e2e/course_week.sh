#!/usr/bin/env bash
# End to end, a course's first week (issue 33): a class of three (a folder, a .tar, a .tar.gz)
# graded on a three-exercise assignment counts only those exercises; a misnamed file is named with
# the closest exercise; `grade` gives each student inputs of their own by default (--book-inputs-only
# the old way) and `--chapter` with `--assignment` is refused; a TA runs and checks one student's
# program as grade does (`run ID --student`, `check ID --student`), refused without a sandbox
# unless --no-sandbox (exit 4).
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
chmod 711 "$ws"  # as root, compiles run as a throw-away uid that must reach the cache (docs/sandbox.md)
export BLOCKCHECK_ROOT="$root" LANG=C
source "$root/tests/e2e/lib/common.sh"
solved="$root/tests/solved/ch25"
subs="$ws/submissions"
mkdir -p "$subs/ada" "$ws/bob" "$ws/cy"
cp "$solved/swiglu_ffn_2d.cpp" "$solved/rms_norm_zero_row.cpp" "$subs/ada/"
cp "$solved/rope_quarter_turn_table.cpp" "$subs/ada/"
cp "$solved/swiglu_ffn_2d.cpp" "$ws/bob/swiglu_ffn2d.cpp"          # misnamed
cp "$solved/rms_norm_zero_row.cpp" "$ws/bob/"
tar -cf "$subs/bob.tar" -C "$ws/bob" swiglu_ffn2d.cpp rms_norm_zero_row.cpp
cp "$root/tests/e2e/lib/book_constants_swiglu_ffn_2d.cpp" "$ws/cy/swiglu_ffn_2d.cpp"  # the book's numbers
tar -czf "$subs/cy.tar.gz" -C "$ws/cy" swiglu_ffn_2d.cpp
cat > "$ws/week1.json" <<'EOF'
{"name": "week 1", "exercises": [{"id": "swiglu_ffn_2d", "points": 3}, {"id": "rms_norm_zero_row"},
 {"id": "rope_quarter_turn_table"}]}
EOF
options=(--cache "$ws/cache" --jobs 2 --cpu 1 --wall 2)

# 1. The assignment: three columns, its points, the misnamed file named, variants by default.
"$blockcheck" grade "$subs" --out "$ws/out" --assignment "$ws/week1.json" "${options[@]}" > "$ws/grade.log" 2>&1 ||
    { cat "$ws/grade.log"; fail "grade --assignment exited $?"; }
cat "$ws/grade.log"
grep -q "grading 3 students with 2 jobs, variant inputs" "$ws/grade.log" || fail "a class gets variant inputs by default"
head -1 "$ws/out/gradebook.csv" | tr -d '\r' | grep -qx "student,rope_quarter_turn_table,swiglu_ffn_2d,rms_norm_zero_row,total" ||
    fail "the gradebook's columns are the assignment's: $(head -1 "$ws/out/gradebook.csv")"
max=$(json '.max_score' "$ws/out/results/ada.json")
[[ $max == $(json '[.exercises[] | .max_score] | add' "$ws/out/results/ada.json") && $(json '.exercises | length' "$ws/out/results/ada.json") == 3 ]] ||
    fail "ada's result should hold the three exercises"
[[ $(json '.exercises[] | select(.id=="swiglu_ffn_2d") | .max_score' "$ws/out/results/ada.json") == 3 ]] || fail "swiglu_ffn_2d is worth 3 here"
[[ $(json '.misnamed_files[0].did_you_mean' "$ws/out/results/bob.json") == "swiglu_ffn_2d.cpp" ]] || fail "bob's misnamed file should be named"
grep -qF "swiglu_ffn2d.cpp: did you mean swiglu_ffn_2d.cpp?" "$ws/out/gradescope/bob.json" || fail "the Gradescope feedback names the misnamed file"
grep -qF 'id="student-bob"' "$ws/out/report.html" || fail "report.html has a section for bob"
! grep -q "kv_cache_sizes" "$ws/out/report.html" || fail "report.html should have no row of an exercise not assigned"
[[ $(json '.exercises[] | select(.id=="swiglu_ffn_2d") | .variant' "$ws/out/results/cy.json") != null ]] || fail "cy graded on a variant"
[[ $(json '.exercises[] | select(.id=="swiglu_ffn_2d") | .score' "$ws/out/results/cy.json") != 3 ]] ||
    fail "the book's numbers earn no full marks on a student's own inputs"

# 2. --book-inputs-only: the old way (the book's numbers score on the book's inputs).
"$blockcheck" grade "$subs" --out "$ws/book" --exercises swiglu_ffn_2d --book-inputs-only "${options[@]}" > "$ws/book.log" 2>&1 ||
    { cat "$ws/book.log"; fail "grade --book-inputs-only exited $?"; }
! grep -q "variant inputs" "$ws/book.log" || fail "--book-inputs-only grades on the book's inputs"
[[ $(json '.score' "$ws/book/results/cy.json") == 6 ]] || fail "on the book's inputs cy's constants score 6"

# 3. Two ways of choosing the exercises at once are refused; an unknown id names the closest.
s=0; "$blockcheck" grade "$subs" --out "$ws/x" --chapter ch25 --assignment "$ws/week1.json" > /dev/null 2> "$ws/err" || s=$?
[[ $s == 2 ]] && grep -q "give one of --chapter, --assignment and --exercises" "$ws/err" || fail "--chapter with --assignment: exit 2, got $s"
s=0; "$blockcheck" grade "$subs" --out "$ws/x" --exercises swiglu_ffn_2d,kv_cache_size > /dev/null 2> "$ws/err" || s=$?
[[ $s == 2 ]] && grep -qF 'no exercise "kv_cache_size"; did you mean "kv_cache_sizes"?' "$ws/err" || fail "an unknown id: exit 2 and a suggestion"

# 4. A TA's look at one student: run and check as grade does (the variant seed from the archive's name).
"$blockcheck" run swiglu_ffn_2d --student "$subs/cy.tar.gz" > "$ws/run.txt" 2>&1 || true
seed=$(sed -n 's/^# student cy · swiglu_ffn_2d · variant \([0-9]*\)$/\1/p' "$ws/run.txt")
# (the seed is a string of digits: exact for jq 1.6 and JavaScript too)
[[ -n $seed ]] && grep -q "\"variant\": \"$seed\"," "$ws/out/results/cy.json" ||
    { cat "$ws/run.txt"; fail "run --student should run cy's program on the variant grade used"; }
grep -q "^swiglu_ffn = " "$ws/run.txt" || fail "run --student shows the program's output"
s=0; "$blockcheck" check swiglu_ffn_2d --student "$subs/cy.tar.gz" > "$ws/check.txt" 2>&1 || s=$?
cat "$ws/check.txt"
[[ $s == 1 ]] && grep -q "^✗ swiglu_ffn_2d  .*(variant $seed)" "$ws/check.txt" || fail "check --student: cy fails on the variant grade used, exit 1 (got $s)"
s=0; "$blockcheck" check swiglu_ffn_2d --student "$subs/ada" > "$ws/check.txt" 2>&1 || s=$?
[[ $s == 0 ]] && grep -q "^✓ swiglu_ffn_2d  6/6" "$ws/check.txt" || { cat "$ws/check.txt"; fail "check --student: ada passes"; }
weak=limits_only; [[ $(id -u) == 0 ]] && weak=uid_only
s=0; BLOCKCHECK_GRADE_ISOLATION=$weak "$blockcheck" run swiglu_ffn_2d --student "$subs/ada" > /dev/null 2> "$ws/err" || s=$?
[[ $s == 4 ]] && grep -q "add --no-sandbox" "$ws/err" || fail "run --student without a sandbox: exit 4, got $s"
s=0; BLOCKCHECK_GRADE_ISOLATION=$weak "$blockcheck" run swiglu_ffn_2d --student "$subs/ada" --no-sandbox > "$ws/run.txt" 2>&1 || s=$?
[[ $s == 0 ]] || { cat "$ws/run.txt"; fail "run --student --no-sandbox runs, got $s"; }
echo "course week: 1 passed, 0 failed"
