#!/usr/bin/env bash
# Model-family layers the block's own switches did not make (issue 42): Phi-3's LongRoPE (short
# factors up to original_max_position_embeddings, long ones past it) and Gemma 3 as
# Gemma3ForConditionalGeneration writes it (text_config, model.language_model.layers.N.) agree with
# numpy's layer (tests/fixtures/family_layer.py) normwise within 1e-11 and pass `compare`; and
# ports with a family mistake planted by numpy (family_layer.py port --bug, not by the block that
# finds it) are named by `compare --model`, each with no other name.
set -euo pipefail
blockcheck="$1"; root="$2"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export LANG=C
source "$root/tests/e2e/lib/common.sh"
python=/usr/bin/python3  # Debian's, with python3-numpy
fixture="$root/tests/fixtures/family_layer.py"

# agree DIR LAYER INPUT: forward dd against numpy's reference, then compare passes numpy's output.
agree() {
    local dir="$1" layer="$2" input="$3" out="$work/$(basename "$1")-$2-$(basename "$3" .npy)"
    "$blockcheck" forward --model "$dir" --layer "$layer" --input "$input" --precision dd --out "$out.dd.npy" \
        2> "$out.err" || { cat "$out.err" >&2; fail "$dir $layer: forward"; }
    "$python" "$fixture" reference "$dir" --layer "$layer" --input "$input" --out "$out.numpy.npy"
    "$python" - "$out" <<'PY' || fail "$dir layer $layer ($input): the block and numpy should agree"
import sys
import numpy as np
ref, dd = np.load(sys.argv[1] + ".numpy.npy"), np.load(sys.argv[1] + ".dd.npy")
error = np.abs(dd - ref).max() / np.abs(ref).max()
print(f"{sys.argv[1]}: dd vs numpy float64 {error:.2e} normwise")
sys.exit(0 if error < 1e-11 else 1)
PY
    "$blockcheck" compare --model "$dir" --layer "$layer" --input "$input" "$out.numpy.npy" --json > "$out.json" \
        2> /dev/null || { cat "$out.json" >&2; fail "$dir $layer: numpy's layer should be within"; }
    [[ $(json '.named_mistakes | length' "$out.json") == 0 ]] || fail "$dir $layer: nothing should be named"
}

# Phi-3 with LongRoPE: original_max_position_embeddings 4, so 8 rows use long_factor, 3 short_factor.
"$python" "$fixture" make phi3 "$work/phi3" --size small --tokens 8 --dtype f32
"$python" -c "import numpy as np, sys; np.save(sys.argv[2], np.load(sys.argv[1])[:3])" "$work/phi3/hidden.npy" "$work/three.npy"
agree "$work/phi3" 0 "$work/phi3/hidden.npy"
agree "$work/phi3" 0 "$work/three.npy"
grep -q "original_max_position_embeddings (Phi-3's spelling) is LongRoPE's original context" "$work/phi3-0-hidden.err" ||
    fail "forward should say where LongRoPE's original context came from"
# the long factors matter: the 8-row layer computed with the short ones is another layer
"$python" - "$work/phi3/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["rope_scaling"]["long_factor"] = c["rope_scaling"]["short_factor"]
json.dump(c, open(sys.argv[1], "w"))
PY
"$blockcheck" compare --model "$work/phi3" --layer 0 --input "$work/phi3/hidden.npy" "$work/phi3-0-hidden.numpy.npy" \
    --json > "$work/short.json" 2> /dev/null && fail "the long factors should show on 8 rows"
[[ $(json '.within' "$work/short.json") == false ]] || fail "the long factors should show on 8 rows"

# Gemma 3 nested under text_config: a local layer (0) and a global one with linear scaling (5).
for layer in 0 5; do
    "$python" "$fixture" make gemma3 "$work/gemma3-$layer" --size small --tokens 8 --dtype f32 --nested --layer "$layer" --layers 6
    agree "$work/gemma3-$layer" "$layer" "$work/gemma3-$layer/hidden.npy"
done
grep -q "the decoder layers are text_config's (gemma3_text)" "$work/gemma3-5-5-hidden.err" || fail "forward should say it read text_config"
grep -q "layer 5 is global" "$work/gemma3-5-5-hidden.err" || fail "layer 5 of 6 should be global"

# Ports with a planted family mistake, made in numpy on `case new --family` folders.
while read -r family layer bug; do
    dir="$work/case-$family"
    [[ -d $dir ]] || "$blockcheck" case new --family "$family" "$dir" > /dev/null
    port="$work/$family-$layer-$bug.npy"
    "$python" "$fixture" port "$dir" --layer "$layer" --input "$dir/hidden.npy" --out "$port" --bug "$bug"
    "$blockcheck" compare --model "$dir" --layer "$layer" --input "$dir/hidden.npy" "$port" --json > "$port.json" \
        2> /dev/null && fail "$family $layer $bug: the port should be outside"
    named="$(json '[.named_mistakes[].id] | join(",")' "$port.json")"
    [[ $named == "$bug" ]] || fail "$family layer $layer: numpy's $bug port named '$named'"
    # most mistakes are ruled out on the first two rows alone, none is left untried
    (( $(json '.mistakes_ruled_out_on_first_rows' "$port.json") > $(json '.mistakes_tried' "$port.json") / 2 )) ||
        fail "$family $layer $bug: most mistakes should be ruled out on the first rows"
    [[ $(json '.mistakes_over_budget | length' "$port.json") == 0 ]] || fail "$family $layer $bug: every mistake should be tried"
    echo "$family layer $layer: numpy's $bug port named $named"
done <<'PORTS'
gemma2 0 norm_gain_one_dropped
gemma2 0 softcap_skipped
gemma2 0 gelu_exact_for_tanh
gemma2 1 norms_pre_post_swapped
mistral 0 sliding_window_off_by_one
qwen2 1 qkv_bias_dropped
qwen3 1 qk_norm_after_rope
gemma3_text 0 qk_norm_skipped
olmo2 0 qk_norm_other_span
olmo2 1 norms_pre_post_swapped
phi3 0 fused_qkv_split_order
phi3 1 gate_up_swapped
mistral 1 sliding_window_ignored
PORTS
echo "family_ports: ok"
