#!/usr/bin/env bash
# The student edition: `release` writes it with nothing of the solutions; it builds on its own
# without MPFR and asks to install only what it needs; and it gives exactly the full edition's
# verdicts, messages and diagnoses on the book's inputs and on the variants it carries, for the
# templates, the solved programs and a set of wrong ones.
# In the suite the release's program is build/blockcheck-student, the student side built by the
# project's own build from the same sources (data/release/product.cmake), and the release's
# own CMakeLists.txt is only configured; tests/long/release_edition_build.sh runs this script with
# RELEASE_EDITION_OWN_BUILD=1: the release's ./blockcheck builds it from nothing (minutes of
# compiling) and every variant it carries is compared.
set -euo pipefail
blockcheck="$1"; root="$2"
own_build="${RELEASE_EDITION_OWN_BUILD:-0}"
# Under the build tree (below ccache's base_dir), so that the release's objects are reused.
work="$(cd "$(dirname "$blockcheck")" && pwd)/e2e-release"
[[ $own_build == 0 ]] || work+="-own-build"
rm -rf "$work"; mkdir -p "$work"; trap 'rm -rf "$work"' EXIT
export LANG=C
source "$root/tests/e2e/lib/common.sh"
rel="$work/student"

# 1. Written, with the default five variants; a second release into the same folder is refused.
"$blockcheck" release "$rel" > "$work/release.txt" || fail "release should exit 0"
grep -q "27 exercises, 162 expected-answer cases" "$work/release.txt" || fail "release summary: $(cat "$work/release.txt")"
status=0; "$blockcheck" release "$rel" 2> "$work/err.txt" || status=$?
[[ $status == 2 ]] && grep -q "exists and is not empty" "$work/err.txt" || fail "release into a used folder should exit 2"

# 2. The student target's sources and nothing of the course side or the solutions: its rooms are
#    exactly the student side's (data/release/product.txt), nothing includes solutions/, no
#    reference function, no line of a reference or of a solved program that the student side does
#    not have itself.
side="$root/data/release/product.txt"
[[ ! -e "$rel/solutions" && ! -e "$rel/tests" ]] || fail "the release has solutions/ or tests/"
rooms_listed="$(awk '$1 == "both" && $2 == "sources" && $3 ~ /^checker\// {print $3}' "$side" | sort)"
rooms_found="$(cd "$rel" && find checker -mindepth 1 -maxdepth 1 -type d | sort)"
[[ -n "$rooms_listed" && "$rooms_found" == "$rooms_listed" ]] || fail "the release's rooms: $rooms_found"
[[ -z "$(find "$rel" -name expected_reference.cpp)" ]] || fail "the release has the reference provider"
! grep -rn '#include "solutions/' "$rel" || fail "the release includes solutions/"
# each reference's definition line, a plain function (`Values name(`) or one generic over its scalar (`> name(`)
sed -n 's/^ *{"\([a-z0-9_]*\)", \([a-z0-9_]*\)\(<[A-Za-z]*>\)\{0,1\}},$/\2/p' "$root/solutions/reference_solutions.cpp" | sort -u |
    sed 's/.*/Values &(\n> &(/' > "$work/names.txt"
[[ $(wc -l < "$work/names.txt") -ge 54 ]] || fail "could not read the reference names"
shipped="$work/shipped.txt"   # every line the student side legitimately has
for path in $(awk '$1 == "both" && ($2 == "sources" || $2 == "main") {print $3}' "$side"); do find "$root/$path" -type f; done |
    xargs cat "$root"/chapters/*.hpp "$root"/chapters/*/*.cpp | sed 's/^ *//; s/ *$//' | sort -u > "$shipped"
