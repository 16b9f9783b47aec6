// Compiling exercise programs with g++, cached by content (docs/caches.md). Cache folder layout,
// every <key> the SHA-256 (64 hex digits) of everything that decides the entry:
//   <key>            the binary of a successful compile
//   <key>.log        its warnings (trimmed), possibly empty
//   <key>.fail       the trimmed diagnostics of a failed compile
//   <key>.seal       the entry's inputs in full (source, headers, flags, compiler) and an HMAC of
//                    them and of its files under this user's secret (cache_seal.hpp)
//   <key>.run-<hash> what the binary printed on one input (run_cache.hpp, the student's loop only)
//   compiler-<id>.txt  `g++ --version` of the compiler binary identified by <id> (path, size, mtime)
//   build-<key>-<n>/ a private build folder, removed afterwards
//   build-service-<n>/  a resident clang service's folder (compile_service.cpp): its executable's
//                    copy and the build folders of the compiles it serves; removed when it ends
//   pch-<key>/       a program's leading #include lines precompiled (preamble.hpp and its .gch;
//                    CompileWay::fast; sealed inside, .seal)
//   lib-<key>/libblockcheck-header.a  the students' header compiled once (CompileWay::fast; sealed)
// An entry whose seal does not hold (planted, altered, another source under the same key) is a
// miss and is rebuilt. A cache hit marks its entry used, for cache_prune.hpp.
#include "checker/compile/compile.hpp"

#include "checker/common/files.hpp"
#include "checker/common/submission_file.hpp"
#include "checker/common/hashing.hpp"
#include "checker/common/stale_sweep.hpp"
#include "checker/run/cache_prune.hpp"
#include "checker/run/cache_seal.hpp"
#include "checker/compile/compile_parts.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdint>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

