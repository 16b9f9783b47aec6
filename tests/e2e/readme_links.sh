#!/usr/bin/env bash
# End to end: the front door stays true. README.md is under 250 lines, and every relative link in
# README.md and docs/*.md names a file or folder that exists and, when it carries #anchor, a
# heading of that Markdown file, anchored as GitHub anchors it (lower case, punctuation dropped,
# each space a hyphen, -1, -2, ... for a repeated heading). Links in code blocks and inline code
# are text, not links. docs/layout.md, the map, links every tracked folder of the first two
# levels (a folder moved or added without its row is a fault). The checker first runs on a small
# tree with known faults, so that a checker that finds nothing fails too.
set -euo pipefail
root="$(realpath "$2")"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
source "$root/tests/e2e/lib/common.sh"
export LC_ALL=C.UTF-8  # [[:alnum:]] and \L over Chinese headings as GitHub sees them
readonly max_readme_lines=250

# The lines of a Markdown file outside fenced code blocks (``` or ~~~), inline code removed,
# each prefixed with its line number and a tab.
prose() {
    awk '/^ *(```|~~~)/ { fenced = !fenced; next }
         !fenced { gsub(/`[^`]*`/, ""); print NR "\t" $0 }' "$1"
}

# GitHub's anchor of one heading's text.
slug() {
    sed -E -e 's/\[([^]]*)\]\([^)]*\)/\1/g' -e 's/.*/\L&/' -e 's/[^[:alnum:] _-]//g' -e 's/ /-/g' <<< "$1"
}

# Every anchor of a Markdown file, one a line: its headings' slugs, a repeat numbered -1, -2, ...
# (headings read before inline code is removed: `code` in a heading is part of its anchor).
anchors() {
    local text anchor
    declare -A seen=()
    while IFS= read -r text; do
        anchor="$(slug "$text")"
        if [[ -n "${seen[$anchor]+set}" ]]; then
            seen[$anchor]=$((seen[$anchor] + 1))
            echo "$anchor-${seen[$anchor]}"
        else
            seen[$anchor]=0
            echo "$anchor"
        fi
    done < <(awk '/^ *(```|~~~)/ { fenced = !fenced; next }
                  !fenced && /^ *(#|##|###|####|#####|######)( |$)/ {
                      sub(/^ *#+ */, ""); sub(/ +#+ *$/, ""); sub(/ +$/, ""); print }' "$1")
}

# "LINE<TAB>TARGET" for every link of a Markdown file: [text](target "title"), ![alt](target),
# and reference definitions [name]: target.
links() {
    prose "$1" | awk -F'\t' '{
        line = $2
        while (match(line, /\]\([^) ]+/)) {
            print $1 "\t" substr(line, RSTART + 2, RLENGTH - 2)
            line = substr(line, RSTART + RLENGTH)
        }
        if (match($2, /^ *\[[^]]+\]: +[^ ]+/)) {
            definition = substr($2, RSTART, RLENGTH); sub(/^.*\]: +/, "", definition)
            print $1 "\t" definition
        }
    }'
}

# A file listing the anchors of a Markdown file (computed once per file); prints its path.
anchors_file() {
    local memo="$ws/anchors/${1//\//%}"
    [[ -f "$memo" ]] || { mkdir -p "$ws/anchors"; anchors "$1" > "$memo"; }
    echo "$memo"
}

