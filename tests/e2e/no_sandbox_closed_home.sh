#!/usr/bin/env bash
# End to end, issue 31 hole 5: `grade --no-sandbox` as root without bubblewrap, with the repository,
# the submissions and --out (its default cache OUT/.cache) under a folder closed to other users, as
# a clone under /root (0700) is: the throw-away uid that compiles cannot reach them, so the run
# compiles in a private work area under the temporary folder (compile_area.hpp) and grades as it
# would anywhere; the work area is gone afterwards.
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
if [[ $(id -u) != 0 ]]; then echo "not root: skipped (only root compiles as a throw-away uid)"; exit 0; fi
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
home="$ws/home"; mkdir -p "$home"; chmod 700 "$home"
source "$root/tests/e2e/lib/common.sh"
chapter25_workspace "$home/repo"
subs="$home/submissions"; solved="$root/tests/solved/ch25"
mkdir -p "$subs/ada" "$subs/bob"
cp "$solved/rope_quarter_turn_table.cpp" "$solved/swiglu_ffn_2d.cpp" "$subs/ada/"
cp "$root/chapters/ch25/rope_quarter_turn_table.cpp" "$subs/bob/"
areas() { find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'blockcheck-compile-area-*' | wc -l; }
before=$(areas)
s=0
BLOCKCHECK_GRADE_ISOLATION=uid_only "$blockcheck" grade "$subs" --out "$home/out" --chapter ch25 --jobs 2 --no-sandbox \
    > "$ws/out" 2> "$ws/err" || s=$?
[[ $s == 0 ]] || fail "grade --no-sandbox under a 0700 folder should grade (exit 0), got $s: $(cat "$ws/err")"
[[ $(json '.score' "$home/out/results/ada.json") == 12 ]] || fail "ada: 12 points expected, got $(json '.score' "$home/out/results/ada.json"): $(cat "$home/out/results/ada.json")"
[[ $(json '.score' "$home/out/results/bob.json") == 0 ]] || fail "bob's untouched template: 0 points"
! grep -q "grader_fault" "$home/out/results/ada.json" || fail "a grader fault: $(cat "$home/out/results/ada.json")"
[[ $(areas) == "$before" ]] || fail "the compile area was left behind"
echo "no sandbox under a closed folder: 1 passed, 0 failed"
