// The students' header built once for every program: precompiled (cache/pch-<key>/), and compiled
// into a one-object archive (cache/lib-<key>/) that CompileWay::fast links. Both folders are
// sealed (cache_seal.hpp, by the files' identity) and believed only while the seal holds: a folder
// searched with -I or linked into every program must be exactly what this user's compiler made
// of these headers.
#include "checker/common/files.hpp"
#include "checker/run/cache_prune.hpp"
#include "checker/run/cache_seal.hpp"
#include "checker/compile/compile_parts.hpp"
#include "checker/compile/compile_preamble.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>

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
    // Readable by others before the seal (a throw-away uid compiles against it): a chmod later
    // would change the files' ctime, break the seal, and rebuild the folder on the next compile.
    open_to_others(work);
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

namespace {

std::atomic<bool> clang_broken{false};  // a grader fault of the clang way: g++ for the rest of the run

}  // namespace

// BLOCKCHECK_CLANGXX: the clang++-16 CMake found at configure time ("" when none, or in an
// edition that never grades); still there and runnable at run time, and not broken in this run.
bool clang_usable() {
    static const bool installed = std::string_view(BLOCKCHECK_CLANGXX).size() > 0 && ::access(BLOCKCHECK_CLANGXX, X_OK) == 0;
    return installed && !clang_broken.load();
}

void clang_failed() { clang_broken.store(true); }

CompileWay grading_way(CompilerChoice choice) {
    if (choice == CompilerChoice::gcc) return CompileWay::fast;
    if (clang_usable()) return CompileWay::clang;
    if (choice == CompilerChoice::automatic) return CompileWay::fast;
    throw std::invalid_argument(std::string_view(BLOCKCHECK_CLANGXX).empty()
                                    ? "--compiler clang: no clang++-16 was found when blockcheck was built"
                                    : std::string("--compiler clang: ") + BLOCKCHECK_CLANGXX + " cannot be run here");
}

std::string linker_name(CompileWay way) {
    if (way == CompileWay::classic || fast_linker().empty()) return "ld.bfd";
    return fast_linker().front().substr(std::string_view("-fuse-ld=").size());
}

