#!/usr/bin/env bash
# End to end, what `blockcheck grade` shows while it works: on a terminal one progress bar
# redrawn in place (students done of all, time elapsed and left, the student just finished),
# otherwise a [k/N] line per student; a student id with a newline or an escape sequence is
# shown escaped in both and breaks no line. Then `bench --grading` on a class of five students
# who write their own programs: it runs, and every student who solved everything has full marks.
set -euo pipefail
blockcheck="$1"; root="$2"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
mkdir -p "$ws/data/exercises" && cp -r "$root/data/exercises/ch25" "$ws/data/exercises/" && cp -r "$root/chapters" "$ws/"
export BLOCKCHECK_ROOT="$ws" LANG=C
fail() { echo "FAIL: $*" >&2; exit 1; }
subs="$ws/submissions"
# Empty submissions: nothing to compile, so this is fast; the ids are what matters.
mkdir -p "$subs/ada" "$subs/grace" "$subs/evil"$'\n'"line" "$subs/esc"$'\e'"[2J"

# Not a terminal: one line per student, ids escaped.
"$blockcheck" grade "$subs" --out "$ws/plain" --jobs 2 > "$ws/plain.txt" 2>&1 || fail "grade exited $?"
cat "$ws/plain.txt"
[[ $(grep -c '^\[[1-4]/4\] ' "$ws/plain.txt") == 4 ]] || fail "four [k/4] lines expected"
grep -qF 'evil\x0Aline' "$ws/plain.txt" || fail "the newline of an id should be shown as \\x0A"
grep -qF 'esc\x1B[2J' "$ws/plain.txt" || fail "the escape of an id should be shown as \\x1B"
! grep -q $'\e' "$ws/plain.txt" || fail "a raw escape character reached the output"

# A terminal (script gives the command one): one bar redrawn with \r, ending at 4/4.
script -qec "'$blockcheck' grade '$subs' --out '$ws/tty' --jobs 2 --regrade" /dev/null > "$ws/tty.txt" 2>&1 ||
    fail "grade on a terminal exited $?"
tr '\r' '\n' < "$ws/tty.txt" | cat -v
bar=$(tr '\r' '\n' < "$ws/tty.txt" | grep -a '4/4 students')
[[ "$bar" == *"elapsed"* && "$bar" == *"left"* ]] || fail "the bar shows elapsed and remaining time: $bar"
[[ $(tr '\r' '\n' < "$ws/tty.txt" | grep -ac 'students · ') == 4 ]] || fail "the bar is redrawn once per student"
! grep -aq '^\[[1-4]/4\] ' "$ws/tty.txt" || fail "no [k/N] lines on a terminal"
! grep -aq $'\e\[2J' "$ws/tty.txt" || fail "an id's escape sequence reached the terminal"

# The benchmark's smoke run (the real one is `bench --grading 200`).
BLOCKCHECK_ROOT="$root" "$blockcheck" bench --grading 5 > "$ws/bench.txt" 2>&1 || { cat "$ws/bench.txt"; fail "bench --grading 5 exited non-zero"; }
cat "$ws/bench.txt"
grep -q '^every solved student has full marks: yes' "$ws/bench.txt" || fail "a personalised solved program lost points"
grep -q 'compile median' "$ws/bench.txt" || fail "no compile median in the benchmark"
echo "grade_progress: ok"
