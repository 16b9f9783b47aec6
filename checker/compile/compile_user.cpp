// Who compiles a student's source: as root, a throw-away uid (the one programs get, sandbox.hpp),
// inside bubblewrap where it works; root only inside bubblewrap; never root without it
// (issue 21: `asm(".incbin \"/root/secret\"")` would put a root-only file in the binary).
#include "checker/compile/compile_parts.hpp"

#include "checker/common/fd.hpp"
#include "checker/run/sandbox.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace blockcheck::compile_parts {

namespace fs = std::filesystem;

namespace {

bool env_is(const char* name, std::initializer_list<std::string_view> values) {
    const char* value = std::getenv(name);
    if (!value) return false;
    for (std::string_view v : values)
        if (v == value) return true;
    return false;
}

// Bubblewrap around the compiler: where it works, unless switched off for compiles or the
// grading isolation is forced to one without it.
bool compile_in_bwrap() {
    if (env_is("BLOCKCHECK_COMPILE_SANDBOX", {"0"})) return false;
    if (env_is("BLOCKCHECK_GRADE_ISOLATION", {"uid_only", "limits_only"})) return false;
    return Sandbox::available();
}

// Empty when this root process can run a process as a throw-away uid (a container that maps
// few uids cannot); else why not. Probed once.
const std::string& throwaway_uid_problem() {
    static std::once_flag once;
    static std::string problem;
    std::call_once(once, [] {
        Limits limits;
        limits.wall_seconds = 10;
        StartOptions start;
        start.clean_environment = true;
        start.uid = throwaway_uid();
        const RunResult r = run_process({"/usr/bin/true"}, {}, limits, {}, nullptr, start);
        kill_throwaway_uid(start.uid);
        if (!succeeded(r)) problem = r.error.empty() ? "a process as a throw-away uid " + std::string(to_string(r.status)) : r.error;
    });
    return problem;
}

bool others_may(const fs::path& path, mode_t bits) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && (st.st_mode & bits) == bits;
}

// Empty when every folder above `path` is searchable by other users; else the first that is not.
std::string parent_closed(const fs::path& path) {
    for (fs::path at = path.parent_path(); !at.empty(); at = at.parent_path()) {
        if (!others_may(at, S_IXOTH)) return "'" + at.string() + "' is not searchable by other users";
        if (at == at.root_path()) break;
    }
    return {};
}

// Empty when a user with no group of the owner's reaches `dir` and reads it and its files;
// else the first path in the way.
std::string closed_to_others(const fs::path& dir) {
    if (std::string closed = parent_closed(dir); !closed.empty()) return closed;
    if (!others_may(dir, S_IROTH | S_IXOTH)) return "'" + dir.string() + "' is not readable by other users";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file(ec) && !others_may(entry.path(), S_IROTH))
            return "'" + entry.path().string() + "' is not readable by other users";
    return {};
}


bool within(const fs::path& path, const fs::path& dir) {
    const std::string p = path.lexically_normal().string(), d = (dir.lexically_normal() / "").string();
    return p.starts_with(d);
}

// The cache traversable only (0711), and the build folder handed to `uid` (hand_build_folder).
std::string hand_over(const Sandbox& sandbox, const fs::path& cache_dir, unsigned uid) {
    std::error_code ec;
    fs::permissions(cache_dir, fs::perms(0711), ec);
    if (ec) return "cannot make '" + cache_dir.string() + "' traversable: " + ec.message();
    return hand_build_folder(sandbox.writable_dir, uid);
}

// Why a throw-away uid cannot compile here; empty when it can.
std::string uid_problem(const Sandbox& sandbox, const fs::path& cache_dir) {
    if (const std::string& problem = throwaway_uid_problem(); !problem.empty()) return problem;
    if (std::string closed = parent_closed(cache_dir); !closed.empty()) return closed;
    for (const fs::path& dir : sandbox.readonly_dirs) {
        const fs::path normal = fs::absolute(dir).lexically_normal();
        if (within(normal, cache_dir)) open_to_others(normal);  // a no-op once published (compile_headers.cpp)
        if (std::string closed = closed_to_others(normal); !closed.empty()) return closed;
    }
    return {};
}

}  // namespace

}  // namespace blockcheck::compile_parts

