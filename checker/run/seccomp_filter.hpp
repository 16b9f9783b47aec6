// The seccomp filter every student program runs under, whatever its isolation: given to bwrap
// (--seccomp) in a jail of its own, installed by the jail session's init just before a program
// starts, and by run_process before exec when StartOptions::program_filter is set. What it does:
// - kills the program (SIGSYS): ptrace, process_vm_readv/writev (reading or steering another
//   process), and any call through a foreign ABI (32-bit or x32 calls from a 64-bit program,
//   whose numbers differ from the ones checked here);
// - denies every namespace: unshare, setns, and clone with any CLONE_NEW* flag fail with EPERM;
//   clone3 fails with ENOSYS (its flags are in memory a filter cannot read; glibc then falls
//   back to clone for threads and fork). A user namespace would give the program every
//   capability over what it then creates: new kernel attack surface, none of it needed;
// - denies keyrings: add_key, request_key and keyctl fail with ENOSYS, as on a kernel without
//   keys, so no key is left for, or read from, another program or the grader;
// - allows everything else.
#pragma once

#include <linux/filter.h>

#include <vector>

namespace blockcheck {

// The filter (cBPF); empty on an architecture without one here (only x86-64 and AArch64 have
// it). Built on first use: call it before fork.
const std::vector<sock_filter>& program_seccomp_filter();

// Sets no_new_privs and installs `filter` in the calling process (after fork: system calls
// only). True when installed, or when `filter` is empty.
bool install_seccomp_filter(const std::vector<sock_filter>& filter);

}  // namespace blockcheck
