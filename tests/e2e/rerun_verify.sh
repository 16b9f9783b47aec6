#!/usr/bin/env bash
# End to end: `rerun` and `verify`, their output, exit codes and messages.
set -euo pipefail
blockcheck="$1"; root="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
source "$root/tests/e2e/lib/common.sh"

# rerun: the book's six decimals by default, 40 significant digits on request.
"$blockcheck" rerun 25.3 > "$tmp/r.txt"
grep -q "25.3/silu-at-1" "$tmp/r.txt" || fail "rerun 25.3 should name its steps"
grep -q "^    0.731059$" "$tmp/r.txt" || fail "rerun 25.3 should print SiLU(1) as 0.731059"
grep -q "\[0.655293, -0.806824\]" "$tmp/r.txt" || fail "rerun 25.3 should print the FFN output"
grep -q "\[1.462117, -0.806824\]" "$tmp/r.txt" || fail "rerun 25.3 should print the product (and W_d = I)"
"$blockcheck" rerun 25.3 --digits 40 > "$tmp/r40.txt"
grep -q "^    0.7310585786300048792511592418218362743651$" "$tmp/r40.txt" || fail "--digits 40 should give e/(1+e) to 40 digits"
"$blockcheck" rerun 25.3 --digits 60 > "$tmp/r60.txt"
grep -q "^    0.731058578630004879251159241821836274365144640165056519276366$" "$tmp/r60.txt" \
    || fail "--digits 60 should compute at 100 digits"

"$blockcheck" rerun all > "$tmp/all.txt"
for id in 25.1 25.2 25.3 table-25.2 25.4 figure-25.1 gqa_long_context-stamp gqa_long_context-pi gqa_long_context-ntk gqa_long_context-gqa \
          gqa_long_context-swiglu gqa_long_context-attention gqa_long_context-rope-demo properties; do
    grep -q "^$id — " "$tmp/all.txt" || fail "rerun all should include $id"
done
grep -q "figure-25.1/Q: .*\[1, 4, 3×4\]" "$tmp/all.txt" || fail "figure 25.1 should show Q as 3 heads of 4"
grep -q "figure-25.1/gate: .*\[1, 4, 32\]" "$tmp/all.txt" || fail "figure 25.1 should show the gate branch's shape"
grep -q "^    \[1, 2, 8, 16\]$" "$tmp/all.txt" || fail "the demo's output shape should be (1, 2, 8, 16)"
"$blockcheck" rerun --list | grep -q "^gqa_long_context-rope-demo" || fail "rerun --list should list the ids"
"$blockcheck" --lang zh rerun 25.2 | grep -q "均方根" || fail "rerun --lang zh should speak Chinese"
"$blockcheck" rerun 25.2 --lang zh | grep -q "均方根" || fail "--lang after the id should work too"

status=0; "$blockcheck" --lang en rerun 25.9 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] || fail "an unknown id should exit 2, got $status"
grep -q "no worked example '25.9'" "$tmp/err.txt" || fail "the message should name the id"

# verify: every verdict as recorded, with the sources' errata.
"$blockcheck" --lang en verify > "$tmp/v.txt" || fail "verify should exit 0 on the repository's claims"
grep -q "source_erratum  gqa_long_context/swiglu/gate-range" "$tmp/v.txt" || fail "the SiLU gate claim should be a source erratum"
grep -q "every verdict as recorded" "$tmp/v.txt" || fail "verify should say every verdict is as recorded"
"$blockcheck" --lang en verify --json > "$tmp/v.json"
[[ $(json .failed "$tmp/v.json") == 0 ]] || fail "verify --json should report 0 failed"
[[ $(json '[.claims[] | select(.expected_verdict == "source_erratum")] | length' "$tmp/v.json") -ge 1 ]] || fail "verify --json should carry the expected verdicts"
[[ $(json '[.claims[] | select(.id == "ch25/table-25.1/row-4/dot")] | length' "$tmp/v.json") == 1 ]] || fail "verify --json should list table 25.1"

# A wrong printed value in a copy of the claims is caught: exit 1, the claim named.
mkdir "$tmp/claims"; cp "$root"/data/claims/*.json "$tmp/claims/"
edit 's/"printed": "0.731059"/"printed": "0.731058"/' "$tmp/claims/01-chapter25.json"
status=0; "$blockcheck" --lang en verify --claims "$tmp/claims" > "$tmp/bad.txt" || status=$?
[[ $status == 1 ]] || fail "a wrong printed value should exit 1, got $status"
grep -q "ch25/25.3/silu-1: expected holds, got source_erratum" "$tmp/bad.txt" || fail "verify should list the changed claim"
status=0; "$blockcheck" --lang en verify --json --claims "$tmp/claims" > "$tmp/bad.json" || status=$?
[[ $status == 1 ]] || fail "verify --json should also exit 1"
[[ $(json .failed "$tmp/bad.json") == 1 ]] || fail "verify --json should count 1 failed"

# A malformed claims file: exit 2, file and field named.
sed 's/"rule": "exact"/"rule": "exactly"/' "$root/data/claims/01-chapter25.json" > "$tmp/broken.json"
status=0; "$blockcheck" --lang en verify --claims "$tmp/broken.json" 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] || fail "a bad rule should exit 2, got $status"
grep -q "broken.json: claims\[[0-9]*\].rule: unknown rule 'exactly'" "$tmp/err.txt" || fail "the message should name the file and field"
sed 's/"step": "25.2\/row\/rms"/"step": "25.2\/row\/rsm"/' "$root/data/claims/01-chapter25.json" > "$tmp/nostep.json"
status=0; "$blockcheck" --lang en verify --claims "$tmp/nostep.json" 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] || fail "an unknown step should exit 2, got $status"
grep -q "no worked step '25.2/row/rsm'" "$tmp/err.txt" || fail "the message should name the missing step"
echo "rerun/verify: 1 passed, 0 failed"