namespace blockcheck {

std::string compile_folders_closed(const std::filesystem::path& include_dir, const std::filesystem::path& cache_dir) {
    namespace fs = std::filesystem;
    if (::geteuid() != 0 || compile_parts::compile_in_bwrap()) return {};
    const fs::path cache = fs::absolute(cache_dir).lexically_normal();
    if (std::string closed = compile_parts::parent_closed(cache); !closed.empty()) return closed;
    if (include_dir.empty()) return {};
    return compile_parts::closed_to_others(fs::absolute(include_dir).lexically_normal());
}

}  // namespace blockcheck

namespace blockcheck::compile_parts {

CompilerJail compiler_jail(const Sandbox& sandbox, const fs::path& cache_dir) {
    const Sandbox* bwrap = compile_in_bwrap() ? &sandbox : nullptr;
    if (::geteuid() != 0) return {bwrap, 0, {}};
    std::string why = uid_problem(sandbox, cache_dir);
    if (why.empty()) {
        const unsigned uid = throwaway_uid();
        why = hand_over(sandbox, cache_dir, uid);
        if (why.empty()) return {bwrap, uid, {}};
    }
    if (bwrap) return {bwrap, 0, {}};  // root, but inside bubblewrap with every capability dropped
    return {nullptr, 0,
            "refusing to compile a student's program as root without bubblewrap: no throw-away uid can compile here (" +
                why + "); install bubblewrap, or grade as a user other than root"};
}

std::string hand_build_folder(const fs::path& dir, unsigned uid) {
    std::error_code ec;
    if (::lchown(dir.c_str(), uid, uid) != 0 || ::chmod(dir.c_str(), 0700) != 0)
        return "cannot hand '" + dir.string() + "' to uid " + std::to_string(uid) + ": " + std::strerror(errno);
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (::lchown(entry.path().c_str(), uid, uid) != 0)
            return "cannot hand '" + entry.path().string() + "' to uid " + std::to_string(uid) + ": " + std::strerror(errno);
    return {};
}

CompilerJail resident_jail(const Sandbox& sandbox, const fs::path& cache_dir) {
    const Sandbox* bwrap = compile_in_bwrap() ? &sandbox : nullptr;
    if (::geteuid() != 0) return {bwrap, 0, {}};
    std::error_code ec;
    fs::permissions(cache_dir, fs::perms(0711), ec);
    fs::permissions(sandbox.writable_dir, fs::perms(0711), ec);
    if (std::string why = uid_problem(sandbox, cache_dir); why.empty() && !ec) return {bwrap, throwaway_uid(), {}};
    if (bwrap) return {bwrap, 0, {}};  // root, but inside bubblewrap with every capability dropped, as compiler_jail
    return {nullptr, 0, "no throw-away uid and no bubblewrap for the resident compiler here"};
}

RunResult run_compiler(const std::vector<std::string>& argv, const fs::path& dir, const Limits& limits, const CompilerJail& jail) {
    if (!jail.refused.empty()) {
        RunResult refused;
        refused.error = jail.refused;
        return refused;
    }
    StartOptions start;
    start.uid = jail.uid;
    start.clean_environment = jail.uid != 0;  // none of the grader's variables (its TMPDIR may be closed to the uid)
    RunResult run = run_process(argv, {}, limits, dir, jail.sandbox, start);
    if (jail.uid != 0) kill_throwaway_uid(jail.uid);
    return run;
}

bool reclaim_output(const fs::path& file, const CompilerJail& jail) {
    if (jail.uid == 0) return true;
    const Fd fd(::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    struct stat st {};
    return fd && ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 &&
           ::fchown(fd.get(), ::geteuid(), ::getegid()) == 0 && ::fchmod(fd.get(), 0755) == 0;
}

}  // namespace blockcheck::compile_parts
