// Compiling exercise programs with g++, cached by content. Cache folder layout:
//   <key>            the binary of a successful compile
//   <key>.log        its warnings (trimmed), possibly empty
//   <key>.fail       the trimmed diagnostics of a failed compile
//   <key>.run-<hash> what the binary printed on one input (run_cache.hpp, the student's loop only)
//   compiler-<id>.txt  `g++ --version` of the compiler binary identified by <id> (path, size, mtime)
//   build-<key>-<n>/ a private build folder, removed afterwards
//   pch-<key>/       the students' headers precompiled
//   lib-<key>/libblockcheck-header.a  the students' header compiled once (CompileWay::fast)
// A cache hit marks its entry used, for cache_prune.hpp.
#include "checker/run/compile.hpp"

#include "checker/common/files.hpp"
#include "checker/common/hashing.hpp"
#include "checker/run/cache_prune.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <vector>

namespace blockcheck {

namespace fs = std::filesystem;

Limits compiler_limits() {
    Limits limits;
    limits.cpu_seconds = 30;
    limits.wall_seconds = 30;
    limits.memory_bytes = std::size_t{2} << 30;
    limits.output_bytes = 1u << 20;
    limits.file_bytes = std::size_t{256} << 20;
    limits.open_files = 256;
    limits.processes = 0;  // none: the compiler is trusted, and RLIMIT_NPROC counts all the user's processes
    return limits;
}

namespace {

// -O0: exercise programs do little arithmetic, and compiling is most of a check's time.
const std::vector<std::string> compile_flags{"-std=c++17", "-O0", "-pipe", "-Wall"};

// The macro a header tests to hold its definitions out of line (the archive's one object), and
// the one that asks it for declarations only (every program that links that archive).
constexpr const char* object_macro = "BLOCKCHECK_HEADER_OBJECT";
constexpr const char* prebuilt_macro = "BLOCKCHECK_PREBUILT_HEADER";
constexpr const char* archive_name = "libblockcheck-header.a";

using Clock = std::chrono::steady_clock;

// A name no other thread or process uses at the same time.
std::string unique_suffix() {
    static std::atomic<unsigned> counter{0};
    return std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// Writes a cache file atomically; a cache that cannot be written only costs a recompile.
void write_cache_file(const fs::path& target, std::string_view content) {
    try {
        write_file_atomically(target, content);
    } catch (const FileWriteError&) {
    }
}

std::string run_version(const std::string& compiler) {
    Limits limits;
    limits.wall_seconds = 10;
    limits.cpu_seconds = 10;
    RunResult result = run_process({compiler, "--version"}, {}, limits);
    if (result.status != RunStatus::exited || result.exit_code != 0) return {};
    return result.out.substr(0, result.out.find('\n'));
}

// `g++ --version`, once per process; on disk by compiler identity, so that a cache hit in a
// fresh process does not pay for starting the compiler.
std::string compiler_version(const std::string& compiler, const fs::path& cache_dir) {
    static std::mutex mutex;
    static std::string known;
    std::lock_guard lock(mutex);
    if (!known.empty()) return known;
    const fs::path memo = cache_dir / ("compiler-" + hex(content_hash(compiler_identity(compiler))) + ".txt");
    if (auto text = read_file_if_readable(memo); text && !text->empty()) return known = *text;
    known = run_version(compiler);
    if (!known.empty()) write_cache_file(memo, known);
    return known;
}

// The regular files directly in include_dir, by name.
std::vector<fs::path> header_files(const fs::path& include_dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(include_dir, ec))
        if (entry.is_regular_file(ec)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The program's own headers: the header files directly beside the source (name and text), which
// travel with it into the build folder. At most 32, each at most 1 MiB.
using SourceFiles = std::vector<std::pair<std::string, std::string>>;
SourceFiles sibling_headers(const fs::path& source) {
    SourceFiles headers;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(source.parent_path().empty() ? fs::path(".") : source.parent_path(), ec)) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".h" && ext != ".hpp" && ext != ".hh" && ext != ".hxx") continue;
        if (!entry.is_regular_file(ec) || entry.file_size(ec) > (1u << 20) || headers.size() == 32) continue;
        if (auto text = read_file_if_readable(entry.path())) headers.emplace_back(entry.path().filename().string(), *text);
    }
    std::sort(headers.begin(), headers.end());
    return headers;
}

std::string cache_key(std::string_view source_name, std::string_view source_text, const fs::path& include_dir,
                      std::string_view version, const std::vector<std::string>& flags, const SourceFiles& own_headers) {
    std::uint64_t hash = content_hash("blockcheck-compile-3");
    for (const std::string& flag : flags) hash = hash_field(hash, flag);
    hash = hash_field(hash, version);
    hash = hash_field(hash, source_name);
    hash = hash_field(hash, source_text);
    for (const fs::path& header : header_files(include_dir)) {
        hash = hash_field(hash, header.filename().string());
        hash = hash_field(hash, read_file_if_readable(header).value_or("<unreadable>"));
    }
    for (const auto& [name, text] : own_headers) hash = hash_field(hash_field(hash, "beside:" + name), text);
    return hex(hash);
}

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

