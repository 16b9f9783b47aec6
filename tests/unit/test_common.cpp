// The plumbing of checker/common: whole-file reads, atomic writes, hashing, JSON field readers.
#include "checker/common/files.hpp"
#include "checker/common/hashing.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/common/json_fields.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;
using testing::TempDir;

TEST_CASE("files: what write_file_atomically writes, read_file reads back, and no temporary is left") {
    TempDir dir("common-files");
    const fs::path file = dir.path / "out.txt";
    const std::string bytes("line\n\0binary\xff", 13);
    write_file_atomically(file, bytes);
    CHECK(read_file(file) == bytes);
    write_file_atomically(file, "shorter");
    CHECK(read_file(file) == "shorter");
    CHECK(read_file_if_readable(file) == std::optional<std::string>("shorter"));
    std::size_t entries = 0;
    for (const auto& entry : fs::directory_iterator(dir.path)) entries += entry.path() == file ? 1 : 100;
    CHECK(entries == 1);
}

TEST_CASE("files: a file that cannot be read or written is an error naming it and the reason") {
    TempDir dir("common-files-bad");
    const fs::path missing = dir.path / "missing.json";
    CHECK_FALSE(read_file_if_readable(missing));
    CHECK_THROWS_WITH_AS(read_file(missing), (missing.string() + ": cannot read (No such file or directory)").c_str(),
                         InputFileError);
    CHECK_THROWS_WITH_AS(read_file(dir.path), doctest::Contains("Is a directory"), InputFileError);
    CHECK_THROWS_WITH_AS(read_json_exact(missing), doctest::Contains("missing.json: cannot read"), InputFileError);
    const fs::path nowhere = dir.path / "no-such-folder" / "out.txt";
    CHECK_THROWS_WITH_AS(write_file_atomically(nowhere, "x"),
                         ("cannot write " + nowhere.string() + ": No such file or directory").c_str(), FileWriteError);
    // a file the user named (--out): the same message, as bad input
    CHECK_THROWS_WITH_AS(write_named_file(nowhere, "x"),
                         ("cannot write " + nowhere.string() + ": No such file or directory").c_str(), InputFileError);
}

TEST_CASE("files: read_file with a limit refuses a larger file before reading it") {
    TempDir dir("common-files-limit");
    const fs::path file = dir.path / "big.bin";
    write_file_atomically(file, std::string(100, 'x'));
    CHECK(read_file(file, 100) == std::string(100, 'x'));
    CHECK_THROWS_WITH_AS(read_file(file, 99), (file.string() + ": 100 bytes is beyond the limit of 99").c_str(),
                         InputFileError);
    CHECK_THROWS_WITH_AS(read_file(dir.path / "none", 99), doctest::Contains("none: cannot read"), InputFileError);
}

TEST_CASE("hashing: content_hash is 64-bit FNV-1a") {
    CHECK(content_hash("") == 0xcbf29ce484222325ull);
    CHECK(content_hash("a") == 0xaf63dc4c8601ec8cull);
    CHECK(content_hash("foobar") == 0x85944171f73967e8ull);
    CHECK(content_hash("b", content_hash("a")) == content_hash("ab"));
}

TEST_CASE("hashing: fields cannot run into each other, and hex is 16 lower-case digits") {
    const std::uint64_t seed = content_hash("seed");
    CHECK(hash_field(hash_field(seed, "ab"), "c") != hash_field(hash_field(seed, "a"), "bc"));
    CHECK(hash_field(seed, "x") == content_hash("x", content_hash("1:", seed)));
    CHECK(hex(0xcbf29ce484222325ull) == "cbf29ce484222325");
    CHECK(hex(1) == "0000000000000001");
    CHECK(compiler_identity("no-such-compiler-blockcheck") == "no-such-compiler-blockcheck");
    CHECK(compiler_identity("g++").find("|") != std::string::npos);
}

TEST_CASE("json fields: every message reads FILE: FIELD: expected ..., got ...") {
    const auto json = parse_json_exact(R"({"name": 3, "title": {"en": "A", "zh": ""}, "extra": true})", "f.json");
    CHECK(field_path("f.json:", "name") == "f.json: name");
    CHECK(field_path("f.json: claims[2]", "id") == "f.json: claims[2].id");
    CHECK_THROWS_WITH_AS(string_field(json, "name", "f.json:"), "f.json: name: expected a non-empty string, got 3",
                         InputFileError);
    CHECK_THROWS_WITH_AS(string_field(json, "id", "f.json:"), "f.json: id: missing field", InputFileError);
    CHECK_THROWS_WITH_AS(text_field(json, "title", "f.json:"), "f.json: title.zh: expected a non-empty string, got \"\"",
                         InputFileError);
    CHECK_THROWS_WITH_AS(reject_unknown_fields(json, {"name", "title"}, "f.json:"), "f.json: extra: unknown field",
                         InputFileError);
    CHECK(optional_string_field(json, "absent", "f.json:").empty());
}
