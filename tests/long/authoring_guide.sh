#!/usr/bin/env bash
# docs/authoring.md, followed literally in a copy of the repository: `new`, the files the guide
# shows (each marked "file: PATH"), `validate`, `check` and `grade` of the new exercise; then
# `validate` catches a fault injected into it.
set -euo pipefail
blockcheck="$1"; root="$2"
# Under the build tree (below ccache's base_dir), so that the copy's build reuses the objects.
work="$(cd "$(dirname "$blockcheck")" && pwd)/e2e-authoring"
rm -rf "$work"; mkdir -p "$work"; trap 'rm -rf "$work"' EXIT
export LANG=C
source "$root/tests/e2e/lib/common.sh"
repo="$work/repo"; mkdir -p "$repo"
cp -r "$root"/{CMakeLists.txt,blockcheck,chapters,checker,data,docs,solutions,tests} "$repo/"
cd "$repo"
id=rms_norm_with_gains

# 1. new: the files and the registry entry, and the next steps.
./blockcheck new "$id" --chapter ch25 > "$work/new.txt" || fail "new should exit 0"
for f in data/exercises/ch25/$id.json chapters/ch25/$id.cpp solutions/ch25/$id.cpp tests/solved/ch25/$id.cpp; do
    [[ -f "$f" ]] && grep -q "  $f" "$work/new.txt" || fail "new should write $f"
done
grep -q "{\"$id\", $id}," solutions/reference_solutions.cpp || fail "new should register the reference"
grep -q "Next steps" "$work/new.txt" || fail "new should print the next steps"
grep -q '"_help"' "data/exercises/ch25/$id.json" || fail "the definition should carry _help texts"
status=0; ./blockcheck new "$id" --chapter ch25 2> "$work/err.txt" || status=$?
[[ $status == 2 ]] && grep -q "is in use" "$work/err.txt" || fail "a second new with the same id should exit 2"
# The skeleton is a working exercise already.
./blockcheck validate "$id" > "$work/validate.txt" || { cat "$work/validate.txt" >&2; fail "the skeleton should validate"; }

# 2. Fill in every file the guide shows, exactly as shown.
awk -v out="$repo" '
    /^file: / { path = $2; next }
    path != "" && /^```/ { if (inside) { inside = 0; path = "" } else { inside = 1; printf "" > (out "/" path) } next }
    inside { print >> (out "/" path) }
' "$root/docs/authoring.md"
grep -q 'rms_norm<Real>(row, used_gains, eps, placement)' "solutions/ch25/$id.cpp" || fail "the guide's reference was not written"
[[ $(grep -c '^file: ' "$root/docs/authoring.md") == 4 ]] || fail "the guide should show four files"

# 3. validate, show, check as a student, grade a class of one.
./blockcheck validate "$id" --record-template > "$work/validate.txt" || { cat "$work/validate.txt" >&2; fail "the guide's exercise should validate"; }
grep -qx "1 exercises valid." "$work/validate.txt" || fail "validate output: $(cat "$work/validate.txt")"
./blockcheck show "$id" | grep -q "sqrt(mean_j row_j^2 + eps)" || fail "show should print the prompt"
status=0; ./blockcheck check "$id" --json > "$work/check.json" || status=$?
[[ $status == 1 ]] && grep -q '"status": "not_done"' "$work/check.json" || fail "the template should be not_done"
cp "tests/solved/ch25/$id.cpp" "chapters/ch25/$id.cpp"
./blockcheck check "$id" --json > "$work/check.json" || fail "the solved program should pass check"
grep -q '"score": 3' "$work/check.json" || fail "the solved program should score 3"
# The guide's declared mistake, made by a student: check names it.
sed 's/double d = std::sqrt(ms + eps);/double d = std::sqrt(ms) + eps;/' "tests/solved/ch25/$id.cpp" > "chapters/ch25/$id.cpp"
grep -q 'std::sqrt(ms) + eps' "chapters/ch25/$id.cpp" || fail "could not write the eps_outside_sqrt program"
status=0; ./blockcheck check "$id" --json > "$work/check.json" || status=$?
[[ $status == 1 ]] && jq -e '[.. | objects | select(.name? == "denominator")][0].diagnosis.id == "eps_outside_sqrt"' \
    "$work/check.json" > /dev/null || fail "check should diagnose eps_outside_sqrt: $(cat "$work/check.json")"
mkdir -p "$work/class/ada"; cp "tests/solved/ch25/$id.cpp" "$work/class/ada/"
./blockcheck grade "$work/class" --out "$work/grades" --variants --chapter ch25 > "$work/grade.txt" || fail "grade should exit 0"
head -1 "$work/grades/gradebook.csv" | grep -q "$id" || fail "the gradebook should have a column for $id"
grep -q "\"$id\"" "$work/grades/results/ada.json" && jq -e --arg id "$id" \
    '[.. | objects | select(.id? == $id)][0] | .score == 3' "$work/grades/results/ada.json" > /dev/null ||
    fail "ada should get 3 points for $id with variants"

# 4. A fault injected: the recorded template (what release ships) answers correctly; validate
#    names the record and exits 1.
jq --arg file "$id.cpp" --rawfile text "tests/solved/ch25/$id.cpp" '.templates[$file] = $text' data/templates/ch25.json \
    > "$work/record.json" && mv "$work/record.json" data/templates/ch25.json
status=0; ./blockcheck validate "$id" > "$work/validate.txt" || status=$?
[[ $status == 1 ]] && grep -q "^data/templates/ch25.json: templates.$id.cpp: the template should answer nothing" "$work/validate.txt" ||
    fail "validate should catch a template that answers: $(cat "$work/validate.txt")"
echo "authoring_guide: ok"
