#!/usr/bin/env bash
# tests/tools/family_layers_8b.sh (issue 42's 8B measurements) at small shapes: each family's
# honest float32 and float64 ports (numpy's layer) pass `compare --precision dd`, and a line of
# figures is printed for each.
set -euo pipefail
blockcheck="$1"; root="$2"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export LANG=C
source "$root/tests/e2e/lib/common.sh"
bash "$root/tests/tools/family_layers_8b.sh" "$blockcheck" "$work" --size small qwen2 gemma3 phi3-mini > "$work/table"
cat "$work/table"
[[ $(grep -c ' within ' "$work/table") == 6 ]] || fail "every honest port should be within"
awk 'NR > 1 && !($3 > 0 && $5 > 0) { exit 1 }' "$work/table" || fail "each line should have a wall time and a peak"
echo "family_layers_bench: ok"
