// The one opener of what a student handed in (issue 31): beneath the submission, never through a
// link, never blocking, a regular file only, never /proc or /sys, capped; with the openat2 path
// and the O_NOFOLLOW walk of kernels without it.
#include "checker/common/submission_file.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;
using testing::TempDir;

namespace {

void put_submission_file(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
}

bool says(const Text& text, const std::string& part) { return text.en.find(part) != std::string::npos && !text.zh.empty(); }

// Runs the body with openat2 and with the walk of kernels before it.
template <class Body>
void both_ways(Body body) {
    for (bool openat2 : {true, false}) {
        CAPTURE(openat2);
        use_openat2_for_submissions(openat2);
        body();
    }
    use_openat2_for_submissions(true);
}

}  // namespace

TEST_CASE("submission file: a regular file is read whole, with its hash and its name inside the submission") {
    TempDir dir("submission-file");
    put_submission_file(dir.path / "chapters/ch25/x.cpp", "int main() {}\n");
    both_ways([&] {
        const SubmissionRead read = open_submission_file(dir.path, "chapters/ch25/x.cpp", 1 << 20);
        REQUIRE(read.file);
        CHECK(read.problem.en.empty());
        CHECK(read.file->bytes == "int main() {}\n");
        CHECK(read.file->name == "chapters/ch25/x.cpp");
        CHECK(read.file->hash == content_hash("int main() {}\n"));
    });
}

TEST_CASE("submission file: links, at the end or on the way, and paths out of the submission are refused and named") {
    TempDir dir("submission-file"), outside("submission-outside");
    put_submission_file(outside.path / "secret.txt", "SECRET");
    put_submission_file(dir.path / "real/x.hpp", "ok");
    fs::create_symlink(outside.path / "secret.txt", dir.path / "x.hpp");
    fs::create_symlink("real/x.hpp", dir.path / "inside.hpp");  // even a link that stays inside
    fs::create_symlink(outside.path, dir.path / "via");
    both_ways([&] {
        for (const std::string name : {"x.hpp", "inside.hpp"}) {
            const SubmissionRead read = open_submission_file(dir.path, name, 1 << 20);
            CHECK_FALSE(read.file);
            CHECK_MESSAGE(says(read.problem, name + " is a link; links are not graded; hand in the file"), read.problem.en);
        }
        const SubmissionRead via = open_submission_file(dir.path, "via/secret.txt", 1 << 20);
        CHECK_FALSE(via.file);
        CHECK_MESSAGE(says(via.problem, "is a link"), via.problem.en);
        const SubmissionRead up = open_submission_file(dir.path / "real", "../x.hpp", 1 << 20);
        CHECK_FALSE(up.file);
        CHECK_MESSAGE(says(up.problem, "outside the submission"), up.problem.en);
    });
}

TEST_CASE("submission file: a pipe, a device and a file over the cap are refused at once, unread") {
    TempDir dir("submission-file");
    REQUIRE(::mkfifo((dir.path / "pipe.hpp").c_str(), 0644) == 0);  // a read would block forever
    put_submission_file(dir.path / "big.cpp", std::string(2000, 'x'));
    both_ways([&] {
        const SubmissionRead pipe = open_submission_file(dir.path, "pipe.hpp", 1 << 20);
        CHECK_FALSE(pipe.file);
        CHECK_MESSAGE(says(pipe.problem, "pipe.hpp is a pipe, not a regular file"), pipe.problem.en);
        const SubmissionRead big = open_submission_file(dir.path, "big.cpp", 1024);
        CHECK_FALSE(big.file);
        CHECK_MESSAGE(says(big.problem, "big.cpp is larger than 1 KiB"), big.problem.en);
    });
}

TEST_CASE("submission file: a student's own links are followed and reported, never into /proc, /sys or a device") {
    TempDir dir("submission-file"), outside("submission-outside");
    put_submission_file(outside.path / "mine.hpp", "int mine;\n");
    fs::create_symlink(outside.path / "mine.hpp", dir.path / "mine.hpp");
    fs::create_symlink("/proc/self/environ", dir.path / "environ.hpp");
    fs::create_symlink("/proc/kmsg", dir.path / "kmsg.hpp");  // blocks on read, as root
    fs::create_symlink("/sys/kernel/mm/transparent_hugepage/enabled", dir.path / "sys.hpp");
    fs::create_symlink("/dev/zero", dir.path / "zero.hpp");
    const SubmissionRead mine = open_submission_file(dir.path, "mine.hpp", 1 << 20, Links::follow_and_report);
    REQUIRE(mine.file);
    CHECK(mine.file->bytes == "int mine;\n");
    CHECK_MESSAGE(says(mine.note, "mine.hpp is a link: read here, but the grader does not follow links"), mine.note.en);
    for (const char* name : {"environ.hpp", "kmsg.hpp", "sys.hpp"}) {
        if (!fs::exists(dir.path / name)) continue;
        const SubmissionRead read = open_submission_file(dir.path, name, 1 << 20, Links::follow_and_report);
        CHECK_FALSE(read.file);
        CHECK_MESSAGE(says(read.problem, "kernel file system"), name << ": " << read.problem.en);
    }
    const SubmissionRead zero = open_submission_file(dir.path, "zero.hpp", 1 << 20, Links::follow_and_report);
    CHECK_FALSE(zero.file);
    CHECK_MESSAGE(says(zero.problem, "zero.hpp is a device"), zero.problem.en);
}

TEST_CASE("submission file: a program's headers beside it are read once, by name; what is not read is noted") {
    TempDir dir("submission-file"), outside("submission-outside");
    put_submission_file(dir.path / "ch/x.cpp", "#include \"b.hpp\"\n");
    put_submission_file(dir.path / "ch/b.hpp", "int b;\n");
    put_submission_file(dir.path / "ch/a.h", "int a;\n");
    put_submission_file(dir.path / "ch/notes.txt", "not a header");
    put_submission_file(outside.path / "s.hpp", "SECRET");
    fs::create_symlink(outside.path / "s.hpp", dir.path / "ch/leak.hpp");
    REQUIRE(::mkfifo((dir.path / "ch/fifo.hh").c_str(), 0644) == 0);
    both_ways([&] {
        const SubmittedProgram program = read_program(dir.path, "ch/x.cpp");
        REQUIRE(program.readable());
        CHECK(program.source.bytes == "#include \"b.hpp\"\n");
        REQUIRE(program.headers.size() == 2);
        CHECK(program.headers[0].name == "ch/a.h");
        CHECK(program.headers[1].name == "ch/b.hpp");
        CHECK(program.headers[1].bytes == "int b;\n");
        const std::string notes = notes_text(program.notes, Lang::en);
        CHECK_MESSAGE(notes.find("ch/leak.hpp is a link; links are not graded; hand in the file") != std::string::npos, notes);
        CHECK_MESSAGE(notes.find("ch/fifo.hh is a pipe") != std::string::npos, notes);
        CHECK(notes.find("SECRET") == std::string::npos);
    });
    const SubmittedProgram missing = read_program(dir.path, "ch/none.cpp");
    CHECK_FALSE(missing.readable());
    CHECK_MESSAGE(says(missing.problem, "ch/none.cpp: cannot open"), missing.problem.en);
}
