// Unpacking students' archives: what is written, and what makes an archive the student's error.
#include "checker/batch/archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <doctest/doctest.h>

#include <memory>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "temp_dir.hpp"
#include "source_tree.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::file_text;
using testing::TempDir;

// Every path below `dir`, relative, sorted.
std::vector<std::string> tree(const fs::path& dir) {
    std::vector<std::string> paths;
    for (const auto& e : fs::recursive_directory_iterator(dir)) paths.push_back(e.path().lexically_relative(dir).generic_string());
    std::sort(paths.begin(), paths.end());
    return paths;
}

std::string extract_error(const fs::path& archive, const fs::path& target, const ArchiveLimits& limits = {}) {
    try {
        extract_archive(archive, target, limits);
    } catch (const ArchiveError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("archive: names are recognised with their extension, and the id drops it") {
    CHECK(is_archive_name("ada.zip"));
    CHECK(is_archive_name("ada.TAR.GZ"));
    CHECK(is_archive_name("ada.tgz"));
    CHECK(is_archive_name("ada.tar"));
    CHECK_FALSE(is_archive_name("ada.cpp"));
    CHECK_FALSE(is_archive_name(".zip"));
    CHECK(archive_stem("ada.lovelace.tar.gz") == "ada.lovelace");
    CHECK(archive_stem("bob.zip") == "bob");
}

TEST_CASE("archive: entry names are normalised, and names that leave the folder are refused") {
    CHECK(safe_entry_path("./a//b/./c.cpp") == fs::path("a/b/c.cpp"));
    CHECK(safe_entry_path("a/../b.cpp") == fs::path("b.cpp"));
    CHECK(safe_entry_path("win\\dows\\x.cpp") == fs::path("win/dows/x.cpp"));
    CHECK_THROWS_WITH_AS(safe_entry_path("../evil.cpp"), doctest::Contains("leaves"), ArchiveError);
    CHECK_THROWS_WITH_AS(safe_entry_path("a/../../evil.cpp"), doctest::Contains("leaves"), ArchiveError);
    CHECK_THROWS_WITH_AS(safe_entry_path("/etc/passwd"), doctest::Contains("absolute"), ArchiveError);
    CHECK_THROWS_WITH_AS(safe_entry_path("C:\\evil.cpp"), doctest::Contains("absolute"), ArchiveError);
    CHECK_THROWS_AS(safe_entry_path("."), ArchiveError);
    CHECK_THROWS_AS(safe_entry_path(std::string(2000, 'a')), ArchiveError);
}

TEST_CASE("archive: a zip and a tar.gz unpack to the same files") {
    TempDir dir("archive-ok");
    const std::vector<ArchiveEntry> entries{{"ada/chapters/ch25/x.cpp", "int main() {}\n", "", false},
                                            {"ada/notes.txt", "hello", "", false},
                                            {"ada/empty.txt", "", "", false}};
    for (const char* name : {"ada.zip", "ada.tar.gz"}) {
        CAPTURE(name);
        write_archive(dir.path / name, entries);
        const fs::path target = dir.path / (std::string(name) + "-out");
        const Unpacked u = extract_archive(dir.path / name, target);
        CHECK(u.bytes == 19);
        CHECK(file_text(target / "ada/chapters/ch25/x.cpp") == "int main() {}\n");
        CHECK(file_text(target / "ada/notes.txt") == "hello");
        CHECK(tree(target) == std::vector<std::string>{"ada", "ada/chapters", "ada/chapters/ch25", "ada/chapters/ch25/x.cpp",
                                                       "ada/empty.txt", "ada/notes.txt"});
        CHECK((fs::status(target / "ada/notes.txt").permissions() & fs::perms::owner_exec) == fs::perms::none);
    }
}

TEST_CASE("archive: a ../ entry is never written; it is named, and the rest is unpacked") {
    TempDir dir("archive-dotdot");
    for (const char* name : {"evil.zip", "evil.tar.gz"}) {
        CAPTURE(name);
        write_archive(dir.path / name, {{"good.cpp", "ok", "", false}, {"../escaped.cpp", "bad", "", false}});
        const fs::path target = dir.path / "sub" / name;
        const Unpacked u = extract_archive(dir.path / name, target);
        CHECK(u.skipped == std::vector<std::string>{"../escaped.cpp: path leaves the submission folder: not unpacked"});
        CHECK(tree(target) == std::vector<std::string>{"good.cpp"});
        CHECK_FALSE(fs::exists(dir.path / "sub" / "escaped.cpp"));
        CHECK_FALSE(fs::exists(dir.path / "escaped.cpp"));
    }
}

TEST_CASE("archive: an absolute entry is never written") {
    TempDir dir("archive-absolute");
    write_archive(dir.path / "abs.tar.gz", {{(dir.path / "absolute-escape.cpp").string(), "bad", "", false}, {"a.cpp", "ok", "", false}});
    const Unpacked u = extract_archive(dir.path / "abs.tar.gz", dir.path / "out");
    REQUIRE(u.skipped.size() == 1);
    CHECK(u.skipped[0].ends_with(": absolute path: not unpacked"));
    CHECK_FALSE(fs::exists(dir.path / "absolute-escape.cpp"));
    CHECK(tree(dir.path / "out") == std::vector<std::string>{"a.cpp"});
}

TEST_CASE("archive: links are never created; each is named with its target, and the rest is unpacked") {
    TempDir dir("archive-links");
    SUBCASE("a symbolic link to an absolute path") {
        write_archive(dir.path / "a.tar.gz", {{"x.cpp", "", "/etc/passwd", false}, {"y.cpp", "int y;", "", false}});
        const Unpacked u = extract_archive(dir.path / "a.tar.gz", dir.path / "out");
        CHECK(u.skipped == std::vector<std::string>{"x.cpp: a link to '/etc/passwd': links are not unpacked"});
        CHECK(tree(dir.path / "out") == std::vector<std::string>{"y.cpp"});
    }
    SUBCASE("a symbolic link climbing out") {
        write_archive(dir.path / "a.zip", {{"d/x.cpp", "", "../../other/x.cpp", false}});
        const Unpacked u = extract_archive(dir.path / "a.zip", dir.path / "out");
        CHECK(u.skipped == std::vector<std::string>{"d/x.cpp: a link to '../../other/x.cpp': links are not unpacked"});
    }
    SUBCASE("a link, then a file written through it") {
        // The classic: link "d" -> the folder above, then "d/planted.cpp". The link is never made,
        // so "d" becomes a folder of the submission and the file lands inside it.
        write_archive(dir.path / "a.tar.gz", {{"d", "", dir.path.string(), false}, {"d/planted.cpp", "bad", "", false}});
        const Unpacked u = extract_archive(dir.path / "a.tar.gz", dir.path / "out");
        CHECK(u.skipped.size() == 1);
        CHECK(tree(dir.path / "out") == std::vector<std::string>{"d", "d/planted.cpp"});
        CHECK_FALSE(fs::is_symlink(dir.path / "out/d"));
        CHECK_FALSE(fs::exists(dir.path / "planted.cpp"));
    }
    SUBCASE("a hard link to a path outside") {
        write_archive(dir.path / "a.tar.gz", {{"x.cpp", "", "../../etc/passwd", true}});
        const Unpacked u = extract_archive(dir.path / "a.tar.gz", dir.path / "out");
        CHECK(u.skipped == std::vector<std::string>{"x.cpp: a hard link to '../../etc/passwd': links are not unpacked"});
    }
    SUBCASE("a link inside the folder") {
        write_archive(dir.path / "a.tar.gz", {{"d/real.cpp", "int x;", "", false}, {"d/alias.cpp", "", "real.cpp", false}});
        const Unpacked u = extract_archive(dir.path / "a.tar.gz", dir.path / "out");
        CHECK(u.skipped == std::vector<std::string>{"d/alias.cpp: a link to 'real.cpp': links are not unpacked"});
        CHECK(tree(dir.path / "out") == std::vector<std::string>{"d", "d/real.cpp"});
    }
    SUBCASE("a name with terminal escapes is named printably") {
        write_archive(dir.path / "a.zip", {{"\x1b[2J.cpp", "", "/etc/passwd", false}});
        const Unpacked u = extract_archive(dir.path / "a.zip", dir.path / "out");
        CHECK(u.skipped == std::vector<std::string>{"\\x1B[2J.cpp: a link to '/etc/passwd': links are not unpacked"});
    }
}

TEST_CASE("archive: too many files stop the unpacking; a bomb's file is dropped and nothing after it is written") {
    TempDir dir("archive-limits");
    std::vector<ArchiveEntry> many;
    for (int i = 0; i < 30; ++i) many.push_back({"f" + std::to_string(i), "x", "", false});
    write_archive(dir.path / "many.zip", many);
    ArchiveLimits limits;
    limits.max_files = 20;
    CHECK(extract_error(dir.path / "many.zip", dir.path / "out1", limits).find("more than 20 entries") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path / "out1"));
    // A compression bomb: 8 MiB of zeros compress to a few KiB.
    write_archive(dir.path / "bomb.tar.gz", {{"a.cpp", "int a;", "", false},
                                             {"zeros.cpp", std::string(8 << 20, '\0'), "", false},
                                             {"z.cpp", "int z;", "", false}});
    CHECK(fs::file_size(dir.path / "bomb.tar.gz") < 100000);
    limits = {};
    limits.max_total_bytes = 1 << 20;
    const Unpacked u = extract_archive(dir.path / "bomb.tar.gz", dir.path / "out2", limits);
    CHECK(u.skipped == std::vector<std::string>{"zeros.cpp: unpacks past 1 MiB (the limit of a submission): not unpacked",
                                                "z.cpp: not unpacked: the archive's files pass 1 MiB before it"});
    CHECK(tree(dir.path / "out2") == std::vector<std::string>{"a.cpp"});
    CHECK(u.bytes == 6);
}

TEST_CASE("archive: a file that is not an archive is the student's error") {
    TempDir dir("archive-garbage");
    std::ofstream(dir.path / "junk.zip", std::ios::binary) << std::string("PK\x03\x04 this is not really a zip", 30);
    CHECK_FALSE(extract_error(dir.path / "junk.zip", dir.path / "out").empty());
    std::ofstream(dir.path / "empty.tar.gz", std::ios::binary) << "";
    CHECK_NOTHROW(extract_archive(dir.path / "empty.tar.gz", dir.path / "out-empty"));  // an empty archive is just empty
}

TEST_CASE("archive: only the format its name says is read (a 7-Zip file named .zip is refused, never sniffed)") {
    // libarchive's 7-Zip and ar readers take a link body or a string table whole into memory
    // before any limit of ours: a 2 KB file cost the grader gigabytes (the red team's find).
    TempDir dir("archive-format");
    const fs::path fake = dir.path / "mallory.zip";
    {
        std::unique_ptr<archive, decltype(&archive_write_free)> w(archive_write_new(), archive_write_free);
        REQUIRE(archive_write_set_format_7zip(w.get()) == ARCHIVE_OK);
        REQUIRE(archive_write_open_filename(w.get(), fake.c_str()) == ARCHIVE_OK);
        std::unique_ptr<archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(), archive_entry_free);
        const std::string body = "int main() {}\n";
        archive_entry_set_pathname(e.get(), "x.cpp");
        archive_entry_set_filetype(e.get(), AE_IFREG);
        archive_entry_set_perm(e.get(), 0644);
        archive_entry_set_size(e.get(), static_cast<la_int64_t>(body.size()));
        REQUIRE(archive_write_header(w.get(), e.get()) == ARCHIVE_OK);
        REQUIRE(archive_write_data(w.get(), body.data(), body.size()) == static_cast<la_ssize_t>(body.size()));
        REQUIRE(archive_write_close(w.get()) == ARCHIVE_OK);
    }
    CHECK(extract_error(fake, dir.path / "out").find("mallory.zip: not a readable archive") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path / "out" / "x.cpp"));
    fs::copy_file(fake, dir.path / "mallory.tar");  // nor as a tar
    CHECK(extract_error(dir.path / "mallory.tar", dir.path / "out2").find("mallory.tar: ") != std::string::npos);
}
