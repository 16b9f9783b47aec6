#!/usr/bin/env bash
# End to end: a Hugging Face-layout port of the walkthrough's interleaved case (modern-small,
# exported with `case export`). Its Q/K stages are in half layout: `compare --layout half` maps
# them and passes, so does compare without the option (it finds the layout and says so), the
# export's own case passes as it is; read in the case's own layout the run fails with a headline
# that never says "within". `case export` refuses to overwrite; `case new` makes a GQA case with
# another theta.
set -euo pipefail
blockcheck="$1"; root="$2"
case_file="$root/data/cases/modern-small.json"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
source "$root/tests/e2e/lib/common.sh"
export LANG=C

"$blockcheck" case export "$case_file" "$tmp/layer.safetensors" > "$tmp/export.txt"
grep -q "compare --layout half" "$tmp/export.txt" || fail "export should say how to compare: $(cat "$tmp/export.txt")"
[[ $(json '.config.rope_layout' "$tmp/layer.case.json") == half ]] || fail "the export's case is in Hugging Face's layout"

# The port: the exported layer as rotate_half computes it, every stage in float32.
"$blockcheck" forward "$tmp/layer.case.json" --trace --out "$tmp/port.safetensors" --out-dtype float32
"$blockcheck" compare "$case_file" "$tmp/port.safetensors" --dtype float32 --layout half > "$tmp/cmp.txt" ||
    fail "the HF-layout port compared with --layout half should pass: $(cat "$tmp/cmp.txt")"
grep -q "every stage is within its tolerance" "$tmp/cmp.txt" || fail "every stage should be within"
"$blockcheck" compare "$tmp/layer.case.json" "$tmp/port.safetensors" --dtype float32 > "$tmp/cmp.txt" ||
    fail "the port should pass against the export's own case: $(cat "$tmp/cmp.txt")"

# Without --layout, the stages that fit only the other layout are read in it, and it is said.
"$blockcheck" compare "$case_file" "$tmp/port.safetensors" --dtype float32 > "$tmp/cmp.txt" ||
    fail "the HF-layout port should pass with the layout found: $(cat "$tmp/cmp.txt")"
grep -q "Q/K stages read in the half pair layout, where they fit" "$tmp/cmp.txt" || fail "compare should say which layout it read"
"$blockcheck" compare "$case_file" "$tmp/port.safetensors" --dtype float32 --json > "$tmp/cmp.json"
[[ $(json '.layout_detected' "$tmp/cmp.json") == true && $(json '.layout' "$tmp/cmp.json") == half ]] ||
    fail "--json should carry the layout found"

# A port on Hugging Face's weights that pairs neighbours (rope_pairing_flipped): its Q/K are read
# in half layout, and it still fails, first at Q_rotated.
jq '.weights.q |= map([.[0], .[2], .[1], .[3], .[4], .[6], .[5], .[7], .[8], .[10], .[9], .[11]])
    | .weights.k |= map([.[0], .[2], .[1], .[3], .[4], .[6], .[5], .[7], .[8], .[10], .[9], .[11]])' "$case_file" > "$tmp/flipped.json"
"$blockcheck" forward "$tmp/flipped.json" --trace --out "$tmp/flipped.safetensors" --out-dtype float32
status=0; "$blockcheck" compare "$case_file" "$tmp/flipped.safetensors" --dtype float32 --json > "$tmp/cmp.json" || status=$?
[[ $status == 1 ]] || fail "a wrong pairing must fail whatever the layout, got exit $status"
[[ $(json '.layout' "$tmp/cmp.json") == half && $(json '.first_stage_outside' "$tmp/cmp.json") == Q_rotated ]] ||
    fail "the flipped port's Q/K read in half layout, first outside at Q_rotated: $(json '[.layout, .first_stage_outside]' "$tmp/cmp.json")"

# Read in the case's own layout the Q stage is outside: exit 1, and the headline never says within.
status=0; "$blockcheck" compare "$case_file" "$tmp/port.safetensors" --dtype float32 --layout interleaved > "$tmp/cmp.txt" || status=$?
[[ $status == 1 ]] || fail "read in the case's own layout the Q stage is outside: exit 1, got $status"
headline="$(grep -A1 '^  tolerance' "$tmp/cmp.txt" | tail -1)"
[[ $headline != *within* ]] || fail "a failing run's headline says within: $headline"
[[ $headline == *"outside at stage Q"* ]] || fail "the headline should name the stage: $headline"

# Export never overwrites unless asked; nothing is written when one file exists.
cp "$tmp/config.json" "$tmp/config.before"
status=0; "$blockcheck" case export "$case_file" "$tmp/layer.safetensors" > /dev/null 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] || fail "a second export should be refused (exit 2), got $status"
grep -q "layer.safetensors: already exists; give --force" "$tmp/err.txt" || fail "the refusal should name the file: $(cat "$tmp/err.txt")"
mkdir "$tmp/other" && echo '{"mine": true}' > "$tmp/other/config.json"
status=0; "$blockcheck" case export "$case_file" "$tmp/other/layer.safetensors" > /dev/null 2> "$tmp/err.txt" || status=$?
[[ $status == 2 && ! -e "$tmp/other/layer.safetensors" ]] || fail "an existing config.json should stop the export before anything is written"
grep -q '"mine"' "$tmp/other/config.json" || fail "the user's config.json was overwritten"
"$blockcheck" case export "$case_file" "$tmp/other/layer.safetensors" --force --npy > /dev/null
[[ -f "$tmp/other/layer_npy/self_attn.q_proj.weight.npy" ]] || fail "--npy should write one .npy a tensor"

# case new: GQA with another theta, from options; the same seed, the same file.
"$blockcheck" case new "$tmp/gqa.json" --query-heads 8 --kv-heads 2 --hidden-size 32 --head-dim 4 \
    --rope-theta 500000 --rope-scaling '{"rope_type": "linear", "factor": 4}' --seed 7 > /dev/null
[[ $(json '.config.kv_heads' "$tmp/gqa.json") == 2 && $(json '.config.rope_theta' "$tmp/gqa.json") == 500000 ]] ||
    fail "case new should write the options' block: $(json '.config' "$tmp/gqa.json")"
"$blockcheck" case new "$tmp/again.json" --query-heads 8 --kv-heads 2 --hidden-size 32 --head-dim 4 \
    --rope-theta 500000 --rope-scaling '{"rope_type": "linear", "factor": 4}' --seed 7 > /dev/null
cmp -s "$tmp/gqa.json" "$tmp/again.json" || fail "the same seed should write the same case"
"$blockcheck" forward "$tmp/gqa.json" --digits 6 > /dev/null || fail "the new case should run"
status=0; "$blockcheck" case new "$tmp/bad.json" --query-heads 8 --kv-heads 3 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] && grep -q "config.kv_heads: 3 does not divide query_heads (8)" "$tmp/err.txt" ||
    fail "a bad head count should be named: $(cat "$tmp/err.txt")"
echo "HF-layout port: 1 passed, 0 failed"
