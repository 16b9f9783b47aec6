#!/usr/bin/env bash
# Issue 43's clang path, measured beside g++ (a measurement, not yet a way of grading: see
# docs/compile-speed.md, "clang 16"): every solved program of tests/solved/ compiled two ways
# against the students' header, run on its exercise's book inputs (data/exercises/), its output
# compared byte for byte, and each compile timed as a whole process.
#   g++      the fast way's shape: the header's declarations precompiled (-DBLOCKCHECK_PREBUILT_HEADER,
#            its .gch found beside it), its definitions compiled once into an object, mold
#   clang    clang++-16 -O0 reading one precompiled header built with -fpch-instantiate-templates
#            -fpch-codegen (the header's instantiations compiled once, into the PCH's own object),
#            the same definitions object (g++'s: one C++ ABI), mold
# Nothing here is sandboxed: it compiles and runs the repository's own solved programs only.
#   bench/clang_path.sh [ROUNDS]    (default 3; prints medians per program and over all)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-3}"
for tool in g++ clang++-16 mold jq; do
    command -v "$tool" > /dev/null || { echo "clang_path: $tool is needed" >&2; exit 2; }
done
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
mkdir -p "$work/gcc" "$work/clang"
cp "$here/chapters/blockcheck.hpp" "$work/gcc/" && cp "$here/chapters/blockcheck.hpp" "$work/clang/"
std=(-std=c++17 -O0 -Wall)

# The header built once each way: declarations precompiled, definitions in one object.
(cd "$work/gcc" && g++ "${std[@]}" -DBLOCKCHECK_PREBUILT_HEADER -x c++-header blockcheck.hpp -o blockcheck.hpp.gch &&
    g++ "${std[@]}" -DBLOCKCHECK_HEADER_OBJECT -fkeep-inline-functions -x c++ -c blockcheck.hpp -o header.o)
(cd "$work/clang" && clang++-16 "${std[@]}" -DBLOCKCHECK_PREBUILT_HEADER -fpch-instantiate-templates -fpch-codegen \
        -x c++-header blockcheck.hpp -o blockcheck.pch &&
    clang++-16 -O0 -c blockcheck.pch -o pch.o)

gcc_compile() {
    g++ "${std[@]}" -I"$work/gcc" -DBLOCKCHECK_PREBUILT_HEADER "$1" "$work/gcc/header.o" -fuse-ld=mold -Wl,--no-fork -Wl,--threads=1 -o "$2"
}
clang_compile() {
    clang++-16 "${std[@]}" -I"$work/clang" -DBLOCKCHECK_PREBUILT_HEADER -include-pch "$work/clang/blockcheck.pch" \
        "$1" "$work/clang/pch.o" "$work/gcc/header.o" -fuse-ld=mold -Wl,--no-fork -Wl,--threads=1 -o "$2"
}
# Milliseconds of one compile: "WALL CPU" (CPU: user + system of the compiler's processes, what
# the load on a shared machine changes least).
timed() {
    local TIMEFORMAT='%3R %3U %3S' took
    took="$( { time "$@" 2> "$work/messages" > /dev/null; } 2>&1 )" || { echo "FAILED FAILED"; head -5 "$work/messages" >&2; return 0; }
    awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' <<< "$took"
}
# The median of column $1 of the lines read.
median() { awk -v c="$1" '{ print $c }' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)) }'; }

same=0 differ=0 total=0
: > "$work/all.gcc"; : > "$work/all.clang"
printf '%-46s %15s %15s  %s\n' program "g++ wall/CPU ms" "clang wall/CPU" output
for source in "$here"/tests/solved/*/*.cpp; do
    chapter="$(basename "$(dirname "$source")")" id="$(basename "$source" .cpp)"
    definition="$here/data/exercises/$chapter/$id.json"
    [[ -f $definition ]] || continue
    jq -r '.inputs // {} | to_entries[] | "\(.key) = \(.value)"' "$definition" > "$work/input"
    : > "$work/t.gcc"; : > "$work/t.clang"
    for ((r = 0; r < rounds; r++)); do
        timed gcc_compile "$source" "$work/p.gcc" >> "$work/t.gcc"
        timed clang_compile "$source" "$work/p.clang" >> "$work/t.clang"
    done
    out_gcc="$(timeout 10 "$work/p.gcc" < "$work/input" 2>&1 || true)"
    out_clang="$(timeout 10 "$work/p.clang" < "$work/input" 2>&1 || true)"
    total=$((total + 1))
    if [[ "$out_gcc" == "$out_clang" && -n "$out_gcc" ]]; then verdict=same; same=$((same + 1)); else verdict=DIFFERS; differ=$((differ + 1)); fi
    cat "$work/t.gcc" >> "$work/all.gcc"; cat "$work/t.clang" >> "$work/all.clang"
    printf '%-46s %15s %15s  %s\n' "$chapter/$id" "$(median 1 < "$work/t.gcc")/$(median 2 < "$work/t.gcc")" \
        "$(median 1 < "$work/t.clang")/$(median 2 < "$work/t.clang")" "$verdict"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
g="$(median 1 < "$work/all.gcc")" c="$(median 1 < "$work/all.clang")"
gc="$(median 2 < "$work/all.gcc")" cc="$(median 2 < "$work/all.clang")"
printf 'all %d programs, %d rounds (load average %s): compile median, wall g++ %s ms, clang %s ms (%s); CPU g++ %s ms, clang %s ms (%s)\n' \
    "$total" "$rounds" "$(cut -d' ' -f1 /proc/loadavg)" "$g" "$c" "$(ratio "$g" "$c")" "$gc" "$cc" "$(ratio "$gc" "$cc")"
printf 'outputs on the book inputs: the same on %d, different on %d\n' "$same" "$differ"
