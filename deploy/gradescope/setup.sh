#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image; the zip made by
# `blockcheck gradescope-package` is unpacked in /autograder/source beside it.
#   bash setup.sh          install the packages with apt, then build blockcheck
#   bash setup.sh build    only the build (the packages are installed already)
# The base image must be Ubuntu 24.04 or newer (Gradescope's autograder settings): the build
# needs CMake 3.25 and nlohmann-json 3.11, which Ubuntu 22.04 does not have.
set -euo pipefail
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

install_packages() {
    local ID="" VERSION_ID=""
    [[ -r /etc/os-release ]] && . /etc/os-release
    if [[ "$ID" == ubuntu && "${VERSION_ID%%.*}" -lt 24 ]]; then
        echo "setup.sh: Ubuntu $VERSION_ID is too old for blockcheck (CMake 3.25, nlohmann-json 3.11 needed);" \
             "choose the Ubuntu 24.04 base image in the autograder settings" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    # The same package list `./blockcheck` installs on Debian 12; Ubuntu uses the same names.
    apt-get install -y --no-install-recommends $(bash "$source_dir/blockcheck" --packages)
}

build_blockcheck() {
    cmake -S "$source_dir" -B "$source_dir/build" -G Ninja -DBUILD_TESTING=OFF
    cmake --build "$source_dir/build" --target blockcheck
}

case "${1:-all}" in
    all) install_packages; build_blockcheck ;;
    build) build_blockcheck ;;
    *) echo "setup.sh: unknown step '$1' (all or build)" >&2; exit 2 ;;
esac
