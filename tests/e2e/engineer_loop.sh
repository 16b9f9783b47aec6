#!/usr/bin/env bash
# End to end: the engineer's loop. forward writes .npy and .safetensors, compare reads them;
# NaN from Python's json.dump is a finding (exit 1) named where it is; --json carries the
# worst elements; `case export` writes a layer that reads back to the same output.
set -euo pipefail
blockcheck="$1"; root="$2"
case_file="$root/data/cases/long-yarn.json"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
source "$root/tests/e2e/lib/common.sh"

"$blockcheck" forward "$case_file" --precision double --out "$tmp/y.npy"
"$blockcheck" compare "$case_file" "$tmp/y.npy" > "$tmp/cmp.txt" || fail "a double .npy output should pass: $(cat "$tmp/cmp.txt")"
"$blockcheck" forward "$case_file" --trace --out "$tmp/y32.safetensors" --out-dtype float32
"$blockcheck" compare "$case_file" "$tmp/y32.safetensors" --dtype float32 > "$tmp/cmp.txt" ||
    fail "the 50-digit stages rounded to float32 should pass --dtype float32: $(cat "$tmp/cmp.txt")"
grep -q "every stage is within its tolerance" "$tmp/cmp.txt" || fail "compare should summarise the stages"
status=0; "$blockcheck" compare "$case_file" "$tmp/y32.safetensors" > /dev/null || status=$?
[[ $status == 1 ]] || fail "float32 values graded as float64 should exit 1, got $status"
"$blockcheck" forward "$case_file" --trace --out "$tmp/ybf.safetensors" --out-dtype bfloat16
"$blockcheck" compare "$case_file" "$tmp/ybf.safetensors" --dtype bfloat16 > /dev/null || fail "bfloat16 should pass --dtype bfloat16"

# Python's json.dump writes bare NaN: a finding, located, exit 1 (not a malformed file).
"$blockcheck" forward "$case_file" --precision double --out "$tmp/y.json"
python_nan=$(sed '0,/"\(-\{0,1\}[0-9.e-]*\)",/s//NaN,/' "$tmp/y.json")
echo "$python_nan" > "$tmp/nan.json"
status=0; "$blockcheck" compare "$case_file" "$tmp/nan.json" > "$tmp/cmp.txt" || status=$?
[[ $status == 1 ]] || fail "NaN in the output should exit 1, got $status"
grep -q "the first at output\[0\]\[0\]" "$tmp/cmp.txt" || fail "compare should name the NaN: $(cat "$tmp/cmp.txt")"

# --json: every figure, and both worst elements located.
"$blockcheck" compare "$case_file" "$tmp/y.npy" --json > "$tmp/cmp.json"
for key in normwise_rel_error frobenius_rel_error worst_abs worst_rel '"row"' '"col"' reference_over_max rtol atol depth; do
    grep -q "$key" "$tmp/cmp.json" || fail "--json should carry $key"
done

# case export: safetensors + config.json + a small case reading them back, same output.
"$blockcheck" case export "$case_file" "$tmp/layer.safetensors" > /dev/null
[[ -f "$tmp/config.json" && -f "$tmp/layer.case.json" ]] || fail "export should write config.json and layer.case.json"
grep -q '"rope_type": "yarn"' "$tmp/config.json" || fail "config.json should carry the yarn scaling"
"$blockcheck" forward "$tmp/layer.case.json" > "$tmp/a.json"
"$blockcheck" forward "$case_file" > "$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "the exported layer should give the same output"
echo "engineer loop: 1 passed, 0 failed"
