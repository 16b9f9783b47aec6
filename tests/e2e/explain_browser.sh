#!/usr/bin/env bash
# End to end in a real browser: `explain --html` pages (English and Chinese, with check results)
# and a grade run's report.html (also after --merge) are loaded in headless Chromium. The page's
# script must finish drawing (body data-ready="1", no data-error, no "Uncaught" in the log), every
# mode's figures must be in the DOM, and each mode's screenshot must not be blank.
set -euo pipefail
blockcheck="$1"; root="$2"
source "$root/tests/e2e/lib/common.sh"
browser="$(command -v chromium || true)"
[[ -n "$browser" ]] || fail "chromium is not installed; './blockcheck test' installs it (Debian package 'chromium', test-only)"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
started=$SECONDS

# One fresh profile a launch, nothing fetched, no background services.
run_browser() {  # run_browser NAME ARGS... : stdout to $ws/NAME.out, the log to $ws/NAME.log
    local name="$1"; shift
    local profile; profile="$(mktemp -d "$ws/profile.XXXXXX")"
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync --disable-dev-shm-usage \
        --user-data-dir="$profile" --enable-logging=stderr --v=0 "$@" > "$ws/$name.out" 2> "$ws/$name.log" ||
        fail "chromium failed on $name (exit $?): $(tail -5 "$ws/$name.log")"
}
dump_dom() {  # dump_dom NAME URL: the DOM after the page's scripts ran, checked for errors
    run_browser "$1" --dump-dom "$2"
    local dom="$ws/$1.out"
    grep -q '<body[^>]*data-ready="1"' "$dom" || fail "$1: the page's script did not finish (no data-ready=\"1\")"
    if grep -o 'data-error="[^"]*"' "$dom"; then fail "$1: the page's script raised an error"; fi
    if grep -i "Uncaught" "$ws/$1.log"; then fail "$1: uncaught error in the browser log"; fi
}
screenshot() {  # screenshot NAME URL MIN_BYTES
    run_browser "$1" --hide-scrollbars --window-size=1200,900 --screenshot="$ws/$1.png" "$2"
    [[ -f "$ws/$1.png" ]] || fail "$1: no screenshot written"
    local size; size=$(stat -c %s "$ws/$1.png")
    ((size > $3)) || fail "$1: screenshot of $size bytes looks blank (a blank page is $blank bytes)"
    [[ -z "${KEEP_SCREENSHOTS:-}" ]] || cp "$ws/$1.png" "$KEEP_SCREENSHOTS/"
}
has_ids() {  # has_ids NAME ID...: each id is in the dumped DOM
    local name="$1"; shift
    for id in "$@"; do grep -q "id=\"$id\"" "$ws/$name.out" || fail "$name: no element with id $id"; done
}

# A blank page's screenshot, for scale.
echo '<!DOCTYPE html><html><body></body></html>' > "$ws/blank.html"
run_browser blank --window-size=1200,900 --screenshot="$ws/blank.png" "file://$ws/blank.html"
blank=$(stat -c %s "$ws/blank.png")
min=$((blank * 4 > 20000 ? blank * 4 : 20000))

# A student's `check --json` for two chapter-25 exercises (one solved, one left as the template).
mkdir -p "$ws/student/data/exercises" && cp -r "$root/data/exercises/ch25" "$ws/student/data/exercises/" && cp -r "$root/chapters" "$ws/student/"
cp "$root/tests/solved/ch25/rms_norm_vs_layer_norm.cpp" "$ws/student/chapters/ch25/"
BLOCKCHECK_ROOT="$ws/student" "$blockcheck" check --json rms_norm_vs_layer_norm swiglu_ffn_2d > "$ws/check.json" || true
[[ $(json '[.exercises[] | select(.id == "rms_norm_vs_layer_norm")] | length' "$ws/check.json") == 1 ]] || fail "check --json gave no results: $(head -c 300 "$ws/check.json")"

