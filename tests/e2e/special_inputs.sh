#!/usr/bin/env bash
# End to end, issue 40's audit: every file a user hands in or a grade run reads back is opened the
# one checked way and parsed by the one limited JSON reader. A shard's result for `grade --merge`,
# a graded run's manifest for `check --student --out`, `--assignment`, `--roster` and insight.json,
# planted as a FIFO, a link to /dev/zero or JSON nested 100,000 deep, are refused quickly with the
# file named (never a hang, a crash or memory run out); a manifest naming a result outside its
# folder (`../../secret`) is refused, not read.
set -euo pipefail
blockcheck="$(realpath "$1")"; root="$(realpath "$2")"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
source "$root/tests/e2e/lib/common.sh"
export BLOCKCHECK_ROOT="$root" LANG=C
cd "$ws"
mkdir -p subs/ada
# A real (empty) run: its manifest and result are what merge and check --out read back.
"$blockcheck" grade subs --chapter ch25 --out shard --cache cache > /dev/null 2>&1 || fail "the empty grade run failed"
[[ -f shard/results/ada.json ]] || fail "no result written"
python3 -c 'print("[" * 100000 + "]" * 100000)' > deep.json

# refused WHAT FILE COMMAND...: the command exits non-zero within 20 s, naming FILE, not crashed.
refused() {
    local what="$1" file="$2"; shift 2
    local s=0
    timeout 20 "$@" > out.txt 2>&1 || s=$?
    [[ $s != 124 ]] || fail "$what: hung"
    [[ $s != 0 && $s -lt 128 ]] || fail "$what: exit status $s (want a refusal): $(tail -3 out.txt)"
    grep -q -- "$file" out.txt || fail "$what: the refusal does not name $file: $(tail -3 out.txt)"
    ! grep -q "bad_alloc\|internal error" out.txt || fail "$what: $(tail -3 out.txt)"
}

# grade --merge: a shard's result planted as a FIFO, a link to /dev/zero, JSON too deep.
plant() {  # plant KIND FILE
    rm -f "$2"
    case $1 in fifo) mkfifo "$2" ;; zero) ln -s /dev/zero "$2" ;; deep) cp deep.json "$2" ;; esac
}
for kind in fifo zero deep; do
    rm -rf s1 && cp -r shard s1 && plant $kind s1/results/ada.json
    refused "merge, result as $kind" "s1/results/ada.json" "$blockcheck" grade --merge s1 --chapter ch25 --out merged
done
grep -q "nested deeper than 64" out.txt || fail "deep result: $(tail -3 out.txt)"
# a manifest naming a result outside the shard's results/ folder
rm -rf s1 && cp -r shard s1 && echo '{"secret": 1}' > secret.json
jq '.results = ["../../secret"]' shard/.grade-run.json > s1/.grade-run.json
refused "merge, result outside" "secret.json" "$blockcheck" grade --merge s1 --chapter ch25 --out merged
grep -q "outside the folder" out.txt || fail "result outside: $(tail -3 out.txt)"

# check --student --out: the graded run's manifest read back.
for kind in fifo zero deep; do
    rm -rf s1 && cp -r shard s1 && plant $kind s1/.grade-run.json
    refused "check --out, manifest as $kind" "s1/.grade-run.json" "$blockcheck" check --student subs/ada --out s1
done

# --assignment, --roster and insight.json.
for kind in fifo zero deep; do
    plant $kind assignment.json
    refused "--assignment as $kind" "assignment.json" "$blockcheck" grade subs --assignment assignment.json --out o2 --cache cache
    plant $kind roster.csv
    refused "--roster as $kind" "roster.csv" "$blockcheck" grade subs --chapter ch25 --lms canvas --roster roster.csv --out o3 --cache cache
    rm -rf s1 && cp -r shard s1 && plant $kind s1/insight.json
    refused "insight, insight.json as $kind" "s1/insight.json" "$blockcheck" insight s1
done
echo "special inputs: all refused by name"
