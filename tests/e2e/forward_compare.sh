#!/usr/bin/env bash
# End to end: `forward` and `compare` on the modern block case, their exit codes and messages.
set -euo pipefail
blockcheck="$1"; root="$2"
case_file="$root/data/cases/modern-small.json"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
source "$root/tests/e2e/lib/common.sh"

"$blockcheck" forward "$case_file" > "$tmp/f50.json"
[[ $(json '.output | length' "$tmp/f50.json") == 4 ]] || fail "forward should print 4 output rows"
[[ $(json '.output[0][0]' "$tmp/f50.json") == -2.068955273844271706* ]] || fail "forward's first value changed"

# The layout the README shows: one member a line, one matrix row a line, decimal strings.
"$blockcheck" forward "$case_file" --digits 12 > "$tmp/f12.json"
[[ $(head -c 200 "$tmp/f12.json") == $'{\n  "output": [\n    ["-2.06895527384", "0.243718686698", "2.55825762459", '* ]] ||
    fail "forward's layout changed: $(head -c 120 "$tmp/f12.json")"
[[ $(tail -n 2 "$tmp/f12.json") == $'  ]\n}' ]] || fail "forward's closing lines changed"
"$blockcheck" forward "$case_file" --trace --digits 6 > "$tmp/trace.json"
grep -q '^  "trace": {$' "$tmp/trace.json" || fail "the trace should open on a line of its own"
grep -q '^    "N": \[$' "$tmp/trace.json" || fail "each stage should open on a line of its own"
grep -q '^      \["[-0-9.e]*", "[-0-9.e]*", ' "$tmp/trace.json" || fail "each row should sit on one line"
[[ $(json '.trace.output' "$tmp/trace.json") == "$(json '.output' "$tmp/trace.json")" ]] ||
    fail "the trace's output should be the output"

# A --out file that cannot be written: exit 2 naming it, nothing left behind.
status=0; "$blockcheck" forward "$case_file" --out "$tmp/no-such-folder/y.json" 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] || fail "an unwritable --out should exit 2, got $status"
grep -q "cannot write $tmp/no-such-folder/y.json: No such file or directory" "$tmp/err.txt" ||
    fail "the message should name the --out file: $(cat "$tmp/err.txt")"

"$blockcheck" forward "$case_file" --precision double > "$tmp/fd.json"
"$blockcheck" compare "$case_file" "$tmp/fd.json" > "$tmp/cmp.txt" || fail "double output should be within tolerance"
grep -q "within" "$tmp/cmp.txt" || fail "compare should say within"

# One element off by 1e-3: outside the default tolerance, exit 1, and the worst position named.
sed 's/"-2.0689552738442716"/"-2.0679552738442716"/' "$tmp/fd.json" > "$tmp/off.json"
status=0; "$blockcheck" compare "$case_file" "$tmp/off.json" > "$tmp/cmp.txt" || status=$?
[[ $status == 1 ]] || fail "a wrong element should exit 1, got $status"
grep -q "output\[0\]\[0\]" "$tmp/cmp.txt" || fail "compare should name output[0][0]"

# Bad input: exit 2 and a message naming the file and field.
sed 's/"head_dim": 4/"head_dim": 3/' "$case_file" > "$tmp/odd.json"
status=0; "$blockcheck" forward "$tmp/odd.json" 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] || fail "an odd head_dim should exit 2, got $status"
grep -q "config.head_dim: 3 is odd" "$tmp/err.txt" || fail "message should name config.head_dim"
echo '{"output": [[1, 2]]}' > "$tmp/short.json"
status=0; "$blockcheck" compare "$case_file" "$tmp/short.json" 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] || fail "a mis-shaped output should exit 2, got $status"
grep -q "expected 4 rows of 12" "$tmp/err.txt" || fail "message should give the expected shape"
echo "forward/compare: 1 passed, 0 failed"
