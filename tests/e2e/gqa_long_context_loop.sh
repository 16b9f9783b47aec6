#!/usr/bin/env bash
# End to end, the companion chapter (gqa_long_context) on a copy of the repository: pristine
# templates are "not done", solved programs get full marks on the book's inputs and on
# variants, one wrong number fails exactly that part, a wrong choice is told why, printed
# constants pass the book's inputs but not a variant, and show/hint speak both languages.
set -euo pipefail
blockcheck="$1"; root="$2"
chapter=gqa_long_context
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
cp -r "$root/data" "$root/chapters" "$ws/"
export BLOCKCHECK_ROOT="$ws" LANG=C
source "$root/tests/e2e/lib/common.sh"

ids=()
for file in "$ws/data/exercises/$chapter"/*.json; do
    id="$(basename "$file" .json)"
    [[ $id == chapter ]] || ids+=("$id")
done
[[ ${#ids[@]} == 17 ]] || fail "the companion should have 17 exercises, found ${#ids[@]}"

# 1. The pristine templates compile and answer nothing: "not done" everywhere, exit 1.
status=0; "$blockcheck" check "${ids[@]}" --json > "$ws/out.json" || status=$?
[[ $status == 1 ]] || fail "pristine templates should exit 1, got $status"
[[ $(json '[.exercises[] | select(.status == "not_done")] | length' "$ws/out.json") == 17 ]] || fail "all 17 templates should be not_done"
[[ $(json '[.exercises[].parts[] | select(.verdict == "missing")] | length' "$ws/out.json") == $(json '[.exercises[].parts[]] | length' "$ws/out.json") ]] || fail "every part should be missing"
[[ $(json .score "$ws/out.json") =~ ^0(\.0*)?$ ]] || fail "pristine templates should score 0"

# 2. The solved programs: full marks and exit 0, on the book's inputs and on two variants (every
#    solved program on every variant: `blockcheck validate`).
cp "$root/tests/solved/$chapter"/*.cpp "$ws/chapters/$chapter/"
"$blockcheck" check "${ids[@]}" --json > "$ws/out.json" || fail "solved programs should exit 0"
max="$(json .max_score "$ws/out.json")"
[[ -n $max && $(json .score "$ws/out.json") == "$max" ]] || fail "solved programs should score $max/$max"
[[ $(json '[.exercises[] | select(.status == "done")] | length' "$ws/out.json") == 17 ]] || fail "all 17 solved programs should be done"
for seed in 1 2024; do
    "$blockcheck" check "${ids[@]}" --variant "$seed" > "$ws/board.txt" || { cat "$ws/board.txt" >&2; fail "solved programs should pass variant $seed"; }
done

# 3. One wrong number fails exactly that part, and the board says how far off.
edit 's|answer("mha_to_gqa_ratio", double(mha) / double(gqa));|answer("mha_to_gqa_ratio", double(mha) / double(gqa) + 2e-6);|' \
    "$ws/chapters/$chapter/kv_cache_sizes.cpp"
status=0; "$blockcheck" check kv_cache_sizes --json > "$ws/out.json" || status=$?
[[ $status == 1 ]] || fail "a wrong number should exit 1"
[[ $(json '[.exercises[].parts[] | select(.verdict == "wrong")] | length' "$ws/out.json") == 1 ]] || fail "exactly one part should be wrong"
[[ $(json '.exercises[].parts[] | select(.name == "mha_to_gqa_ratio") | .verdict' "$ws/out.json") == wrong ]] || fail "mha_to_gqa_ratio should be the wrong part"
"$blockcheck" check kv_cache_sizes > "$ws/board.txt" || true
grep -q "mha_to_gqa_ratio" "$ws/board.txt" && grep -q "off by 2.0e-06; 6 decimal places asked, so up to 5.0e-07 is accepted" "$ws/board.txt" || fail "the board should say how far off"
cp "$root/tests/solved/$chapter/kv_cache_sizes.cpp" "$ws/chapters/$chapter/"

# 4. A wrong choice fails that part only, and its explanation (which gives the answer away)
#    appears only with --reveal.
edit 's|answer_choice("why", "A");|answer_choice("why", "B");|' "$ws/chapters/$chapter/rope_write_back_layout.cpp"
status=0; "$blockcheck" check rope_write_back_layout > "$ws/board.txt" || status=$?
[[ $status == 1 ]] || fail "a wrong choice should exit 1"
grep -q "Reordering the coordinates of both vectors" "$ws/board.txt" && fail "a wrong choice must not show the explanation"
"$blockcheck" check rope_write_back_layout --reveal > "$ws/board.txt" || true
grep -q "Reordering the coordinates of both vectors" "$ws/board.txt" || fail "--reveal should show the explanation"
"$blockcheck" check rope_write_back_layout --json > "$ws/out.json" || true
[[ $(json '[.exercises[].parts[] | select(.verdict == "wrong")] | length' "$ws/out.json") == 1 ]] || fail "only the choice should be wrong"
cp "$root/tests/solved/$chapter/rope_write_back_layout.cpp" "$ws/chapters/$chapter/"

# 5. Printing the book's answers as constants scores on the book's inputs (never done where the
#    probe names it) but not on a variant
#    (interview_questions excepted: its answers are facts that no input changes). A sample of
#    four, one in four; that no exercise's variants repeat the book's inputs is `validate`'s check.
for ((i = 0; i < ${#ids[@]}; i += 4)); do
    id="${ids[$i]}"
    [[ $id == interview_questions ]] && continue
    "$blockcheck" run "$id" > "$ws/run.txt" || fail "run $id should succeed"
    { echo '#include <cstdio>'; echo 'int main() { std::fputs(R"BC('
      sed -n '/^# output (standard output):$/,$p' "$ws/run.txt" | sed '1d' | grep -v '^#'
      echo ')BC", stdout); }'; } > "$ws/chapters/$chapter/$id.cpp"
    # every part right on the book's inputs, but never done while the probe says they are the book's numbers
    status=0; "$blockcheck" check "$id" --json > "$ws/out.json" || status=$?
    [[ $(json '.score == .max_score' "$ws/out.json") == true ]] || fail "$id: the book's answers as constants score on the book's inputs"
    if grep -q '"hard_coded"' "$ws/out.json"; then [[ $status == 1 ]] || fail "$id: the book's numbers said, yet exit $status"; fi
    status=0; "$blockcheck" check "$id" --variant 3 > /dev/null || status=$?
    [[ $status == 1 ]] || fail "$id: the book's answers as constants should fail variant 3"
    cp "$root/tests/solved/$chapter/$id.cpp" "$ws/chapters/$chapter/"
done

# 6. The other commands answer in both languages: list, show, hints in order, run.
expect() {  # expect PATTERN COMMAND...: the command's output contains the pattern
    local pattern="$1"; shift
    "$@" > "$ws/cmd.txt" 2>&1 || true
    grep -q -- "$pattern" "$ws/cmd.txt" || fail "'$*' should print '$pattern'"
}
expect '"chapter": "gqa_long_context"' "$blockcheck" list --json
expect "Companion: GQA, the KV cache" "$blockcheck" show gqa_groups
expect "48 个查询头分成 8 组" "$blockcheck" show gqa_groups --lang zh
expect "分组查询注意力" "$blockcheck" show gqa_groups --lang zh
expect "Hint 1/" "$blockcheck" hint kv_cache_budget
expect "Hint 2/" "$blockcheck" hint kv_cache_budget
expect "提示 3/" "$blockcheck" --lang zh hint kv_cache_budget
expect "heads_per_group = 6" "$blockcheck" run gqa_groups
echo "companion loop: 1 passed, 0 failed"