namespace blockcheck {

namespace fs = std::filesystem;
using namespace compile_parts;

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

using Clock = std::chrono::steady_clock;

// A submission file's name without its folder: how it is written into the build folder.
std::string base_name(const std::string& name) { return name.substr(name.rfind('/') + 1); }

// Everything that decides a program's binary: the flags (the way's, the linker's), the compiler,
// the source's name and bytes, every header in include_dir and the program's own headers.
EntryInputs program_inputs(std::string_view source_name, std::string_view source_text, const fs::path& include_dir,
                           std::string_view version, const std::vector<std::string>& flags,
                           const std::vector<SubmissionFile>& own_headers) {
    EntryInputs inputs("blockcheck-compile-4");
    for (const std::string& flag : flags) inputs.add(flag);
    inputs.add(version).add(source_name).add(source_text).add_headers(include_dir);
    for (const SubmissionFile& header : own_headers) inputs.add("beside:" + base_name(header.name)).add(header.bytes);
    return inputs;
}

struct EntryFiles {
    fs::path binary, log, fail, seal;
};

EntryFiles entry_files(const fs::path& cache_dir, const std::string& key) {
    return {cache_dir / key, cache_dir / (key + ".log"), cache_dir / (key + ".fail"), cache_dir / (key + ".seal")};
}

// A binary or a recorded failure for these inputs, if the cache has one its seal vouches for.
std::optional<CompileResult> cached_result(const fs::path& cache_dir, const EntryInputs& inputs) {
    const EntryFiles entry = entry_files(cache_dir, inputs.key());
    if (::access(entry.binary.c_str(), X_OK) == 0 && seal_holds(entry.seal, inputs.text(), {entry.binary, entry.log})) {
        touch_cache_entry(entry.binary);
        return CompileResult{CompileStatus::compiled, entry.binary, read_file_if_readable(entry.log).value_or(""), true};
    }
    if (seal_holds(entry.seal, inputs.text(), {entry.fail})) {  // only the compiler's own rejections are cached
        touch_cache_entry(entry.fail);
        return CompileResult{CompileStatus::rejected, {}, read_file_if_readable(entry.fail).value_or(""), true};
    }
    return std::nullopt;
}

// Whatever stands under a key whose seal did not hold (planted, altered, stale), before it is rebuilt.
void discard_entry(const fs::path& cache_dir, const std::string& key) {
    const EntryFiles entry = entry_files(cache_dir, key);
    std::error_code ignored;
    for (const fs::path& path : {entry.binary, entry.log, entry.fail, entry.seal}) fs::remove_all(path, ignored);
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

// The precompiled preamble's lines named as the program's own in an include chain (`In file
// included from x.cpp:2`, not from the preamble.hpp it was precompiled as), as g++ on the program
// alone words them.
std::string preamble_as_source(const std::string& text, const Recipe& recipe, const std::string& name) {
    if (recipe.preamble.empty()) return text;
    const std::string from = "from " + recipe.preamble.filename().string() + ":";
    std::string out;
    std::size_t at = 0;
    for (std::size_t hit = text.find(from); hit != std::string::npos; hit = text.find(from, at)) {
        std::size_t end = hit + from.size();
        while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
        const std::string digits = text.substr(hit + from.size(), end - hit - from.size());
        const std::size_t line = digits.empty() || digits.size() > 6 ? 0 : std::stoul(digits);
        out.append(text, at, hit - at);
        if (line >= 1 && line <= recipe.preamble_lines.size())
            out += "from " + name + ":" + std::to_string(recipe.preamble_lines[line - 1]);
        else
            out.append(text, hit, end - hit);
        at = end;
    }
    return out.append(text, at, std::string::npos);
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
            if (run.signal == SIGXFSZ)
                return "the compiler stopped at the file size limit (" + std::to_string(limits.file_bytes >> 20) + " MiB)";
            return "the compiler was killed by signal " + std::to_string(run.signal) + " (memory limit " +
                   std::to_string(mib) + " MiB)";
        case RunStatus::failed_to_start: return "cannot run the compiler: " + run.error;
        case RunStatus::exited:
            return "the compiler ran out of memory (limit " + std::to_string(mib) + " MiB)";
    }
    return {};
}

// One of the compiler's own lines saying it gave up for lack of memory, as gcc, cc1plus and the
// linkers word it: "virtual memory exhausted: ...", "cc1plus: out of memory allocating N bytes
// ...", "terminate called after throwing an instance of 'std::bad_alloc'", "mold: fatal:
// std::bad_alloc". A diagnostic ("x.hpp:3:5: error: ...") and a quoted source line ("  126 | ...
// std::bad_alloc") are not: a broken header quotes <new>'s lines in its ordinary errors.
bool says_out_of_memory(std::string_view line) {
    if (line.starts_with("virtual memory exhausted") ||
        line.starts_with("terminate called after throwing an instance of 'std::bad_alloc'"))
        return true;
    const std::size_t colon = line.find(": ");
    const std::string_view tool = line.substr(0, colon);
    const auto tool_char = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("+-_.").find(c) != std::string_view::npos;
    };
    if (colon == std::string_view::npos || tool.empty() || !std::all_of(tool.begin(), tool.end(), tool_char)) return false;
    std::string_view said = line.substr(colon + 2);
    if (said.starts_with("fatal: ")) said.remove_prefix(std::string_view("fatal: ").size());
    return said.starts_with("out of memory allocating") || said.starts_with("std::bad_alloc");
}

// The compiler seems to have given up for lack of memory (one of its own lines says so; a program
// can forge them, e.g. by a file's name): not cached, and judged by the known-good probe like any
// other limit stop.
bool out_of_memory(const RunResult& run) {
    std::string_view text = run.err;
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        if (says_out_of_memory(text.substr(0, end))) return true;
        text.remove_prefix(std::min(end + 1, text.size()));
    }
    return false;
}

constexpr const char* binary_name = "blockcheck-program.out";

