#!/usr/bin/env bash
# End to end, issue 40's red team of the two platform modes, each run by its own steps:
# Gradescope's run_autograder (from the zip `gradescope-package` writes) on one hostile submission
# and a 300,000-deep submission_metadata.json, and GitHub Classroom's command line
# (`./blockcheck check ID --exit-code`, as classroom.yml runs it) in a hostile student repository.
# Every hostile file is named in its exercise's feedback, nothing hangs, nothing of the grader's
# or the system's files shows, no control byte reaches results.json, and the other exercises
# are graded as usual.
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
export BLOCKCHECK_ROOT="$root"
source "$root/tests/e2e/lib/common.sh"
solved="$root/tests/solved/ch25"
ag="$ws/autograder"
exercises=swiglu_ffn_2d,max_sequence_slots,rms_norm_zero_row,rms_norm_shift,rope_quarter_turn_table,ffn_parameter_counts,swiglu_identity_down

# 1. The autograder as Gradescope unpacks it (tests/e2e/gradescope_package.sh does the same).
LANG=C "$blockcheck" gradescope-package "$ws/autograder.zip" --exercises "$exercises" > /dev/null
mkdir -p "$ag/source/build" "$ag/results" && (cd "$ag/source" && cmake -E tar xf "$ws/autograder.zip")
cp "$ag/source/run_autograder" "$ag/" && cp "$blockcheck" "$(dirname "$blockcheck")/blockcheck-jail" "$ag/source/build/"
export LANG=C
echo "BLOCKCHECK-SECRET" > "$ag/source/secret.txt"

# 2. The hostile submission: two honest programs (one in a folder whose name is terminal escapes,
# one beside a header linked to /dev/zero and a FIFO header, neither included), and for the rest
# a link to /etc/passwd, a link to the grader's own file, a FIFO, a 2 MB file, a link to
# /dev/zero inside the escape-named folder; a zip holding a link; a name with control bytes.
sub="$ag/submission"; esc=$'d\e]0;pwn\a\e[2J'
mkdir -p "$sub/$esc"
cp "$solved/swiglu_ffn_2d.cpp" "$sub/" && cp "$solved/max_sequence_slots.cpp" "$sub/$esc/"
ln -s /dev/zero "$sub/zero.hpp" && mkfifo "$sub/pipe.hpp"
ln -s /etc/passwd "$sub/rms_norm_zero_row.cpp"
ln -s ../source/secret.txt "$sub/rms_norm_shift.cpp"
mkfifo "$sub/rope_quarter_turn_table.cpp"
head -c 2000000 /dev/zero | tr '\0' ' ' > "$sub/ffn_parameter_counts.cpp"
ln -s /dev/zero "$sub/$esc/swiglu_identity_down.cpp"
python3 -c "import sys, zipfile
i = zipfile.ZipInfo('rope_quarter_turn_table.cpp'); i.create_system = 3; i.external_attr = 0o120777 << 16
zipfile.ZipFile(sys.argv[1], 'w').writestr(i, '/etc/passwd')" "$sub/inner.zip"
printf 'int main() {}\n' > "$sub/"$'\e[31mred\nline.cpp'
python3 -c "print('{\"users\": ' + '[' * 300000 + ']' * 300000 + '}')" > "$ag/submission_metadata.json"

