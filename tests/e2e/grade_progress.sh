#!/usr/bin/env bash
# End to end, what `blockcheck grade` shows while it works: on a terminal one progress bar
# redrawn in place (students done of all, time elapsed and left, the student just finished),
# otherwise a [k/N] line per student; a student id with a newline or an escape sequence is
# shown escaped in both and breaks no line. No control byte of an id or of an archive entry's
# name (ESC [2J, BEL, C1 CSI) reaches the terminal, summary.txt, gradebook.csv, junit.xml or
# report.html, and a formula start stays text. Then `bench --grading` on a class of five students
# who write their own programs: it runs, and every student who solved everything has full marks.
set -euo pipefail
blockcheck="$1"; root="$2"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
source "$root/tests/e2e/lib/common.sh"
chapter25_workspace "$ws"
subs="$ws/submissions"
# Empty submissions: nothing to compile, so this is fast; the ids are what matters.
mkdir -p "$subs/ada" "$subs/grace" "$subs/evil"$'\n'"line" "$subs/esc"$'\e'"[2J" "$subs/=cmd"$'\e[2J\a\xc2\x9b'"31m"
# An archive whose only entry, a link out of the submission, is named with escapes: never written,
# and named, escaped, in the student's notes.
entry=$'\e[2J\e[1;31m'"x.cpp"$'\xc2\x9b'
mkdir -p "$ws/tarred" && ln -s /etc/passwd "$ws/tarred/$entry" && tar -C "$ws/tarred" -czf "$subs/tarred.tar.gz" "$entry"
# A raw control byte: C0 but tab, LF and CR (CRLF ends CSV lines), DEL, or C1 in UTF-8.
controls='[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]'

# Not a terminal: one line per student, ids escaped.
"$blockcheck" grade "$subs" --out "$ws/plain" --jobs 2 > "$ws/plain.txt" 2>&1 || fail "grade exited $?"
cat "$ws/plain.txt"
[[ $(grep -ac '^\[[1-6]/6\] ' "$ws/plain.txt") == 6 ]] || fail "six [k/6] lines expected"
grep -qF 'evil\x0Aline' "$ws/plain.txt" || fail "the newline of an id should be shown as \\x0A"
grep -qF 'esc\x1B[2J' "$ws/plain.txt" || fail "the escape of an id should be shown as \\x1B"
! grep -q $'\e' "$ws/plain.txt" || fail "a raw escape character reached the output"
! LC_ALL=C grep -aqP "$controls" "$ws/plain.txt" || fail "a raw control byte reached the output"
for file in summary.txt gradebook.csv junit.xml report.html; do
    ! LC_ALL=C grep -aqP "$controls" "$ws/plain/$file" || fail "a raw control byte in $file"
done
grep -qF "'=cmd\x1B[2J\x07\xC2\x9B31m," "$ws/plain/gradebook.csv" || fail "the id in gradebook.csv should be escaped, no formula"
[[ $(json '.notes[0]' "$ws/plain/results/tarred.json") == "archive entry \\x1B[2J\\x1B[1;31mx.cpp\\xC2\\x9B: a link to '/etc/passwd': links are not unpacked" ]] ||
    fail "the skipped entry should be named, escaped, in the notes: $(json .notes "$ws/plain/results/tarred.json")"
grep -qF '\x1B[2J\x1B[1;31mx.cpp\xC2\x9B' "$ws/plain/report.html" || fail "report.html should name the skipped entry, escaped"

# A terminal (script gives the command one): one bar redrawn with \r, ending at 6/6.
script -qec "'$blockcheck' grade '$subs' --out '$ws/tty' --jobs 2 --regrade" /dev/null > "$ws/tty.txt" 2>&1 ||
    fail "grade on a terminal exited $?"
tr '\r' '\n' < "$ws/tty.txt" | cat -v
bar=$(tr '\r' '\n' < "$ws/tty.txt" | grep -a '6/6 students')
[[ "$bar" == *"elapsed"* && "$bar" == *"left"* ]] || fail "the bar shows elapsed and remaining time: $bar"
[[ $(tr '\r' '\n' < "$ws/tty.txt" | grep -ac 'students · ') == 6 ]] || fail "the bar is redrawn once per student"
! grep -aq '^\[[1-6]/6\] ' "$ws/tty.txt" || fail "no [k/N] lines on a terminal"
! grep -aq $'\e\[2J' "$ws/tty.txt" || fail "an id's escape sequence reached the terminal"
! LC_ALL=C grep -aqP '\xc2[\x80-\x9f]|\a' "$ws/tty.txt" || fail "a C1 control or BEL reached the terminal"

# The benchmark's smoke run (the real one is `bench --grading 200`).
BLOCKCHECK_ROOT="$root" "$blockcheck" bench --grading 5 > "$ws/bench.txt" 2>&1 || { cat "$ws/bench.txt"; fail "bench --grading 5 exited non-zero"; }
cat "$ws/bench.txt"
grep -q '^every solved student has full marks: yes' "$ws/bench.txt" || fail "a personalised solved program lost points"
grep -q 'compile median' "$ws/bench.txt" || fail "no compile median in the benchmark"
grep -qE "^grade's paths side by side" "$ws/bench.txt" || fail "the benchmark should print grade's two paths (g++, clang) side by side"
grep -qE '^the tutor, side by side .*: without [0-9.]+ s, with [0-9.]+ s: [0-9.]+x' "$ws/bench.txt" ||
    fail "the benchmark should print the class's time with and without the tutor, and the ratio"
echo "grade_progress: ok"
