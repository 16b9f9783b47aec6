#!/usr/bin/env bash
# The blind tutor corpora of tests/tutor_corpus/<chapter>/: student programs written from the
# prompts alone, each right or with a classic slip (expect.tsv says which). Builds a class folder,
# one student per program holding <exercise>.cpp, grades it as `grade` does by default (inputs
# seeded per student), and scores the results (tests/tutor_corpus/score.py): exits 1 on any false
# diagnosis (a mistake named that the student did not make, a word beside a right part) or a right
# program short of full marks.
#   tests/long/tutor_corpus.sh [CHAPTER...]               build/blockcheck of this tree
#   tests/long/tutor_corpus.sh BLOCKCHECK ROOT [CHAPTER...]  (as ctest -L long calls it)
# With no chapter, every folder of tests/tutor_corpus/ that holds an expect.tsv. KEEP=DIR keeps
# the class folders and grade's outputs in DIR; STRICT=1 fails on any verdict other than the one
# expected (score.py --strict).
set -euo pipefail
if [[ $# -ge 2 && -x "$1" && -f "$1" ]]; then
    blockcheck="$1"; root="$2"; shift 2
else
    root="$(cd "$(dirname "$0")/../.." && pwd)"; blockcheck="$root/build/blockcheck"
fi
[[ -x "$blockcheck" ]] || { echo "tutor_corpus: no $blockcheck (build first: ./blockcheck --help)" >&2; exit 2; }
corpus="$root/tests/tutor_corpus"
chapters=("$@")
if [[ ${#chapters[@]} == 0 ]]; then
    for f in "$corpus"/*/expect.tsv; do chapters+=("$(basename "$(dirname "$f")")"); done
fi
if [[ -n "${KEEP:-}" ]]; then work="$KEEP"; mkdir -p "$work"; else work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT; fi
export LANG=C
status=0
for chapter in "${chapters[@]}"; do
    dir="$corpus/$chapter"; expect="$dir/expect.tsv"
    [[ -f "$expect" ]] || { echo "tutor_corpus: no $expect" >&2; exit 2; }
    class="$work/$chapter/class"; out="$work/$chapter/out"
    rm -rf "$class" "$out"; mkdir -p "$class"
    # The grade's chapter: the exercises' own (a corpus folder may hold several chapters' programs).
    declare -A graded=()
    while IFS=$'\t' read -r name exercise _ || [[ -n "$name" ]]; do
        [[ -z "$name" || "$name" == \#* ]] && continue
        [[ -f "$dir/$name.cpp" ]] || { echo "tutor_corpus: $expect names $name, but $dir/$name.cpp is missing" >&2; exit 2; }
        [[ -d "$class/$name" ]] && { echo "tutor_corpus: $expect names $name twice" >&2; exit 2; }
        mkdir -p "$class/$name"; cp "$dir/$name.cpp" "$class/$name/$exercise.cpp"
        graded[$exercise]=1
    done < "$expect"
    exercises="$(IFS=,; echo "${!graded[*]}")"
    unset graded
    echo "== $chapter: $(ls "$class" | wc -l) programs on $exercises"
    "$blockcheck" grade "$class" --out "$out" --exercises "$exercises" > "$work/$chapter/grade.log" 2>&1 ||
        [[ -d "$out/results" ]] || { cat "$work/$chapter/grade.log" >&2; echo "tutor_corpus: grade failed" >&2; exit 2; }
    python3 "$corpus/score.py" ${STRICT:+--strict} "$out" "$expect" || status=1
done
exit $status
