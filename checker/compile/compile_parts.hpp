// What the files of compile_program share (not for other callers): cache plumbing, the inputs
// that decide an entry, and the students' header built once (compile_headers.cpp).
#pragma once

#include "checker/compile/compile.hpp"
#include "checker/compile/compile_preamble.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace blockcheck::compile_parts {

// A name no other thread or process uses at the same time.
std::string unique_suffix();

// Writes a cache file atomically; a cache that cannot be written only costs a recompile.
void write_cache_file(const std::filesystem::path& target, std::string_view content);

// An empty folder at `path`, whatever was there before (a planted folder must not add files to a build).
void fresh_folder(const std::filesystem::path& path);

// The regular files directly in include_dir, by name.
std::vector<std::filesystem::path> header_files(const std::filesystem::path& include_dir);

// One of our own folders inside the cache (a precompiled preamble, the header's archive) and its
// files readable by other users (0755, 0644), for the throw-away uid that compiles against them;
// a mode already right is left alone (a chmod would change the file's ctime, which seals bind).
void open_to_others(const std::filesystem::path& dir);

// The compiler or a tool ran to the end and said yes (a run stopped by a limit has exit code 0 too).
bool succeeded(const RunResult& run);

// Everything that decides a cache entry, in full, as one text: a kind, then each part as its
// decimal length, ':' and its bytes. The entry's seal keeps this text, and its key is the
// SHA-256 of it, so a hit compares the very bytes, never only a hash of them.
class EntryInputs {
public:
    explicit EntryInputs(std::string_view kind) { add(kind); }
    EntryInputs& add(std::string_view part);
    // Each header file directly in include_dir: its name and its bytes.
    EntryInputs& add_headers(const std::filesystem::path& include_dir);
    const std::string& text() const { return text_; }
    std::string key() const;  // 64 hex digits

private:
    std::string text_;
};

// Requests for the same key in this process wait for each other instead of compiling twice.
class InFlight {
public:
    class Guard {
    public:
        Guard(InFlight& owner, std::string key) : owner_(owner), key_(std::move(key)) {}
        ~Guard() { owner_.release(key_); }
        Guard(const Guard&) = delete;
        Guard& operator=(const Guard&) = delete;

    private:
        InFlight& owner_;
        std::string key_;
    };

    Guard acquire(const std::string& key);

private:
    void release(const std::string& key);

    std::mutex mutex_;
    std::condition_variable released_;
    std::set<std::string> keys_;
};

InFlight& in_flight();

// What a compile of this way runs: its flags (part of the key), the header's archive to link, the
// linker's flags (never given to a precompile: a -Wl option is a link input, and g++ given one
// links even a header), and the precompiled preamble given with -include (compile_preamble.hpp).
struct Recipe {
    std::string compiler = "g++";  // CompileWay::clang's recipe: "clang++-16"
    std::vector<std::string> flags;
    std::filesystem::path archive;  // empty: the header's definitions are compiled in the program
    std::vector<std::string> link_flags;
    std::filesystem::path preamble;   // cache/pch-<key>/preamble.hpp; empty: the program reads its includes
    std::vector<int> preamble_lines;  // the program's line of each of the preamble's lines
    std::filesystem::path pch;        // clang's precompiled students' header (-include-pch); empty: none
    std::filesystem::path pch_object; // its instantiations and inline code, compiled once
};

// `g++ --version` of `compiler` (its first line), once per process; remembered in cache_dir by the
// compiler binary's identity, so that a cache hit in a fresh process does not start the compiler.
std::string compiler_version(const std::string& compiler, const std::filesystem::path& cache_dir);

// The clang++-16 CMake found at configure time (the build's fast-path section), "" when none.
#ifndef BLOCKCHECK_CLANGXX
#define BLOCKCHECK_CLANGXX ""
#endif
constexpr const char* clang_compiler = BLOCKCHECK_CLANGXX;

// The recipe for `way`. classic: g++ on the program as its author would run it, the reference
// every other way must agree with. fast: builds (or finds, sealed) the header's archive and the
// program's precompiled preamble when its text allows them; `own_headers`: the program has headers
// of its own beside it (then nothing is precompiled for it).
Recipe recipe_for(CompileWay way, std::string_view source, const std::filesystem::path& include_dir,
                  const std::filesystem::path& cache_dir, const std::string& version, const Limits& limits,
                  bool own_headers = false);

