// Tests that need bubblewrap: on a machine without it they are skipped visibly, never passed
// silently.
#pragma once

#include "checker/run/process.hpp"

#include <doctest/doctest.h>

namespace blockcheck::testing {

// True when bubblewrap can run here; otherwise says in the test's output that it is skipped.
inline bool sandbox_usable() {
    if (Sandbox::available()) return true;
    MESSAGE("skipped: bubblewrap cannot start here: a probe of `bwrap ... true` failed");
    return false;
}

}  // namespace blockcheck::testing
