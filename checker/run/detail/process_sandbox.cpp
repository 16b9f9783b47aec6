// run_process's sandbox: bwrap's command line for a program (a clean environment, the system
// read-only, one writable folder), the checks said precisely before bwrap would only fail, and
// the probe of whether bwrap works here at all.
#include "checker/run/detail/process_parts.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

namespace blockcheck {

namespace {

// Whether `path` is `dir` or lies below it (both absolute and normal).
bool is_within(const std::filesystem::path& path, const std::filesystem::path& dir) {
    auto [dir_end, path_at] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
    return dir_end == dir.end() || (std::next(dir_end) == dir.end() && dir_end->empty());
}

std::filesystem::path absolute_normal(const std::filesystem::path& path) {
    return std::filesystem::absolute(path).lexically_normal();
}

// How the host's top-level system folders appear inside the sandbox: symlinks stay symlinks
// (Debian's merged /usr), real folders are bound read-only.
void add_system_dirs(std::vector<std::string>& args) {
    for (const char* dir : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
        std::error_code ec;
        auto status = std::filesystem::symlink_status(dir, ec);
        if (ec) continue;
        if (std::filesystem::is_symlink(status)) {
            args.insert(args.end(), {"--symlink", std::filesystem::read_symlink(dir, ec).string(), dir});
        } else if (std::filesystem::is_directory(status)) {
            args.insert(args.end(), {"--ro-bind", dir, dir});
        }
    }
    // Only what the dynamic loader and a few tools need from /etc (not passwords or keys).
    for (const char* file : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
                             "/etc/localtime"})
        args.insert(args.end(), {"--ro-bind-try", file, file});
}

std::size_t depth(const std::filesystem::path& path) {
    return static_cast<std::size_t>(std::distance(path.begin(), path.end()));
}

}  // namespace

std::string process_parts::check_sandbox(const Sandbox& sandbox, const std::string& program) {
    std::error_code ec;
    if (!std::filesystem::is_directory(sandbox.writable_dir, ec))
        return "sandbox writable folder '" + sandbox.writable_dir.string() + "' is not a directory";
    for (const auto& dir : sandbox.readonly_dirs)
        if (!std::filesystem::exists(dir, ec)) return "sandbox read-only folder '" + dir.string() + "' does not exist";
    if (program.find('/') == std::string::npos) return {};  // found in the sandbox's PATH
    const auto path = absolute_normal(program);
    if (::access(path.c_str(), X_OK) < 0) return "cannot execute '" + program + "': " + std::strerror(errno);
    bool visible = is_within(path, absolute_normal(sandbox.writable_dir)) || is_within(path, "/usr");
    for (const auto& dir : sandbox.readonly_dirs) visible = visible || is_within(path, absolute_normal(dir));
    if (!visible) return "program '" + program + "' is outside the sandbox's folders";
    return {};
}

std::vector<std::string> sandboxed_argv(const std::vector<std::string>& argv, const Sandbox& sandbox) {
    std::vector<std::string> args{"bwrap",     "--unshare-all", "--die-with-parent", "--new-session",
                                  "--cap-drop", "ALL",          "--ro-bind",         "/usr",
                                  "/usr"};
    add_system_dirs(args);
    args.insert(args.end(), {"--proc", "/proc", "--dev", "/dev", "--size", std::to_string(64u << 20), "--tmpfs", "/tmp"});
    // Parents are mounted before the folders inside them, so nesting works either way round.
    const auto writable = absolute_normal(sandbox.writable_dir);
    std::vector<std::pair<std::filesystem::path, bool>> binds{{writable, true}};
    for (const auto& dir : sandbox.readonly_dirs) binds.emplace_back(absolute_normal(dir), false);
    std::stable_sort(binds.begin(), binds.end(), [](const auto& a, const auto& b) { return depth(a.first) < depth(b.first); });
    for (const auto& [dir, rw] : binds) args.insert(args.end(), {rw ? "--bind" : "--ro-bind", dir.string(), dir.string()});
    // A clean environment: the grader's variables (tokens, paths) are none of the program's business.
    args.insert(args.end(), {"--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", writable.string(),
                             "--setenv", "TMPDIR", "/tmp", "--chdir", writable.string(), "--"});
    args.insert(args.end(), argv.begin(), argv.end());
    return args;
}

bool Sandbox::available() {
    static const bool works = [] {
        try {
            Sandbox probe{std::filesystem::temp_directory_path(), {}};
            Limits limits;
            limits.wall_seconds = 10;
            RunResult result = run_process({"true"}, {}, limits, {}, &probe);
            return result.status == RunStatus::exited && result.exit_code == 0;
        } catch (...) {
            return false;
        }
    }();
    return works;
}

}  // namespace blockcheck
