#!/usr/bin/env bash
# The doctest suite runs as several ctest entries (label unit: one a folder of tests/unit/, some
# folders one a file, the jail's cases apart; CMakeLists.txt), so that `ctest -j` overlaps them.
# The split must lose nothing: every test case of blockcheck_tests runs in exactly one entry.
set -euo pipefail
blockcheck="$1"; root="$2"
source "$root/tests/e2e/lib/common.sh"
build="$(cd "$(dirname "$blockcheck")" && pwd)"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT

# The case names a doctest command line selects, one a line (doctest's own lines dropped).
cases() { "$@" --list-test-cases | grep -v '^\[doctest\]\|^=====' || true; }

ctest --test-dir "$build" --show-only=json-v1 -L '^unit$' > "$ws/entries.json"
entries=$(json '.tests | length' "$ws/entries.json")
[[ $entries -ge 2 ]] || fail "expected the doctest suite split into several ctest entries, found $entries"
: > "$ws/split.txt"
for ((i = 0; i < entries; i++)); do
    mapfile -t command < <(json ".tests[$i].command[]" "$ws/entries.json")
    name=$(json ".tests[$i].name" "$ws/entries.json")
    [[ $(basename "${command[0]}") == blockcheck_tests ]] || fail "$name does not run blockcheck_tests"
    cases "${command[@]}" > "$ws/entry.txt"
    [[ -s "$ws/entry.txt" ]] || fail "$name selects no test case"
    cat "$ws/entry.txt" >> "$ws/split.txt"
done
cases "$build/blockcheck_tests" | sort > "$ws/all.txt"
[[ $(wc -l < "$ws/all.txt") -ge 100 ]] || fail "blockcheck_tests lists only $(wc -l < "$ws/all.txt") cases"
sort "$ws/split.txt" > "$ws/split_sorted.txt"
if ! diff "$ws/all.txt" "$ws/split_sorted.txt" > "$ws/diff.txt"; then
    grep '^<' "$ws/diff.txt" | head -5 | sed 's/^< /  in no entry: /' >&2
    grep '^>' "$ws/diff.txt" | head -5 | sed 's/^> /  in two entries: /' >&2
    fail "the unit entries do not split the suite into parts"
fi
echo "unit_partition: $(wc -l < "$ws/all.txt") cases in $entries entries, each in exactly one"
