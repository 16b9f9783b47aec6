#!/usr/bin/env bash
# `blockcheck forward --precision 50` against an independent mpmath forward at 50 digits
# (bench/mpmath_forward.py, Debian's python3-mpmath), side by side in one run: the modern
# configuration (C=12, 3 heads x 4, F=32, data/part-v/modern-config.json's shape) on T rows, each
# command a whole process, run in turn RUNS times; prints both medians (wall and CPU), their ratios, and the
# digits on which the two outputs agree (they are two implementations of one block).
#   bench/forward_vs_mpmath.sh [BLOCKCHECK] [T] [RUNS]   (defaults: build/blockcheck, 128, 5)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
blockcheck="${1:-$here/../build/blockcheck}"
rows="${2:-128}"
runs="${3:-5}"
python3 -c 'import mpmath' 2>/dev/null || { echo "forward_vs_mpmath: python3-mpmath is needed (apt-get install python3-mpmath)" >&2; exit 2; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
case_file="$work/modern-$rows.json"
"$blockcheck" case new "$case_file" --hidden-size 12 --query-heads 3 --head-dim 4 --ffn-hidden-size 32 \
    --rms-norm-eps 0.000001 --rows "$rows" --seed 1 > /dev/null

# One whole run of the command, its output to $work/out.<name>: "WALL CPU" seconds (CPU: user +
# system, what the load on a shared machine changes least), from GNU time.
seconds() {
    local name="$1"
    shift
    /usr/bin/time -f '%e %U %S' -o "$work/time.$name" "$@" > "$work/out.$name" 2> "$work/err.$name" ||
        { cat "$work/err.$name" >&2; exit 1; }
    awk '{ print $1, $2 + $3 }' "$work/time.$name"
}
# The median of column $1 of the lines read.
median() { awk -v c="$1" '{ print $c }' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

blockcheck_forward=("$blockcheck" forward "$case_file" --precision 50)
mpmath_forward=(python3 "$here/mpmath_forward.py" "$case_file")
seconds warm "${blockcheck_forward[@]}" > /dev/null  # the first run of each warms the page cache
seconds warm "${mpmath_forward[@]}" > /dev/null
for ((i = 0; i < runs; i++)); do
    seconds blockcheck "${blockcheck_forward[@]}" >> "$work/times.blockcheck"
    seconds mpmath "${mpmath_forward[@]}" >> "$work/times.mpmath"
done
ours="$(median 1 < "$work/times.blockcheck")"; ours_cpu="$(median 2 < "$work/times.blockcheck")"
theirs="$(median 1 < "$work/times.mpmath")"; theirs_cpu="$(median 2 < "$work/times.mpmath")"

# The digits both agree on: the smallest, over every output number, of -log10 of the relative
# difference (the outputs as 50-digit decimals; jq reads the JSON's strings).
jq -r '.output[][]' "$work/out.blockcheck" > "$work/ours.txt"
agree="$(paste "$work/ours.txt" "$work/out.mpmath" | python3 -c '
import sys
from mpmath import mp, mpf, log10, fabs
mp.dps = 60
worst = 60
for line in sys.stdin:
    a, b = map(mpf, line.split())
    if a != b:
        worst = min(worst, float(-log10(fabs(a - b) / max(fabs(a), fabs(b)))))
print(f"{worst:.1f}")')"
[[ $(wc -l < "$work/ours.txt") == $(wc -l < "$work/out.mpmath") ]] || { echo "forward_vs_mpmath: the outputs differ in size" >&2; exit 1; }
load="$(cut -d' ' -f1 /proc/loadavg)"
printf 'forward of the modern configuration (C=12, 3 heads x 4, F=32), T=%s, 50 digits, each a whole process, %s runs in turn (medians; load average %s):\n' "$rows" "$runs" "$load"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }
printf '                                      %8s  %8s\n' wall CPU
printf '  blockcheck forward --precision 50   %8.3f  %8.3f s\n' "$ours" "$ours_cpu"
printf '  mpmath (bench/mpmath_forward.py)    %8.3f  %8.3f s\n' "$theirs" "$theirs_cpu"
printf '  ratio mpmath / blockcheck           %8s  %8s   (the outputs agree to %s significant digits)\n' \
    "$(ratio "$theirs" "$ours")" "$(ratio "$theirs_cpu" "$ours_cpu")" "$agree"