# Prints one line per broken link of FILE ("file:line: why"), relative to the tree TOP.
check_file() {
    local top="$1" file="$2" number target path anchor resolved
    while IFS=$'\t' read -r number target; do
        target="${target#<}"; target="${target%>}"
        [[ "$target" =~ ^[A-Za-z][A-Za-z0-9+.-]*: || "$target" == //* ]] && continue  # https:, mailto:
        path="${target%%#*}"; anchor=""
        [[ "$target" == *#* ]] && anchor="${target#*#}"
        if [[ -z "$path" ]]; then
            resolved="$file"
        elif [[ "$path" == /* ]]; then
            resolved="$top$path"
        else
            resolved="$(dirname "$file")/$path"
        fi
        if [[ ! -e "$resolved" ]]; then
            echo "${file#"$top"/}:$number: $target: no such file"
        elif [[ -n "$anchor" && "$resolved" == *.md ]] && ! grep -qxF -- "$anchor" "$(anchors_file "$resolved")"; then
            echo "${file#"$top"/}:$number: $target: no heading with that anchor in ${resolved#"$top"/}"
        fi
    done < <(links "$file")
}

# The tracked folders of the first two levels under TOP (a git checkout), one a line.
tracked_folders() {
    git -C "$1" ls-files | awk -F/ '{ if (NF > 1) print $1; if (NF > 2) print $1 "/" $2 }' | sort -u
}

# A line for each tracked folder of the first two levels that docs/layout.md does not link.
unmapped_folders() {
    local top="$1" map="$1/docs/layout.md"
    [[ -f "$map" ]] || { echo "docs/layout.md: missing (the map of the folders)"; return 0; }
    if ! git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
        echo "note: $top is not a git checkout, so the map's completeness is not checked" >&2
        return 0
    fi
    links "$map" | cut -f2 | sed -E 's|#.*||; s|^\.\./||; s|/$||' | sort -u > "$ws/mapped.txt"
    tracked_folders "$top" | grep -vxF -f "$ws/mapped.txt" |
        sed 's|.*|docs/layout.md: the folder &/ has no row (link it in the map)|' || true
}

# Every fault of the front door under TOP, one a line; nothing when it holds.
check_tree() {
    local top="$1" lines file
    lines=$(wc -l < "$top/README.md")
    ((lines < max_readme_lines)) ||
        echo "README.md: $lines lines; the front door keeps under $max_readme_lines (move the rest to docs/)"
    for file in "$top/README.md" "$top"/docs/*.md; do
        [[ -f "$file" ]] && check_file "$top" "$file"
    done
    unmapped_folders "$top"
    return 0
}

# The checker on a tree with known faults: it must name each of them, and nothing else.
mkdir -p "$ws/tree/docs"
{
    echo '# Front'
    echo 'See [the guide](docs/guide.md), [its usage](docs/guide.md#usage-blockcheck-grade),'
    echo '[the second usage](docs/guide.md#usage-blockcheck-grade-1) and [入门](docs/guide.md#入门-basicsx).'
    echo 'Broken: [gone](docs/missing.md), [no such part](docs/guide.md#nowhere), [here](#not-a-heading).'
    echo 'Fine: [a folder](docs/), [the web](https://example.org/x.md), `[code](nope.md)`, [top](#front).'
    echo '```'
    echo '[in a code block](nope.md)'
    echo '```'
    echo '[ref]: docs/absent.md'
    for ((i = 0; i < max_readme_lines; i++)); do echo "line $i"; done
} > "$ws/tree/README.md"
printf '%s\n' '# Guide' '## Usage: `blockcheck grade`' '## Usage: `blockcheck grade`' '## 入门 basics×x' \
    'Back to [the front](../README.md#front).' > "$ws/tree/docs/guide.md"
mkdir -p "$ws/tree/src/core" "$ws/tree/src/extra/deep" "$ws/tree/untracked"
touch "$ws/tree/src/core/a.cpp" "$ws/tree/src/extra/deep/b.cpp" "$ws/tree/untracked/c.cpp"
echo '| [`src/`](../src/) | [core](../src/core/) | [docs](../docs/) |' > "$ws/tree/docs/layout.md"
git -C "$ws/tree" init -q && git -C "$ws/tree" add README.md docs src
check_tree "$ws/tree" > "$ws/found.txt"
cat > "$ws/expected.txt" << EOF
README.md: $((max_readme_lines + 9)) lines; the front door keeps under $max_readme_lines (move the rest to docs/)
README.md:4: docs/missing.md: no such file
README.md:4: docs/guide.md#nowhere: no heading with that anchor in docs/guide.md
README.md:4: #not-a-heading: no heading with that anchor in README.md
README.md:9: docs/absent.md: no such file
docs/layout.md: the folder src/extra/ has no row (link it in the map)
EOF
diff -u "$ws/expected.txt" "$ws/found.txt" || fail "the link checker missed or invented a fault (diff above)"

# The real front door.
check_tree "$root" > "$ws/faults.txt"
if [[ -s "$ws/faults.txt" ]]; then
    cat "$ws/faults.txt" >&2
    fail "README.md or docs/ has $(wc -l < "$ws/faults.txt") fault(s), listed above"
fi
echo "README.md: $(wc -l < "$root/README.md") lines; every relative link of README.md and docs/*.md resolves; docs/layout.md maps every folder"