// `preamble` precompiled with `flags` against include_dir: cache/pch-<key>/preamble.hpp beside its
// .gch, sealed; empty when it cannot be built.
std::filesystem::path precompiled_preamble(const std::filesystem::path& include_dir, const std::filesystem::path& cache_dir,
                                           const std::string& version, const std::vector<std::string>& flags,
                                           const Preamble& preamble, const Limits& limits);

// Who runs the compiler on a student's source, and inside what (compile_user.cpp). A student's
// source is never compiled as root without bubblewrap around it.
struct CompilerJail {
    const Sandbox* sandbox = nullptr;  // bwrap around the compiler; nullptr: none
    unsigned uid = 0;                  // a throw-away uid (the grader is root); 0: the grader's own
    std::string refused;               // why no compile may run here; empty: it may
};

// The jail for a compile in `sandbox.writable_dir` (the build folder, inside cache_dir) reading
// `sandbox.readonly_dirs`. Bubblewrap when it works here, unless BLOCKCHECK_COMPILE_SANDBOX=0 or
// BLOCKCHECK_GRADE_ISOLATION forces an isolation without it (uid_only, limits_only: the path of
// `grade --no-sandbox` in a container). As root, a throw-away uid whenever one can be taken here
// and every folder the compile reads is open to it (then the build folder becomes its, and
// cache_dir 0711); else root inside bubblewrap, and without bubblewrap it is refused.
CompilerJail compiler_jail(const Sandbox& sandbox, const std::filesystem::path& cache_dir);

// The jail of a resident compiler (the clang service, compile_service.cpp) whose writable folder
// is sandbox.writable_dir: as compiler_jail (bubblewrap where it works; as root a throw-away uid
// where one can compile, else root inside bubblewrap, else refused: those compiles go to clang++
// processes), but the folder stays the grader's (0711), and each compile's build folder inside it
// is handed over on its own.
CompilerJail resident_jail(const Sandbox& sandbox, const std::filesystem::path& cache_dir);
// The build folder `dir` and its files handed to `uid` (0700); empty, or why not.
std::string hand_build_folder(const std::filesystem::path& dir, unsigned uid);

// Runs the compiler's `argv` in `dir` inside `jail` (a throw-away uid gets only PATH in its
// environment); every process of that uid is killed afterwards.
RunResult run_compiler(const std::vector<std::string>& argv, const std::filesystem::path& dir, const Limits& limits,
                       const CompilerJail& jail);

// A file the throw-away uid wrote becomes the grader's (a regular file, 0755, not followed if a
// link) before it is moved into the cache. False when it is not a regular file or cannot be taken.
bool reclaim_output(const std::filesystem::path& file, const CompilerJail& jail);

constexpr const char* archive_name = "libblockcheck-header.a";

// grade's resident clang (compile_service.cpp; docs/compile-speed.md, "The resident compile
// service"): blockcheck-clang-service, next to the running executable, started inside the compile
// jail (resident_jail) with the folders a clang compile reads, and lent to one compile at a time.
class ClangService;
// A service lent to one compile: it goes back to the pool when the lease ends, unless it failed.
class ServiceLease {
public:
    ServiceLease() = default;
    explicit ServiceLease(std::unique_ptr<ClangService> service);
    ServiceLease(ServiceLease&&) noexcept;
    ~ServiceLease();
    explicit operator bool() const { return service_ != nullptr; }
    // The folder the compile's build folder goes in (the service's writable folder).
    const std::filesystem::path& folder() const;
    // The jail of a compile in `dir` (inside folder()): handed to the service's uid; its `refused`
    // says why it cannot be.
    CompilerJail jail_for(const std::filesystem::path& dir) const;
    // The compiler's `argv` run by the service in `dir` under `limits`, as run_compiler would;
    // nullopt when the service failed (a grader fault: no service for the rest of the process).
    std::optional<RunResult> compile(const std::vector<std::string>& argv, const std::filesystem::path& dir,
                                     const Limits& limits);

private:
    std::unique_ptr<ClangService> service_;
};
// A service for compiles reading `readonly_dirs`, from this process's pool or started now; an
// empty lease when none can serve (blockcheck-clang-service not built, BLOCKCHECK_CLANG_SERVICE=0,
// or a service failed earlier in this process).
ServiceLease lease_clang_service(const std::filesystem::path& cache_dir,
                                 const std::vector<std::filesystem::path>& readonly_dirs);

}  // namespace blockcheck::compile_parts
