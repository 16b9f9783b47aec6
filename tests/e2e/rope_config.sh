#!/usr/bin/env bash
# End to end: `rope` on Hugging Face configurations (Llama 3.1 8B's llama3 scaling, a YaRN one),
# its JSON, a dumped attention factor graded with the mistake named, and bad input refused.
set -euo pipefail
blockcheck="$1"; root="$2"
fixtures="$root/tests/fixtures/rope"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
source "$root/tests/e2e/lib/common.sh"
export LANG=C

# npy_f32 FILE SHAPE BYTES: a little-endian float32 .npy as numpy writes it (BYTES as printf escapes).
npy_f32() {
    local header="{'descr': '<f4', 'fortran_order': False, 'shape': $2, }"
    while (( (10 + ${#header} + 1) % 64 != 0 )); do header+=" "; done
    header+=$'\n'
    printf '\x93NUMPY\x01\x00' > "$1"
    printf "\\x$(printf %02x $(( ${#header} & 255 )))\\x$(printf %02x $(( ${#header} >> 8 )))" >> "$1"
    printf '%s' "$header" >> "$1"
    printf "$3" >> "$1"
}

# Llama 3.1 8B: the default positions are 0, the original context's edges and the longest context.
"$blockcheck" rope "$fixtures/llama-3.1-8b-config.json" --json > "$tmp/llama.json"
[[ $(json '.positions | map(tostring) | join(",")' "$tmp/llama.json") == "0,8191,8192,131071" ]] ||
    fail "default positions: $(json '.positions' "$tmp/llama.json")"
[[ $(json '.rope_scaling.rope_type' "$tmp/llama.json") == llama3 ]] || fail "the scaling should read as llama3"
[[ $(json '.inv_freq | length' "$tmp/llama.json") == 64 ]] || fail "head_dim 4096 / 32 = 128: 64 pairs"
# pair 1 turns fast (kept): 500000^(-2/128); the last pair turns slowly (500000^(-126/128) / 8).
[[ $(json '.inv_freq[1].exact' "$tmp/llama.json") == 0.8146172338565447041028381524603547328693433297495* ]] ||
    fail "inv_freq[1]: $(json '.inv_freq[1].exact' "$tmp/llama.json")"
[[ $(json '.inv_freq[63].exact' "$tmp/llama.json") == 3.068925988914511*e-07 ]] ||
    fail "inv_freq[63]: $(json '.inv_freq[63].exact' "$tmp/llama.json")"
[[ $(json '.attention_factor.exact' "$tmp/llama.json") == 1 ]] || fail "llama3 has no attention factor"
# pair 0 turns one radian a position: cos(8191) and sin(131071).
[[ $(json '.cos[1].values[0].exact' "$tmp/llama.json") == -0.646390469764257* ]] || fail "cos(8191) at pair 0"
[[ $(json '.sin[3].values[0].exact' "$tmp/llama.json") == -0.575241683754789* ]] || fail "sin(131071) at pair 0"
[[ $(json '.cos[1].values[0].dtype' "$tmp/llama.json") == -0.6463904976844788 ]] || fail "cos(8191) in float32"

"$blockcheck" rope "$fixtures/llama-3.1-8b-config.json" --positions 0,100 --dtype bfloat16 > "$tmp/llama.txt"
grep -q "^inv_freq per pair (radians per position):" "$tmp/llama.txt" || fail "the text should list inv_freq"
grep -q "^cos and sin at position 100:" "$tmp/llama.txt" || fail "the text should give position 100"
[[ $(count "^cos and sin at position" "$tmp/llama.txt") == 2 ]] || fail "two positions asked for"

# A dumped YaRN attention factor: honest in float32, missing, applied twice.
npy_f32 "$tmp/attention_factor.npy" "()" '\x9c\xbe\x91\x3f'
"$blockcheck" rope "$fixtures/yarn-config.json" --compare "$tmp/attention_factor.npy" > "$tmp/ok.txt" ||
    fail "the honest float32 attention factor should be within: $(cat "$tmp/ok.txt")"
grep -q "every tensor is within its tolerance" "$tmp/ok.txt" || fail "within should be said"
grep -q "yarn_attention_factor_on_scores" "$tmp/ok.txt" || fail "the mistake a RoPE dump cannot show should be listed"
npy_f32 "$tmp/one.npy" "(1,)" '\x00\x00\x80\x3f'
status=0; "$blockcheck" rope "$fixtures/yarn-config.json" --compare "$tmp/one.npy" --name attention_factor --json \
    > "$tmp/missing.json" || status=$?
[[ $status == 1 ]] || fail "a missing attention factor should exit 1, got $status"
# A factor of 1 alone fits two mistakes: the scaling never applied, or only its factor left out.
[[ $(json '.mistakes | map(.id) | join(",")' "$tmp/missing.json") == rope_scaling_not_applied,yarn_attention_factor_missing ]] ||
    fail "named: $(json '.mistakes' "$tmp/missing.json")"
npy_f32 "$tmp/attention_factor.npy" "()" '\xf5\xf2\xa5\x3f'
status=0; "$blockcheck" rope "$fixtures/yarn-config.json" --compare "$tmp/attention_factor.npy" > "$tmp/twice.txt" || status=$?
[[ $status == 1 ]] || fail "a squared attention factor should exit 1, got $status"
grep -q "your tensors are what the reference gives with the attention factor applied again to q and k" "$tmp/twice.txt" ||
    fail "the twice mistake should be named: $(cat "$tmp/twice.txt")"

# Bad input: exit 2, naming the file and the field.
echo '{"max_position_embeddings": 4096}' > "$tmp/config.json"
status=0; "$blockcheck" rope "$tmp/config.json" 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] || fail "a config without a head width should exit 2, got $status"
grep -q "config.json: config: needs head_dim, or hidden_size and num_attention_heads" "$tmp/err.txt" ||
    fail "message: $(cat "$tmp/err.txt")"
status=0; "$blockcheck" rope "$fixtures/yarn-config.json" --compare "$tmp/one.npy" 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] || fail "a .npy of unknown name should exit 2, got $status"
grep -q "one.npy: a .npy holds one tensor: name it inv_freq, cos, sin or attention_factor with --name" "$tmp/err.txt" ||
    fail "message: $(cat "$tmp/err.txt")"
status=0; "$blockcheck" rope "$fixtures/yarn-config.json" --positions 5,3 2> "$tmp/err.txt" || status=$?
[[ $status == 2 ]] || fail "decreasing positions should exit 2, got $status"
grep -q -- "--positions: 3 does not follow 5; positions must increase" "$tmp/err.txt" || fail "message: $(cat "$tmp/err.txt")"
echo "rope_config: 1 passed, 0 failed"
