#!/usr/bin/env bash
# End to end, never stronger than the evidence (issue 39): a class of three graded on swiglu_ffn_2d
# at 4 points: cy prints the book's numbers, sam uses sigmoid for SiLU, tia transposes the gate's
# and up's weights. What grade saw of cy (the same text on the book's inputs and on cy's variant)
# is said in every output, never a property of the numbers; a TA's `check --student` under the
# assignment (or the graded folder) shows the gradebook's points; seeds are exact for jq; and
# `run --student --variant` with a seed grade did not draw says so.
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
chmod 711 "$ws"  # as root, compiles run as a throw-away uid that must reach the cache (docs/sandbox.md)
export BLOCKCHECK_ROOT="$root" LANG=C
source "$root/tests/e2e/lib/common.sh"
subs="$ws/submissions"
mkdir -p "$subs/cy" "$subs/sam" "$subs/tia"
cp "$root/tests/e2e/lib/book_constants_swiglu_ffn_2d.cpp" "$subs/cy/swiglu_ffn_2d.cpp"
sed 's|act.push_back(g\[i\] / (1.0 + std::exp(-g\[i\])));|act.push_back(1.0 / (1.0 + std::exp(-g[i])));|' \
    "$root/tests/solved/ch25/swiglu_ffn_2d.cpp" > "$subs/sam/swiglu_ffn_2d.cpp"
cmp -s "$subs/sam/swiglu_ffn_2d.cpp" "$root/tests/solved/ch25/swiglu_ffn_2d.cpp" && fail "sam's slip was not planted"
cp "$root/tests/e2e/lib/transposed_swiglu_ffn_2d.cpp" "$subs/tia/swiglu_ffn_2d.cpp"
echo '{"name": "truth", "exercises": [{"id": "swiglu_ffn_2d", "points": 4}]}' > "$ws/a.json"
"$blockcheck" grade "$subs" --out "$ws/out" --assignment "$ws/a.json" --cache "$ws/cache" --jobs 2 --cpu 1 --wall 2 \
    > "$ws/grade.log" 2>&1 || { cat "$ws/grade.log"; fail "grade exited $?"; }

# Item 2: the book's numbers, said in every output; no property of the numbers on a constant.
cy="$ws/out/results/cy.json"
[[ $(json '[.exercises[0].parts[] | select(.verdict == "wrong")] | length' "$cy") -gt 0 ]] || fail "cy is wrong on the variant"
[[ $(json '[.exercises[0].parts[] | select(.verdict == "wrong" and .diagnosis.id != "hard_coded")] | length' "$cy") == 0 ]] ||
    { cat "$cy"; fail "every wrong part of cy's is said to print the book's numbers"; }
! grep -q "a rotation keeps\|keeps each pair\|should be" "$cy" || fail "no property of the numbers is told of a constant"
grep -q "the same text printed on the book's inputs and on variant" "$ws/out/summary.txt" || fail "summary.txt says what was seen of cy"
grep -q "cy / swiglu_ffn_2d" "$ws/out/summary.txt" || fail "summary.txt names cy"
grep -q "the book's numbers printed instead of computed" "$ws/out/junit.xml" || fail "junit.xml says it"
grep -q "hard_coded" "$ws/out/gradescope/cy.json" || fail "Gradescope's feedback says it"
[[ $(json '.printed_constants[0].student' "$ws/out/insight.json") == cy && $(json '.printed_constants | length' "$ws/out/insight.json") == 1 ]] ||
    fail "insight.json lists cy, alone"
"$blockcheck" insight "$ws/out" > "$ws/insight.txt"
grep -A1 "the same text printed on the book's inputs and on the student's variant" "$ws/insight.txt" | grep -q "cy / swiglu_ffn_2d: " ||
    { cat "$ws/insight.txt"; fail "insight lists cy for a person to look at"; }
