// One fast compile taken apart into its steps, each a whole process, timed side by side.
#include "checker/run/compile_steps.hpp"

#include "checker/common/files.hpp"
#include "checker/run/compile.hpp"
#include "checker/run/compile_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

namespace blockcheck {

namespace fs = std::filesystem;
using namespace compile_parts;

double median_of(std::vector<double> xs) {
    if (xs.empty()) return 0;
    std::sort(xs.begin(), xs.end());
    const std::size_t mid = xs.size() / 2;
    return xs.size() % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

namespace {

// The header's build as a fast compile uses it: the compile flags (with the interface's), the
// precompiled header's folder, the archive and the linker's flags.
struct FastBuild {
    Recipe recipe;
    fs::path pch;
    std::string version;
};

FastBuild fast_build(const fs::path& include_dir, const fs::path& cache_dir) {
    FastBuild build;
    build.version = compiler_version("g++", cache_dir);
    build.recipe = recipe_for(CompileWay::fast, "#include \"blockcheck.hpp\"\n", include_dir, cache_dir, build.version,
                              compiler_limits());
    build.pch = precompiled_headers(include_dir, cache_dir, build.version, build.recipe.flags, compiler_limits());
    return build;
}

std::string describe_interface(const FastBuild& build) {
    std::uintmax_t bytes = 0;
    std::error_code ec;
    if (!build.pch.empty())
        for (const auto& entry : fs::directory_iterator(build.pch, ec))
            if (entry.path().extension() == ".gch") bytes += entry.file_size(ec);
    const std::string read = bytes > 0 ? fmt::format("precompiled ({:.1f} MB)", double(bytes) / 1e6) : "read as text";
    if (build.recipe.archive.empty()) return "the whole header, " + read;
    return "the header's declarations, " + read + ", and its object archive";
}

// The compiler on `file` in `dir` with the fast way's flags (compile only).
std::vector<std::string> compile_only(const FastBuild& build, const fs::path& include_dir, const std::string& file) {
    std::vector<std::string> argv{"g++"};
    argv.insert(argv.end(), build.recipe.flags.begin(), build.recipe.flags.end());
    if (!build.pch.empty()) argv.push_back("-I" + build.pch.string());
    argv.insert(argv.end(), {"-I" + include_dir.string(), "-c", file, "-o", file + ".o"});
    return argv;
}

// Wall seconds of `argv` in `dir`, or nothing when it did not succeed.
std::optional<double> timed(const std::vector<std::string>& argv, const fs::path& dir, const CompilerJail* jail = nullptr) {
    const RunResult run = jail ? run_compiler(argv, dir, compiler_limits(), *jail)
                               : run_process(argv, {}, compiler_limits(), dir);
    if (!succeeded(run)) return std::nullopt;
    return run.wall_seconds;
}

}  // namespace

CompileStepTimes time_compile_steps(const std::vector<fs::path>& programs, const fs::path& include_dir,
                                    const fs::path& cache_dir, std::size_t rounds) {
    CompileStepTimes times;
    if (programs.empty() || rounds == 0) return times;
    fs::create_directories(cache_dir);
    const fs::path cache = fs::absolute(cache_dir).lexically_normal();
    const fs::path includes = fs::absolute(include_dir).lexically_normal();
    const FastBuild build = fast_build(includes, cache);
    times.compiler = build.version;
    times.linker = linker_name(CompileWay::fast);
    times.interface = describe_interface(build);
    const fs::path dir = cache / ("build-steps-" + unique_suffix());
    fresh_folder(dir);
    struct Remove {
        fs::path path;
        ~Remove() {
            std::error_code ignored;
            fs::remove_all(path, ignored);
        }
    } remove{dir};
    write_cache_file(dir / "empty.cpp", "int main() {}\n");
    write_cache_file(dir / "header.cpp", "#include \"blockcheck.hpp\"\nint main() {}\n");
    std::vector<std::string> link{"g++", "program.cpp.o"};
    if (!build.recipe.archive.empty()) link.push_back(build.recipe.archive.string());
    link.insert(link.end(), build.recipe.link_flags.begin(), build.recipe.link_flags.end());
    link.insert(link.end(), {"-o", "program.out"});
    const fs::path jail_dir = dir / "jail";
    std::map<std::string, std::vector<double>> samples;
    for (std::size_t round = 0; round < rounds; ++round) {
        const std::string text = read_file(programs[round % programs.size()]);
        write_cache_file(dir / "program.cpp", text);
        const fs::path whole_source = dir / fmt::format("round{}", round) / programs[round % programs.size()].filename();
        fs::create_directories(whole_source.parent_path());
        write_cache_file(whole_source, text + fmt::format("// compile-steps round {}\n", round));
        fresh_folder(jail_dir);
        const Sandbox sandbox{jail_dir, {includes}};  // the jail points at it
        const CompilerJail jail = compiler_jail(sandbox, cache);
        const std::pair<const char*, std::optional<double>> steps[] = {
            {"empty", timed(compile_only(build, includes, "empty.cpp"), dir)},
            {"header", timed(compile_only(build, includes, "header.cpp"), dir)},
            {"program", timed(compile_only(build, includes, "program.cpp"), dir)},
            {"link", timed(link, dir)},
            {"bare_true", timed({"/usr/bin/true"}, dir)},
            {"jailed_true", jail.refused.empty() ? timed({"/usr/bin/true"}, jail_dir, &jail) : std::nullopt},
        };
        for (const auto& [name, seconds] : steps) {
            if (!seconds) {
                times.failed = fmt::format("the step '{}' failed in round {}", name, round);
                return times;
            }
            samples[name].push_back(*seconds);
        }
        const CompileResult whole = compile_program(whole_source, includes, cache);
        if (!whole.ok() || whole.cached) {
            times.failed = fmt::format("the whole compile of {} in round {} {}", whole_source.filename().string(), round,
                                       whole.ok() ? "was a cache hit" : "failed");
            return times;
        }
        samples["whole"].push_back(whole.seconds);
    }
    times.rounds = rounds;
    times.empty = median_of(samples["empty"]);
    times.header = median_of(samples["header"]);
    times.program = median_of(samples["program"]);
    times.link = median_of(samples["link"]);
    times.bare_true = median_of(samples["bare_true"]);
    times.jailed_true = median_of(samples["jailed_true"]);
    times.whole = median_of(samples["whole"]);
    return times;
}

}  // namespace blockcheck
