# Helpers every end-to-end script sources: failing loudly, counting lines, editing a file with
# sed where no match is a failure, and reading JSON with jq (never by its layout).
fail() { echo "FAIL: $*" >&2; exit 1; }
count() { grep -c -- "$1" "$2" || true; }

# sed -i EXPRESSION FILE, failing when the expression changed nothing (the file moved on).
edit() {
    local expression="$1" file="$2" before
    before="$(cksum < "$file")"
    sed -i "$expression" "$file"
    [[ $(cksum < "$file") != "$before" ]] || fail "sed '$expression' matched nothing in $file"
}

# jq FILTER FILE, with jq required: `json '.score' out.json`.
json() {
    command -v jq > /dev/null || fail "jq is needed by the end-to-end tests (apt-get install jq)"
    jq -r "$1" "$2"
}

# chapter25_workspace WS: WS as a blockcheck root holding chapter 25 only (its ten exercises, 49
# points, and chapters/), made the root of every command that follows (BLOCKCHECK_ROOT, LANG=C).
chapter25_workspace() {
    mkdir -p "$1/data/exercises" && cp -r "$root/data/exercises/ch25" "$1/data/exercises/" && cp -r "$root/chapters" "$1/"
    export BLOCKCHECK_ROOT="$1" LANG=C
}
