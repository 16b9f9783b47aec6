#!/usr/bin/env bash
# End to end, issue 31: what a student hands in is opened beneath the submission, never through a
# link. A header beside a source that links to a root-only file, to the grader's environment, to
# another student's source, to a FIFO, to /proc/kmsg (a read blocks: the run is under a timeout)
# or to /dev/zero is refused with a message in that exercise's feedback, and its bytes reach no
# output; a FIFO handed in as a header is refused too. A program whose binary would pass 64 MiB
# (a data section aligned to 2^26) is a compile error and leaves nothing in the cache. A changed
# header beside a source is graded again on a resumed run.
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
ws="$(mktemp -d)"; trap '[[ -n "${KEEP:-}" ]] || rm -rf "$ws"' EXIT; echo "ws $ws"
chmod 711 "$ws"   # as root without bubblewrap, the throw-away uid that compiles must reach the cache
source "$root/tests/e2e/lib/common.sh"
chapter25_workspace "$ws"
subs="$ws/submissions"; out="$ws/grades"; solved="$root/tests/solved/ch25"
exercise=rms_norm_zero_row
tokens=(BLOCKCHECK_TOKEN_ROOT BLOCKCHECK_TOKEN_ENVIRON BLOCKCHECK_TOKEN_BOB)

# student ID: a folder with the solved exercise, including "leak.hpp" (a link made by the caller).
student() {
    mkdir -p "$subs/$1/chapters/ch25"
    { echo '#include "leak.hpp"'; cat "$solved/$exercise.cpp"; } > "$subs/$1/chapters/ch25/$exercise.cpp"
}
mkdir -p "$ws/private" && chmod 700 "$ws/private"
echo "int BLOCKCHECK_TOKEN_ROOT;" > "$ws/private/secret.hpp" && chmod 600 "$ws/private/secret.hpp"
mkdir -p "$subs/bob/chapters/ch25" && { cat "$solved/$exercise.cpp"; echo "// BLOCKCHECK_TOKEN_BOB"; } > "$subs/bob/chapters/ch25/$exercise.cpp"
mkfifo "$ws/fifo"
declare -A target=([rootfile]="$ws/private/secret.hpp" [environ]=/proc/self/environ
                   [other]="../../../bob/chapters/ch25/$exercise.cpp" [fifo]="$ws/fifo" [kmsg]=/proc/kmsg [zero]=/dev/zero)
for id in "${!target[@]}"; do student "$id"; ln -s "${target[$id]}" "$subs/$id/chapters/ch25/leak.hpp"; done
# A FIFO itself beside a source, and a student whose own header is a plain file.
student pipe && mkfifo "$subs/pipe/chapters/ch25/leak.hpp"
student helper && echo "inline int helper_value() { return 0; }" > "$subs/helper/chapters/ch25/leak.hpp"
# A tiny source whose binary would be 128 MiB.
mkdir -p "$subs/huge/chapters/ch25"
printf 'alignas(1 << 26) static char big[1] = {1};\nint main() { return big[0] - 1; }\n' > "$subs/huge/chapters/ch25/$exercise.cpp"

options=(--out "$out" --chapter ch25 --jobs 2 --cpu 2 --wall 4)
status=0
BLOCKCHECK_TOKEN_ENVIRON=1 timeout 300 "$blockcheck" grade "$subs" "${options[@]}" > "$ws/log.txt" 2>&1 || status=$?
[[ $status != 124 ]] || fail "grade hung (a link to /proc/kmsg or a FIFO was read): $(tail -5 "$ws/log.txt")"
[[ $status == 0 ]] || fail "grade should exit 0, got $status: $(tail -20 "$ws/log.txt")"

note() { json ".exercises[] | select(.id == \"$exercise\") | .note" "$out/results/$1.json"; }
exercise_score() { json ".exercises[] | select(.id == \"$exercise\") | .score" "$out/results/$1.json"; }
for id in "${!target[@]}" pipe; do
    case $id in
        pipe) want="chapters/ch25/leak.hpp is a pipe, not a regular file: not read" ;;
        *) want="chapters/ch25/leak.hpp is a link; links are not graded; hand in the file" ;;
    esac
    note "$id" | grep -qF "$want" || fail "$id: the feedback should say '$want', got: $(note "$id")"
    note "$id" | grep -q "leak.hpp: No such file or directory" || fail "$id: the program compiled against the link's target"
    [[ $(exercise_score "$id") == 0 ]] || fail "$id: no points without its header"
    echo "  $id: $(note "$id" | head -1)"
done
[[ $(exercise_score bob) == 5 && $(exercise_score helper) == 5 ]] || fail "bob and helper should score 5"
for token in "${tokens[@]}"; do
    ! grep -rqa "$token" "$out" --exclude-dir=.cache || fail "$token reached the outputs: $(grep -rla "$token" "$out")"
done
for token in BLOCKCHECK_TOKEN_ROOT BLOCKCHECK_TOKEN_ENVIRON; do
    ! grep -rqa "$token" "$out/.cache" || fail "$token reached the cache"
done
# bob's source is in the cache once: his own compile's seal, nobody else's.
[[ $(grep -rla BLOCKCHECK_TOKEN_BOB "$out/.cache" | wc -l) == 1 ]] || fail "bob's source reached another entry of the cache"
grep -q "bob" "$out/gradebook.csv" || fail "bob's own source is graded as usual"

# The program that would link to 128 MiB: a compile error saying why, nothing of it cached.
note huge | grep -q "the compiled program would be larger than 64 MiB" || fail "huge: $(note huge)"
[[ $(json ".exercises[] | select(.id == \"$exercise\") | .parts[0].verdict" "$out/results/huge.json") == compile_error ]] ||
    fail "huge should be a compile error"
big="$(find "$out/.cache" -type f -size +60M)"; [[ -z "$big" ]] || fail "a huge file stayed in the cache: $big"
! grep -rlqa "alignas(1 << 26)" "$out/.cache" || fail "the huge program's compile was cached"

# Resume: helper's header changes (it no longer compiles): helper is graded again, the others reused.
echo '#error the header changed' > "$subs/helper/chapters/ch25/leak.hpp"
BLOCKCHECK_TOKEN_ENVIRON=1 timeout 300 "$blockcheck" grade "$subs" "${options[@]}" > "$ws/log2.txt" 2>&1 ||
    fail "the resumed run failed: $(tail -20 "$ws/log2.txt")"
[[ $(exercise_score helper) == 0 ]] || fail "helper's changed header should be graded again (0), got $(exercise_score helper)"
note helper | grep -q "the header changed" || fail "helper: $(note helper)"
[[ $(exercise_score bob) == 5 ]] || fail "bob: 5 after the resumed run"
grep -qF "(1 graded, " "$ws/log2.txt" || fail "only helper should be graded again: $(tail -5 "$ws/log2.txt")"
echo "grade links: 3 passed, 0 failed"