distinctive() { sed 's/^ *//; s/ *$//' "$@" | awk 'length($0) >= 24' | sort -u | comm -23 - "$shipped"; }
distinctive "$root"/tests/solved/*/*.cpp > "$work/solved_lines.txt"
distinctive $(find "$root/solutions" -name '*.cpp' -o -name '*.hpp') > "$work/reference_lines.txt"
[[ $(wc -l < "$work/solved_lines.txt") -gt 200 && $(wc -l < "$work/reference_lines.txt") -gt 500 ]] ||
    fail "too few distinctive lines to look for"
grep -rqF -f "$work/solved_lines.txt" "$root/tests/solved" || fail "the solved lines should be found in tests/solved"
if grep -rnF -f "$work/names.txt" "$rel" > "$work/found.txt"; then
    head -5 "$work/found.txt" >&2; fail "the release holds names of the full edition"
fi
# Whole lines (trimmed), so that a template line that merely contains a solved line, such as
# `[[maybe_unused]] double shift = input_number("shift");  // ...`, is not taken for it.
find "$rel" -type f -print0 | xargs -0 sed 's/^ *//; s/ *$//' | sort -u > "$work/release_lines.txt"
for patterns in solved_lines reference_lines; do
    if comm -12 "$work/release_lines.txt" "$work/$patterns.txt" | grep -q .; then
        comm -12 "$work/release_lines.txt" "$work/$patterns.txt" | head -5 >&2
        fail "the release holds $patterns of the full edition"
    fi
done

# 3. On a fresh machine, as a user, the script asks for exactly the student packages (no MPFR,
#    no test packages) and stops.
mkdir -p "$work/fakebin"
printf '#!/bin/sh\nexit 1\n' > "$work/fakebin/dpkg-query"
printf '#!/bin/sh\necho 1000\n' > "$work/fakebin/id"
chmod +x "$work/fakebin/dpkg-query" "$work/fakebin/id"
status=0; PATH="$work/fakebin:$PATH" "$rel/blockcheck" list > /dev/null 2> "$work/err.txt" || status=$?
[[ $status == 1 ]] || fail "missing packages should stop the release script"
grep -qx '  sudo apt-get install -y g++ mold cmake ninja-build libfmt-dev libboost-dev nlohmann-json3-dev libcli11-dev libssl-dev libutfcpp-dev' \
    "$work/err.txt" || fail "the release should ask for the student packages only: $(cat "$work/err.txt")"
rm -rf "$rel/build"

# 4. It builds on its own (in the suite: it configures on its own, and the same sources link into
#    blockcheck-student), without MPFR, and its student commands work.
if [[ $own_build == 1 ]]; then
    (cd "$rel" && ./blockcheck list > "$work/list.txt") || fail "the release's first build or list failed"
    program="$rel/build/blockcheck"
    edition() { ./blockcheck "$@"; }
else
    cmake -S "$rel" -B "$rel/build" -G Ninja > "$work/configure.log" 2>&1 ||
        { tail -20 "$work/configure.log" >&2; fail "the release's CMakeLists.txt does not configure"; }
    program="$(dirname "$blockcheck")/blockcheck-student"
    [[ -x "$program" ]] || fail "$program is missing (the build's blockcheck-student target)"
    edition() { BLOCKCHECK_ROOT="$rel" "$program" "$@"; }  # what the release's ./blockcheck runs
    (cd "$rel" && edition list > "$work/list.txt") || fail "the student edition's list failed"
fi
! grep -qi mpfr "$rel/build/CMakeCache.txt" || fail "the release's build should not look for MPFR"
# Quiet once built: with a program newer than its sources (in the suite a stand-in), the release's
# script finds it current, though the release builds no jail; an edit of base/ or of its own
# CMakeLists.txt rebuilds, an edit of an exercise does not.
if [[ $own_build == 0 ]]; then
    printf '#!/bin/sh\n' > "$rel/build/blockcheck" && chmod +x "$rel/build/blockcheck"
    (source "$rel/blockcheck" && write_inputs "$rel/build/blockcheck")  # the stamp its build would write