    Guard acquire(const std::string& key) {
        std::unique_lock lock(mutex_);
        released_.wait(lock, [&] { return !keys_.contains(key); });
        keys_.insert(key);
        return Guard(*this, key);
    }

private:
    void release(const std::string& key) {
        {
            std::lock_guard lock(mutex_);
            keys_.erase(key);
        }
        released_.notify_all();
    }

    std::mutex mutex_;
    std::condition_variable released_;
    std::set<std::string> keys_;
};

InFlight& in_flight() {
    static InFlight instance;
    return instance;
}

// A binary or a recorded failure for this key, if the cache has one.
std::optional<CompileResult> cached_result(const fs::path& cache_dir, const std::string& key) {
    const fs::path binary = cache_dir / key;
    if (::access(binary.c_str(), X_OK) == 0) {
        touch_cache_entry(binary);
        return CompileResult{CompileStatus::compiled, binary, read_file_if_readable(cache_dir / (key + ".log")).value_or(""), true};
    }
    if (auto diagnostics = read_file_if_readable(cache_dir / (key + ".fail"))) {  // only the compiler's own rejections are cached
        touch_cache_entry(cache_dir / (key + ".fail"));
        return CompileResult{CompileStatus::rejected, {}, *diagnostics, true};
    }
    return std::nullopt;
}

// Replaces every occurrence of `from` with `to`.
void replace_all(std::string& text, std::string_view from, std::string_view to) {
    if (from.empty()) return;
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// Headers appear as <include folder name>/<file>, the build folder not at all.
std::string shorten_paths(std::string text, const fs::path& include_dir, const fs::path& build_dir) {
    fs::path name = include_dir.filename().empty() ? include_dir.parent_path().filename() : include_dir.filename();
    replace_all(text, (include_dir / "").string(), (name / "").string());
    replace_all(text, (build_dir / "").string(), "");
    return text;
}

std::string describe_limit_stop(const RunResult& run, const Limits& limits) {
    const auto mib = limits.memory_bytes >> 20;
    switch (run.status) {
        case RunStatus::timed_out:
            return "the compiler ran out of time (limit " + std::to_string(static_cast<long>(limits.wall_seconds)) +
                   " s wall, " + std::to_string(static_cast<long>(limits.cpu_seconds)) + " s CPU)";
        case RunStatus::output_limit:
            return "the compiler's messages exceeded " + std::to_string(limits.output_bytes) + " bytes";
        case RunStatus::signaled:
            return "the compiler was killed by signal " + std::to_string(run.signal) + " (memory limit " +
                   std::to_string(mib) + " MiB)";
        case RunStatus::failed_to_start: return "cannot run the compiler: " + run.error;
        case RunStatus::exited:
            return "the compiler ran out of memory (limit " + std::to_string(mib) + " MiB)";
    }
    return {};
}

// The compiler seems to have given up for lack of memory (its messages say so, and a program can
// forge them): not cached, and judged by the known-good probe like any other limit stop.
bool out_of_memory(const RunResult& run) {
    return run.err.find("virtual memory exhausted") != std::string::npos ||
           run.err.find("out of memory allocating") != std::string::npos ||
           run.err.find("std::bad_alloc") != std::string::npos;
}

constexpr const char* binary_name = "blockcheck-program.out";

// Build folders and temporary files an interrupted run left behind, once they are an hour old.
void sweep_stale(const fs::path& cache_dir) {
    const auto cutoff = fs::file_time_type::clock::now() - std::chrono::hours(1);
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(cache_dir, ec)) {
        const std::string name = entry.path().filename().string();
        const bool temporary = name.starts_with("build-") || name.find(".tmp-") != std::string::npos;
        if (temporary && entry.last_write_time(ec) < cutoff) fs::remove_all(entry.path(), ec);
    }
}

