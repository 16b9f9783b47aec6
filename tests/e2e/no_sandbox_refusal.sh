#!/usr/bin/env bash
# End to end, grading without a sandbox (issue 21, hole 5): with the isolation forced to one that
# is not a sandbox (BLOCKCHECK_GRADE_ISOLATION=limits_only, and uid_only as root), `grade` and
# `grade --gradescope` refuse before running anything, exit 4 and say what was probed, why it
# failed and what a container needs, in English and in Chinese; Gradescope's results.json says
# the autograder could not isolate programs; a /proc masked as Docker masks it is found without
# forcing anything. With --no-sandbox they grade, and the terminal,
# summary.txt, results/<student>.json, gradescope/<student>.json and Gradescope's results.json
# say so; a sandboxed run says nothing of the kind. (run_autograder: tests/e2e/gradescope_package.sh.)
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
# As root without bubblewrap, compiles run as a throw-away uid, which must be able to reach the
# compile cache and the student header (docs/sandbox.md): the workspace is traversable, not listable.
chmod 711 "$ws"
export BLOCKCHECK_ROOT="$root"
source "$root/tests/e2e/lib/common.sh"
export LANG=C
subs="$ws/submissions"; solved="$root/tests/solved/ch25"
mkdir -p "$subs/ada" "$subs/bob"
cp "$solved/rope_quarter_turn_table.cpp" "$solved/swiglu_ffn_2d.cpp" "$subs/ada/"
cp "$root/chapters/ch25/rope_quarter_turn_table.cpp" "$subs/bob/"
options=(--chapter ch25 --cache "$ws/cache" --jobs 2)
# The isolation forced as "no sandbox": as root a throw-away uid without bubblewrap (programs never
# run as root, so limits_only cannot be made there), otherwise resource limits alone.
weak=limits_only
[[ $(id -u) == 0 ]] && weak=uid_only

# status COMMAND...: runs it with stdout and stderr in $ws/out and $ws/err, and prints its status.
status() { local s=0; "$@" > "$ws/out" 2> "$ws/err" || s=$?; echo "$s"; }
refusal_lines=("refusing to run the students' programs: no sandbox works here" "probed: bubblewrap"
               "failed: BLOCKCHECK_GRADE_ISOLATION=$weak chose no sandbox"
               "--security-opt seccomp=unconfined --security-opt systempaths=unconfined"
               "procMount: Unmasked" "add --no-sandbox")

# 1. grade refuses: exit 4, the whole message, and no output folder.
s=$(status env BLOCKCHECK_GRADE_ISOLATION=$weak "$blockcheck" grade "$subs" --out "$ws/refused" "${options[@]}")
[[ $s == 4 ]] || fail "grade without a sandbox should exit 4, got $s: $(cat "$ws/err")"
for line in "${refusal_lines[@]}"; do grep -qF -- "$line" "$ws/err" || fail "the refusal lacks '$line': $(cat "$ws/err")"; done
grep -q "\"$weak\"" "$ws/err" || fail "the refusal should name what works here"
[[ ! -e "$ws/refused" ]] || fail "a refused run must write nothing"
[[ ! -s "$ws/out" ]] || fail "a refused run must not start grading: $(cat "$ws/out")"
s=$(status env BLOCKCHECK_GRADE_ISOLATION=$weak LANG=zh_CN.UTF-8 "$blockcheck" grade "$subs" --out "$ws/refused" "${options[@]}")
[[ $s == 4 ]] && grep -q "拒绝运行学生的程序" "$ws/err" && grep -q -- "--no-sandbox" "$ws/err" ||
    fail "the refusal in Chinese: status $s, $(cat "$ws/err")"
if [[ $(id -u) == 0 ]]; then   # as root, limits_only is refused outright: programs never run as root
    s=$(status env BLOCKCHECK_GRADE_ISOLATION=limits_only "$blockcheck" grade "$subs" --out "$ws/as-root" --no-sandbox "${options[@]}")
    [[ $s != 0 ]] && grep -qF "programs would run as root" "$ws/err" && [[ ! -e "$ws/as-root/gradebook.csv" ]] ||
        fail "as root, limits_only must not grade even with --no-sandbox: status $s, $(cat "$ws/err")"
fi

# 1b. Unforced: /proc masked as Docker masks it by default (a path of /proc mounted over), where
# bubblewrap cannot mount a fresh /proc: the probe finds no sandbox and quotes bwrap's complaint.
if [[ $(id -u) == 0 ]] && unshare -m true 2> /dev/null; then
    s=$(status unshare -m sh -c 'mount --bind /dev/null /proc/keys && exec "$0" "$@"' \
        "$blockcheck" grade "$subs" --out "$ws/refused" "${options[@]}")
    [[ $s == 4 ]] && grep -qF "failed: bwrap: Can't mount proc on /newroot/proc: Operation not permitted" "$ws/err" ||
        fail "with a masked /proc, grade should refuse and quote bwrap: status $s, $(cat "$ws/err")"
    [[ ! -e "$ws/refused" ]] || fail "a refused run must write nothing"
