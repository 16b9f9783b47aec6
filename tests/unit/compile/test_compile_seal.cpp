// The compile cache believes only what this user's compiler built from the inputs it sees: a hit
// compares the inputs stored in the entry's seal byte for byte, and the seal's HMAC vouches for
// the entry's files. A planted, altered or colliding entry is a miss, and the right binary is built.
#include "checker/common/files.hpp"
#include "checker/run/cache_seal.hpp"
#include "checker/compile/compile.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

std::string printing(const std::string& word) {
    return "#include <cstdio>\nint main() { std::puts(\"" + word + "\"); }\n";
}

// The same through the students' header, which brings <cstdio>.
std::string printing_with_header(const std::string& word) {
    return "#include \"blockcheck.hpp\"\nint main() { std::puts(\"" + word + "\"); }\n";
}

CompileResult compiled(const fs::path& source, const std::string& text, const fs::path& include, const fs::path& cache) {
    write_file_atomically(source, text);
    CompileResult result = compile_program(source, include, cache);
    REQUIRE_MESSAGE(result.ok(), result.diagnostics);
    return result;
}

std::string output_of(const CompileResult& build) { return run_process({build.binary.string()}, {}, Limits{}).out; }

// Copies the files of the entry `from` (binary, log, seal: those it has) over those of `to`.
void copy_entry(const fs::path& from, const fs::path& to) {
    for (const std::string suffix : {"", ".log", ".seal"}) {
        fs::path target = to;
        target += suffix;
        fs::path source = from;
        source += suffix;
        if (fs::exists(source)) fs::copy_file(source, target, fs::copy_options::overwrite_existing);
    }
}

// The one folder of the cache whose name starts with `prefix` (pch-, lib-).
fs::path folder_starting(const fs::path& cache, const std::string& prefix) {
    fs::path found;
    for (const auto& entry : fs::directory_iterator(cache))
        if (entry.is_directory() && entry.path().filename().string().starts_with(prefix)) found = entry.path();
    REQUIRE_MESSAGE(!found.empty(), "no " << prefix << " folder in " << cache);
    return found;
}

}  // namespace

TEST_CASE("compile cache: another source's entry under a program's key is a miss, and the right binary is built") {
    testing::TempDir dir("compile-seal");
    const fs::path cache = dir.path / "cache";
    const CompileResult a = compiled(dir.path / "a.cpp", printing("A"), {}, cache);
    const CompileResult b = compiled(dir.path / "b.cpp", printing("B"), {}, cache);
    REQUIRE(a.binary != b.binary);
    // A collision, simulated: b's key now holds a's whole entry, its seal made by this very user.
    copy_entry(a.binary, b.binary);
    const CompileResult again = compile_program(dir.path / "b.cpp", {}, cache);
    REQUIRE(again.ok());
    CHECK_FALSE(again.cached);  // the stored inputs are a's source, not b's
    CHECK(again.binary == b.binary);
    CHECK(output_of(again) == "B\n");
    CHECK(compile_program(dir.path / "b.cpp", {}, cache).cached);  // rebuilt and sealed again
}

TEST_CASE("compile cache: a binary planted under a program's key is rebuilt, never run") {
    testing::TempDir dir("compile-seal");
    const fs::path cache = dir.path / "cache";
    const CompileResult solved = compiled(dir.path / "solved.cpp", printing("solved"), {}, cache);
    const CompileResult blank = compiled(dir.path / "blank.cpp", printing("template"), {}, cache);
    fs::copy_file(solved.binary, blank.binary, fs::copy_options::overwrite_existing);  // the seal stays the template's
    const CompileResult again = compile_program(dir.path / "blank.cpp", {}, cache);
    REQUIRE(again.ok());
    CHECK_FALSE(again.cached);
    CHECK(output_of(again) == "template\n");

    SUBCASE("an entry without a seal, as a repository would carry it, is rebuilt") {
        fs::copy_file(solved.binary, blank.binary, fs::copy_options::overwrite_existing);
        fs::remove(fs::path(blank.binary.string() + ".seal"));
        CHECK(output_of(compile_program(dir.path / "blank.cpp", {}, cache)) == "template\n");
    }
    SUBCASE("a link planted for the binary, to a copy of it elsewhere, is never followed: the entry is rebuilt") {
        const CompileResult fresh = compile_program(dir.path / "blank.cpp", {}, cache);
        REQUIRE(fresh.cached);
        const fs::path elsewhere = dir.path / "elsewhere";
        fs::copy_file(fresh.binary, elsewhere);  // the very bytes the seal vouches for
        fs::remove(fresh.binary);
        fs::create_symlink(elsewhere, fresh.binary);
        const CompileResult rebuilt = compile_program(dir.path / "blank.cpp", {}, cache);
        CHECK_FALSE(rebuilt.cached);
        CHECK_FALSE(fs::is_symlink(rebuilt.binary));
        CHECK(output_of(rebuilt) == "template\n");
    }
    SUBCASE("a planted failure does not make a good program fail") {
        fs::remove(blank.binary);
        write_file_atomically(blank.binary.string() + ".fail", "blank.cpp:1:1: error: planted");
        const CompileResult rebuilt = compile_program(dir.path / "blank.cpp", {}, cache);
        CHECK(rebuilt.ok());
        CHECK_FALSE(rebuilt.cached);
    }
}