struct BuildDir {
    fs::path path;
    ~BuildDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

// The compiler or a tool ran to the end and said yes (a run stopped by a limit has exit code 0 too).
bool succeeded(const RunResult& run) { return run.status == RunStatus::exited && run.exit_code == 0; }

// The students' headers are the instructor's, built once for every program: a slow machine must
// not cut them off at the limit meant for one student's program (at least 5 minutes).
Limits header_limits(Limits limits) {
    limits.wall_seconds = std::max(limits.wall_seconds, 300.0);
    limits.cpu_seconds = std::max(limits.cpu_seconds, 300.0);
    return limits;
}

// The students' headers precompiled with the same flags (about 40% of a compile saved), in a
// folder searched before include_dir: cache/pch-<key>/<header>.gch. Built once per header
// content and compiler; empty when it cannot be built (compiles then simply read the headers).
fs::path precompiled_headers(const fs::path& include_dir, const fs::path& cache_dir, const std::string& version,
                             const std::vector<std::string>& flags, const Limits& limits) {
    if (include_dir.empty()) return {};
    std::uint64_t hash = content_hash("blockcheck-pch-1");
    for (const std::string& flag : flags) hash = hash_field(hash, flag);
    hash = hash_field(hash, version);
    for (const fs::path& header : header_files(include_dir)) {
        hash = hash_field(hash, header.filename().string());
        hash = hash_field(hash, read_file_if_readable(header).value_or("<unreadable>"));
    }
    const fs::path dir = cache_dir / ("pch-" + hex(hash));
    std::error_code ec;
    if (fs::is_directory(dir, ec)) {
        touch_cache_entry(dir);
        return dir;
    }
    auto guard = in_flight().acquire(dir.string());
    if (fs::is_directory(dir, ec)) return dir;
    const fs::path work = cache_dir / ("build-pch-" + hex(hash) + "-" + unique_suffix());
    fs::create_directories(work, ec);
    for (const fs::path& header : header_files(include_dir)) {
        if (header.extension() != ".hpp" && header.extension() != ".h") continue;
        std::vector<std::string> argv{"g++"};
        argv.insert(argv.end(), flags.begin(), flags.end());
        argv.insert(argv.end(), {"-x", "c++-header", header.string(), "-o", (work / (header.filename().string() + ".gch")).string()});
        if (!succeeded(run_process(argv, {}, header_limits(limits), work))) {
            fs::remove_all(work, ec);
            return {};
        }
    }
    fs::rename(work, dir, ec);  // atomic: the folder appears whole, or another process won
    if (ec) fs::remove_all(work, ec);
    return fs::is_directory(dir, ec) ? dir : fs::path{};
}

// A program that compiles anywhere, compiled in `dir` with `argv` (the flags, without a source)
// under the same limits and sandbox: when it fails too, the compiler or its limits are at fault,
// not the student's program. Probed every time (a compiler can vanish or break mid-run), which
// costs one tiny compile per failure that is not cached yet.
bool probe_compiles(std::vector<std::string> argv, const fs::path& dir, const Limits& limits, const Sandbox* sandbox) {
    constexpr const char* probe = "blockcheck-probe.cpp";
    write_cache_file(dir / probe, "#include <cstdio>\nint main() { std::puts(\"ok\"); }\n");
    argv.insert(argv.end(), {probe, "-o", "blockcheck-probe.out"});
    const RunResult run = run_process(argv, {}, limits, dir, sandbox);
    return run.status == RunStatus::exited && run.exit_code == 0;
}

// Whether a header of include_dir can be compiled once into an object (it tests object_macro).
bool header_supports_prebuilding(const fs::path& include_dir) {
    for (const fs::path& header : header_files(include_dir))
        if (read_file_if_readable(header).value_or("").find(object_macro) != std::string::npos) return true;
    return false;
}

// The students' headers compiled once, with object_macro, into an archive of one object: every
// program links it and the linker takes that object only when the program uses the header, so
// a program that never includes it builds as before. cache/lib-<key>/libblockcheck-header.a, by
// header content, flags and compiler; empty when it cannot be built.
fs::path header_archive(const fs::path& include_dir, const fs::path& cache_dir, const std::string& version,
                        const std::vector<std::string>& flags, const Limits& limits) {
    std::uint64_t hash = content_hash("blockcheck-header-archive-1");
    for (const std::string& flag : flags) hash = hash_field(hash, flag);
    hash = hash_field(hash, version);
    std::string unit = "#define " + std::string(object_macro) + "\n";
    for (const fs::path& header : header_files(include_dir)) {
        hash = hash_field(hash, header.filename().string());
        hash = hash_field(hash, read_file_if_readable(header).value_or("<unreadable>"));
        if (header.extension() == ".hpp" || header.extension() == ".h") unit += "#include \"" + header.filename().string() + "\"\n";
    }
    const fs::path dir = cache_dir / ("lib-" + hex(hash));
    std::error_code ec;
    if (fs::is_directory(dir, ec)) {
        touch_cache_entry(dir);
        return dir / archive_name;
    }
    auto guard = in_flight().acquire(dir.string());
    if (fs::is_directory(dir, ec)) return dir / archive_name;
    const fs::path work = cache_dir / ("build-lib-" + hex(hash) + "-" + unique_suffix());
    fs::create_directories(work, ec);
    write_cache_file(work / "header-object.cpp", unit);
    std::vector<std::string> argv{"g++"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    // Every inline function of the header emitted, so that programs reading only its declarations find them.
    argv.insert(argv.end(), {"-fkeep-inline-functions", "-I" + include_dir.string(), "-c", "header-object.cpp", "-o",
                             "header-object.o"});
    const bool built = succeeded(run_process(argv, {}, header_limits(limits), work)) &&
                       succeeded(run_process({"ar", "rcs", archive_name, "header-object.o"}, {}, header_limits(limits), work));
    std::error_code ignored;
    fs::remove(work / "header-object.o", ignored);
    fs::remove(work / "header-object.cpp", ignored);
    if (built) fs::rename(work, dir, ec);  // atomic: the folder appears whole, or another process won
    if (!built || ec) fs::remove_all(work, ignored);
    return fs::is_directory(dir, ec) ? dir / archive_name : fs::path{};
}

// Whether reading the header as declarations (and linking its object) is sure to give this program
// what the inline header gives it. Text that could change how the header itself compiles, or that
// (re)defines what it defines, sends the program to the inline header instead: any preprocessor
// directive other than #include (even one after a comment), a digraph `%:`, an #include of another
// quoted header (it may define macros), and `namespace bc` opened or `bc::` named by the program.
bool prebuilt_header_safe(std::string_view source) {
    static const std::regex include_line(R"(^\s*#\s*include\s*(<[^>]*>|"blockcheck\.hpp")\s*(//.*)?$)");
    static const std::regex opens_bc(R"((^|[^\w])bc\s*::|(^|[^\w])namespace\s+bc\b)");
    static const std::regex uses_bc(R"((^|[^\w])using\s+namespace\s+bc\s*;)");
    if (source.find("%:") != std::string_view::npos) return false;
    std::size_t at = 0;
    while (at < source.size()) {
        const std::size_t end = std::min(source.find('\n', at), source.size());
        const std::string line(source.substr(at, end - at));
        if (line.find('#') != std::string::npos && !std::regex_match(line, include_line)) return false;
        if (std::regex_search(std::regex_replace(line, uses_bc, " "), opens_bc)) return false;
        at = end + 1;
    }
    return true;
}

// The fastest linker installed, with its flags. A small program's link: ld.bfd 0.24 s, lld 0.12 s
// (its start, loading libLLVM, is most of it), gold 0.09 s, mold 0.06 s (quiet machine). mold
// links in its own process (--no-fork: a child left running after g++ returns would outlive the
// sandbox's wait) and on one thread (grading already runs one compile a core).
const std::vector<std::string>& fast_linker() {
    static const std::vector<std::string> flags = [] {
        if (::access("/usr/bin/ld.mold", X_OK) == 0)
            return std::vector<std::string>{"-fuse-ld=mold", "-Wl,--no-fork", "-Wl,--threads=1"};
        if (::access("/usr/bin/ld.gold", X_OK) == 0) return std::vector<std::string>{"-fuse-ld=gold"};
        return std::vector<std::string>{};
    }();
    return flags;
}

}  // namespace

std::string linker_name(CompileWay way) {
    if (way == CompileWay::classic || fast_linker().empty()) return "ld.bfd";
    return fast_linker().front().substr(std::string_view("-fuse-ld=").size());
}

namespace {

// What a compile of this way runs: its flags (part of the key), the header's archive to link, and
// the linker's flags (never given to the header's precompile: a -Wl option is a link input, and
// g++ given one links even a header).
struct Recipe {
    std::vector<std::string> flags;
    fs::path archive;  // empty: the header's definitions are compiled in the program
    std::vector<std::string> link_flags;
};

Recipe recipe_for(CompileWay way, std::string_view source, const fs::path& include_dir, const fs::path& cache_dir,
                  const std::string& version, const Limits& limits) {
    Recipe recipe{compile_flags, {}, {}};
    if (way == CompileWay::classic) return recipe;
    recipe.link_flags = fast_linker();
    if (include_dir.empty() || !prebuilt_header_safe(source) || !header_supports_prebuilding(include_dir)) return recipe;
    // On a first compile the header's object and its precompiled interface are both built (seconds
    // each): side by side, the second on its own thread (it returns at once when it exists).
    std::vector<std::string> interface_flags = recipe.flags;
    interface_flags.push_back("-D" + std::string(prebuilt_macro));
    auto interface = std::async(std::launch::async, [&] {
        return precompiled_headers(include_dir, cache_dir, version, interface_flags, limits);
    });
    recipe.archive = header_archive(include_dir, cache_dir, version, recipe.flags, limits);
    interface.wait();
    if (!recipe.archive.empty()) recipe.flags = interface_flags;
    return recipe;
}

// Runs g++ in a private folder holding a copy of the source; stores the outcome in the cache.
CompileResult build(const fs::path& source, std::string_view source_text, const SourceFiles& own_headers,
                    const fs::path& include_dir, const fs::path& cache_dir, const std::string& key,
                    const std::string& version, const Recipe& recipe, const Limits& limits, const std::string& display) {
    sweep_stale(cache_dir);
    BuildDir dir{cache_dir / ("build-" + key + "-" + unique_suffix())};
    fs::create_directories(dir.path);
    const std::string name = source.filename().string();
    write_cache_file(dir.path / name, source_text);
    for (const auto& [header, text] : own_headers) write_cache_file(dir.path / header, text);
    std::vector<std::string> argv{"g++"};
    argv.insert(argv.end(), recipe.flags.begin(), recipe.flags.end());
    Sandbox sandbox{dir.path, {}};
    if (const fs::path pch = precompiled_headers(include_dir, cache_dir, version, recipe.flags, limits); !pch.empty()) {
        argv.push_back("-I" + pch.string());
        sandbox.readonly_dirs.push_back(pch);
    }
    if (!include_dir.empty()) argv.push_back("-I" + include_dir.string());
    if (fs::is_directory(include_dir)) sandbox.readonly_dirs.push_back(include_dir);
    std::vector<std::string> argv_prefix = argv;  // the known-good probe's: no source, no archive
    argv_prefix.insert(argv_prefix.end(), recipe.link_flags.begin(), recipe.link_flags.end());
    const Sandbox* jail = Sandbox::available() ? &sandbox : nullptr;
    argv.push_back(name);
    if (!recipe.archive.empty()) {
        argv.push_back(recipe.archive.string());
        sandbox.readonly_dirs.push_back(recipe.archive.parent_path());
    }
    argv.insert(argv.end(), recipe.link_flags.begin(), recipe.link_flags.end());
    argv.insert(argv.end(), {"-o", binary_name});
    RunResult run = run_process(argv, {}, limits, dir.path, jail);
    std::string messages = shorten_paths(run.err, include_dir, dir.path);
    if (!recipe.archive.empty()) replace_all(messages, recipe.archive.string(), archive_name);
    std::string diagnostics = trim_diagnostics(messages);
    // the source as the student sees it: chapters/ch25/x.cpp:12:5 rather than x.cpp:12:5
    if (!display.empty() && display != name) {
        if (diagnostics.starts_with(name + ":")) diagnostics.replace(0, name.size(), display);
        replace_all(diagnostics, "\n" + name + ":", "\n" + display + ":");
        replace_all(diagnostics, " " + name + ":", " " + display + ":");
    }

    if (run.status == RunStatus::failed_to_start)
        return {CompileStatus::grader_fault, {}, describe_limit_stop(run, limits)};
    const bool finished = run.status == RunStatus::exited && !out_of_memory(run);
    if (!finished) {
        const std::string reason = describe_limit_stop(run, limits);
        const CompileStatus whose =
            probe_compiles(argv_prefix, dir.path, limits, jail) ? CompileStatus::rejected : CompileStatus::grader_fault;
        return {whose, {}, diagnostics.empty() ? reason : reason + "\n" + diagnostics};
    }
    if (run.exit_code != 0) {
        if (diagnostics.empty()) diagnostics = "g++ failed with exit code " + std::to_string(run.exit_code);
        if (!probe_compiles(argv_prefix, dir.path, limits, jail))
            return {CompileStatus::grader_fault, {}, "the compiler fails on a known-good program too\n" + diagnostics};
        write_cache_file(cache_dir / (key + ".fail"), diagnostics);
        return {CompileStatus::rejected, {}, diagnostics};
    }
    write_cache_file(cache_dir / (key + ".log"), diagnostics);
    std::error_code ec;
    fs::rename(dir.path / binary_name, cache_dir / key, ec);  // atomic: the binary appears whole
    if (ec)
        return {CompileStatus::grader_fault, {}, "cannot store the binary in '" + cache_dir.string() + "': " + ec.message()};
    return {CompileStatus::compiled, cache_dir / key, diagnostics};
}

}  // namespace

CompileResult compile_program(const fs::path& source, const fs::path& include_dir, const fs::path& cache_dir,
                              const Limits& limits, CompileWay way, const std::string& display) {
    const auto start = Clock::now();
    auto finish = [&](CompileResult result) {
        result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return result;
    };
    const auto source_text = read_file_if_readable(source);
    if (!source_text)  // its mode or kind is the submission's doing
        return finish({CompileStatus::rejected, {}, "cannot read source file '" + source.string() + "'"});
    std::error_code ec;
    fs::create_directories(cache_dir, ec);
    if (!fs::is_directory(cache_dir, ec))
        return finish({CompileStatus::grader_fault, {}, "cannot create cache folder '" + cache_dir.string() + "'"});
    const fs::path cache = fs::absolute(cache_dir).lexically_normal();
    const fs::path includes = include_dir.empty() ? fs::path{} : fs::absolute(include_dir).lexically_normal();

    const std::string version = compiler_version("g++", cache);
    const SourceFiles own_headers = sibling_headers(source);
    try {
        const Recipe recipe = recipe_for(way, *source_text, includes, cache, version, limits);
        std::vector<std::string> flags = recipe.flags;
        flags.insert(flags.end(), recipe.link_flags.begin(), recipe.link_flags.end());
        const std::string key =
            cache_key(source.filename().string() + "\n" + display, *source_text, includes, version, flags, own_headers);
        if (auto hit = cached_result(cache, key)) return finish(*hit);
        auto guard = in_flight().acquire(key);
        if (auto hit = cached_result(cache, key)) return finish(*hit);  // another thread just built it
        return finish(build(source, *source_text, own_headers, includes, cache, key, version, recipe, limits, display));
    } catch (const std::exception& error) {
        return finish({CompileStatus::grader_fault, {}, std::string("cannot compile '") + source.string() + "': " + error.what()});
    }
}

// ---------------------------------------------------------------------------------------------
// Trimming gcc's messages.

namespace {

constexpr std::size_t max_line_length = 300;
constexpr std::size_t max_block_lines = 25;

struct Block {
    std::vector<std::string_view> lines;
    bool error = false;
};

bool is_error_line(std::string_view line) {
    return line.find(": error:") != std::string_view::npos || line.find(": fatal error:") != std::string_view::npos;
}

bool is_warning_line(std::string_view line) { return line.find(": warning:") != std::string_view::npos; }

// Source excerpts, carets and notes belong to the message above them.
bool is_context_line(std::string_view line) {
    return line.empty() || line.front() == ' ' || line.find(": note:") != std::string_view::npos;
}

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto end = text.find('\n');
        lines.push_back(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    }
    return lines;
}

// Lines such as "x.cpp: In function 'int main()':" or "required from here" lead in to the next
// error or warning; context lines follow it.
std::vector<Block> split_blocks(std::string_view text) {
    std::vector<Block> blocks;
    std::vector<std::string_view> lead_in;
    for (std::string_view line : split_lines(text)) {
        if (is_error_line(line) || is_warning_line(line)) {
            Block block{std::move(lead_in), is_error_line(line)};
            block.lines.push_back(line);
            blocks.push_back(std::move(block));
            lead_in.clear();
        } else if (is_context_line(line) && lead_in.empty() && !blocks.empty()) {
            blocks.back().lines.push_back(line);
        } else {
            lead_in.push_back(line);
        }
    }
    return blocks;
}

void append_block(std::string& out, const Block& block) {
    std::size_t count = 0;
    for (std::string_view line : block.lines) {
        if (++count > max_block_lines) {
            out += "  ...\n";
            break;
        }
        if (line.size() > max_line_length) {
            out.append(line.substr(0, max_line_length)).append("...\n");
        } else {
            out.append(line).append("\n");
        }
    }
}

std::string strip_trailing_space(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) text.pop_back();
    return text;
}

}  // namespace

std::string trim_diagnostics(std::string_view gcc_stderr, std::size_t max_errors) {
    const std::vector<Block> blocks = split_blocks(gcc_stderr);
    if (blocks.empty()) return strip_trailing_space(std::string(gcc_stderr));  // not gcc's usual shape: keep it
    const bool any_error = std::any_of(blocks.begin(), blocks.end(), [](const Block& b) { return b.error; });
    std::string out;
    std::size_t shown = 0, dropped = 0;
    for (const Block& block : blocks) {
        if (block.error != any_error) continue;  // with errors, warnings are noise
        if (shown < max_errors) {
            append_block(out, block);
            ++shown;
        } else {
            ++dropped;
        }
    }
    if (dropped > 0) {
        const char* noun = any_error ? (dropped == 1 ? "error" : "errors") : (dropped == 1 ? "warning" : "warnings");
        out += "... and " + std::to_string(dropped) + " more " + noun + "\n";
    }
    return strip_trailing_space(std::move(out));
}

}  // namespace blockcheck
