#!/usr/bin/env bash
# docs/authoring.md against `blockcheck new`, without a rebuild (tests/long/authoring_guide.sh
# follows the whole guide): in a copy of the content (BLOCKCHECK_ROOT), `new` writes every file it
# reports, the registry entry, the _help texts and the next steps; each file the guide shows
# ("file: PATH") is one `new` wrote, and the guide's listing of `new` is what `new` prints; a
# second `new` with the same id is refused.
set -euo pipefail
blockcheck="$1"; root="$2"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export LANG=C
source "$root/tests/e2e/lib/common.sh"
copy="$work/repo"; mkdir -p "$copy/tests"
cp -r "$root"/{data,chapters,solutions,docs} "$copy/"
cp -r "$root/tests/solved" "$copy/tests/"
export BLOCKCHECK_ROOT="$copy"
guide="$root/docs/authoring.md"
# The id the guide's example uses, from its `new` command line.
id=$(sed -n 's/^\$ \.\/blockcheck new \([a-z0-9_]*\) --chapter ch25$/\1/p' "$guide")
[[ -n "$id" ]] || fail "the guide should show \`./blockcheck new ID --chapter ch25\`"

# 1. new: every file it reports exists; the registry declares and enters the reference.
"$blockcheck" new "$id" --chapter ch25 > "$work/new.txt" || fail "new should exit 0"
sed -n '/^written:$/,/^Next steps/{/^  /s/^  //p}' "$work/new.txt" > "$work/written.txt"
[[ $(wc -l < "$work/written.txt") == 6 ]] || fail "new should report six files: $(cat "$work/new.txt")"
while read -r f; do [[ -f "$copy/$f" ]] || fail "new reports $f but it does not exist"; done < "$work/written.txt"
for f in "data/exercises/ch25/$id.json" "chapters/ch25/$id.cpp" "solutions/ch25/$id.cpp" "tests/solved/ch25/$id.cpp" \
         data/templates/ch25.json; do
    grep -qx "$f" "$work/written.txt" || fail "new should write $f"
done
# The template record holds the template as written to chapters/, and the other templates as they were.
jq -j --arg f "$id.cpp" '.templates[$f]' "$copy/data/templates/ch25.json" | cmp -s - "$copy/chapters/ch25/$id.cpp" ||
    fail "data/templates/ch25.json should record chapters/ch25/$id.cpp as it is"
[[ $(jq '.templates | length' "$copy/data/templates/ch25.json") == \
   $(($(jq '.templates | length' "$root/data/templates/ch25.json") + 1)) ]] || fail "new should add one template to the record"
registry="$copy/solutions/reference_solutions.cpp"
grep -qx "        {\"$id\", $id}," "$registry" || fail "new should enter $id in the registry"
grep -qx "Values $id(const Inputs& in);" "$registry" || fail "new should declare $id in the registry"
[[ $(diff "$root/solutions/reference_solutions.cpp" "$registry" | grep -c '^>') == 2 ]] ||
    fail "new should add exactly two lines to the registry"
grep -q "Values $id(const Inputs& in)" "$copy/solutions/ch25/$id.cpp" || fail "the reference skeleton should define $id"

# 2. The definition explains each of its fields in _help, and the skeleton loads: the only thing
#    the unrebuilt binary misses is the reference.
definition="$copy/data/exercises/ch25/$id.json"
jq -e '(keys - ["_help"]) - (._help | keys) == []' "$definition" > /dev/null ||
    fail "every field of the definition should have a _help text: $(jq -c '(keys - ["_help"]) - (._help | keys)' "$definition")"
jq -e '._help.mistakes_excluded | test("data/mistakes.json")' "$definition" > /dev/null ||
    fail "_help should explain that every catalogue mistake is tried (and how one is excluded)"
status=0; "$blockcheck" list > /dev/null 2> "$work/err.txt" || status=$?
[[ $status == 2 ]] && grep -q "$id.json: no reference solution for \"$id\"" "$work/err.txt" ||
    fail "the unrebuilt binary should miss only the reference: $(cat "$work/err.txt")"

# 3. The next steps name the files and validate, in order.
sed -n '/^Next steps/,$p' "$work/new.txt" > "$work/steps.txt"
for step in "1. edit data/exercises/ch25/$id.json" "2. compute every answer through the block in solutions/ch25/$id.cpp" \
            "3. write tests/solved/ch25/$id.cpp" "4. ./blockcheck validate $id" "5. ./blockcheck show $id"; do
    grep -qF "  $step" "$work/steps.txt" || fail "next steps should say \"$step\": $(cat "$work/steps.txt")"
done

# 4. The guide: its listing of `new` is what new printed; each of its four files is one new wrote.
sed -n '/^\$ \.\/blockcheck new /,/^```$/{/^  [a-z]/s/^  //p}' "$guide" | grep -v '^\.\.\.$' > "$work/guide_written.txt"
diff "$work/written.txt" "$work/guide_written.txt" > /dev/null ||
    fail "the guide's listing of new differs from new's: $(diff "$work/written.txt" "$work/guide_written.txt")"
mkdir -p "$work/shown"
awk -v out="$work/shown" '
    /^file: / { path = $2; gsub("/", "%", path); next }
    path != "" && /^```/ { if (inside) { inside = 0; path = "" } else { inside = 1; printf "" > (out "/" path) } next }
    inside { print >> (out "/" path) }
' "$guide"
[[ $(ls "$work/shown" | wc -l) == 4 ]] || fail "the guide should show four files: $(ls "$work/shown")"
for shown in "$work/shown"/*; do
    path=$(basename "$shown" | tr % /)
    grep -qx "$path" "$work/written.txt" || fail "the guide shows $path, which new does not write"
    [[ -s "$shown" ]] || fail "the guide's $path is empty"
    cp "$shown" "$copy/$path"
done
# The guide's definition loads as it stands (only the reference is missing without a rebuild),
# and, as the guide explains, it lists no mistakes: the reference makes them where it runs a mechanism.
status=0; "$blockcheck" list > /dev/null 2> "$work/err.txt" || status=$?
[[ $status == 2 ]] && grep -q "$id.json: no reference solution for \"$id\"" "$work/err.txt" ||
    fail "the guide's definition should load: $(cat "$work/err.txt")"
jq -e 'has("mistakes") | not' "$definition" > /dev/null || fail "the guide's definition should declare no mistakes"
grep -qE 'in\.mistake(_on)?\(' "$copy/solutions/ch25/$id.cpp" || fail "the guide's reference should make a catalogue mistake"

# 5. The same id again: exit 2, naming the id and its file.
status=0; "$blockcheck" new "$id" --chapter ch25 > /dev/null 2> "$work/err.txt" || status=$?
[[ $status == 2 ]] && grep -q "data/exercises/ch25/$id.json: the id \"$id\" is in use" "$work/err.txt" ||
    fail "a second new with the same id should exit 2 naming it: $status $(cat "$work/err.txt")"
echo "authoring_smoke: ok"
