#!/usr/bin/env bash
# End to end: every crafted block case under tests/crafted/block is refused by `forward` (at
# double and 50 digits) and `compare` with exit status 2 and the message in expected.tsv;
# never a signal, never "internal error".
set -euo pipefail
blockcheck="$1"; root="$2"
dir="$root/tests/crafted/block"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
source "$root/tests/e2e/lib/common.sh"
echo '{"output": [[0]]}' > "$tmp/output.json"
checked=0
expect_refusal() {  # file message command...
    local file="$1" message="$2"; shift 2
    local status=0
    "$@" > /dev/null 2> "$tmp/err.txt" || status=$?
    [[ $status == 2 ]] || fail "$(basename "$file"): '$*' exited $status, expected 2: $(cat "$tmp/err.txt")"
    grep -qF -- "$message" "$tmp/err.txt" || fail "$(basename "$file"): expected '$message', got: $(cat "$tmp/err.txt")"
    ! grep -q "internal error" "$tmp/err.txt" || fail "$(basename "$file"): internal error"
    checked=$((checked + 1))
}
while IFS=$'\t' read -r name message; do
    file="$dir/$name"
    expect_refusal "$file" "$message" "$blockcheck" forward "$file" --precision double
    if [[ $name != number-out-of-range.json ]]; then  # 1e999 is a number at 50 digits
        expect_refusal "$file" "$message" "$blockcheck" forward "$file"
        expect_refusal "$file" "$message" "$blockcheck" compare "$file" "$tmp/output.json"
    fi
done < "$dir/expected.tsv"
# Beyond MPFR's exponent range even 50 digits refuse it, naming the element.
sed 's/"1e999"/"1e999999999999999"/' "$dir/number-out-of-range.json" > "$tmp/huge.json"
expect_refusal "$tmp/huge.json" "input[0][0]: '1e999999999999999' is out of range" "$blockcheck" forward "$tmp/huge.json"
# As a bare JSON number the parser itself refuses it, naming the token.
sed 's/"1e999"/1e999/' "$dir/number-out-of-range.json" > "$tmp/bare.json"
expect_refusal "$tmp/bare.json" "number overflow parsing '1e999'" "$blockcheck" forward "$tmp/bare.json" --precision double
echo "crafted cases: $checked refusals checked, 0 failed"