namespace compile_parts {

namespace {

constexpr const char* preamble_name = "preamble.hpp";

// Everything that decides a precompiled preamble: its lines, the flags, the compiler, the headers.
EntryInputs preamble_inputs(const fs::path& include_dir, const std::string& version, const std::vector<std::string>& flags,
                            const Preamble& preamble) {
    EntryInputs inputs("blockcheck-preamble-1");
    for (const std::string& flag : flags) inputs.add(flag);
    inputs.add(version).add(preamble.text()).add_headers(include_dir);
    return inputs;
}

fs::path preamble_folder(const fs::path& cache_dir, const EntryInputs& inputs) { return cache_dir / ("pch-" + inputs.key()); }

// The names of include_dir's headers that are include-guarded (a preamble may include them: the
// program's own include then adds nothing), or, with `guarded` false, those that are not.
std::vector<std::string> header_names(const fs::path& include_dir, bool guarded = true) {
    // include_guarded reads every line with regexes: remembered per header text in a process
    // (every check asks for each of its programs).
    static std::mutex mutex;
    static std::map<std::string, bool> known;
    std::vector<std::string> names;
    for (const fs::path& header : header_files(include_dir)) {
        const std::string text = read_file_if_readable(header).value_or("");
        std::unique_lock lock(mutex);
        auto at = known.find(text);
        if (at == known.end()) {
            lock.unlock();
            const bool is = include_guarded(text);
            lock.lock();
            at = known.emplace(text, is).first;
        }
        if (at->second == guarded) names.push_back(header.filename().string());
    }
    return names;
}

// A line that includes one of the header folder's guarded headers, `names` (the students'
// header): the preamble of almost every program, precompiled at once.
bool students_header_line(const std::string& line, const std::vector<std::string>& names) {
    for (const std::string& name : names)
        if (line == "#include \"" + name + "\"") return true;
    return false;
}

// Whether a header of include_dir names a special math function (then it keeps them all).
bool headers_name_special_functions(const fs::path& include_dir) {
    for (const fs::path& header : header_files(include_dir))
        if (names_special_function(read_file_if_readable(header).value_or(""), false)) return true;
    return false;
}

// Whether this process has asked for `key` before, and may precompile it now: at most `most`
// keys are precompiled this way in a process, each on its second request.
bool second_request(const std::string& key, std::size_t most) {
    static std::mutex mutex;
    static std::set<std::string> seen, precompiled;
    std::lock_guard lock(mutex);
    if (precompiled.contains(key)) return true;
    if (seen.insert(key).second || precompiled.size() >= most) return false;
    precompiled.insert(key);
    return true;
}

// A process precompiles at most this many runs of includes besides the students' header alone,
// each at most this long (a prefix of a run is a run): a precompiled header is 25 to 100 MB, and
// a class's boilerplates are a handful.
constexpr std::size_t max_preambles = 16, max_preamble_lines = 12;

// The part of the program's preamble to precompile. A one-off run of includes (a hostile
// program's, an unusual one) would cost a precompile of its own, slower than reading it once:
// a run longer than the students' header alone is precompiled when the cache has it or on its
// second use in this process (a student writes the same lines in every program); until then the
// students' header alone when the run starts with it, else nothing.
Preamble preamble_to_precompile(Preamble whole, const fs::path& include_dir, const std::vector<std::string>& guarded,
                                const fs::path& cache_dir, const std::string& version, const std::vector<std::string>& flags) {
    if (whole.empty()) return whole;
    whole.lines.resize(std::min(whole.lines.size(), max_preamble_lines));
    whole.source_lines.resize(whole.lines.size());
    if (whole.lines.size() == 1 && students_header_line(whole.lines[0], guarded)) return whole;
    const EntryInputs inputs = preamble_inputs(include_dir, version, flags, whole);
    if (sealed_folder(preamble_folder(cache_dir, inputs), inputs)) return whole;
    if (second_request(inputs.key(), max_preambles)) return whole;
    if (!students_header_line(whole.lines[0], guarded)) return {};
    return {{whole.lines[0]}, {whole.source_lines[0]}};
}

}  // namespace

// The preamble precompiled with the same flags, in cache/pch-<key>/: preamble.hpp (its lines)
// and preamble.hpp.gch. Built once per preamble, flags, headers and compiler; empty when it
// cannot be built (a header that does not exist, say): the program then reads its includes.
fs::path precompiled_preamble(const fs::path& include_dir, const fs::path& cache_dir, const std::string& version,
                              const std::vector<std::string>& flags, const Preamble& preamble, const Limits& limits) {
    if (preamble.empty()) return {};
    const EntryInputs inputs = preamble_inputs(include_dir, version, flags, preamble);
    const fs::path dir = preamble_folder(cache_dir, inputs);
    if (sealed_folder(dir, inputs)) {
        touch_cache_entry(dir);
        return dir / preamble_name;
    }
    auto guard = in_flight().acquire(dir.string());
    if (sealed_folder(dir, inputs)) return dir / preamble_name;
    const fs::path work = cache_dir / ("build-pch-" + inputs.key() + "-" + unique_suffix());
    fresh_folder(work);
    write_cache_file(work / preamble_name, preamble.text());
    std::vector<std::string> argv{"g++"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    if (!include_dir.empty()) argv.push_back("-I" + include_dir.string());
    argv.insert(argv.end(), {"-x", "c++-header", preamble_name, "-o", std::string(preamble_name) + ".gch"});
    std::error_code ec;
    if (!succeeded(run_process(argv, {}, header_limits(limits), work))) {
        fs::remove_all(work, ec);
        return {};
    }
    return publish_folder(work, dir, inputs) ? dir / preamble_name : fs::path{};
}

namespace {

// A file's modification time in nanoseconds (0 when it cannot be read).
long long modified_ns(const fs::path& file) {
    struct stat st{};
    if (::stat(file.c_str(), &st) != 0) return 0;
    return static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

// The students' header `header` (a file of include_dir) precompiled by clang with its template
// instantiations and inline code compiled once into its own object: cache/cpch-<key>/header.pch
// and pch.o, sealed; empty when they cannot be built. The PCH is built from the header's own path,
// which it records, so that a program including that header meets its include guard.
fs::path clang_header_pch(const fs::path& include_dir, const fs::path& cache_dir, const std::string& header,
                          const std::vector<std::string>& flags, const Limits& limits) {
    const std::string version = compiler_version(clang_compiler, cache_dir);
    if (version.empty()) return {};
    EntryInputs inputs("blockcheck-clang-pch-1");
    for (const std::string& flag : flags) inputs.add(flag);
    inputs.add(version).add(header).add_headers(include_dir);
    // clang refuses a PCH whose header's modification time changed (a checkout rewrites the file
    // with the same bytes): then every program would fall back to g++.
    for (const fs::path& file : header_files(include_dir)) inputs.add(std::to_string(modified_ns(file)));
    const fs::path dir = cache_dir / ("cpch-" + inputs.key());
    if (sealed_folder(dir, inputs)) {
        touch_cache_entry(dir);
        return dir / "header.pch";
    }
    auto guard = in_flight().acquire(dir.string());
    if (sealed_folder(dir, inputs)) return dir / "header.pch";
    const fs::path work = cache_dir / ("build-cpch-" + inputs.key() + "-" + unique_suffix());
    fresh_folder(work);
    std::vector<std::string> argv{clang_compiler};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"-fpch-instantiate-templates", "-fpch-codegen", "-I" + include_dir.string(), "-x",
                             "c++-header", (include_dir / header).string(), "-o", "header.pch"});
    const bool built = succeeded(run_process(argv, {}, header_limits(limits), work)) &&
                       succeeded(run_process({clang_compiler, "-O0", "-c", "header.pch", "-o", "pch.o"}, {},
                                             header_limits(limits), work));
    std::error_code ignored;
    if (!built) {
        fs::remove_all(work, ignored);
        return {};
    }
    return publish_folder(work, dir, inputs) ? dir / "header.pch" : fs::path{};
}

// The name of the students' header a preamble line includes ("#include \"blockcheck.hpp\""), if it does.
std::optional<std::string> students_header_of(const Preamble& preamble, const std::vector<std::string>& guarded) {
    if (preamble.empty() || !students_header_line(preamble.lines[0], guarded)) return std::nullopt;
    const std::string& line = preamble.lines[0];
    const std::size_t open = line.find('"');
    return line.substr(open + 1, line.rfind('"') - open - 1);
}

// CompileWay::clang's recipe: the students' header precompiled by clang and given with
// -include-pch, its object and fast's archive linked; nullopt where fast's recipe serves instead.
std::optional<Recipe> clang_recipe(std::string_view source, const fs::path& include_dir, const fs::path& cache_dir,
                                   const std::string& gcc_version, const Limits& limits, bool own_headers,
                                   const std::vector<std::string>& compile_flags) {
    if (own_headers || include_dir.empty() || !clang_usable() || !prebuilt_header_safe(source) ||
        !header_supports_prebuilding(include_dir))
        return std::nullopt;
    const std::vector<std::string> guarded = header_names(include_dir);
    const auto header = students_header_of(leading_includes(source, guarded, header_names(include_dir, false)), guarded);
    if (!header) return std::nullopt;
    Recipe recipe{clang_compiler, compile_flags, {}, fast_linker(), {}, {}};
    recipe.flags.push_back("-D" + std::string(prebuilt_macro));
    recipe.archive = header_archive(include_dir, cache_dir, gcc_version, compile_flags, limits);
    recipe.pch = clang_header_pch(include_dir, cache_dir, *header, recipe.flags, limits);
    if (recipe.archive.empty() || recipe.pch.empty()) return std::nullopt;
    recipe.pch_object = recipe.pch.parent_path() / "pch.o";
    return recipe;
}

}  // namespace

Recipe recipe_for(CompileWay way, std::string_view source, const fs::path& include_dir, const fs::path& cache_dir,
                  const std::string& version, const Limits& limits, bool own_headers) {
    // -O0: exercise programs do little arithmetic, and compiling is most of a check's time.
    static const std::vector<std::string> compile_flags{"-std=c++17", "-O0", "-pipe", "-Wall"};
    if (way == CompileWay::clang)
        if (auto recipe = clang_recipe(source, include_dir, cache_dir, version, limits, own_headers, compile_flags))
            return *recipe;
    Recipe recipe{"g++", compile_flags, {}, {}, {}, {}};
    if (way == CompileWay::classic) return recipe;  // g++ as the student runs it: the reference
    recipe.link_flags = fast_linker();
    // Headers of the program's own beside it (one may even be named blockcheck.hpp and answer the
    // program's include first) are read as they are: nothing prebuilt, left out or precompiled.
    const bool prebuilt =
        !own_headers && !include_dir.empty() && prebuilt_header_safe(source) && header_supports_prebuilding(include_dir);
    // The header's object (seconds on a first compile) is built on its own thread while the
    // preamble is precompiled (each returns at once when the cache has it).
    std::future<fs::path> archive;
    if (prebuilt) {
        archive = std::async(std::launch::async,
                             [&] { return header_archive(include_dir, cache_dir, version, compile_flags, limits); });
        recipe.flags.push_back("-D" + std::string(prebuilt_macro));
    }
    // <cmath>'s special functions are about a fifth of what every program pays for the header.
    if (!own_headers && special_functions_unused(source) && !headers_name_special_functions(include_dir))
        recipe.flags.push_back("-D_GLIBCXX_BITS_SPECFUN_H=1");
    const std::vector<std::string> guarded = header_names(include_dir);
    const Preamble whole =
        own_headers || include_dir.empty() ? Preamble{} : leading_includes(source, guarded, header_names(include_dir, false));
    const Preamble chosen = preamble_to_precompile(whole, include_dir, guarded, cache_dir, version, recipe.flags);
    recipe.preamble = precompiled_preamble(include_dir, cache_dir, version, recipe.flags, chosen, limits);
    if (!recipe.preamble.empty()) recipe.preamble_lines = chosen.source_lines;
    if (prebuilt) {
        recipe.archive = archive.get();
        if (recipe.archive.empty()) recipe = {"g++", compile_flags, {}, fast_linker(), {}, {}};  // the inline header, read
    }
    return recipe;
}

}  // namespace compile_parts

}  // namespace blockcheck
