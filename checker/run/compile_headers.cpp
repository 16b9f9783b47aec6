// The students' header built once for every program: precompiled (cache/pch-<key>/), and compiled
// into a one-object archive (cache/lib-<key>/) that CompileWay::fast links. Both folders are
// sealed (cache_seal.hpp, by the files' identity) and believed only while the seal holds: a folder
// searched with -I or linked into every program must be exactly what this user's compiler made
// of these headers.
#include "checker/common/files.hpp"
#include "checker/run/cache_prune.hpp"
#include "checker/run/cache_seal.hpp"
#include "checker/run/compile_parts.hpp"

#include <unistd.h>

#include <algorithm>
#include <future>
#include <optional>
#include <regex>

namespace blockcheck {

namespace fs = std::filesystem;
using namespace compile_parts;

namespace {

// The macro a header tests to hold its definitions out of line (the archive's one object), and
// the one that asks it for declarations only (every program that links that archive).
constexpr const char* object_macro = "BLOCKCHECK_HEADER_OBJECT";
constexpr const char* prebuilt_macro = "BLOCKCHECK_PREBUILT_HEADER";
constexpr const char* seal_name = ".seal";

// The students' headers are the instructor's, built once for every program: a slow machine must
// not cut them off at the limit meant for one student's program (at least 5 minutes).
Limits header_limits(Limits limits) {
    limits.wall_seconds = std::max(limits.wall_seconds, 300.0);
    limits.cpu_seconds = std::max(limits.cpu_seconds, 300.0);
    return limits;
}

// The files of a built folder but its seal, by name; nothing when it holds anything but regular
// files (a link, a subfolder).
std::optional<std::vector<fs::path>> folder_files(const fs::path& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.is_symlink(ec) || !entry.is_regular_file(ec)) return std::nullopt;
        if (entry.path().filename() != seal_name) files.push_back(entry.path());
    }
    if (ec) return std::nullopt;
    std::sort(files.begin(), files.end());
    return files;
}

// Whether `dir` is a sealed build of `inputs`. The seal binds the files' identity: a precompiled
// header is tens of MB, and reading it on every check would cost more than the compile it saves.
bool sealed_folder(const fs::path& dir, const EntryInputs& inputs) {
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(dir, ec))) return false;
    const auto files = folder_files(dir);
    return files && seal_holds(dir / seal_name, inputs.text(), *files, SealOf::identity);
}

// Seals the folder `work` built from `inputs` and moves it to `dir` (atomic: the folder appears
// whole, or another process won); whatever stood at `dir` unsealed goes first.
bool publish_folder(const fs::path& work, const fs::path& dir, const EntryInputs& inputs) {
    std::error_code ec;
    if (const auto files = folder_files(work)) write_seal(work / seal_name, inputs.text(), *files, SealOf::identity);
    if (fs::exists(fs::symlink_status(dir, ec)) && !sealed_folder(dir, inputs)) fs::remove_all(dir, ec);
    fs::rename(work, dir, ec);
    if (ec) fs::remove_all(work, ec);
    return sealed_folder(dir, inputs);
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
    EntryInputs inputs("blockcheck-header-archive-2");
    for (const std::string& flag : flags) inputs.add(flag);
    inputs.add(version).add_headers(include_dir);
    const fs::path dir = cache_dir / ("lib-" + inputs.key());
    if (sealed_folder(dir, inputs)) {
        touch_cache_entry(dir);
        return dir / archive_name;
    }
    auto guard = in_flight().acquire(dir.string());
    if (sealed_folder(dir, inputs)) return dir / archive_name;
    std::string unit = "#define " + std::string(object_macro) + "\n";
    for (const fs::path& header : header_files(include_dir))
        if (header.extension() == ".hpp" || header.extension() == ".h") unit += "#include \"" + header.filename().string() + "\"\n";
    const fs::path work = cache_dir / ("build-lib-" + inputs.key() + "-" + unique_suffix());
    fresh_folder(work);
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
    if (!built) {
        fs::remove_all(work, ignored);
        return {};
    }
    return publish_folder(work, dir, inputs) ? dir / archive_name : fs::path{};
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

namespace compile_parts {

// The students' headers precompiled with the same flags (about 40% of a compile saved), in a
// folder searched before include_dir: cache/pch-<key>/<header>.gch. Built once per header
// content and compiler; empty when it cannot be built (compiles then simply read the headers).
fs::path precompiled_headers(const fs::path& include_dir, const fs::path& cache_dir, const std::string& version,
                             const std::vector<std::string>& flags, const Limits& limits) {
    if (include_dir.empty()) return {};
    EntryInputs inputs("blockcheck-pch-2");
    for (const std::string& flag : flags) inputs.add(flag);
    inputs.add(version).add_headers(include_dir);
    const fs::path dir = cache_dir / ("pch-" + inputs.key());
    if (sealed_folder(dir, inputs)) {
        touch_cache_entry(dir);
        return dir;
    }
    auto guard = in_flight().acquire(dir.string());
    if (sealed_folder(dir, inputs)) return dir;
    const fs::path work = cache_dir / ("build-pch-" + inputs.key() + "-" + unique_suffix());
    fresh_folder(work);
    std::error_code ec;
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
    return publish_folder(work, dir, inputs) ? dir : fs::path{};
}

Recipe recipe_for(CompileWay way, std::string_view source, const fs::path& include_dir, const fs::path& cache_dir,
                  const std::string& version, const Limits& limits) {
    // -O0: exercise programs do little arithmetic, and compiling is most of a check's time.
    static const std::vector<std::string> compile_flags{"-std=c++17", "-O0", "-pipe", "-Wall"};
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

}  // namespace compile_parts

}  // namespace blockcheck
