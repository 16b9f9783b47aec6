#!/usr/bin/env bash
# End to end, the instructor's view (issue 25) on a small real class of chapter 25: two students
# right, two with sigmoid for SiLU (one a renamed copy of the other), two with the same wrong
# answer no mistake explains (the same program, reformatted), one whose id holds escapes. grade
# writes insight.json and insight.csv with those counts and groups; `blockcheck insight` prints
# the top mistake; two shards merged give the same insight files byte for byte; report.html
# (static: no script) has its sections and renders in headless Chromium in English and Chinese.
set -euo pipefail
blockcheck="$1"; root="$2"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
source "$root/tests/e2e/lib/common.sh"
chapter25_workspace "$ws/book"
started=$SECONDS
solved="$root/tests/solved/ch25/swiglu_ffn_2d.cpp"
subs="$ws/subs"
hand_in() { mkdir -p "$subs/$1" && cat > "$subs/$1/swiglu_ffn_2d.cpp"; }
sigmoid='s|g\[i\] / (1.0 + std::exp(-g\[i\]))|1.0 / (1.0 + std::exp(-g[i]))|'
scaled='s|act\[i\] \* u\[i\]|act[i] * u[i] * 1.1|'
hand_in ada < "$solved"
sed 's|std::vector<double> act, h;|std::vector<double> act;\n    std::vector<double> h;|' "$solved" | hand_in bob  # honest: its own structure
sed "$sigmoid" "$solved" | hand_in cat
sed "$sigmoid; s/\bact\b/gated/g; s|^// .*|// my own work|" "$solved" | hand_in dan
sed "$scaled" "$solved" | hand_in eve
sed "$scaled; s/\bh\b/hidden/g; s/^    /\t/" "$solved" | hand_in fay
sed "$sigmoid; s|std::vector<double> act, h;|std::vector<double> act;\n    std::vector<double> h;|" "$solved" | hand_in $'esc\e[2Jid'
cp "$root/tests/solved/ch25/rms_norm_vs_layer_norm.cpp" "$subs/ada/"

# On the book's inputs: the shared wrong answers below are the same numbers only when the inputs are.
grade() { "$blockcheck" grade "$subs" --book-inputs-only --jobs 2 --cpu 1 --wall 2 --cache "$ws/cache" "$@" > "$ws/grade.log" 2>&1 || { cat "$ws/grade.log"; fail "grade $* exited $?"; }; }
grade --out "$ws/one"
for file in insight.json insight.csv; do [[ -f "$ws/one/$file" ]] || fail "grade wrote no $file"; done
ins="$ws/one/insight.json"
silu='.parts[] | select(.exercise=="swiglu_ffn_2d" and .part=="silu") | .outcomes[] | select(.outcome=="mistake:sigmoid_for_silu")'
[[ $(json "$silu | .count" "$ins") == 3 ]] || fail "three students made sigmoid_for_silu: $(json "$silu" "$ins")"
[[ $(json "[$silu | .students[]] | join(\",\")" "$ins") == "cat,dan,esc"$'\e'"[2Jid" ]] || fail "the students of sigmoid_for_silu"
hidden='.parts[] | select(.exercise=="swiglu_ffn_2d" and .part=="swiglu_hidden") | .outcomes[] | select(.outcome=="other_wrong") | .count'
[[ $(json "$hidden" "$ins") == 2 ]] || fail "eve and fay: two wrong answers no mistake explains: $(json ".parts[] | select(.exercise==\"swiglu_ffn_2d\" and .part==\"swiglu_hidden\")" "$ins")"
[[ $(json '[.shared_answers[] | .students | join(",")] | unique | join(" ")' "$ins") == "eve,fay" ]] ||
    fail "eve and fay share a wrong answer: $(json '.shared_answers' "$ins")"
[[ $(json '[.shared_code[] | .students | join(",")] | join(" ")' "$ins") == "cat,dan eve,fay" ]] ||
    fail "the copied programs are cat/dan and eve/fay, never ada/bob: $(json '.shared_code' "$ins")"
controls='[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]'
for file in insight.csv report.html; do ! LC_ALL=C grep -aqP "$controls" "$ws/one/$file" || fail "a raw control byte in $file"; done
grep -qF 'esc\x1B[2Jid' "$ws/one/insight.csv" || fail "insight.csv should name the escaped id"

"$blockcheck" insight "$ws/one" > "$ws/insight.txt" || fail "blockcheck insight exited $?"
cat "$ws/insight.txt"
grep -qF 'swiglu_ffn_2d.silu: 43% sigmoid_for_silu' "$ws/insight.txt" || fail "insight should print the top mistake"
! grep -aq $'\e' "$ws/insight.txt" || fail "a raw escape reached the terminal"
"$blockcheck" insight "$ws/nowhere" > /dev/null 2>&1 && fail "insight on a folder without insight.json should fail"

# Two shards merged: the same insight files as the one run.
grade --out "$ws/shard1" --shard 1/2
grade --out "$ws/shard2" --shard 2/2
"$blockcheck" grade --merge "$ws/shard2" "$ws/shard1" --out "$ws/merged" > /dev/null || fail "merge exited $?"
for file in insight.json insight.csv report.html; do
    cmp -s "$ws/one/$file" "$ws/merged/$file" || fail "--merge's $file differs from the one run's"
done

# The report, in both languages (the Chinese one from a merge with --lang zh), in a browser.
"$blockcheck" --lang zh grade --merge "$ws/one" --out "$ws/zh" > /dev/null || fail "merge --lang zh exited $?"
grep -q '<html lang="zh">' "$ws/zh/report.html" && grep -q '全班错在哪里' "$ws/zh/report.html" || fail "the Chinese report"
browser="$(command -v chromium || true)"
[[ -n "$browser" ]] || fail "chromium is not installed; './blockcheck test' installs it (Debian package 'chromium', test-only)"
run_browser() {  # run_browser NAME ARGS...: one fresh profile, nothing fetched
    local name="$1"; shift
    local profile; profile="$(mktemp -d "$ws/profile.XXXXXX")"
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --disable-dev-shm-usage --user-data-dir="$profile" "$@" > "$ws/$name.out" 2> "$ws/$name.log" ||
        fail "chromium failed on $name (exit $?): $(tail -5 "$ws/$name.log")"
}
echo '<!DOCTYPE html><html><body></body></html>' > "$ws/blank.html"
run_browser blank --window-size=1200,900 --screenshot="$ws/blank.png" "file://$ws/blank.html"
blank=$(stat -c %s "$ws/blank.png")
for lang in one zh; do
    report="$ws/$lang/report.html"
    if grep -Eq '<script|<(link|img)[^>]+(src|href)=' "$report"; then fail "$lang: report.html runs a script or loads something"; fi
    for id in insight-mistakes insight-outcomes insight-parts insight-items insight-scatter insight-variants insight-shared shared-answers shared-code; do
        grep -q "id=\"$id\"" "$report" || fail "$lang: no element with id $id in report.html"
    done
    run_browser "$lang-shot" --hide-scrollbars --window-size=1200,4000 --screenshot="$ws/$lang.png" "file://$report"
    size=$(stat -c %s "$ws/$lang.png")
    ((size > blank * 3)) || fail "$lang: the screenshot ($size bytes) looks blank (a blank page is $blank)"
    [[ -z "${KEEP_SCREENSHOTS:-}" ]] || cp "$ws/$lang.png" "$KEEP_SCREENSHOTS/insight-$lang.png"
done
echo "insight_report: ok ($((SECONDS - started)) s)"