s=0; (cd "$ag" && timeout 120 ./run_autograder) > "$ws/gradescope.log" 2>&1 || s=$?
[[ $s == 0 ]] || { cat "$ws/gradescope.log"; fail "run_autograder should grade the hostile submission (exit 0), got $s"; }
r="$ag/results/results.json"
jq -e '(.score | type == "number") and (.tests | type == "array" and length > 0)
       and ((.score - ([.tests[] | .score // 0] | add)) | fabs < 1e-9)' "$r" > /dev/null || fail "results.json is not valid: $(head -c 600 "$r")"
grep -q "submission_metadata.json: nested deeper than 64 arrays and objects.*graded as 'submission'" "$ws/gradescope.log" ||
    fail "the log should name the deep metadata file: $(cat "$ws/gradescope.log")"
# The first test of an exercise: its output's first line.
first() { jq -r --arg id "$1" '[.tests[] | select(.name | startswith($id + ": "))][0].output | split("\n")[0]' "$r"; }
points() { jq -r --arg id "$1" '[.tests[] | select(.name | startswith($id + ": ")) | .score] | add' "$r"; }
expect_first() {  # expect_first ID TEXT: the exercise scores 0 and its first test says TEXT
    [[ "$(first "$1")" == "$2" && "$(points "$1")" == 0 ]] || fail "$1: expected 0 points and '$2', got $(points "$1"): '$(first "$1")'"
}
expect_first rms_norm_zero_row "rms_norm_zero_row.cpp is a link; links are not graded; hand in the file"
expect_first rms_norm_shift "rms_norm_shift.cpp is a link; links are not graded; hand in the file"
expect_first rope_quarter_turn_table "rope_quarter_turn_table.cpp is a pipe, not a regular file: not read"
expect_first ffn_parameter_counts "ffn_parameter_counts.cpp is larger than 1024 KiB: not read"
expect_first swiglu_identity_down 'd\x1B]0;pwn\x07\x1B[2J/swiglu_identity_down.cpp is a link; links are not graded; hand in the file'
[[ $(points swiglu_ffn_2d) == 6 && $(points max_sequence_slots) == 4 && $(jq .score "$r") == 10 ]] ||
    fail "the two honest programs should score 6 and 4, and nothing else: $(jq -c '[.score, [.tests[] | [.name, .score]]]' "$r")"
jq -r .output "$r" | grep -qxF '\x1B[31mred\x0Aline.cpp: named after no exercise, not graded' || fail "the control-byte name should be escaped: $(jq .output "$r")"
! jq -r '.output, .tests[].output' "$r" | LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' || fail "a control byte reached results.json"
! grep -q -e BLOCKCHECK-SECRET -e 'root:x:0:0' "$r" || fail "the grader's or the system's file reached results.json"
echo "gradescope: hostile submission $(jq .score "$r")/$(jq '[.tests[] | .max_score // 0] | add' "$r"); each hostile file named on its exercise"

# 3. GitHub Classroom: the workflow's own command line in a student repository whose sources are
# a FIFO, a link to /dev/zero and a 2 MB file. `check` runs as the student, on their own tree: it
# names each one and goes on, without hanging.
repo="$ws/repo" && mkdir -p "$repo" && cp -r "$root/data" "$root/chapters" "$repo/"
printf '#!/bin/sh\nBLOCKCHECK_ROOT="$(cd "$(dirname "$0")" && pwd)" exec "%s" "$@"\n' "$blockcheck" > "$repo/blockcheck" && chmod +x "$repo/blockcheck"
"$blockcheck" classroom "$ws/classroom" --exercises rope_quarter_turn_table,rms_norm_shift,ffn_parameter_counts > /dev/null
ch="$repo/chapters/ch25"
rm "$ch/rope_quarter_turn_table.cpp" "$ch/rms_norm_shift.cpp" && mkfifo "$ch/rope_quarter_turn_table.cpp" && ln -s /dev/zero "$ch/rms_norm_shift.cpp"
cp "$sub/ffn_parameter_counts.cpp" "$ch/"
declare -A said=([rope_quarter_turn_table]="rope_quarter_turn_table.cpp is a pipe, not a regular file: not read"
                 [rms_norm_shift]="rms_norm_shift.cpp is a device, not a regular file: not read"
                 [ffn_parameter_counts]="the source is larger than 1 MiB")
ran=0
while read -r command; do
    id="${command#./blockcheck check }"; id="${id%% *}"
    s=0; (cd "$repo" && timeout 60 bash -c "$command") > "$ws/$id.log" 2>&1 || s=$?
    [[ $s == 1 ]] && grep -qF "${said[$id]}" "$ws/$id.log" || { cat "$ws/$id.log"; fail "classroom $id: exit 1 and '${said[$id]}' expected, got $s"; }
    ran=$((ran + 1))
done < <(sed -n 's/^        command: //p' "$ws/classroom/.github/workflows/classroom.yml")
[[ $ran == 3 ]] || fail "3 classroom tests expected, ran $ran"
echo "classroom: 3 hostile sources named, no hang"
