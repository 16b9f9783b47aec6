#!/usr/bin/env bash
# End to end, `blockcheck classroom`: the workflow read back by a strict line reader (every line
# of a test step must have the documented shape), its tests checked against `list --json` (every
# exercise once, its points, the total), and each test's command line run in a copy of the
# student's repository: with the solved programs every test passes, with the templates every
# test fails. In the copy, ./blockcheck runs the built binary (the command line is kept as written).
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
export LANG=C BLOCKCHECK_ROOT="$root"
source "$root/tests/e2e/lib/common.sh"

"$blockcheck" classroom "$ws/out" > "$ws/classroom.log"
yml="$ws/out/.github/workflows/classroom.yml"
[[ -f "$yml" && -s "$ws/out/STUDENTS.md" ]] || fail "classroom.yml and STUDENTS.md expected"

# The strict reader: prints "id<TAB>points<TAB>minutes<TAB>command" per test step, then
# "runners<TAB>ids" and "env<TAB>id" per reporter variable; any other line in a step is an error.
awk -F': ' '
    function bad(why) { printf "classroom.yml:%d: %s: %s\n", NR, why, $0 > "/dev/stderr"; failed = 1; exit 1 }
    function expect(line) { if ($0 != line) bad("expected \"" line "\"") }
    $0 == "    steps:" { in_steps = 1; next }
    !in_steps { next }
    /^    - name: / {
        name = substr($0, 13); step = 0
        kind = name == "Autograding Reporter" ? "reporter" : "other"; next
    }
    kind == "other" && step == 0 && /^      id: / {
        id = substr($0, 11); if (id != name) bad("the id differs from the name"); kind = "test"; step = 1; next
    }
    kind == "test" {
        ++step
        if (step == 2) expect("      uses: classroom-resources/autograding-command-grader@v1")
        else if (step == 3) expect("      with:")
        else if (step == 4) expect("        test-name: " id)
        else if (step == 5) expect("        setup-command: '"''"'")
        else if (step == 6) { if (!sub(/^        command: /, "")) bad("expected the command"); command = $0 }
        else if (step == 7) { if (!sub(/^        timeout: /, "") || $0 !~ /^[0-9]+$/) bad("expected whole minutes"); minutes = $0 }
        else if (step == 8) {
            if (!sub(/^        max-score: /, "") || $0 !~ /^[0-9.]+$/) bad("expected the points")
            printf "%s\t%s\t%s\t%s\n", id, $0, minutes, command; kind = "done"
        } else bad("a line after max-score")
        next
    }
    kind == "reporter" {
        if ($0 == "      uses: classroom-resources/autograding-grading-reporter@v1" || $0 == "      env:" || $0 == "      with:") next
        if (match($0, /^        [A-Z0-9_]+_RESULTS: "\$\{\{steps\.[a-z0-9_]+\.outputs\.result\}\}"$/)) {
            split($0, parts, "."); printf "env\t%s\n", parts[2]; next
        }
        if (sub(/^        runners: /, "")) { printf "runners\t%s\n", $0; next }
        bad("not a line of the reporter step")
    }
    kind == "other" && ($0 ~ /^      (uses|run): /) { next }
    { bad("unexpected line") }
    END { if (failed) exit 1 }' "$yml" > "$ws/tests.tsv" || fail "classroom.yml is not in the documented shape"

# Every exercise exactly once, with its points; the reporter reads every test.
"$blockcheck" list --json | jq -r '.exercises[] | "\(.id)\t\(.points)"' |
    sort > "$ws/expected.tsv"
grep -v -e '^env' -e '^runners' "$ws/tests.tsv" | cut -f1,2 | sort > "$ws/got.tsv"
diff "$ws/expected.tsv" "$ws/got.tsv" > /dev/null || { diff "$ws/expected.tsv" "$ws/got.tsv"; fail "the tests differ from list --json"; }
n=$(wc -l < "$ws/got.tsv")
total=$(awk -F'\t' '{ sum += $2 } END { print sum }' "$ws/got.tsv")
expected_total=$("$blockcheck" list --json | jq '[.exercises[].points] | add')
[[ "$total" == "$expected_total" ]] || fail "points: $total in the workflow, $expected_total in list --json"
grep -q "$n tests, $total points" "$ws/classroom.log" || fail "the summary line: $(cat "$ws/classroom.log")"
[[ $(grep '^env' "$ws/tests.tsv" | cut -f2 | sort) == $(cut -f1 "$ws/got.tsv") ]] || fail "a test's result is not reported"
[[ $(grep '^runners' "$ws/tests.tsv" | cut -f2 | tr ',' '\n' | sort) == $(cut -f1 "$ws/got.tsv") ]] || fail "runners lists other tests"
echo "classroom.yml: $n tests, $total points, every exercise once"

# Each test's command line in a copy of the repository: solved programs pass, templates fail.
# Every command line is read; one test in nine is run (three compiles and runs each way instead of
# 27: the commands differ only in the id, and `blockcheck validate` runs every solved program and
# template).
repo_copy() {  # repo_copy DIR [SOLVED]: data/ and chapters/ (solved ones if asked), ./blockcheck running the built binary
    mkdir -p "$1" && cp -r "$root/data" "$root/chapters" "$1/"
    if [[ -n "${2:-}" ]]; then for c in "$root"/tests/solved/*/; do cp "$c"*.cpp "$1/chapters/$(basename "$c")/"; done; fi
    printf '#!/bin/sh\nBLOCKCHECK_ROOT="$(cd "$(dirname "$0")" && pwd)" exec "%s" "$@"\n' "$blockcheck" > "$1/blockcheck"
    chmod +x "$1/blockcheck"
}
repo_copy "$ws/solved" yes
repo_copy "$ws/templates"
passed=0; failed=0; index=0
while IFS=$'\t' read -r id points minutes command; do
    [[ "$id" == env || "$id" == runners ]] && continue
    [[ "$command" == "./blockcheck check $id --exit-code" ]] || fail "$id: unexpected command '$command'"
    ((index++ % 9 == 0)) || continue
    (cd "$ws/solved" && timeout "${minutes}m" bash -c "$command" > "$ws/run.log" 2>&1) || { cat "$ws/run.log"; fail "$id: the solved program should pass"; }
    passed=$((passed + 1))
    s=0; (cd "$ws/templates" && timeout "${minutes}m" bash -c "$command" > "$ws/run.log" 2>&1) || s=$?
    [[ $s == 1 ]] || { cat "$ws/run.log"; fail "$id: the template should fail with exit 1, got $s"; }
    failed=$((failed + 1))
done < "$ws/tests.tsv"
[[ $index == "$n" && $passed == $(((n + 8) / 9)) && $failed == "$passed" ]] || fail "read $index of $n tests, ran $passed and $failed"
echo "command lines: $passed passed on the solved programs, $failed failed on the templates"

expect2() { local s=0; "$@" > /dev/null 2>&1 || s=$?; [[ $s == 2 ]] || fail "'$*' should exit 2, got $s"; }
expect2 "$blockcheck" classroom "$ws/x" --timeout 0
expect2 "$blockcheck" classroom "$ws/x" --chapter no_such_chapter
echo "classroom: 3 passed, 0 failed"
