#!/usr/bin/env bash
# A Llama-3-8B-shaped layer (C 4096, F 14336, 32 heads / 8 KV of 128, random BF16 weights, two
# layers in two shards with their index) at T = 32, as the issue's acceptance builds it:
# `forward --model --precision dd` equal, normwise within 1e-11, to Hugging Face's
# LlamaDecoderLayer in float64 (tests/fixtures/llama_layer.py, numpy), and `compare` of a float32
# port within tolerance and of a port without the attention scale naming it. Time and peak memory
# are printed, never asserted (docs/performance.md records them).
set -euo pipefail
blockcheck="$1"; root="$2"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export LANG=C
source "$root/tests/e2e/lib/common.sh"
python=/usr/bin/python3  # Debian's, with python3-numpy
fixture="$root/tests/fixtures/llama_layer.py"
model="$work/llama3-8b-shaped"
"$python" "$fixture" make "$model" --hidden 4096 --ffn 14336 --heads 32 --kv-heads 8 --layers 2 --shards 2 --tokens 32

/usr/bin/time -f "forward dd: %e s, %M KB peak" "$blockcheck" forward --model "$model" --layer 1 \
    --input "$model/hidden.npy" --precision dd --out "$work/dd.npy" 2> "$work/forward.err" ||
    { cat "$work/forward.err" >&2; fail "forward --model should exit 0"; }
cat "$work/forward.err"
grep -q "30 significant digits guaranteed" "$work/forward.err" || fail "forward should say what dd guarantees"
"$python" "$fixture" reference "$model" --layer 1 --input "$model/hidden.npy" --out "$work/numpy.npy"
"$python" - "$work/dd.npy" "$work/numpy.npy" <<'PY' || fail "dd should equal numpy's float64 layer within 1e-11 normwise"
import sys
import numpy as np
dd, ref = np.load(sys.argv[1]), np.load(sys.argv[2])
error = np.linalg.norm(dd - ref) / np.linalg.norm(ref)
print(f"dd vs numpy float64 LlamaDecoderLayer: {error:.2e} normwise")
sys.exit(0 if error < 1e-11 else 1)
PY

"$python" "$fixture" port "$model" --layer 1 --input "$model/hidden.npy" --out "$work/f32.npy" --float32
"$blockcheck" compare --model "$model" --layer 1 --input "$model/hidden.npy" "$work/f32.npy" --dtype float32 \
    > "$work/f32.txt" || { cat "$work/f32.txt" >&2; fail "a float32 port should be within tolerance"; }
# The porting-mistake search, stage by stage, timed (docs/performance.md): on a port's output alone
# every mistake runs to the output (reusing the reference's products it leaves unchanged); on an
# honest port's whole trace each stops at the first stage it changes.
search() {  # search NAME OUTPUT: compare --search-mistakes into $work/NAME.txt, its time on stderr
    local status=0
    /usr/bin/time -f "search $1: %e s wall, %U s CPU, %M KB peak" "$blockcheck" compare --model "$model" --layer 1 \
        --input "$model/hidden.npy" "$2" --search-mistakes > "$work/$1.txt" 2> "$work/$1.err" || status=$?
    grep '^search' "$work/$1.err" >&2
    return $status
}
"$python" "$fixture" port "$model" --layer 1 --input "$model/hidden.npy" --out "$work/bug.npy" --bug no_attention_scale
status=0; search scale "$work/bug.npy" || status=$?
[[ $status == 1 ]] || { cat "$work/scale.txt" >&2; fail "a port without the attention scale should be outside"; }
grep -q "(no_attention_scale;" "$work/scale.txt" || { cat "$work/scale.txt" >&2; fail "compare should name no_attention_scale"; }
"$python" "$fixture" port "$model" --layer 1 --input "$model/hidden.npy" --out "$work/reshaped.npy" --bug k_proj_reshaped
status=0; search reshaped "$work/reshaped.npy" || status=$?
[[ $status == 1 ]] || { cat "$work/reshaped.txt" >&2; fail "a port reshaping k_proj should be outside"; }
grep -q "(weight_other_order/k_proj;" "$work/reshaped.txt" ||
    { cat "$work/reshaped.txt" >&2; fail "compare should name weight_other_order/k_proj"; }
"$blockcheck" forward --model "$model" --layer 1 --input "$model/hidden.npy" --precision dd --trace \
    --out "$work/trace.safetensors" 2> /dev/null
search trace "$work/trace.safetensors" || { cat "$work/trace.txt" >&2; fail "the layer's own trace should be within"; }
grep -q "not visible on this case\|^cannot apply here" "$work/trace.txt" || { cat "$work/trace.txt" >&2; fail "the trace should list what it cannot show"; }
echo "real_layer: ok"
