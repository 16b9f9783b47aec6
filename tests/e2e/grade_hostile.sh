#!/usr/bin/env bash
# End to end, `blockcheck grade` on a class with a hostile student for every way a program can
# misbehave (tests/hostile/*.cpp, one exercise each, the rest solved) and two hostile archives
# (their ../ entry and links never written, the rest graded):
# each case is contained, classified, and costs exactly its own exercise; the honest students'
# scores do not move; nothing is written outside the jail; nobody sees anybody else's files;
# no program reads its first process's memory, uses a keyring or makes a namespace; the class
# files are well formed.
set -euo pipefail
blockcheck="$1"; root="$2"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
source "$root/tests/e2e/lib/common.sh"
chapter25_workspace "$ws"
subs="$ws/submissions"; out="$ws/grades"
solved="$root/tests/solved/ch25"; hostile="$root/tests/hostile"
mkdir -p "$subs"

# The points of each exercise, from its definition.
points() { awk '/"points"/ { gsub(/[^0-9.]/, "", $2); s += $2 } END { print s }' "$ws/data/exercises/ch25/$1.json"; }
total=0; for f in "$ws"/data/exercises/ch25/*.json; do
    [[ $(basename "$f") == chapter.json ]] && continue
    total=$((total + $(points "$(basename "$f" .json)")))
done
[[ $total == 49 ]] || fail "the chapter should be worth 49 points, got $total"

# A student with every exercise solved, except `slot` replaced by a hostile program.
student() {  # student ID [HOSTILE SLOT]
    mkdir -p "$subs/$1/chapters/ch25"
    cp "$solved"/*.cpp "$subs/$1/chapters/ch25/"
    if [[ $# -eq 3 ]]; then cp "$hostile/$2.cpp" "$subs/$1/chapters/ch25/$3.cpp"; fi
}
declare -A slot=(
    [loop]="infinite_loop rope_quarter_turn_table"      [sleeper]="sleeper swiglu_identity_down"
    [forker]="fork_storm ffn_parameter_counts"          [hog]="memory_hog max_sequence_slots"
    [flood]="output_flood rms_norm_shift"               [segv]="segfault rms_norm_vs_layer_norm"
    [aborter]="abort rope_later_positions"              [stack]="stack_overflow swiglu_matched_budget"
    [badcompile]="compile_error swiglu_ffn_2d"          [bomb]="template_bomb rms_norm_zero_row"
    [garbage]="binary_garbage swiglu_ffn_2d"            [absurd]="absurd_numbers swiglu_ffn_2d"
    [hunter]="fs_hunter rms_norm_zero_row"              [escaper]="escape_writer rms_norm_shift"
    [forged]="forged_compile_fault swiglu_matched_budget" [forgedoom]="forged_out_of_memory ffn_parameter_counts"
    [memhunter]="runner_memory ffn_parameter_counts"    [keythief]="keyring_thief max_sequence_slots"
    [nsmaker]="namespace_maker rope_later_positions"
)
for id in "${!slot[@]}"; do student "$id" ${slot[$id]}; done

# Honest students: a folder (with a secret others must not see) and a tar.gz; untouched templates.
student honest_dir
echo "// BLOCKCHECK-SECRET of honest_dir" >> "$subs/honest_dir/chapters/ch25/rms_norm_zero_row.cpp"
echo "BLOCKCHECK-SECRET" > "$subs/honest_dir/secret.txt"
mkdir -p "$ws/tgz/honest_tgz" && cp "$solved"/*.cpp "$ws/tgz/honest_tgz/"
tar -czf "$subs/honest_tgz.tar.gz" -C "$ws/tgz" honest_tgz
mkdir -p "$subs/templates" && cp -r "$ws/chapters" "$subs/templates/"

# Hostile ids, honest work: 240 bytes, not UTF-8, a newline, a spreadsheet formula.
long_id="$(printf 'l%.0s' {1..240})"
hostile_ids=("$long_id" $'bad\xff\xfeid' $'two\nlines' '=HYPERLINK("x")')
for id in "${hostile_ids[@]}"; do student "$id"; done
# Entries that are not submissions: each is listed, with the reason.
touch "$subs/..zip" "$subs/...zip" "$subs/notes.txt"; mkdir -p "$subs/...dots"

# Hostile archives: a ../ entry, and links pointing out.
mkdir -p "$ws/evil/inner" && cp "$solved"/*.cpp "$ws/evil/inner/"
echo "int main() {}" > "$ws/evil/escaped-dotdot.cpp"
(cd "$ws/evil/inner" && tar -czPf "$subs/dotdot.tar.gz" ../escaped-dotdot.cpp ./*.cpp)
rm "$ws/evil/escaped-dotdot.cpp"
mkdir -p "$ws/links/linkout" && cp "$solved"/*.cpp "$ws/links/linkout/"
ln -sf /etc/passwd "$ws/links/linkout/swiglu_ffn_2d.cpp"
ln -sf ../../honest_dir/chapters/ch25/rms_norm_zero_row.cpp "$ws/links/linkout/rms_norm_zero_row.cpp"
tar -czf "$subs/linkout.tar.gz" -C "$ws/links" linkout

status=0
# --memory 128: the hog must meet the memory limit before the 1 s CPU limit. Touching memory costs
# about 3.5 ms of CPU a MiB on this kind of VM (512 MiB: 1.8 s, 128 MiB: 0.4 s), so at 512 MiB the
# CPU limit would stop it first and the test would not be about memory.
"$blockcheck" grade "$subs" --out "$out" --variants --jobs 2 --cpu 1 --wall 2 --memory 128 --compile-wall 10 > "$ws/log.txt" 2>&1 &
grader=$!
# A second grader into the same folder while the first runs is refused, and says why.
for _ in $(seq 150); do [[ -s "$out/.grade-lock" ]] && break; sleep 0.2; done; second=0
"$blockcheck" grade "$subs" --out "$out" > "$ws/second.txt" 2>&1 || second=$?
wait $grader || status=$?
cat "$ws/log.txt"
[[ $status == 0 ]] || fail "grade should exit 0, got $status"
[[ $second == 2 ]] && grep -q "another grader (pid $grader) is writing into this folder" "$ws/second.txt" ||
    { cat "$ws/second.txt"; fail "a second grader into the same --out should be refused (exit 2), got $second"; }
echo "  second grader: $(grep -o 'another grader.*' "$ws/second.txt")"

# The outputs, exactly.
[[ "$(ls "$out" | tr '\n' ' ')" == "gradebook.csv gradescope insight.csv insight.json junit.xml report.html results summary.txt " ]] || fail "unexpected outputs: $(ls "$out")"
[[ $(ls "$out/results" | wc -l) == 28 && $(ls "$out/gradescope" | wc -l) == 28 ]] || fail "28 results and 28 Gradescope files expected"

score() { tr -d '\r' < "$out/gradebook.csv" | awk -F, -v id="$1" '$1 == id { print $NF }'; }
# The distinct verdicts of one exercise's parts in a student's results.
verdicts() {
    awk -v ex="$2" '/^      "id": "/ { split($0, q, "\""); cur = q[4] }
                    /^          "verdict": "/ { split($0, q, "\""); if (cur == ex) print q[4] }' "$out/results/$1.json" | sort -u | tr '\n' ' '
}
expect_verdict() {  # expect_verdict ID EXERCISE "VERDICTS..." : the parts' verdicts are among these
    local got; got="$(verdicts "$1" "$2")"
    [[ -n "$got" ]] || fail "$1/$2: no verdicts"
    for v in $got; do [[ " $3 " == *" $v "* ]] || fail "$1/$2: verdict $v, expected one of: $3"; done
    echo "  $1: $2 -> $got(score $(score "$1")/49)"
}
echo "hostile corpus:"
declare -A expected=(
    [loop]="timed_out" [sleeper]="timed_out" [forker]="missing" [hog]="crashed" [flood]="output_limit"
    [segv]="crashed" [aborter]="crashed" [stack]="crashed" [badcompile]="compile_error" [bomb]="compile_error"
    [garbage]="missing unparseable wrong" [absurd]="wrong unparseable too_few_digits"
    [hunter]="missing timed_out" [escaper]="missing" [forged]="compile_error" [forgedoom]="compile_error"
    [memhunter]="missing" [keythief]="missing" [nsmaker]="missing"
)
for id in $(echo "${!slot[@]}" | tr ' ' '\n' | sort); do
    set -- ${slot[$id]}
    expect_verdict "$id" "$2" "${expected[$id]}"
    # Costing exactly its own exercise: everything else is correct.
    want=$((49 - $(points "$2")))
    [[ "$(score "$id")" == "$want" ]] || fail "$id should score $want (49 minus $2), got $(score "$id")"
done
for id in honest_dir honest_tgz; do [[ "$(score "$id")" == 49 ]] || fail "$id should score 49, got $(score "$id")"; done
[[ "$(score templates)" == 0 ]] || fail "templates should score 0"
# The hostile ids graded like everyone: 49 each (with the two honest students, six full marks).
[[ $(grep -lE '^  "score": 49(\.0)?,' "$out"/results/*.json | wc -l) == 7 ]] || fail "the hostile ids, the honest two and dotdot should score 49 each"
[[ $(ls "$out/results" | awk '{ print length($0) }' | sort -n | tail -1) -le 105 ]] || fail "a results file name is too long"
grep -q '"student_hex": "626164fffe6964"' "$out"/results/*.json || fail "the invalid-UTF-8 id should be kept exactly"
grep -q 'two\\x0Alines' "$ws/log.txt" || fail "the newline in an id should be escaped in the progress line"
! grep -qE '^"?[=+@-]' "$out/gradebook.csv" || fail "a gradebook cell starts like a formula"
grep -q "^\"'=HYPERLINK" "$out/gradebook.csv" || fail "the formula id should be written as text"
for name in ..zip ...zip ...dots notes.txt; do
    grep -q "/$name: " "$out/summary.txt" || fail "summary.txt should list the ignored $name"
    grep -q "/$name: " "$ws/log.txt" || fail "the log should list the ignored $name"
done
echo "  ignored: $(grep -c '^  .*: a hidden name\|^  .*: neither' "$out/summary.txt") entries listed in summary.txt"
# The hostile entries are never written, each named in the notes; the rest of the archive is graded.
[[ "$(score dotdot)" == 49 ]] || fail "dotdot: the ../ entry is skipped and the rest scores 49, got $(score dotdot)"
[[ "$(score linkout)" == $((49 - $(points swiglu_ffn_2d) - $(points rms_norm_zero_row))) ]] ||
    fail "linkout: only the two linked exercises should be lost, got $(score linkout)"
[[ $(json '.notes[0]' "$out/results/dotdot.json") == "archive entry ../escaped-dotdot.cpp: path leaves the submission folder: not unpacked" ]] ||
    fail "dotdot: the note should name the ../ entry: $(json .notes "$out/results/dotdot.json")"
json '.notes[]' "$out/results/linkout.json" | grep -qx "archive entry linkout/swiglu_ffn_2d.cpp: a link to '/etc/passwd': links are not unpacked" ||
    fail "linkout: the note should name the link and its target: $(json .notes "$out/results/linkout.json")"
echo "  dotdot: $(json '.notes[0]' "$out/results/dotdot.json")"
echo "  linkout: $(json '.notes[0]' "$out/results/linkout.json")"
# The bomb meets whichever of the compiler's limits comes first: the wall clock (10 s) on a busy
# machine, its 2048 MiB of memory on a quiet one (g++ reached it in 9.4 s on a quiet 2-core VM).
grep -qE "compiler ran out of (time|memory)" "$out/results/bomb.json" ||
    fail "the template bomb should be stopped by the compiler's time or memory limit: $(json '.exercises[] | select(.id == "rms_norm_zero_row") | .note' "$out/results/bomb.json")"

# Nothing escaped: no file written outside the jail, nothing unpacked outside its folder. Without
# bubblewrap a program can write where its uid may (world-writable /tmp as a throw-away uid,
# anywhere as root with limits only): then only the grader's own folders are checked, and the
# strays are removed.
bwrap=0; grep -q "^isolation: bubblewrap" "$ws/log.txt" && bwrap=1
strays=(/ESCAPED-BY-BLOCKCHECK-TEST /root/ESCAPED-BY-BLOCKCHECK-TEST /work/ESCAPED-BY-BLOCKCHECK-TEST
        /home/ESCAPED-BY-BLOCKCHECK-TEST /tmp/ESCAPED-BY-BLOCKCHECK-TEST /var/tmp/ESCAPED-BY-BLOCKCHECK-TEST
        /dev/shm/ESCAPED-BY-BLOCKCHECK-TEST)
leaks="$(find "$ws" -name 'ESCAPED-BY-BLOCKCHECK-TEST' -o -name 'escaped-dotdot.cpp' 2>/dev/null || true)"
for f in "${strays[@]}"; do
    if [[ -e "$f" ]]; then
        if [[ $bwrap == 1 ]]; then leaks+=" $f"; else echo "  without bubblewrap the escaper wrote $f (removed)"; fi
    fi
done
rm -f "${strays[@]}" 2> /dev/null || true
[[ -z "${leaks// /}" ]] || fail "files escaped: $leaks"
echo "  escaper's writes: $(grep -o 'wrote: [^`]*' "$out/results/escaper.json" | head -4 | tr '\n' ' ')"

# Nobody saw anybody else's files (with bubblewrap; without it, programs see what their uid may read).
if [[ $bwrap == 1 ]]; then
    if grep -q "BLOCKCHECK-SECRET\|honest_dir\|$subs\|$out" "$out/results/hunter.json"; then
        cat "$out/results/hunter.json"; fail "the hunter found other students' files"
    fi
fi
echo "  hunter found: $(grep -o 'found: [^`]*\|hunt_found = [0-9]*' "$out/results/hunter.json" | head -3 | tr '\n' ' ')"
# The fork storm's children did not outlive the run.
# (Zombies do not count: they are dead, waiting for the machine's init to reap them.)
[[ $(ps -eo stat,comm | awk 'NR > 1 && $1 !~ /^Z/ && $2 == "exercise"' | wc -l) == 0 ]] || fail "programs outlived the grading run"

# The class files.
[[ $(tr -d '\r' < "$out/gradebook.csv" | wc -l) == 29 ]] || fail "gradebook: a header and 28 rows (the id with a newline shown as \\x0A on one line) expected"
head -1 "$out/gradebook.csv" | grep -q '^student,.*,total' || fail "gradebook header"
grep -c "<testsuite " "$out/junit.xml" | grep -qx 28 || fail "junit: 28 testsuites expected"
grep -q '<error type="timed_out"' "$out/junit.xml" || fail "junit: a timeout is an error"
grep -q '<failure type="missing"' "$out/junit.xml" || fail "junit: a missing answer is a failure"
if command -v xmllint > /dev/null; then xmllint --noout "$out/junit.xml" || fail "junit.xml does not parse"; fi
for f in "$out"/gradescope/*.json; do
    # every test named, with a status; a scored one with its max_score (the book's inputs' feedback has neither)
    [[ $(json 'has("score") and has("output") and (.tests | length > 0)
               and (.tests | all(has("name") and has("status") and (has("score") == has("max_score"))))
               and ([.tests[] | select(has("max_score"))] | length > 0)' "$f") == true ]] \
        || fail "$f lacks score, output or tests with name, status and (when scored) max_score"
done
grep -q "timed_out" "$out/summary.txt" && grep -q "compile_error" "$out/summary.txt" || fail "summary: verdict counts"
echo "  forker: $(grep -o "forked [0-9]*" "$out/results/forker.json" || echo "no count")"

# Issue 21: nothing of the runner or of earlier programs in a program's first process, no
# keyring, no namespace of its own (the program filter applies in every isolation).
if [[ $bwrap == 1 ]]; then
    grep -q "maps unreadable" "$out/results/memhunter.json" || fail "memhunter read its first process's memory map"
    grep -q "regions 0 mem unreadable" "$out/results/memhunter.json" || fail "memhunter opened its first process's memory"
fi
grep -q "search krb5-ticket-of-the-TA failed: errno 38" "$out/results/keythief.json" || fail "keythief could use keyrings"
! grep -q ") ok\|net) ok" "$out/results/nsmaker.json" || fail "nsmaker made a namespace"
grep -q "unshare(CLONE_NEWUSER) denied: errno 1" "$out/results/nsmaker.json" || fail "nsmaker: unshare should be denied"
echo "  memhunter: $(grep -o 'maps [a-z]*' "$out/results/memhunter.json" | head -1); keythief and nsmaker denied"
echo "grade hostile: 1 passed, 0 failed"
