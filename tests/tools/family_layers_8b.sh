#!/usr/bin/env bash
# Issue 42's acceptance figures: `compare --model` on an 8B-shaped layer of each model family
# (random BF16 weights at the real shapes, T = 32 rows), for an honest float32 port's output and a
# float64 one (numpy's layer, tests/fixtures/family_layer.py), both at --precision dd, each timed
# as a whole process by /usr/bin/time: wall, CPU (user + system), peak resident memory. Not part
# of the suite (about 2 GB of folders and ten minutes); docs/performance-real-layer.md has the
# table. The same script at --size small is tests/e2e/family_layers_bench.sh.
#
#     tests/tools/family_layers_8b.sh BLOCKCHECK WORK_DIR [--size small] [FAMILY ...]
# FAMILY: qwen2 qwen3 mistral gemma2 gemma3 phi3-mini phi3-medium olmo2 (default: all). Prints
# one line a compare: family output wall_s cpu_s peak_MB verdict search.
set -euo pipefail
blockcheck="$1"; work="$2"; shift 2
size=8b
if [[ ${1:-} == --size ]]; then size="$2"; shift 2; fi
families=("$@")
[[ ${#families[@]} -gt 0 ]] || families=(qwen2 qwen3 mistral gemma2 gemma3 phi3-mini phi3-medium olmo2)
python=/usr/bin/python3  # Debian's, with python3-numpy
fixture="$(cd "$(dirname "$0")/../fixtures" && pwd)/family_layer.py"
mkdir -p "$work"
printf '%-12s %-8s %8s %8s %8s  %-7s %s\n' family output wall_s cpu_s peak_MB verdict search
for name in "${families[@]}"; do
    family="${name%%-*}"; shape="$size"
    [[ $name == phi3-* && $size != small ]] && shape="${name#phi3-}"
    nested=(); [[ $family == gemma3 ]] && nested=(--nested)
    dir="$work/$name"
    if [[ ! -f $dir/model.safetensors ]]; then
        "$python" "$fixture" make "$family" "$dir" --size "$shape" "${nested[@]}" > /dev/null
    fi
    for output in float32 float64; do
        port=(); [[ $output == float32 ]] && port=(--float32)
        [[ -f $dir/$output.npy ]] ||
            "$python" "$fixture" port "$dir" --layer 0 --input "$dir/hidden.npy" --out "$dir/$output.npy" "${port[@]}"
        verdict=within
        /usr/bin/time -f '%e %U %S %M' -o "$dir/$output.time" "$blockcheck" compare --model "$dir" --layer 0 \
            --input "$dir/hidden.npy" "$dir/$output.npy" --dtype "$output" --precision dd \
            > "$dir/$output.compare" 2> "$dir/$output.err" || verdict=outside
        read -r wall user system peak < <(tail -1 "$dir/$output.time")
        search="$(grep -m1 '^porting mistakes tried' "$dir/$output.compare" | sed 's/^porting mistakes tried: //')"
        awk -v n="$name" -v o="$output" -v w="$wall" -v u="$user" -v s="$system" -v p="$peak" \
            -v v="$verdict" -v r="$search" 'BEGIN { printf "%-12s %-8s %8.1f %8.1f %8.0f  %-7s %s\n", n, o, w, u + s, p / 1024, v, r }'
    done
done