// The compiler (or the linker it ran) stopped at the file size limit: a file in the build folder
// reached max_binary_bytes, or it was killed by SIGXFSZ. Facts of the file system and the kernel,
// not of the messages.
// A failed compile whose linker says it met the limit counts too (a program forging that line only
// loses its own cached rejection).
bool wrote_too_much(const RunResult& run, const fs::path& build_dir) {
    if (run.status == RunStatus::signaled && run.signal == SIGXFSZ) return true;
    if (run.status == RunStatus::exited && run.exit_code != 0 &&
        run.err.find("File size limit exceeded") != std::string::npos)  // "signal terminated program as"
        return true;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(build_dir, ec))
        if (entry.is_regular_file(ec) && entry.file_size(ec) >= max_binary_bytes && !ec) return true;
    return false;
}

struct BuildDir {
    fs::path path;
    ~BuildDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

// The compiler as one build runs it: a process of its own (run_compiler), or the resident clang
// service's (nullopt when the service failed).
using RunCompiler = std::function<std::optional<RunResult>(const std::vector<std::string>& argv, const Limits& limits)>;

// A program that compiles anywhere, compiled in `dir` with `argv` (the flags, without a source)
// under the same limits, sandbox and uid: when it fails too, the compiler or its limits are at fault,
// not the student's program. Probed every time (a compiler can vanish or break mid-run), which
// costs one tiny compile per failure that is not cached yet.
bool probe_compiles(std::vector<std::string> argv, const fs::path& dir, const Limits& limits, const CompilerJail& jail,
                    const RunCompiler& run) {
    constexpr const char* probe = "blockcheck-probe.cpp";
    write_cache_file(dir / probe, "#include <cstdio>\nint main() { std::puts(\"ok\"); }\n");
    if (jail.uid != 0 && ::lchown((dir / probe).c_str(), jail.uid, jail.uid) != 0) return false;
    argv.insert(argv.end(), {probe, "-o", "blockcheck-probe.out"});
    const std::optional<RunResult> ran = run(argv, limits);
    return ran && succeeded(*ran);
}

// The folders a compile of `recipe` reads besides its build folder (read-only in its jail).
std::vector<fs::path> readonly_dirs(const Recipe& recipe, const fs::path& include_dir) {
    std::vector<fs::path> dirs;
    if (!recipe.preamble.empty()) dirs.push_back(recipe.preamble.parent_path());
    if (!recipe.pch.empty()) dirs.push_back(recipe.pch.parent_path());
    if (fs::is_directory(include_dir)) dirs.push_back(include_dir);
    if (!recipe.archive.empty()) dirs.push_back(recipe.archive.parent_path());
    return dirs;
}

// Runs g++ in a private folder holding a copy of the source; stores the outcome in the cache.
CompileResult build(const SubmittedProgram& program,
                    const fs::path& include_dir, const fs::path& cache_dir, const EntryInputs& inputs,
                    const std::string& version, const Recipe& recipe, const Limits& limits, const std::string& display) {
    // What an interrupted run left behind: half-written files, and build folders an hour old.
    sweep_stale(cache_dir, ".tmp-");
    sweep_stale(cache_dir, "build-", std::chrono::hours(1));
    const std::string key = inputs.key();
    const EntryFiles entry = entry_files(cache_dir, key);
    // clang's compiles go to a resident service where one serves (compile_service.cpp), their
    // build folder inside the service's own.
    ServiceLease service =
        recipe.compiler != "g++" ? lease_clang_service(cache_dir, readonly_dirs(recipe, include_dir)) : ServiceLease{};
    BuildDir dir{(service ? service.folder() : cache_dir) / ("build-" + key + "-" + unique_suffix())};
    fresh_folder(dir.path);
    const std::string name = base_name(program.source.name);
    write_cache_file(dir.path / name, program.source.bytes);
    for (const SubmissionFile& header : program.headers) write_cache_file(dir.path / base_name(header.name), header.bytes);
    std::vector<std::string> argv{recipe.compiler};
    argv.insert(argv.end(), recipe.flags.begin(), recipe.flags.end());
    const Sandbox sandbox{dir.path, readonly_dirs(recipe, include_dir)};
    if (!recipe.preamble.empty()) argv.insert(argv.end(), {"-include", recipe.preamble.string()});
    if (!recipe.pch.empty()) argv.insert(argv.end(), {"-include-pch", recipe.pch.string()});
    if (!include_dir.empty()) argv.push_back("-I" + include_dir.string());
    std::vector<std::string> argv_prefix = argv;  // the known-good probe's: no source, no archive
    argv_prefix.insert(argv_prefix.end(), recipe.link_flags.begin(), recipe.link_flags.end());
    argv.push_back(name);
    if (!recipe.pch_object.empty()) argv.push_back(recipe.pch_object.string());
    if (!recipe.archive.empty()) argv.push_back(recipe.archive.string());
    argv.insert(argv.end(), recipe.link_flags.begin(), recipe.link_flags.end());
    argv.insert(argv.end(), {"-o", binary_name});
    const CompilerJail jail = service ? service.jail_for(dir.path) : compiler_jail(sandbox, cache_dir);
    if (!jail.refused.empty()) return {CompileStatus::grader_fault, {}, jail.refused};
    const RunCompiler compile = [&](const std::vector<std::string>& args, const Limits& under) -> std::optional<RunResult> {
        if (service) return service.compile(args, dir.path, under);
        return run_compiler(args, dir.path, under, jail);
    };
    Limits program_limits = limits;  // the compiler writes no file larger than the biggest program
    program_limits.file_bytes = std::min<std::size_t>(limits.file_bytes ? limits.file_bytes : SIZE_MAX, max_binary_bytes);
    std::optional<RunResult> ran = compile(argv, program_limits);
    // The service failed (a grader fault, never the program's): built again by a clang++ process.
    if (!ran) return build(program, include_dir, cache_dir, inputs, version, recipe, limits, display);
    RunResult run = std::move(*ran);
    std::string messages = shorten_paths(preamble_as_source(run.err, recipe, name), include_dir, dir.path);
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
    if (wrote_too_much(run, dir.path))  // the program's own size: never cached
        return {CompileStatus::rejected, {},
                "the compiled program would be larger than " + std::to_string(max_binary_bytes >> 20) +
                    " MiB (the compiler stopped writing it)"};
    const bool finished = run.status == RunStatus::exited && !out_of_memory(run);
    if (!finished) {
        const std::string reason = describe_limit_stop(run, limits);
        const CompileStatus whose =
            probe_compiles(argv_prefix, dir.path, limits, jail, compile) ? CompileStatus::rejected : CompileStatus::grader_fault;
        return {whose, {}, diagnostics.empty() ? reason : reason + "\n" + diagnostics};
    }
    if (run.exit_code != 0) {
        if (diagnostics.empty()) diagnostics = recipe.compiler + " failed with exit code " + std::to_string(run.exit_code);
        if (!probe_compiles(argv_prefix, dir.path, limits, jail, compile))
            return {CompileStatus::grader_fault, {}, "the compiler fails on a known-good program too\n" + diagnostics};
        write_cache_file(entry.fail, diagnostics);
        write_seal(entry.seal, inputs.text(), {entry.fail});
        CompileResult rejected{CompileStatus::rejected, {}, diagnostics};
        rejected.stored = {entry.fail, entry.seal};
        return rejected;
    }
    write_cache_file(entry.log, diagnostics);
    if (!reclaim_output(dir.path / binary_name, jail))
        return {CompileStatus::grader_fault, {}, "cannot take the compiled binary back from the compiler's uid"};
    std::error_code ec;
    fs::rename(dir.path / binary_name, entry.binary, ec);  // atomic: the binary appears whole
    if (ec)
        return {CompileStatus::grader_fault, {}, "cannot store the binary in '" + cache_dir.string() + "': " + ec.message()};
    write_seal(entry.seal, inputs.text(), {entry.binary, entry.log});
    CompileResult compiled{CompileStatus::compiled, entry.binary, diagnostics};
    compiled.stored = {entry.binary, entry.log, entry.seal};
    return compiled;
}

}  // namespace

