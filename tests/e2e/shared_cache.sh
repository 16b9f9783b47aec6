#!/usr/bin/env bash
# End to end, issue 40's red team on the compile cache shared across runs: two `grade` runs started
# at once on the same class with the same --cache write the same entries side by side. Each entry
# appears whole (written beside, then renamed) and is checked on read, so both runs end with the
# same gradebook, no half-written entry is left behind, and a third run reuses every entry; links
# planted in the cache folder are never followed.
set -euo pipefail
blockcheck="$1"; root="$2"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
source "$root/tests/e2e/lib/common.sh"
chapter25_workspace "$ws/book"
solved="$root/tests/solved/ch25"
subs="$ws/subs"
for who in ada bob cat; do mkdir -p "$subs/$who"; done
cp "$solved/swiglu_ffn_2d.cpp" "$solved/rms_norm_zero_row.cpp" "$subs/ada/"
sed 's|g\[i\] / (1.0 + std::exp(-g\[i\]))|1.0 / (1.0 + std::exp(-g[i]))|' "$solved/swiglu_ffn_2d.cpp" > "$subs/bob/swiglu_ffn_2d.cpp"
cp "$solved/rms_norm_zero_row.cpp" "$subs/bob/"
cp "$solved/swiglu_ffn_2d.cpp" "$subs/cat/"   # the same program as ada's: one cache entry for both runs

grade() { "$blockcheck" grade "$subs" --book-inputs-only --exercises swiglu_ffn_2d,rms_norm_zero_row --jobs 1 \
              --cpu 2 --wall 10 --cache "$ws/cache" --out "$ws/$1" > "$ws/$1.log" 2>&1; }
grade one & first=$!
grade two & second=$!
wait $first || { cat "$ws/one.log"; fail "the first of two concurrent runs exited $?"; }
wait $second || { cat "$ws/two.log"; fail "the second of two concurrent runs exited $?"; }
cmp "$ws/one/gradebook.csv" "$ws/two/gradebook.csv" || fail "two runs sharing a cache disagree: $(cat "$ws/one/gradebook.csv" "$ws/two/gradebook.csv")"
[[ $(json '[.exercises[] | select(.id=="swiglu_ffn_2d") | .score] | add' "$ws/one/results/ada.json") == 6 ]] ||
    fail "ada's right program should score 6: $(cat "$ws/one/results/ada.json")"
[[ $(json '[.exercises[] | select(.id=="swiglu_ffn_2d") | .score] | add' "$ws/two/results/bob.json") != 6 ]] ||
    fail "bob's sigmoid slip must not take ada's cached binary"
[[ -z "$(find "$ws/cache" -name '.tmp-*')" ]] || fail "a half-written entry was left in the cache: $(find "$ws/cache" -name '.tmp-*')"

grade three
cmp "$ws/one/gradebook.csv" "$ws/three/gradebook.csv" || fail "a run on the warm cache disagrees"
[[ $(json '[.exercises[] | select(.source != null) | .compile_cached] | all' "$ws/three/results/bob.json") == true ]] ||
    fail "the third run should reuse every entry the two wrote: $(json '[.exercises[] | {id, compile_cached}]' "$ws/three/results/bob.json")"

# Links planted in the cache folder (issue 40): every program's binary replaced by a link to a copy
# of its very bytes elsewhere, and the header's archive folder by a link to a moved copy. None is
# followed: each entry is rebuilt in place as a regular file or folder, and the grades stay.
mkdir -p "$ws/elsewhere"
for entry in $(find "$ws/cache" -maxdepth 1 -type f -regextype egrep -regex '.*/[0-9a-f]{64}'); do
    cp "$entry" "$ws/elsewhere/$(basename "$entry")" && rm "$entry" && ln -s "$ws/elsewhere/$(basename "$entry")" "$entry"
done
lib="$(find "$ws/cache" -maxdepth 1 -type d -name 'lib-*' | head -1)"
[[ -n "$lib" ]] && mv "$lib" "$ws/elsewhere/lib" && ln -s "$ws/elsewhere/lib" "$lib"
grade four
cmp "$ws/one/gradebook.csv" "$ws/four/gradebook.csv" || fail "a run on a cache with planted links disagrees"
[[ $(json '[.exercises[] | select(.source != null) | .compile_cached] | any' "$ws/four/results/ada.json") == false ]] ||
    fail "a binary reached through a planted link was taken as cached"
[[ -z "$(find "$ws/cache" -maxdepth 1 -type l)" ]] || fail "a planted link is still in the cache: $(find "$ws/cache" -maxdepth 1 -type l)"
echo "ok: two concurrent runs on one cache agree; no half-written entry; a third run reuses every entry; planted links rebuilt"