TEST_CASE("compile cache: an altered header archive or precompiled header is rebuilt before a program uses it") {
    testing::TempDir dir("compile-seal");
    const fs::path cache = dir.path / "cache", chapters = fs::path(BLOCKCHECK_SOURCE_DIR) / "chapters";
    compiled(dir.path / "first.cpp", printing_with_header("first"), chapters, cache);
    const fs::path archive = folder_starting(cache, "lib-") / "libblockcheck-header.a";
    const fs::path pch = folder_starting(cache, "pch-");
    const auto archive_bytes = fs::file_size(archive);
    write_file_atomically(archive, read_file(archive) + "planted object");
    write_file_atomically(pch / "preamble.hpp", "#error planted in the file every compile reads first\n");
    const CompileResult other = compiled(dir.path / "second.cpp", printing_with_header("other"), chapters, cache);
    CHECK(output_of(other) == "other\n");
    CHECK(fs::file_size(archive) == archive_bytes);
    CHECK(read_file(pch / "preamble.hpp") == "#include \"blockcheck.hpp\"\n");
}

TEST_CASE("cache seal: holds for the same inputs and files only") {
    testing::TempDir dir("cache-seal");
    const fs::path file = dir.path / "entry", seal = dir.path / "entry.seal";
    write_file_atomically(file, "binary bytes");
    write_seal(seal, "inputs", {file});
    CHECK(seal_holds(seal, "inputs", {file}));
    CHECK_FALSE(seal_holds(seal, "inputs2", {file}));  // the stored inputs are compared, not a hash of them
    CHECK_FALSE(seal_holds(dir.path / "none.seal", "inputs", {file}));
    write_file_atomically(file, "binary byteS");
    CHECK_FALSE(seal_holds(seal, "inputs", {file}));
    write_file_atomically(file, "binary bytes");
    const std::string text = read_file(seal);
    write_file_atomically(seal, text.substr(0, 20) + (text[20] == '0' ? "1" : "0") + text.substr(21));  // a forged tag
    CHECK_FALSE(seal_holds(seal, "inputs", {file}));

    SUBCASE("a seal of the files' identity fails when a file is rewritten, even with the same bytes") {
        write_seal(seal, "inputs", {file}, SealOf::identity);
        CHECK(seal_holds(seal, "inputs", {file}, SealOf::identity));
        CHECK_FALSE(seal_holds(seal, "inputs", {file}));  // a seal says what it binds
        write_file_atomically(file, "binary bytes");
        CHECK_FALSE(seal_holds(seal, "inputs", {file}, SealOf::identity));
    }
}

TEST_CASE("cache seal: the secret is this user's alone, outside the work tree") {
    CHECK(cache_secret().size() == 32);
    const fs::path file = cache_secret_path();
    if (file.empty() || !fs::exists(file)) return;  // no home: a secret for this process only
    struct stat st{};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK(read_file(file) == cache_secret());
}

TEST_CASE("compile cache: the header's builds outlive the compiles that read them (no rebuild per program)") {
    testing::TempDir dir("compile-seal");
    const fs::path cache = dir.path / "cache", chapters = fs::path(BLOCKCHECK_SOURCE_DIR) / "chapters";
    compiled(dir.path / "first.cpp", printing_with_header("first"), chapters, cache);
    const fs::path pch = folder_starting(cache, "pch-") / "preamble.hpp.gch";
    const fs::path archive = folder_starting(cache, "lib-") / "libblockcheck-header.a";
    struct stat before_pch {}, before_archive {}, after {};
    REQUIRE(::stat(pch.c_str(), &before_pch) == 0);
    REQUIRE(::stat(archive.c_str(), &before_archive) == 0);
    // As root each compile runs as a throw-away uid and opens these folders to it; a chmod there
    // changed the files' ctime, broke their seals, and rebuilt both for the next program.
    for (const std::string word : {"second", "third"})
        CHECK(output_of(compiled(dir.path / (word + ".cpp"), printing_with_header(word), chapters, cache)) == word + "\n");
    REQUIRE(::stat(pch.c_str(), &after) == 0);
    CHECK(after.st_ino == before_pch.st_ino);
    CHECK(after.st_ctim.tv_nsec == before_pch.st_ctim.tv_nsec);
    REQUIRE(::stat(archive.c_str(), &after) == 0);
    CHECK(after.st_ino == before_archive.st_ino);
}
