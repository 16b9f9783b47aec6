#!/usr/bin/env bash
# Each model family's layer (issue 42): `case new --family F` writes a small random checkpoint
# folder; `forward --model` says the family and its mechanisms, and its layers at double,
# double-double and 50 digits agree with an independent numpy float64 layer written from Hugging
# Face's modeling code (tests/fixtures/family_layer.py) normwise within 1e-11, dd with 50 digits
# to 1e-29; `compare` passes the numpy output with no porting mistake named. Layer 0 is windowed
# (local) and layer 1 not where the family has both kinds.
set -euo pipefail
blockcheck="$1"; root="$2"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export LANG=C
source "$root/tests/e2e/lib/common.sh"
python=/usr/bin/python3  # Debian's, with python3-numpy
fixture="$root/tests/fixtures/family_layer.py"

"$blockcheck" case new --family bloom "$work/bloom" > /dev/null 2>&1 && fail "an unknown family should be refused"
for family in mistral qwen2 qwen3 gemma2 gemma3_text phi3 olmo2; do
    dir="$work/$family"
    "$blockcheck" case new --family "$family" "$dir" > /dev/null
    for layer in 0 1; do
        out="$work/$family-$layer"
        run() { "$blockcheck" forward --model "$dir" --layer "$layer" --input "$dir/hidden.npy" "$@"; }
        run --precision double --out "$out.double.npy" 2> "$out.err" || { cat "$out.err" >&2; fail "$family: forward double"; }
        grep -q "^forward: $family layer $layer, beyond the LLaMA block:" "$out.err" ||
            { cat "$out.err" >&2; fail "$family: forward should say the family and its mechanisms"; }
        run --precision dd --out "$out.dd.json" 2> /dev/null || fail "$family: forward dd"
        run --precision 50 --out "$out.50.json" 2> /dev/null || fail "$family: forward 50"
        run --precision dd --out "$out.dd.npy" 2> /dev/null || fail "$family: forward dd .npy"
        "$python" "$fixture" reference "$dir" --layer "$layer" --input "$dir/hidden.npy" --out "$out.numpy.npy"
        "$python" - "$out" "$family $layer" <<'PY' || fail "$family layer $layer: the paths should agree"
import json, sys
from decimal import Decimal, getcontext
import numpy as np
getcontext().prec = 60
out, name = sys.argv[1], sys.argv[2]
ref = np.load(out + ".numpy.npy")
for path in ("double.npy", "dd.npy"):
    error = np.abs(np.load(f"{out}.{path}") - ref).max() / np.abs(ref).max()
    print(f"{name}: {path} vs numpy float64 {error:.2e} normwise")
    if not error < 1e-11:
        sys.exit(1)
dd = [Decimal(x) for row in json.load(open(out + ".dd.json"))["output"] for x in row]
high = [Decimal(x) for row in json.load(open(out + ".50.json"))["output"] for x in row]
error = max(abs(a - b) for a, b in zip(dd, high)) / max(abs(b) for b in high)
print(f"{name}: dd vs 50 digits {float(error):.2e} normwise")
sys.exit(0 if error < Decimal("1e-29") else 1)
PY
        "$blockcheck" compare --model "$dir" --layer "$layer" --input "$dir/hidden.npy" "$out.numpy.npy" --json \
            > "$out.compare.json" 2> /dev/null || { cat "$out.compare.json" >&2; fail "$family $layer: numpy's layer should be within"; }
        [[ $(json '.named_mistakes | length' "$out.compare.json") == 0 ]] || fail "$family $layer: no mistake should be named"
    done
done
echo "family_layers: ok"
