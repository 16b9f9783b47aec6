#!/usr/bin/env bash
# setup.sh's build step from scratch, as Gradescope runs it when it builds the autograder image:
# the zip unpacked, `setup.sh build` (the apt step needs root and a network), then run_autograder
# grades an honest submission in full. A whole optimised build: a long run, not in the suite
# (tests/e2e/gradescope_package.sh checks everything else with the binary already built).
set -euo pipefail
blockcheck="$1"; root="$2"
ws="$(mktemp -d)"; trap 'rm -rf "$ws"' EXIT
source "$root/tests/e2e/lib/common.sh"
ag="$ws/autograder"
export LANG=C BLOCKCHECK_ROOT="$root"
"$blockcheck" gradescope-package "$ws/autograder.zip" --chapter ch25 > "$ws/package.log"
mkdir -p "$ag/source" "$ag/results" "$ag/submission"
(cd "$ag/source" && cmake -E tar xf "$ws/autograder.zip")
cp "$ag/source/run_autograder" "$ag/run_autograder"
start=$(date +%s)
bash "$ag/source/setup.sh" build > "$ws/build.log" 2>&1 || { tail -20 "$ws/build.log"; fail "setup.sh build failed"; }
echo "setup.sh build: $(( $(date +%s) - start )) s"
[[ -x "$ag/source/build/blockcheck" ]] || fail "setup.sh build made no build/blockcheck"
echo '{"users": [{"email": "ada@example.edu", "id": 1, "name": "Ada"}]}' > "$ag/submission_metadata.json"
cp "$root"/tests/solved/ch25/*.cpp "$ag/submission/"
(cd "$ag" && ./run_autograder) > "$ws/run.log" 2>&1 || { cat "$ws/run.log"; fail "run_autograder failed"; }
score=$(jq '.score' "$ag/results/results.json")
[[ "$score" == 49 ]] || fail "the honest submission should score 49 with the freshly built binary, got $score"
echo "gradescope_setup_build: ok"
