#!/usr/bin/env bash
# End to end (issue 39 item 5): compare holds a float32 port to what float32 rounding of this very
# block gives. A port with RMSNorm's epsilon a tenth of the config's (24 eps norm-wise, inside the
# element-wise tolerance) is outside and eps_tenth is named, never listed as "cannot show"; the
# faithful port stays within. With the output alone, each row's error at its position is shown,
# with the hint a right row at position 0 gives; RoPE-scaling mistakes a block without
# rope_scaling cannot make are folded into one line.
set -euo pipefail
blockcheck="$1"; root="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
source "$root/tests/e2e/lib/common.sh"
export LANG=C
case_file="$root/data/cases/long-default.json"   # rms_norm_eps 1e-5, rows at 100 .. 102

# The ports: the block in double, rounded to float32; one with epsilon 1e-6 typed in.
"$blockcheck" forward "$case_file" --precision double --out "$tmp/ok.npy" --out-dtype float32 2> /dev/null
sed 's/"rms_norm_eps": *"[^"]*"/"rms_norm_eps": "0.000001"/' "$case_file" > "$tmp/eps.json"
"$blockcheck" forward "$tmp/eps.json" --precision double --out "$tmp/eps.npy" --out-dtype float32 2> /dev/null

"$blockcheck" compare "$case_file" "$tmp/ok.npy" --dtype float32 > "$tmp/ok.txt" || fail "a faithful float32 port should pass: $(cat "$tmp/ok.txt")"
grep -q "the block run in float32 here is off by" "$tmp/ok.txt" || fail "the verdict should state the float32 run's error: $(cat "$tmp/ok.txt")"

status=0; "$blockcheck" compare "$case_file" "$tmp/eps.npy" --dtype float32 > "$tmp/eps.txt" || status=$?
[[ $status == 1 ]] || fail "epsilon a tenth of the config's is not float32 rounding: exit 1, got $status: $(cat "$tmp/eps.txt")"
grep -q "but the error is [0-9.]* times what float32 rounding of this block gives" "$tmp/eps.txt" ||
    fail "the headline should give the evidence: $(cat "$tmp/eps.txt")"
grep -q "cannot show them" "$tmp/eps.txt" && fail "nothing may be said to be unable to show: $(cat "$tmp/eps.txt")"
status=0; "$blockcheck" compare "$case_file" "$tmp/eps.npy" --dtype float32 --json > "$tmp/eps.json.out" || status=$?
[[ $(json '[.named_mistakes[].id] | join(" ")' "$tmp/eps.json.out") == eps_tenth ]] ||
    fail "eps_tenth should be named: $(json '.named_mistakes' "$tmp/eps.json.out")"
[[ $(json '[.mistakes_not_visible[].id] | index("eps_tenth")' "$tmp/eps.json.out") == null ]] ||
    fail "eps_tenth is visible in float64: it must not be listed as not visible"
[[ $(json '.rows | length' "$tmp/eps.json.out") == 3 && $(json '.rows[0].position' "$tmp/eps.json.out") == 100 ]] ||
    fail "--json should carry each row with its position: $(json '.rows' "$tmp/eps.json.out")"
[[ $(json '.fewest_digits_agreed < 6' "$tmp/eps.json.out") == true ]] || fail "digits agreed per element should be given"

# Folded: a block without rope_scaling cannot make the scaling mistakes; one line names them.
grep -q "^cannot apply here, this block has no RoPE scaling of their type: rope_scaling_not_applied, " "$tmp/eps.txt" ||
    fail "the inapplicable mistakes should be folded into one line: $(cat "$tmp/eps.txt")"
grep -q "^  llama3_band_skipped:" "$tmp/eps.txt" && fail "an inapplicable mistake is listed on its own"

# Rows: the other RoPE pairing leaves position 0 exact; the output alone says which rows are out.
sed 's/"rope_layout": "interleaved"/"rope_layout": "half"/' "$root/data/cases/modern-small.json" > "$tmp/half.json"
"$blockcheck" forward "$tmp/half.json" --precision double > "$tmp/half_out.json" 2> /dev/null
status=0; "$blockcheck" compare "$root/data/cases/modern-small.json" "$tmp/half_out.json" > "$tmp/rows.txt" || status=$?
[[ $status == 1 ]] || fail "the other pairing is outside, got $status"
grep -q "^outside: rows 1 (1), 2 (2), 3 (3); within: rows 0 (0)" "$tmp/rows.txt" ||
    fail "the rows outside and within should be named: $(cat "$tmp/rows.txt")"
grep -q "^hint: only the row at position 0 is right" "$tmp/rows.txt" || fail "the position-0 hint should be given"
grep -q "matches the reference with" "$tmp/rows.txt" && fail "a named mistake must not read as agreement with the reference"
grep -q "^the bug: the other RoPE pairing" "$tmp/rows.txt" || fail "the pairing should be named as the bug: $(cat "$tmp/rows.txt")"
echo "compare against float32 rounding: 1 passed, 0 failed"
