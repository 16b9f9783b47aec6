// Tests of the program jail: the jails they compare, and a visible skip ("skipped: bubblewrap
// cannot start here: REASON") where bubblewrap or jail sessions do not work, never a silent pass.
// ctest's unit_jail entry reports a run that printed it as skipped (CMakeLists.txt).
#pragma once

#include "checker/run/sandbox.hpp"

#include <doctest/doctest.h>
#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <string>

namespace blockcheck::testing {

// True when `jail` runs programs in bubblewrap; otherwise says in the test's output that the test is skipped.
inline bool bwrap_usable(const ProgramJail& jail) {
    if (jail.isolation() == Isolation::bubblewrap_uid || jail.isolation() == Isolation::bubblewrap) return true;
    MESSAGE("skipped: bubblewrap cannot start here: " << jail.weaker_because());
    return false;
}

// True when `jail` runs programs in jail sessions (root and bubblewrap); otherwise a visible skip.
inline bool sessions_usable(const ProgramJail& jail) {
    if (jail.sessions()) return true;
    const std::string why = jail.weaker_because();
    MESSAGE("skipped: bubblewrap cannot start here: "
            << (why.empty() ? "jail sessions need the tests to run as root, or BLOCKCHECK_GRADE_SESSION=0" : why));
    return false;
}

// The grader's own session keyring, as Docker, Kubernetes or a pam_keyinit login gives it, with
// a secret in it; left (for a fresh anonymous one) at the end. Where this process may not use
// keyrings (a container whose seccomp profile denies them, as Docker's does), nothing below it
// may either: `usable` is false and the test says it is skipped.
struct GraderKeyring {
    long key = -1;
    bool usable = false;
    GraderKeyring() {
        if (::syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, "blockcheck-test-grader") < 0) {
            MESSAGE("skipped: keyrings are not available to this process");
            return;
        }
        const char payload[] = "ticket-secret-9d2e";
        key = ::syscall(SYS_add_key, "user", "krb5-ticket-of-the-TA", payload, sizeof payload - 1,
                        KEY_SPEC_SESSION_KEYRING);
        REQUIRE(key >= 0);
        usable = true;
    }
    ~GraderKeyring() {
        if (!usable) return;
        ::syscall(SYS_keyctl, KEYCTL_INVALIDATE, key);
        ::syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, nullptr);
    }
};

// A jail with sessions and one without.
struct BothJails {
    ProgramJail session{true}, one_off{false};
};

}  // namespace blockcheck::testing