"$blockcheck" explain --html "$ws/en.html" --lang en --check-results "$ws/check.json" > /dev/null
"$blockcheck" explain --html "$ws/zh.html" --lang zh > /dev/null
grep -q '<script type="application/json" id="explain-data">' "$ws/en.html" || fail "no data blob in the page"
if grep -Eq '<(script|link|img)[^>]+(src|href)=' "$ws/en.html"; then fail "the page loads something from outside itself"; fi

dump_dom en "file://$ws/en.html"
has_ids en tab-basics tab-advanced tab-practice tab-optimisation panel-basics panel-advanced panel-practice panel-optimisation \
    fig-stamps fig-rms fig-activations fig-dials fig-distance fig-shift fig-block fig-attention fig-check check-table \
    fig-kv fig-scaling fig-budget fig-stamps-stampPos fig-kv-group fig-scaling-factor fig-block-stage
[[ $(grep -o 'role="tab"' "$ws/en.out" | wc -l) == 4 ]] || fail "en: expected 4 tabs"
[[ $(grep -o '<input type="range"' "$ws/en.out" | wc -l) -ge 9 ]] || fail "en: expected the sliders"
[[ $(grep -o '<svg[^>]*role="img"[^>]*aria-labelledby=' "$ws/en.out" | wc -l) -ge 12 ]] || fail "en: figures without text alternatives"
grep -q '<desc id="[^"]*">Position 3: the quarter-turn stamp points to \[0.000, -1.000\]' "$ws/en.out" || fail "en: stamp summary missing"
grep -q 'SiLU(1) = 0.731059' "$ws/en.out" || fail "en: SiLU(1) summary missing"
grep -q '<td>mean_square</td>' "$ws/en.out" || fail "en: the check results' parts are not in the table"
grep -q 'v-correct' "$ws/en.out" || fail "en: no correct verdict shown"

dump_dom zh "file://$ws/zh.html"
grep -q '<html lang="zh-CN"' "$ws/zh.out" || fail "zh: page language is not zh-CN"
for word in 入门 进阶 实战 优化 旋转印章; do grep -q "$word" "$ws/zh.out" || fail "zh: no '$word'"; done
has_ids zh fig-stamps fig-block fig-kv fig-scaling fig-check

for mode in basics advanced practice optimisation; do screenshot "en-$mode" "file://$ws/en.html#mode=$mode" "$min"; done
screenshot zh-practice "file://$ws/zh.html#mode=practice" "$min"

# report.html from a grade run and from --merge (the same writer).
subs="$ws/subs"; mkdir -p "$subs/ada" "$subs/bob"
cp "$root/tests/solved/ch25/rms_norm_vs_layer_norm.cpp" "$root/tests/solved/ch25/swiglu_ffn_2d.cpp" "$subs/ada/"
cat > "$subs/bob/swiglu_ffn_2d.cpp" <<'CPP'
#include <cstdio>
int main() { std::puts("gate = [1.000000, -1.000000]"); std::puts("swiglu_ffn = [0.6, -0.8]"); }
CPP
BLOCKCHECK_ROOT="$ws/student" LANG=C "$blockcheck" grade "$subs" --out "$ws/grades" --jobs 2 --cpu 1 --wall 2 --cache "$ws/cache" > /dev/null
[[ -f "$ws/grades/report.html" ]] || fail "grade wrote no report.html"
BLOCKCHECK_ROOT="$ws/student" LANG=C "$blockcheck" grade --merge "$ws/grades" --out "$ws/merged" > /dev/null
cmp -s "$ws/grades/report.html" "$ws/merged/report.html" || fail "--merge's report.html differs from the run's"
if grep -Eq '<(script|link|img)[^>]+(src|href)=' "$ws/grades/report.html"; then fail "report.html loads something from outside itself"; fi
run_browser report --dump-dom "file://$ws/grades/report.html"
has_ids report score-histogram exercise-rates verdict-counts common-wrong report-summary
grep -q '2 students' "$ws/report.out" || fail "report: wrong class size"
grep -q '<code>swiglu_ffn_2d</code>' "$ws/report.out" || fail "report: swiglu_ffn_2d missing"
screenshot report "file://$ws/grades/report.html" "$((blank * 2))"

echo "explain_browser: 1 passed, 0 failed ($((SECONDS - started)) s)"