grep -q 'id="printed-constants"' "$ws/out/report.html" || fail "report.html lists cy"
# its common wrong answers: gate is wrong for tia alone (sam's is right, cy's was not computed)
gate=$(sed -n '/id="common-wrong"/,/<\/table>/p' "$ws/out/report.html" | grep '<code>gate</code>' | grep -o '<td class="num">[0-9]*' | grep -o '[0-9]*$')
[[ $gate == 1 ]] || fail "report.html's common wrong answers count cy's constants as computed answers (gate: $gate students)"

# Item 4: seeds are strings of digits, exact for jq and JavaScript; old records read.
seed=$(json '.exercises[0].variant' "$cy")
[[ $seed =~ ^[0-9]+$ && $(jq '.exercises[0].variant | type' "$cy") == '"string"' ]] || fail "the seed is a string of digits, got $seed"
"$blockcheck" run swiglu_ffn_2d --student "$subs/cy" > "$ws/run.txt" 2>&1 || true
grep -q "^# student cy · swiglu_ffn_2d · variant $seed\$" "$ws/run.txt" || { cat "$ws/run.txt"; fail "the seed in results is the one run draws"; }
rounded=$(python3 -c "print(int(float('$seed')))" 2> /dev/null || true)  # what jq 1.6 and JavaScript made of a bare seed
s=0; "$blockcheck" run swiglu_ffn_2d --student "$subs/cy" --variant 7 > "$ws/run.txt" 2> "$ws/err" || s=$?
grep -q "^# note: variant 7 is not the one grade drew for cy on swiglu_ffn_2d: that is $seed" "$ws/run.txt" ||
    { cat "$ws/run.txt"; fail "run --student --variant with another seed says so"; }
grep -q "variant 7 is not the one grade drew" "$ws/err" || fail "and on standard error"
if [[ $rounded =~ ^[0-9]+$ && $rounded != "$seed" ]]; then
    "$blockcheck" run swiglu_ffn_2d --student "$subs/cy" --variant "$rounded" > "$ws/run.txt" 2>&1 || true
    grep -q "the seed looks rounded to a double's 53 bits" "$ws/run.txt" || fail "a rounded seed is named as one"
fi
jq '.exercises[0].variant |= tonumber' "$cy" > "$ws/old.json" && mv "$ws/old.json" "$cy"  # a record of before
"$blockcheck" grade --merge "$ws/out" --out "$ws/merged" --assignment "$ws/a.json" > /dev/null 2>&1 || fail "a record with a bare integer seed is still read"
[[ $(json '.printed_constants[0].variant | type' "$ws/merged/insight.json") == string ]] || fail "and its seed written as a string"

# Item 3: the TA's view shows the gradebook's points under the assignment.
sam=$(tr -d '\r' < "$ws/out/gradebook.csv" | awk -F, '$1 == "sam" {print $2}')
[[ -n $sam && $sam != 4 && $sam != 0 ]] || fail "sam has part of the 4 points: $sam"
for how in "--assignment $ws/a.json" "--out $ws/out"; do
    s=0; "$blockcheck" check swiglu_ffn_2d --student "$subs/sam" $how > "$ws/check.txt" 2>&1 || s=$?
    grep -q "^✗ swiglu_ffn_2d  $sam/4  " "$ws/check.txt" || { cat "$ws/check.txt"; fail "check --student $how shows the gradebook's $sam/4"; }
done
s=0; "$blockcheck" check swiglu_ffn_2d --student "$subs/sam" --assignment "$ws/a.json" --out "$ws/out" > /dev/null 2> "$ws/err" || s=$?
[[ $s == 2 ]] || fail "--assignment with --out: one of them, exit 2 (got $s)"
s=0; "$blockcheck" check rms_norm_zero_row --student "$subs/sam" --out "$ws/out" > /dev/null 2> "$ws/err" || s=$?
[[ $s == 2 ]] && grep -q "rms_norm_zero_row: not graded in" "$ws/err" || fail "an exercise the run did not grade is named (exit $s)"
echo "grade truth: 1 passed, 0 failed"