fi
release_current() { (source "$rel/blockcheck" && build_current blockcheck); }
release_current || fail "the release's script would say \"building\" on every command"
for edited in base/value.hpp CMakeLists.txt chapters/ch25/rms_norm_zero_row.cpp; do
    saved="$(stat -c %y "$rel/$edited")"; touch -d '+1 minute' "$rel/$edited"
    if [[ $edited == chapters/* ]]; then release_current || fail "an edit of $edited should not rebuild the release"
    else ! release_current || fail "an edit of $edited should rebuild the release"; fi
    touch -d "$saved" "$rel/$edited"
done
[[ $own_build == 1 ]] || rm "$rel/build/blockcheck" "$rel/build/.inputs"
# Neither as a shared library nor from its archive (the full edition links MPFR statically).
! { ldd "$program"; nm "$program" 2>/dev/null; } | grep -qi mpfr || fail "the student edition's binary should not link MPFR"
grep -q "rms_norm_zero_row" "$work/list.txt" || fail "list should show the exercises"
(cd "$rel" && edition show rms_norm_zero_row | grep -q "zero_row_rms_norm") || fail "show"
(cd "$rel" && edition hint rms_norm_zero_row | grep -q "Square each coordinate") || fail "hint"
for cmd in grade verify forward release validate new; do
    status=0; (cd "$rel" && edition "$cmd" > /dev/null 2>&1) || status=$?
    [[ $status == 2 ]] || fail "the release should not have '$cmd' (exit $status)"
done

# 5. An unknown seed is refused in both languages; a shipped one is accepted.
status=0; (cd "$rel" && edition check rms_norm_zero_row --variant 6) 2> "$work/err.txt" || status=$?
[[ $status == 2 ]] && grep -q "this edition carries variants 1-5; your instructor grades with others" "$work/err.txt" ||
    fail "an unknown seed: $(cat "$work/err.txt")"
(cd "$rel" && edition --lang zh check rms_norm_zero_row --variant 6) 2> "$work/err.txt" || true
grep -q "本版只带有变体 1-5" "$work/err.txt" || fail "the unknown seed in Chinese: $(cat "$work/err.txt")"

# 5b. An assignment's edition carries the assignment: its exercises only, each at the assignment's
#     points on its board and in `list` (the definitions keep their own).
week="$work/week1"
"$blockcheck" release "$week" --assignment "$root/docs/examples/assignment-week1.json" --variants 1 > "$work/week1.txt" ||
    fail "release --assignment should exit 0"
[[ $(json '.exercises | map(.id) | join(",")' "$week/data/exercises/assignment.json") == rope_quarter_turn_table,kv_cache_sizes,gqa_groups ]] ||
    fail "the edition should carry the assignment"
BLOCKCHECK_ROOT="$week" "$program" list --json > "$work/week1.json" || fail "the assignment edition's list failed"
points() { json ".exercises[] | select(.id == \"$1\") | .points" "$work/week1.json"; }
[[ $(json '.exercises | length' "$work/week1.json") == 3 && $(points rope_quarter_turn_table) == 4 && $(points kv_cache_sizes) == 3 ]] ||
    fail "the assignment edition should count its points: $(cat "$work/week1.json" | head -c 600)"
[[ $(points gqa_groups) == $(json '.answers | map(.points // 1) | add' "$root/data/exercises/gqa_long_context/gqa_groups.json") ]] ||
    fail "gqa_groups, without points in the assignment, is worth its own"

# 6. The differential test: the same programs checked by the full edition (its answers computed by
#    the reference solutions) and by the release (its answers read from data/expected/). Both
#    check in the release's folder, whose data/exercises/ and chapters/ are the repository's to
#    the byte, so they share its compile cache: each program is compiled once, not once an edition.
diff -r "$root/data/exercises" "$rel/data/exercises" > "$work/diff.txt" || { head "$work/diff.txt" >&2; fail "the release's data/exercises differ"; }
diff -r "$root/chapters" "$rel/chapters" > "$work/diff.txt" || { head "$work/diff.txt" >&2; fail "the release's chapters differ"; }
ids=(); for f in "$root"/data/exercises/*/*.json; do [[ $(basename "$f") == chapter.json ]] || ids+=("$(basename "$f" .json)"); done
put() {  # put SOURCE-DIR: programs into the release's chapters/
    cp -r "$1"/* "$rel/chapters/"
}
check_ids=("${ids[@]}")  # the exercises `same` checks
strip_tutor=0  # 1: compare without the tutor's words (below)
same() {  # same LABEL ARGS...: check --json by both editions, identical
    local label="$1"; shift
    BLOCKCHECK_ROOT="$rel" "$blockcheck" check "${check_ids[@]}" --json "$@" > "$work/full.json" || true
    (cd "$rel" && edition check "${check_ids[@]}" --json "$@" > "$work/rel.json") || true
    if [[ $strip_tutor == 1 ]]; then
        for f in full rel; do
            jq 'del(.. | objects | .notes?, .follow_through?, .diagnosis?, .diagnoses?)' "$work/$f.json" > "$work/$f.stripped"
            mv "$work/$f.stripped" "$work/$f.json"
        done
    fi
    grep -q '"verdict"' "$work/full.json" || fail "$label: no verdicts"
    diff "$work/full.json" "$work/rel.json" > "$work/diff.txt" || { head -20 "$work/diff.txt" >&2; fail "$label: the editions differ"; }
    verdicts="$verdicts $(grep -o '"verdict": "[a-z_]*"' "$work/rel.json" | sort -u | cut -d'"' -f4 | tr '\n' ' ')"
}
verdicts=""
same "templates"
mkdir -p "$work/solved"; cp -r "$root/tests/solved/." "$work/solved/"
put "$work/solved"
# The book's inputs and every variant the release carries; in the suite the first and the last.
seeds=("" 1 5); [[ $own_build == 1 ]] && seeds=("" 1 2 3 4 5)
for seed in "${seeds[@]}"; do same "solved ${seed:+variant $seed}" ${seed:+--variant $seed}; done
# Wrong programs: every answer off by one part in 10^5, and printed with too few digits (each
# recompiles every program: in the suite one exercise in four, all with the release's own build).
[[ $own_build == 1 ]] || { check_ids=(); for i in "${!ids[@]}"; do (( i % 4 == 0 )) && check_ids+=("${ids[$i]}"); done; }
edit 's|std::printf("%.16e", x);|std::printf("%.16e", x * (1 + 1e-5));|' "$rel/chapters/blockcheck.hpp"
# Every part wrong at once: the verdicts and scores agree; the tutor's words may not, since only
# the full edition judges a step from the student's own wrong values (docs/authoring.md: the
# student edition says nothing there).
strip_tutor=1
same "scaled answers"; same "scaled answers, variant 2" --variant 2
strip_tutor=0
cp "$root/chapters/blockcheck.hpp" "$rel/chapters/"; edit 's|std::printf("%.16e", x);|std::printf("%.4e", x);|' "$rel/chapters/blockcheck.hpp"
same "four digits"
cp "$root/chapters/blockcheck.hpp" "$rel/chapters/"
check_ids=("${ids[@]}")
# Broken programs in place of some exercises.
hostile=(abort compile_error segfault absurd_numbers binary_garbage echo)
targets=(rms_norm_zero_row rms_norm_shift rope_later_positions gqa_groups kv_cache_sizes ntk_vs_linear)
for i in "${!hostile[@]}"; do
    src="$(find "$root/chapters" -name "${targets[$i]}.cpp")"; rel_path="${src#$root/}"
    cp "$root/tests/hostile/${hostile[$i]}.cpp" "$rel/$rel_path"
done
# And one whose answer lines cannot be read (an unclosed vector, a word for a number).
printf '#include <cstdio>\nint main() { std::puts("gate = [1, 2"); std::puts("up = many"); }\n' > "$work/unparseable.cpp"
cp "$work/unparseable.cpp" "$rel/chapters/ch25/swiglu_ffn_2d.cpp"
same "broken programs"
for v in correct wrong too_few_digits missing compile_error crashed unparseable; do
    [[ " $verdicts " == *" $v "* ]] || fail "the differential test never saw the verdict $v (saw:$verdicts)"
done
echo "release_edition: ok (verdicts compared:$(echo $verdicts | tr ' ' '\n' | sort -u | tr '\n' ' '))"
