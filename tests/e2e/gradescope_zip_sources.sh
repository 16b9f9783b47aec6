#!/usr/bin/env bash
# Every file the build of `blockcheck` read is in the Gradescope zip and under a path the product
# list (data/release/product.txt) names as read by the build, so that the zip's own `setup.sh
# build` finds it and ./blockcheck rebuilds after an edit of it. What the build read comes from the
# build itself: the compiler's dependency records of every object linked into blockcheck (ninja
# -t inputs, ninja -t deps) and the files CMake's configure step read (ninja -t query build.ninja);
# system files are dropped, and files the build wrote are mapped back to their sources.
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
build="$(dirname "$blockcheck")"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
export LANG=C BLOCKCHECK_ROOT="$root"
source "$root/tests/e2e/lib/common.sh"
[[ -f "$build/build.ninja" && -f "$build/.ninja_deps" ]] || fail "$build: no ninja build with dependency records"

# Files the build writes, by where they come from: the mistake catalogue compiled in
# (CMakeLists.txt), and the unity files, which only include sources that are listed on their own.
from_generated() {
    case "$1" in
        generated/mistakes_json.inc) echo data/mistakes.json ;;
        CMakeFiles/*/Unity/unity_*.cxx | CMakeFiles/*.cmake | CMakeFiles/*/*.cmake | CMakeFiles/cmake.verify_globs | CMakeCache.txt) ;;
        *) fail "the build read $build/$1, which it wrote: name the source it comes from in $0" ;;
    esac
}

# 1. What the build read.
ninja -C "$build" -t inputs blockcheck > "$ws/inputs.txt"
grep '\.o$' "$ws/inputs.txt" | (cd "$build" && xargs ninja -t deps) > "$ws/deps.txt"
grep -q 'deps mtime' "$ws/deps.txt" || fail "ninja recorded no dependencies for blockcheck's objects"
[[ $(grep -c '(VALID)' "$ws/deps.txt") -ge 10 ]] || fail "too few objects with valid dependency records"
ninja -C "$build" -t query build.ninja | sed -n '/^  input:/,/^  outputs:/p' | sed '1d;$d' > "$ws/configure.txt"
# ninja's inputs are the sources and what the build made of them (objects, libraries, the jail):
# the sources are kept, the rest is covered by the dependency records of the objects.
{ grep '^    ' "$ws/deps.txt"; cat "$ws/configure.txt"; (cd "$build" && realpath -m $(cat "$ws/inputs.txt")) | grep -v "^$build/"; } |
    sed 's/^ *//; s/^| *//; s/^|| *//' | grep -v '^$' | sort -u |
    while read -r file; do
        [[ "$file" == /* ]] || file="$build/$file"
        file="$(realpath -m "$file")"
        case "$file" in
            "$build"/*) from_generated "${file#"$build"/}" ;;
            "$root"/*) echo "${file#"$root"/}" ;;
            /usr/* | /etc/* | /lib/*) ;;  # the system's headers and CMake's modules
            *) fail "the build read $file, outside the repository and the system" ;;
        esac
    done | sort -u > "$ws/read.txt"
for f in base/value.hpp data/mistakes.json CMakeLists.txt data/release/product.txt checker/main.cpp; do
    grep -qx "$f" "$ws/read.txt" || fail "$f should be among the files the build read: $(head -c 400 "$ws/read.txt")"
done

# 2. Each of them in the zip, and under a path of the list the root script's check looks at.
"$blockcheck" gradescope-package "$ws/autograder.zip" > /dev/null
unzip -Z1 "$ws/autograder.zip" | sort > "$ws/zip.txt"
missing="$(comm -23 "$ws/read.txt" "$ws/zip.txt")"
[[ -z "$missing" ]] || fail "the Gradescope zip lacks files the build reads (setup.sh build would fail): $missing"
awk '$1 ~ /^(both|full)$/ && $2 ~ /^(sources|main|build)$/ {print $3}' "$root/data/release/product.txt" > "$ws/built.txt"
while read -r f; do
    listed=0
    while read -r p; do [[ "$f" == "$p" || "$f" == "$p"/* ]] && { listed=1; break; }; done < "$ws/built.txt"
    ((listed)) || fail "$f is read by the build but under no sources/main/build path of data/release/product.txt"
done < "$ws/read.txt"
# The zip is the full edition as the root script lists it: nothing more, nothing less.
bash "$root/blockcheck" --files | sort > "$ws/files.txt"
diff "$ws/files.txt" <(grep -vx -e setup.sh -e run_autograder "$ws/zip.txt") > "$ws/diff.txt" ||
    fail "the zip and ./blockcheck --files differ: $(head -20 "$ws/diff.txt")"
echo "gradescope_zip_sources: ok ($(wc -l < "$ws/read.txt") files read by the build, $(wc -l < "$ws/zip.txt") in the zip)"
