#!/usr/bin/env bash
# The student edition built by its own ./blockcheck from nothing (a whole optimised build of the
# student side: minutes on two cores), with the differential test over every variant it carries.
# The suite runs the same script (tests/e2e/release_edition.sh) with the project's own build of
# the same sources, blockcheck-student, and two of the variants.
set -euo pipefail
RELEASE_EDITION_OWN_BUILD=1 exec bash "$2/tests/e2e/release_edition.sh" "$@"
