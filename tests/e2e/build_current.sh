#!/usr/bin/env bash
# The root script's up-to-date check (build_current in ./blockcheck) driven by the product list,
# data/release/product.txt, with no build: a stand-in tree holds the script, the list and one
# file under every path the list names (nested, for a folder), and a stand-in build folder holds
# programs and the check's stamp (build/.inputs) newer than all of them. An edit of any file of a
# `sources`, `main` or `build` path must make the check say "rebuild", so that ./blockcheck never
# runs its old binary, and so must a new, deleted or renamed file; an edit of a `data` path (read
# when the command runs) must not, so that a student's edit of chapters/ never prints "building".
# The same for the student edition's copy of the script (`edition=student`). Then the stamp's
# own life, through build_targets with a stand-in cmake: written after a build that succeeded,
# dated when it began (an edit during the build rebuilds next time), gone after one that failed.
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
    (source "$tree/blockcheck" && write_inputs "$tree/build/blockcheck")
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

# The stamp: no stamp is not current; it names the paths the build reads as the list gives them
# (one a line, a path under another listed one left out: not every file under them, so the check
# is one `find`, not a test a file), none of a `data` path; a new file in a nested folder, a
# deleted and a renamed file each rebuild.
tree="$ws/full"
printf '#!/bin/sh\n' > "$tree/build/blockcheck-jail" && chmod +x "$tree/build/blockcheck-jail"
touch -d '2020-01-01' "$tree/checker"  # the jail's source added above made its folder newer
# covered PATH: the stamp names PATH or a folder holding it.
covered() {
    local at="$1"
    while :; do
        grep -qx "$tree/$at" "$tree/build/.inputs" && return 0
        [[ $at == */* ]] || return 1
        at="${at%/*}"
    done
}
while read -r kind path file; do
    if [[ $kind =~ ^(sources|main|build)$ ]]; then covered "$path" || fail "the stamp lacks $path"
    else ! grep -qx "$tree/$path" "$tree/build/.inputs" || fail "the stamp names $path ($kind)"; fi
done < "$ws/full.entries"
grep -qx "$tree/checker" "$tree/build/.inputs" && ! grep -q "^$tree/checker/" "$tree/build/.inputs" ||
    fail "the stamp should name checker once, none of the listed paths under it"
[[ $(wc -l < "$tree/build/.inputs") -le 12 ]] || fail "the stamp should hold the listed paths, not every file under them"
mv "$tree/build/.inputs" "$ws/inputs" && ! current "$tree" || fail "no stamp should not be current"
mv "$ws/inputs" "$tree/build/.inputs" && current "$tree" || fail "the stamp put back should be current"
: > "$tree/base/stand-in/added.hpp"
! current "$tree" || fail "a new file in a nested folder leaves ./blockcheck on its old binary"
rm "$tree/base/stand-in/added.hpp" && touch -d '2020-01-01' "$tree/base/stand-in"
current "$tree" || fail "the folder's date restored should be current"
mkdir -p "$tree/base/new/deeper" && : > "$tree/base/new/deeper/added.hpp"
! current "$tree" || fail "a new nested folder leaves ./blockcheck on its old binary"
rm -r "$tree/base/new" && touch -d '2020-01-01' "$tree/base"
victim="$(grep -m1 "^sources checker/compile " "$ws/full.entries" | cut -d' ' -f3)"
rm "$tree/$victim"
! current "$tree" || fail "a deleted $victim leaves ./blockcheck on its old binary"
mkdir -p "$(dirname "$tree/$victim")" && : > "$tree/$victim" && touch -d '2020-01-01' "$tree/$victim" "$(dirname "$tree/$victim")"
current "$tree" || fail "$victim restored should be current"
mv "$tree/$victim" "$tree/$victim.renamed" && touch -d '2020-01-01' "$tree/$victim.renamed"
! current "$tree" || fail "a renamed file leaves ./blockcheck on its old binary"
mv "$tree/$victim.renamed" "$tree/$victim" && touch -d '2020-01-01' "$(dirname "$tree/$victim")"

# build_targets with a stand-in cmake (on PATH): a build that succeeds writes the stamp dated at
# its start, so an edit made while it ran rebuilds next time; one that fails leaves no stamp.
# (The stamp is dated a second before the build from here: edits are dated near it too.)
mkdir -p "$ws/bin"
printf '#!/bin/sh\n[ -z "$EDIT_DURING_BUILD" ] || touch "$EDIT_DURING_BUILD"\nexit "${CMAKE_STATUS:-0}"\n' > "$ws/bin/cmake"
chmod +x "$ws/bin/cmake"
build() { (export PATH="$ws/bin:$PATH"; source "$tree/blockcheck" && build_targets blockcheck) 2> "$ws/build.err"; }
touch -d '10 seconds ago' "$tree/base/stand-in/file"
! current "$tree" || fail "an edit of base/ should not be current"
build || fail "the stand-in build failed: $(cat "$ws/build.err")"
grep -q building "$ws/build.err" || fail "build_targets should have built after an edit of base/"
current "$tree" || fail "a build that succeeded should leave the tree current"
build && ! grep -q building "$ws/build.err" || fail "a current tree should not build again"
touch -d '+1 minute' "$tree/base/stand-in/file"
EDIT_DURING_BUILD="$tree/checker/compile/stand-in/file" build || fail "the stand-in build failed"
grep -q building "$ws/build.err" || fail "build_targets should have built after an edit of base/"
touch -d '2020-01-01' "$tree/base/stand-in/file"
! current "$tree" || fail "an edit made while the build ran should rebuild next time"
touch -d '+1 minute' "$tree/base/stand-in/file"
status=0; (export CMAKE_STATUS=1; build) || status=$?
[[ $status == 2 && ! -e "$tree/build/.inputs" ]] || fail "a failed build should exit 2 and leave no stamp ($status)"
! current "$tree" || fail "after a failed build the tree should not be current"

# The whole script as a command: with its packages and a current build it runs the binary at once
# (its fast path, taken before the rest of the script is read); an edit under base/ or of the
# compiled-in data/mistakes.json builds first, one of a `data` path (chapters/) does not.
# (Each edit dated 30 s ago, the stamp a minute ago: as if the last build were that old.)
printf '#!/bin/sh\necho "ran $*"\n' > "$tree/build/blockcheck" && chmod +x "$tree/build/blockcheck"
find "$tree" -path "$tree/build" -prune -o -exec touch -h -d '2020-01-01' {} +
touch "$tree/build/.packages-ok"
chmod +x "$tree/blockcheck"
run() { (export PATH="$ws/bin:$PATH"; "$tree/blockcheck" "$@") 2> "$ws/run.err"; }
[[ $(run list) == "ran list" ]] && grep -q building "$ws/run.err" || fail "with no stamp the command should build, then run"
[[ $(run list --lang zh) == "ran list --lang zh" ]] && ! grep -q building "$ws/run.err" ||
    fail "a current build should run the binary at once: $(cat "$ws/run.err")"
for edited in base/stand-in/file data/mistakes.json chapters/stand-in/file; do
    touch -d '1 minute ago' "$tree/build/.inputs"
    touch -d '30 seconds ago' "$tree/$edited"
    [[ $(run list) == "ran list" ]] || fail "after an edit of $edited the command should still run"
    if [[ $edited == chapters/* ]]; then ! grep -q building "$ws/run.err" || fail "an edit of $edited should not build"
    else grep -q building "$ws/run.err" || fail "an edit of $edited should build before running"; fi
    run list > /dev/null && ! grep -q building "$ws/run.err" || fail "after the build for $edited it should be current"
    touch -d '2020-01-01' "$tree/$edited"
done

# The paths that need it: base/, the compiled-in mistake catalogue and the list itself.
for path in base data/mistakes.json data/release/product.txt; do
    grep -q " $path " <(sed 's/$/ /' "$ws/full.entries") || fail "the list should name $path as read by the build"
    grep -q "^\(sources\|main\|build\) $path " "$ws/full.entries" || fail "$path should be of a kind the build reads"
done
echo "build_current: ok"
