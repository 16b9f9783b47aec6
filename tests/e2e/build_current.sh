#!/usr/bin/env bash
# The root script's up-to-date check (build_current in ./blockcheck) driven by the product list,
# data/release/product.txt, with no build: a stand-in tree holds the script, the list and one
# file under every path the list names (nested, for a folder), and a stand-in build folder holds
# programs newer than all of them. An edit of any file of a `sources`, `main` or `build` path must
# make the check say "rebuild", so that ./blockcheck never runs its old binary; an edit of a
# `data` path (read when the command runs) must not, so that a student's edit of chapters/ never
# prints "building". The same for the student edition's copy of the script (`edition=student`).
set -euo pipefail
root="$2"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
source "$root/tests/e2e/lib/common.sh"

# stand_in TREE EDITION: the tree, every file dated 2020 and the build's programs 2021; prints
# "KIND PATH FILE" for each entry of the edition (FILE: the stand-in file an edit touches).
stand_in() {
    local tree="$1" edition="$2" where kind path rest file
    mkdir -p "$tree/data/release" "$tree/build"
    sed "s/^edition=full$/edition=$edition/" "$root/blockcheck" > "$tree/blockcheck"
    grep -qx "edition=$edition" "$tree/blockcheck" || fail "the root script has no edition=full line"
    cp "$root/data/release/product.txt" "$tree/data/release/"
    while read -r where kind path rest; do
        [[ -z "$where" || "$where" == \#* ]] && continue
        [[ "$where" == both || "$where" == "$edition" ]] || continue
        if [[ -d "$root/$path" ]]; then file="$path/stand-in/file"; else file="$path"; fi
        mkdir -p "$(dirname "$tree/$file")"
        [[ -e "$tree/$file" ]] || : > "$tree/$file"
        echo "$kind $path $file"
    done < "$root/data/release/product.txt"
    : > "$tree/build/build.ninja"
    printf '#!/bin/sh\n' > "$tree/build/blockcheck"; cp "$tree/build/blockcheck" "$tree/build/blockcheck-jail"
    chmod +x "$tree/build/blockcheck" "$tree/build/blockcheck-jail"
    find "$tree" -exec touch -h -d '2020-01-01' {} +
    touch -d '2021-01-01' "$tree/build/blockcheck" "$tree/build/blockcheck-jail"
}

current() { (source "$1/blockcheck" && build_current blockcheck); }

for edition in full student; do
    tree="$ws/$edition"
    stand_in "$tree" "$edition" > "$ws/$edition.entries"
    [[ $(wc -l < "$ws/$edition.entries") -ge 10 ]] || fail "$edition: too few entries read from the list"
    current "$tree" || fail "$edition: the stand-in build should be current"
    built=0
    while read -r kind path file; do
        touch -d '2022-01-01' "$tree/$file"
        if [[ $kind =~ ^(sources|main|build)$ ]]; then
            ! current "$tree" || fail "$edition: an edit of $file ($kind $path) leaves ./blockcheck on its old binary"
            built=$((built + 1))
        else
            current "$tree" || fail "$edition: an edit of $file ($kind $path, read when the command runs) should not rebuild"
        fi
        touch -d '2020-01-01' "$tree/$file"
    done < "$ws/$edition.entries"
    ((built >= 8)) || fail "$edition: only $built paths the build reads"
done

# The full edition waits for its jail (built beside it); the student edition builds none.
rm "$ws/full/build/blockcheck-jail" "$ws/student/build/blockcheck-jail"
mkdir -p "$ws/full/checker" && touch -d '2020-01-01' "$ws/full/checker/jail_main.cpp"
! current "$ws/full" || fail "full: a build without its jail should not be current"
current "$ws/student" || fail "student: the edition has no jail to wait for and should be current"

# The paths that need it: base/, the compiled-in mistake catalogue and the list itself.
for path in base data/mistakes.json data/release/product.txt; do
    grep -q " $path " <(sed 's/$/ /' "$ws/full.entries") || fail "the list should name $path as read by the build"
    grep -q "^\(sources\|main\|build\) $path " "$ws/full.entries" || fail "$path should be of a kind the build reads"
done
echo "build_current: ok"
