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

TEST_CASE("hashing: content_hash is SHA-256, printed as 64 lower-case hex digits") {
    // FIPS 180-2's examples
    CHECK(hex(content_hash("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(hex(content_hash("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(Hasher().raw("a").raw("bc").hex() == hex(content_hash("abc")));
    CHECK(leading_u64(content_hash("abc")) == 0xba7816bf8f01cfeaull);
}

TEST_CASE("hashing: keyed is HMAC-SHA-256") {
    // RFC 4231, test case 2
    CHECK(Hasher::keyed("Jefe").raw("what do ya want for nothing?").hex() ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    CHECK(Hasher::keyed("Jefe").field("x").hex() != Hasher::keyed("jefe").field("x").hex());
}

TEST_CASE("hashing: fields cannot run into each other, and a digest can be taken midway") {
    CHECK(Hasher().field("ab").field("c").hex() != Hasher().field("a").field("bc").hex());
    CHECK(Hasher().field("x").hex() == hex(content_hash("1:x")));
    const Digest seed = content_hash("seed");
    CHECK(hash_field(hash_field(seed, "ab"), "c") != hash_field(hash_field(seed, "a"), "bc"));
    CHECK(hash_field(seed, "x") == content_hash(std::string(seed.begin(), seed.end()) + "1:x"));
    Hasher running;
    running.field("first");
    const std::string midway = running.hex();
    CHECK(running.hex() == midway);  // taking a digest does not end the hash
    CHECK(running.field("second").hex() == Hasher().field("first").field("second").hex());
    CHECK(same_bytes("tag", "tag"));
    CHECK_FALSE(same_bytes("tag", "tab"));
    CHECK_FALSE(same_bytes("tag", "tags"));
    CHECK(random_bytes(32).size() == 32);
    CHECK(random_bytes(32) != random_bytes(32));
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
