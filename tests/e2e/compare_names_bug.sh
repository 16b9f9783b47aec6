#!/usr/bin/env bash
# End to end: `compare` names the porting mistake an output carries. Each buggy output is the
# 50-digit forward of the case with one thing changed in the file, as a porter's slip changes it.
set -euo pipefail
blockcheck="$1"; root="$2"
case_file="$root/data/cases/modern-small.json"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
source "$root/tests/e2e/lib/common.sh"
export LANG=C

# named CASE OUTPUT [compare options]: the ids compare --json names, one line, sorted.
named() {
    local status=0
    "$blockcheck" compare "$1" "$2" "${@:3}" --json > "$tmp/cmp.json" || status=$?
    [[ $status == 1 ]] || fail "compare of a buggy output should exit 1, got $status"
    json '[.named_mistakes[].id] | sort | join(" ")' "$tmp/cmp.json"
}

# The honest output: within, nothing named, and what this case cannot show listed.
"$blockcheck" forward "$case_file" > "$tmp/honest.json"
"$blockcheck" compare "$case_file" "$tmp/honest.json" --json > "$tmp/cmp.json" || fail "the honest output should pass"
[[ $(json '.named_mistakes | length' "$tmp/cmp.json") == 0 ]] || fail "nothing should be named on the honest output"
[[ $(json '[.mistakes_not_visible[].id] | sort | join(" ")' "$tmp/cmp.json") == \
   "dynamic_ntk_at_longest_context dynamic_ntk_unclamped llama3_band_skipped position_off_by_one rope_scaling_not_applied rope_theta_default wrong_kv_head yarn_attention_factor_missing yarn_attention_factor_on_scores yarn_attention_factor_twice" ]] ||
    fail "modern-small (three KV heads for three query heads, theta 10000, no rope_scaling) cannot show these: $(json '.mistakes_not_visible' "$tmp/cmp.json")"

# eps 1e-5 typed for the model's 1e-6.
cp "$case_file" "$tmp/eps.json"; edit 's/"rms_norm_eps": "0.000001"/"rms_norm_eps": "0.00001"/' "$tmp/eps.json"
"$blockcheck" forward "$tmp/eps.json" > "$tmp/out.json"
[[ $(named "$case_file" "$tmp/out.json") == "eps_ten_times" ]] || fail "eps x10 should be named: $(cat "$tmp/cmp.json")"
[[ $(json '.named_mistakes[0].stage' "$tmp/cmp.json") == output ]] || fail "the stage should be the output"
[[ $(json '.named_mistakes[0].normwise_error_eps < 4' "$tmp/cmp.json") == true ]] || fail "a 50-digit output should match exactly"

# Half pairs where the weights pair neighbours.
cp "$case_file" "$tmp/half.json"; edit 's/"rope_layout": "interleaved"/"rope_layout": "half"/' "$tmp/half.json"
"$blockcheck" forward "$tmp/half.json" --precision double > "$tmp/out.json"
[[ $(named "$case_file" "$tmp/out.json") == "rope_pairing_flipped" ]] || fail "the pairing should be named: $(cat "$tmp/cmp.json")"

# Gate and up loaded the wrong way round.
jq '.weights |= (.gate as $g | .gate = .up | .up = $g)' "$case_file" > "$tmp/swapped.json"
"$blockcheck" forward "$tmp/swapped.json" --precision double > "$tmp/out.json"
[[ $(named "$case_file" "$tmp/out.json") == "gate_up_swapped" ]] || fail "gate/up should be named: $(cat "$tmp/cmp.json")"

# A model with theta 500000, run at 10000: with --trace, named where it first shows.
cp "$case_file" "$tmp/theta.json"; edit 's/"rope_theta": 10000/"rope_theta": 500000/' "$tmp/theta.json"
"$blockcheck" forward "$case_file" --trace --precision double > "$tmp/out.json"
[[ $(named "$tmp/theta.json" "$tmp/out.json" --dtype float32) == "rope_theta_default" ]] ||
    fail "theta 10000 should be named: $(cat "$tmp/cmp.json")"
[[ $(json '.named_mistakes[0].stage' "$tmp/cmp.json") == Q_rotated ]] || fail "theta shows first at Q_rotated"

# The report in words, in English and Chinese.
status=0; "$blockcheck" compare "$tmp/theta.json" "$tmp/out.json" > "$tmp/cmp.txt" || status=$?
[[ $status == 1 ]] || fail "compare should exit 1, got $status"
grep -q "the bug: rope_theta left at 10000 instead of the model's (rope_theta_default): your output agrees with the block with this mistake made" "$tmp/cmp.txt" ||
    fail "the text should name the mistake: $(cat "$tmp/cmp.txt")"
status=0; LANG=zh_CN.UTF-8 "$blockcheck" compare "$tmp/theta.json" "$tmp/out.json" > "$tmp/cmp.txt" || status=$?
grep -q "错误所在：rope_theta 保留了 10000" "$tmp/cmp.txt" || fail "the Chinese text should name it: $(cat "$tmp/cmp.txt")"

# One element off: no mistake explains it, and the localisation stands.
"$blockcheck" forward "$case_file" --precision double > "$tmp/fd.json"
edit 's/"-2.0689552738442716"/"-2.0679552738442716"/' "$tmp/fd.json"
[[ $(named "$case_file" "$tmp/fd.json") == "" ]] || fail "nothing should be named for one wrong element"
status=0; "$blockcheck" compare "$case_file" "$tmp/fd.json" > "$tmp/cmp.txt" || status=$?
grep -q "no porting mistake of the catalogue explains it ([0-9]* tried)" "$tmp/cmp.txt" ||
    fail "compare should say no mistake explains it: $(cat "$tmp/cmp.txt")"
echo "compare names the bug: 1 passed, 0 failed"
