// What a student handed in is opened by one function only (checker/common/submission_file.hpp,
// issue 31): every direct file read in the rooms that grade a class, compile and run programs (ifstream, fopen, open, read_file) is one
// of the grader's own files, listed here with what it reads. A new one fails this test until it
// goes through the opener or is listed with its reason.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include "source_tree.hpp"

namespace fs = std::filesystem;
using blockcheck::testing::file_text;
using blockcheck::testing::repository;

namespace {

// File name -> direct reads allowed in it, none of them a submission's file.
const std::map<std::string, int>& allowed_direct_reads() {
    static const std::map<std::string, int> allowed = {
        {"archive.cpp", 1},        // writes an archive's member into the grader's own unpacking folder
        {"cmd_insight.cpp", 1},    // the results json the grader wrote
        {"gradescope.cpp", 1},     // Gradescope's submission_metadata.json, Gradescope's file beside the submission
        {"grading_bench.cpp", 4},  // the repository's templates and solved programs, which the bench grades
        {"lms.cpp", 1},            // the teacher's roster
        {"merge.cpp", 3},          // results of earlier shards
        {"output_lock.cpp", 1},    // the output folder's lock
        {"resume.cpp", 5},         // the grader binary, the course headers, exercise definitions, earlier results
        {"cache_seal.cpp", 3},     // the cache secret and sealed entries
        {"compile.cpp", 3},        // cache entries (logs, failures, the compiler's version)
        {"compile_headers.cpp", 3},  // the course's header folder
        {"compile_parts.cpp", 1},  // the course's header folder, for keys
        {"compile_steps.cpp", 1},  // the repository's programs the compile-steps bench times
        {"compile_user.cpp", 1},   // the binary the throw-away uid wrote, reclaimed without following links
        {"jail_runner.cpp", 1},    // the program's copy inside the jail
        {"jail_session.cpp", 2},   // /dev/null, and the compiled binary from the cache
        {"run_cache.cpp", 3},      // run records and binaries of the cache
        {"sandbox.cpp", 1},        // /proc/<pid>/status of the grader's own children
    };
    return allowed;
}

int direct_reads(const std::string& text) {
    static const std::regex read(R"((std::ifstream|\bfopen\s*\(|[^\w.>]open\s*\(|\bopenat\s*\(|\bread_file(_if_readable)?\s*\())");
    int count = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        const std::string code = line.substr(0, line.find("//"));
        count += static_cast<int>(std::distance(std::sregex_iterator(code.begin(), code.end(), read), std::sregex_iterator()));
        start = end + 1;
    }
    return count;
}

}  // namespace

TEST_CASE("submission reads: the batch, outputs, insight, compile and run rooms read no file directly beyond the listed grader's own") {
    std::map<std::string, int> found;
    for (const char* room : {"checker/batch", "checker/outputs", "checker/insight", "checker/compile", "checker/run", "bench"})
        for (const auto& entry : fs::recursive_directory_iterator(repository() / room))
            if (entry.path().extension() == ".cpp" || entry.path().extension() == ".hpp")
                found[entry.path().filename().string()] += direct_reads(file_text(entry.path()));
    for (const auto& [file, count] : found) {
        const auto allowed = allowed_direct_reads().find(file);
        const int limit = allowed == allowed_direct_reads().end() ? 0 : allowed->second;
        CHECK_MESSAGE(count <= limit, file << " reads " << count << " file(s) directly, " << limit
                                           << " allowed: open a submission's files with read_program or "
                                              "open_submission_file (checker/common/submission_file.hpp)");
    }
    CHECK(direct_reads("std::ifstream in(path);\nauto t = read_file_if_readable(p); // read_file(x)\n::open(p, 0);") == 3);
}
