#!/usr/bin/env bash
# End to end, the student's loop on a copy of the repository: pristine templates are "not
# done", solved programs get full marks, one wrong digit fails exactly that part, printed
# constants are never done (the note on the book's inputs, a variant fails them), broken programs are classified, and a cache
# planted in the repository is rebuilt, never run.
set -euo pipefail
blockcheck="$1"; root="$2"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
cp -r "$root/data" "$root/chapters" "$ws/"
# XDG_CACHE_HOME: this machine's cache secret (docs/caches.md) lives in the workspace, not in ~/.cache.
export BLOCKCHECK_ROOT="$ws" LANG=C XDG_CACHE_HOME="$ws/xdg-cache"
source "$root/tests/e2e/lib/common.sh"
ch25=()  # this chapter's exercise ids
for f in "$root"/data/exercises/ch25/*.json; do [[ $(basename "$f") == chapter.json ]] || ch25+=("$(basename "$f" .json)"); done

# 1. The pristine templates compile and answer nothing: "not done" everywhere, exit 1.
status=0; "$blockcheck" check "${ch25[@]}" --json > "$ws/out.json" || status=$?
[[ $status == 1 ]] || fail "pristine templates should exit 1, got $status"
[[ $(json '[.exercises[] | select(.status == "not_done")] | length' "$ws/out.json") == 10 ]] || fail "all 10 templates should be not_done"
[[ $(json '[.exercises[].parts[] | select(.verdict == "missing")] | length' "$ws/out.json") == $(json '[.exercises[].parts[]] | length' "$ws/out.json") ]] || fail "every part should be missing"

# 2. The solved programs: full marks and exit 0, on the book's inputs and on a variant.
cp "$root"/tests/solved/ch25/*.cpp "$ws/chapters/ch25/"
"$blockcheck" check "${ch25[@]}" --json > "$ws/out.json" || fail "solved programs should exit 0"
[[ $(json '"\(.score)/\(.max_score)"' "$ws/out.json") == 49/49 ]] || fail "solved should score 49/49"
"$blockcheck" check "${ch25[@]}" --variant 3 > /dev/null || fail "solved programs should pass variant 3"

# 3. One wrong digit fails exactly that part.
edit 's|answer("root_mean_square", std::sqrt(ms));|answer("root_mean_square", std::sqrt(ms) + 2e-6);|' \
    "$ws/chapters/ch25/rms_norm_vs_layer_norm.cpp"
status=0; "$blockcheck" check rms_norm_vs_layer_norm --json > "$ws/out.json" || status=$?
[[ $status == 1 ]] || fail "a wrong digit should exit 1"
[[ $(json '[.exercises[].parts[] | select(.verdict == "wrong")] | length' "$ws/out.json") == 1 ]] || fail "exactly one part should be wrong"
[[ $(json '.exercises[].parts[] | select(.name == "root_mean_square") | .verdict' "$ws/out.json") == wrong ]] || fail "root_mean_square should be the wrong part"
"$blockcheck" check rms_norm_vs_layer_norm > "$ws/board.txt" || true
grep -q "root_mean_square" "$ws/board.txt" && grep -q "off by 2.0e-06; 6 decimal places asked, so up to 5.0e-07 is accepted" "$ws/board.txt" \
    || fail "the board should say how far off, and the bound in the exercise's terms"
cp "$root/tests/solved/ch25/rms_norm_vs_layer_norm.cpp" "$ws/chapters/ch25/"

# 4. Printing the book's constants is never done: on the book's inputs the quiet probe says so
#    (✗ with the note, exit 1, though every part is right), and a variant fails it.
cp "$root/tests/e2e/lib/book_constants_swiglu_ffn_2d.cpp" "$ws/chapters/ch25/swiglu_ffn_2d.cpp"
status=0; "$blockcheck" check swiglu_ffn_2d > "$ws/board.txt" || status=$?
[[ $status == 1 ]] && grep -q "✗ swiglu_ffn_2d" "$ws/board.txt" && grep -q "seems to print the book's numbers" "$ws/board.txt" &&
    ! grep -q "Every exercise here is done" "$ws/board.txt" ||
    { cat "$ws/board.txt"; fail "the book's constants: ✗ with the note and exit 1, got $status"; }
status=0; "$blockcheck" check swiglu_ffn_2d --variant 3 > /dev/null || status=$?
[[ $status == 1 ]] || fail "the book's constants should fail variant 3"

# 5. A compile error names the file and line; a crash and an endless loop are classified.
printf '#include "blockcheck.hpp"\nint main() { return nope; }\n' > "$ws/chapters/ch25/swiglu_ffn_2d.cpp"
status=0; "$blockcheck" check swiglu_ffn_2d > "$ws/board.txt" || status=$?
[[ $status == 1 ]] || fail "a compile error should exit 1"
grep -q "swiglu_ffn_2d.cpp:2" "$ws/board.txt" || fail "the compile error should name swiglu_ffn_2d.cpp:2"
printf 'int main() { volatile int* p = nullptr; return *p; }\n' > "$ws/chapters/ch25/swiglu_ffn_2d.cpp"
"$blockcheck" check swiglu_ffn_2d --json > "$ws/out.json" || true
[[ $(json '[.exercises[].parts[] | select(.verdict == "crashed")] | length' "$ws/out.json") -ge 1 ]] || fail "a segfault should be crashed"
printf 'int main() { for (;;) {} }\n' > "$ws/chapters/ch25/swiglu_ffn_2d.cpp"
"$blockcheck" check swiglu_ffn_2d --json > "$ws/out.json" || true
[[ $(json '[.exercises[].parts[] | select(.verdict == "timed_out")] | length' "$ws/out.json") -ge 1 ]] || fail "an endless loop should be timed_out"

# 6. The other commands answer: list, show in both languages, hints in order, run.
expect() {  # expect PATTERN COMMAND...: the command's output contains the pattern
    local pattern="$1"; shift
    "$@" > "$ws/cmd.txt" 2>&1 || true
    grep -q -- "$pattern" "$ws/cmd.txt" || fail "'$*' should print '$pattern'"
}
expect '"id": "rms_norm_zero_row"' "$blockcheck" list --json
expect "输入" "$blockcheck" show rms_norm_zero_row --lang zh
expect "Hint 1/" "$blockcheck" hint rms_norm_zero_row
expect "Hint 2/" "$blockcheck" hint rms_norm_zero_row
expect "rms_norm = " "$blockcheck" run rms_norm_zero_row
expect "Hint 1/" "$blockcheck" hint rms_norm_zero_row 1
expect "Hint 3/" "$blockcheck" hint rms_norm_zero_row --all
expect '"mistakes": \[' "$blockcheck" show rms_norm_zero_row --json
expect '"sum_not_mean"' "$blockcheck" show rms_norm_zero_row --json
"$blockcheck" check rms_norm_zero_row --variants 2 > "$ws/board.txt" || fail "a solved program should pass 2 random variants"
grep -q -- "--variant 7" "$ws/board.txt" && fail "the board should not suggest a fixed variant"
grep -q "2 variants each: every exercise passed all of them" "$ws/board.txt" || fail "--variants should count the variants passed"
expect "0 of 1 exercises passed all of them; not all passed: gqa_groups 0/2." "$blockcheck" check gqa_groups --variants 2
status=0; "$blockcheck" hint rms_norm_zero_row 9 2> "$ws/err.txt" || status=$?
[[ $status == 2 ]] || fail "hint N beyond the hints should exit 2"
status=0; "$blockcheck" show no_such_exercise 2> "$ws/err.txt" || status=$?
[[ $status == 2 ]] && grep -q "rms_norm_zero_row" "$ws/err.txt" || fail "an unknown id should exit 2 and list the ids"

# 7. A planted cache is never believed: the solved program's entry (binary, seal, log, run
# records), built on this machine or on another (another cache secret), copied under the key of
# the untouched template, as `git add -f .blockcheck/cache` would commit it. `check --exit-code`
# (GitHub Classroom's grade) must fail and the template score 0.
id=rms_norm_zero_row; cache="$ws/.blockcheck/cache"
binaries() { ls "$cache" | grep -E '^[0-9a-f]{16}([0-9a-f]{48})?$' | sort || true; }
for machine in this another; do
    rm -rf "$cache"
    cp "$root/chapters/ch25/$id.cpp" "$ws/chapters/ch25/"
    "$blockcheck" check "$id" > /dev/null || true
    template_key="$(binaries)"
    [[ $(wc -w <<< "$template_key") == 1 ]] || fail "one binary expected for the template, got: $template_key"
    cp "$root/tests/solved/ch25/$id.cpp" "$ws/chapters/ch25/"
    secret_home="$XDG_CACHE_HOME"; [[ $machine == another ]] && secret_home="$ws/another-machine"
    XDG_CACHE_HOME="$secret_home" "$blockcheck" check "$id" > /dev/null || fail "the solved $id should pass"
    solved_key="$(binaries | grep -vx "$template_key")"
    [[ -n $solved_key ]] || fail "the solved program should have its own binary"
    cp "$root/chapters/ch25/$id.cpp" "$ws/chapters/ch25/"
    for f in "$cache/$solved_key"*; do cp "$f" "$cache/$template_key${f#"$cache/$solved_key"}"; done
    status=0; "$blockcheck" check "$id" --exit-code --json > "$ws/out.json" || status=$?
    [[ $status == 1 ]] || fail "a solved binary planted from $machine machine passed check --exit-code (exit $status)"
    [[ $(json '.score' "$ws/out.json") == 0 ]] || fail "the template under a planted binary should score 0, not $(json '.score' "$ws/out.json")"
done
echo "student loop: 1 passed, 0 failed"