namespace compile_parts {

namespace {

std::string run_version(const std::string& compiler) {
    Limits limits;
    limits.wall_seconds = 10;
    limits.cpu_seconds = 10;
    RunResult result = run_process({compiler, "--version"}, {}, limits);
    if (result.status != RunStatus::exited || result.exit_code != 0) return {};
    return result.out.substr(0, result.out.find('\n'));
}

}  // namespace

// `g++ --version`, once per process; on disk by compiler identity, so that a cache hit in a
// fresh process does not pay for starting the compiler.
std::string compiler_version(const std::string& compiler, const fs::path& cache_dir) {
    static std::mutex mutex;
    static std::map<std::string, std::string> versions;  // by compiler
    std::lock_guard lock(mutex);
    std::string& known = versions[compiler];
    if (!known.empty()) return known;
    const fs::path memo = cache_dir / ("compiler-" + hex(content_hash(compiler_identity(compiler))) + ".txt");
    if (auto text = read_file_if_readable(memo); text && !text->empty()) return known = *text;
    known = run_version(compiler);
    if (!known.empty()) write_cache_file(memo, known);
    return known;
}

}  // namespace compile_parts

CompileResult compile_program(const SubmittedProgram& program, const fs::path& include_dir, const fs::path& cache_dir,
                              const Limits& limits, CompileWay way, const std::string& display) {
    const auto start = Clock::now();
    auto finish = [&](CompileResult result) {
        result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        result.notes = program.notes;
        return result;
    };
    if (!program.readable())  // its mode, kind or size is the submission's doing
        return finish({CompileStatus::rejected, {}, program.problem.en});
    std::error_code ec;
    fs::create_directories(cache_dir, ec);
    if (!fs::is_directory(cache_dir, ec))
        return finish({CompileStatus::grader_fault, {}, "cannot create cache folder '" + cache_dir.string() + "'"});
    const fs::path cache = fs::absolute(cache_dir).lexically_normal();
    const fs::path includes = include_dir.empty() ? fs::path{} : fs::absolute(include_dir).lexically_normal();

    const std::string version = compiler_version("g++", cache);
    const std::string& source_text = program.source.bytes;
    try {
        const Recipe recipe = recipe_for(way, source_text, includes, cache, version, limits, !program.headers.empty());
        const bool clang = recipe.compiler != "g++";
        std::vector<std::string> flags = recipe.flags;
        flags.insert(flags.end(), recipe.link_flags.begin(), recipe.link_flags.end());
        if (clang) flags.insert(flags.end(), {recipe.compiler, compiler_version(recipe.compiler, cache)});
        const EntryInputs inputs = program_inputs(base_name(program.source.name) + "\n" + display, source_text, includes,
                                                  version, flags, program.headers);
        auto named = [&](CompileResult result) {
            result.compiler = clang ? "clang" : "g++";
            // the clang way's own fault (its compiler gone, broken): g++ for the rest of the run
            if (clang && result.status == CompileStatus::grader_fault) clang_failed();
            return finish(std::move(result));
        };
        if (auto hit = cached_result(cache, inputs)) return named(*hit);
        auto guard = in_flight().acquire(inputs.key());
        if (auto hit = cached_result(cache, inputs)) return named(*hit);  // another thread just built it
        discard_entry(cache, inputs.key());  // planted, altered or another source's: never run, rebuilt
        return named(build(program, includes, cache, inputs, version, recipe, limits, display));
    } catch (const std::exception& error) {
        return finish({CompileStatus::grader_fault, {}, "cannot compile '" + program.source.name + "': " + error.what()});
    }
}

CompileResult compile_program(const fs::path& source, const fs::path& include_dir, const fs::path& cache_dir,
                              const Limits& limits, CompileWay way, const std::string& display) {
    const fs::path folder = source.parent_path().empty() ? fs::path(".") : source.parent_path();
    SubmittedProgram program = read_program(folder, source.filename().string(), Links::follow_and_report);
    if (!program.readable())
        program.problem.en = "cannot read source file '" + source.string() + "': " + program.problem.en;
    return compile_program(program, include_dir, cache_dir, limits, way, display);
}

}  // namespace blockcheck
