// One fast compile taken apart into its steps, each a whole process, timed side by side.
#include "checker/compile/compile_steps.hpp"

#include "checker/common/files.hpp"
#include "checker/compile/compile.hpp"
#include "checker/compile/compile_parts.hpp"

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

// What the fast way gives `text`: its flags, archive and precompiled preamble, built before any
// timing (asked twice: a run of includes is precompiled from its second use).
Recipe fast_recipe(std::string_view text, const fs::path& include_dir, const fs::path& cache_dir, const std::string& version) {
    recipe_for(CompileWay::fast, text, include_dir, cache_dir, version, compiler_limits());
    return recipe_for(CompileWay::fast, text, include_dir, cache_dir, version, compiler_limits());
}

double megabytes(const fs::path& preamble) {
    std::error_code ec;
    const auto bytes = preamble.empty() ? 0 : fs::file_size(fs::path(preamble.string() + ".gch"), ec);
    return ec ? 0 : double(bytes) / 1e6;
}

std::string describe_interface(const Recipe& slim, const Recipe& whole) {
    const std::string read = slim.preamble.empty() ? "read as text"
                                                   : fmt::format("precompiled ({:.1f} MB; {:.1f} MB with <cmath>'s special functions)",
                                                                 megabytes(slim.preamble), megabytes(whole.preamble));
    if (slim.archive.empty()) return "the whole header, " + read;
    return "the header's declarations, " + read + ", and its object archive";
}

// The compiler on `file` in `dir` with a recipe's flags and preamble (compile only).
std::vector<std::string> compile_only(const Recipe& recipe, const fs::path& include_dir, const std::string& file) {
    std::vector<std::string> argv{"g++"};
    argv.insert(argv.end(), recipe.flags.begin(), recipe.flags.end());
    if (!recipe.preamble.empty()) argv.insert(argv.end(), {"-include", recipe.preamble.string()});
    argv.insert(argv.end(), {"-I" + include_dir.string(), "-c", file, "-o", file + ".o"});
    return argv;
}

// `program` with a student's usual boilerplate after the header's include: `#include <iostream>`.
std::string with_iostream(const std::string& program) {
    const std::string include = "#include \"blockcheck.hpp\"\n";
    const auto at = program.find(include);
    if (at == std::string::npos) return "#include <iostream>\n" + program;
    return program.substr(0, at + include.size()) + "#include <iostream>\n" + program.substr(at + include.size());
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
    const std::string version = compiler_version("g++", cache);
    const std::string empty = "int main() {}\n", header = "#include \"blockcheck.hpp\"\nint main() {}\n";
    // A program naming one special function (here in a comment) gets the header with them all.
    const std::string header_whole = "#include \"blockcheck.hpp\"\n// std::beta\nint main() {}\n";
    const Recipe empty_recipe = fast_recipe(empty, includes, cache, version),
                 header_recipe = fast_recipe(header, includes, cache, version),
                 whole_recipe = fast_recipe(header_whole, includes, cache, version);
    times.compiler = version;
    times.linker = linker_name(CompileWay::fast);
    times.interface = describe_interface(header_recipe, whole_recipe);
    const fs::path dir = cache / ("build-steps-" + unique_suffix());
    fresh_folder(dir);
    struct Remove {
        fs::path path;
        ~Remove() {
            std::error_code ignored;
            fs::remove_all(path, ignored);
        }
    } remove{dir};
    write_cache_file(dir / "empty.cpp", empty);
    write_cache_file(dir / "header.cpp", header);
    write_cache_file(dir / "header-whole.cpp", header_whole);
    std::vector<std::string> link{"g++", "program.cpp.o"};
    if (!header_recipe.archive.empty()) link.push_back(header_recipe.archive.string());
    link.insert(link.end(), header_recipe.link_flags.begin(), header_recipe.link_flags.end());
    link.insert(link.end(), {"-o", "program.out"});
    const fs::path jail_dir = dir / "jail";
    std::map<std::string, std::vector<double>> samples;
    for (std::size_t round = 0; round < rounds; ++round) {
        const std::string text = read_file(programs[round % programs.size()]);
        write_cache_file(dir / "program.cpp", text);
        write_cache_file(dir / "boilerplate.cpp", with_iostream(text));
        const Recipe program = fast_recipe(text, includes, cache, version);
        Recipe boilerplate = fast_recipe(with_iostream(text), includes, cache, version);
        Recipe boilerplate_read = boilerplate;  // <iostream> read as text after the precompiled header
        boilerplate_read.preamble = program.preamble;
        const fs::path whole_source = dir / fmt::format("round{}", round) / programs[round % programs.size()].filename();
        fs::create_directories(whole_source.parent_path());
        write_cache_file(whole_source, text + fmt::format("// compile-steps round {}\n", round));
        fresh_folder(jail_dir);
        const Sandbox sandbox{jail_dir, {includes}};  // the jail points at it
        const CompilerJail jail = compiler_jail(sandbox, cache);
        const std::pair<const char*, std::optional<double>> steps[] = {
            {"empty", timed(compile_only(empty_recipe, includes, "empty.cpp"), dir)},
            {"header", timed(compile_only(header_recipe, includes, "header.cpp"), dir)},
            {"header_whole", timed(compile_only(whole_recipe, includes, "header-whole.cpp"), dir)},
            {"program", timed(compile_only(program, includes, "program.cpp"), dir)},
            {"boilerplate_read", timed(compile_only(boilerplate_read, includes, "boilerplate.cpp"), dir)},
            {"boilerplate_precompiled", timed(compile_only(boilerplate, includes, "boilerplate.cpp"), dir)},
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
    times.header_whole = median_of(samples["header_whole"]);
    times.boilerplate_read = median_of(samples["boilerplate_read"]);
    times.boilerplate_precompiled = median_of(samples["boilerplate_precompiled"]);
    times.program = median_of(samples["program"]);
    times.link = median_of(samples["link"]);
    times.bare_true = median_of(samples["bare_true"]);
    times.jailed_true = median_of(samples["jailed_true"]);
    times.whole = median_of(samples["whole"]);
    return times;
}

}  // namespace blockcheck
