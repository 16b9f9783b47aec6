// The program's seccomp filter: a flat list of "if the call is N, return A" pairs, then clone's
// flags, then allow. Each check is two instructions, so no jump spans more than one.
#include "checker/run/seccomp_filter.hpp"

#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace blockcheck {

namespace {

constexpr std::uint32_t ret_kill = SECCOMP_RET_KILL_PROCESS;
constexpr std::uint32_t ret_allow = SECCOMP_RET_ALLOW;
constexpr std::uint32_t ret_eperm = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
constexpr std::uint32_t ret_enosys = SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA);

// clone's namespace flags (CLONE_NEWTIME is clone3's and unshare's only: in clone it is part of
// the exit signal's bits).
constexpr std::uint32_t clone_new_flags =
    CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET;

// "If the call is `nr`, return `action`."
void on_call(std::vector<sock_filter>& f, std::uint32_t nr, std::uint32_t action) {
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, action));
}

std::vector<sock_filter> build_filter() {
#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
    constexpr std::uint32_t native = AUDIT_ARCH_X86_64;
#else
    constexpr std::uint32_t native = AUDIT_ARCH_AARCH64;
#endif
    std::vector<sock_filter> f{
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, native, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, ret_kill),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
    };
#if defined(__x86_64__)
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));  // __X32_SYSCALL_BIT: the x32 ABI
    f.push_back(BPF_STMT(BPF_RET | BPF_K, ret_kill));
#endif
    for (std::uint32_t nr : {SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev}) on_call(f, nr, ret_kill);
    for (std::uint32_t nr : {SYS_unshare, SYS_setns}) on_call(f, nr, ret_eperm);
    for (std::uint32_t nr : {SYS_add_key, SYS_request_key, SYS_keyctl}) on_call(f, nr, ret_enosys);
#ifdef SYS_clone3
    on_call(f, SYS_clone3, ret_enosys);
#else
    on_call(f, 435, ret_enosys);  // clone3's number on both architectures
#endif
    // clone: its flags are the first argument (the low 32 bits hold every CLONE_NEW* flag).
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3));
    f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, clone_new_flags, 0, 1));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, ret_eperm));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, ret_allow));
    return f;
#else
    return {};
#endif
}

}  // namespace

const std::vector<sock_filter>& program_seccomp_filter() {
    static const std::vector<sock_filter> filter = build_filter();
    return filter;
}

bool install_seccomp_filter(const std::vector<sock_filter>& filter) {
    if (filter.empty()) return true;
    sock_fprog program{static_cast<unsigned short>(filter.size()), const_cast<sock_filter*>(filter.data())};
    return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) == 0;
}

}  // namespace blockcheck