else
    echo "not root or no unshare: the masked-/proc case is skipped"
fi

# 2. grade --no-sandbox grades, and every output says what that means.
s=$(status env BLOCKCHECK_GRADE_ISOLATION=$weak "$blockcheck" grade "$subs" --out "$ws/unsafe" --no-sandbox "${options[@]}")
[[ $s == 0 ]] || fail "grade --no-sandbox should grade (exit 0), got $s: $(cat "$ws/err")"
[[ $(count "graded WITHOUT a sandbox (--no-sandbox)" "$ws/err") == 2 ]] ||
    fail "the terminal should warn before and after grading: $(cat "$ws/err")"
grep -q "^isolation: no bubblewrap: " "$ws/out" || fail "the isolation line: $(cat "$ws/out")"
grep -q "^WARNING: 2 of 2 students graded WITHOUT a sandbox (--no-sandbox): " "$ws/unsafe/summary.txt" ||
    fail "summary.txt should carry the warning: $(head -5 "$ws/unsafe/summary.txt")"
for id in ada bob; do
    [[ $(json '.no_sandbox' "$ws/unsafe/results/$id.json") == "graded WITHOUT a sandbox (--no-sandbox): "* ]] ||
        fail "results/$id.json should say it was graded without a sandbox"
    json '.output' "$ws/unsafe/gradescope/$id.json" | grep -q "^Graded without a sandbox" ||
        fail "gradescope/$id.json should tell the student"
done
[[ $(json '.score' "$ws/unsafe/results/ada.json") == 12 ]] || fail "ada: 12 points expected without a sandbox too"
"$blockcheck" grade --merge "$ws/unsafe" --out "$ws/merged" --chapter ch25 > /dev/null 2>&1 || fail "merging the unsandboxed run"
cmp -s "$ws/unsafe/summary.txt" "$ws/merged/summary.txt" || fail "a merge keeps the warning of its shards in summary.txt"

# 3. A sandboxed run (what this machine has) carries none of it, with or without --no-sandbox.
for flag in "" --no-sandbox; do
    rm -rf "$ws/safe"
    s=$(status "$blockcheck" grade "$subs" --out "$ws/safe" $flag "${options[@]}")
    [[ $s == 0 ]] || fail "a sandboxed run ($flag) should exit 0, got $s: $(cat "$ws/err")"
    grep -q "^isolation: bubblewrap" "$ws/out" || fail "this test needs bubblewrap: $(cat "$ws/out")"
    ! grep -qi "without a sandbox" "$ws/err" "$ws/safe/summary.txt" "$ws/safe/gradescope/ada.json" ||
        fail "a sandboxed run ($flag) must not warn"
    [[ $(json 'has("no_sandbox")' "$ws/safe/results/ada.json") == false ]] || fail "a sandboxed result has no no_sandbox"
    cmp -s "$ws/safe/gradebook.csv" "$ws/unsafe/gradebook.csv" ||
        fail "the same scores with and without a sandbox"
done

# 4. grade --gradescope: the refusal as results.json (score 0, not the student's grade), exit 4.
mkdir -p "$ws/gs"
export BLOCKCHECK_GRADESCOPE_SUBMISSION="$subs/ada" BLOCKCHECK_GRADESCOPE_RESULTS="$ws/gs/results.json"
export BLOCKCHECK_GRADESCOPE_METADATA="$ws/gs/none.json"
s=$(status env BLOCKCHECK_GRADE_ISOLATION=$weak "$blockcheck" grade --gradescope --chapter ch25)
[[ $s == 4 ]] || fail "grade --gradescope without a sandbox should exit 4, got $s"
grep -qF "blockcheck grade --gradescope: refusing to run the students' programs" "$ws/err" || fail "gradescope refusal: $(cat "$ws/err")"
[[ $(json '.score' "$ws/gs/results.json") == 0 ]] || fail "the refusal's results.json should score 0"
json '.output' "$ws/gs/results.json" | grep -q "could not isolate programs.*this 0 is not your grade" ||
    fail "the refusal's results.json should say why: $(cat "$ws/gs/results.json")"
s=$(status env BLOCKCHECK_GRADE_ISOLATION=$weak "$blockcheck" grade --gradescope --chapter ch25 --no-sandbox)
[[ $s == 0 ]] || fail "grade --gradescope --no-sandbox should grade, got $s: $(cat "$ws/err")"
[[ $(json '.score' "$ws/gs/results.json") == 12 ]] || fail "ada on Gradescope without a sandbox: 12 points expected"
json '.output' "$ws/gs/results.json" | grep -q "^Graded without a sandbox" || fail "Gradescope's output should tell the student"
grep -q "graded WITHOUT a sandbox" "$ws/err" || fail "grade --gradescope --no-sandbox should warn on the terminal"
echo "no sandbox refusal: 4 passed, 0 failed"
