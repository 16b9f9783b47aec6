// Issue 21: a student's source is never compiled as root. As root, with bubblewrap switched off for
// compiles (BLOCKCHECK_COMPILE_SANDBOX=0, the path of a container and of `grade --no-sandbox`), the
// compiler runs as a throw-away uid; where none can compile, the compile is refused. Skipped (and
// said so) when the tests do not run as root.
#include "checker/compile/compile.hpp"
#include "checker/compile/compile_parts.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "run_testing.hpp"
#include "source_tree.hpp"
#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::TempDir;

using testing::write_file;

std::string read_all(const fs::path& file) { return testing::file_text(file); }

// Sets an environment variable for one test, and puts back what was there.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        ::setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (old_) ::setenv(name_, old_->c_str(), 1);
        else ::unsetenv(name_);
    }

private:
    const char* name_;
    std::optional<std::string> old_;
};

bool root_or_skip() {
    if (::geteuid() == 0) return true;
    MESSAGE("skipped: compiling as a throw-away uid needs the tests to run as root");
    return false;
}

}  // namespace

TEST_CASE("compile uid: as root without bubblewrap, .incbin of a root-only file does not reach the binary") {
    if (!root_or_skip()) return;
    ScopedEnv no_bwrap("BLOCKCHECK_COMPILE_SANDBOX", "0");
    TempDir secret_dir("compile-secret"), sources("compile-uid-src"), cache("compile-uid-cache");
    const fs::path secret = secret_dir.path / "secret";
    const std::string secret_text = "blockcheck-root-only-7f3a9c";
    write_file(secret, secret_text);
    REQUIRE(::chmod(secret.c_str(), 0600) == 0);
    write_file(sources.path / "steal.cpp", "asm(\".incbin \\\"" + secret.string() + "\\\"\");\nint main() {}\n");

    const CompileResult stolen = compile_program(sources.path / "steal.cpp", {}, cache.path);
    CHECK_MESSAGE(stolen.status == CompileStatus::rejected, stolen.diagnostics);
    if (stolen.ok()) CHECK(read_all(stolen.binary).find(secret_text) == std::string::npos);
    CHECK(stolen.diagnostics.find(secret_text) == std::string::npos);

    // An honest program still compiles, its binary is the grader's again, and its sealed entry is a hit.
    write_file(sources.path / "fine.cpp", "#include <cstdio>\nint main() { std::puts(\"fine\"); }\n");
    const CompileResult fine = compile_program(sources.path / "fine.cpp", {}, cache.path);
    REQUIRE_MESSAGE(fine.ok(), fine.diagnostics);
    struct stat st {};
    REQUIRE(::stat(fine.binary.c_str(), &st) == 0);
    CHECK(st.st_uid == 0);
    CHECK((st.st_mode & 07777) == 0755);
    CHECK(compile_program(sources.path / "fine.cpp", {}, cache.path).cached);
    CHECK(run_process({fine.binary.string()}, {}, Limits{}).out == "fine\n");
    REQUIRE(::stat(cache.path.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0711);
}

TEST_CASE("compile uid: the compiler's jail as root without bubblewrap runs as a throw-away uid, not 0") {
    if (!root_or_skip()) return;
    ScopedEnv no_bwrap("BLOCKCHECK_COMPILE_SANDBOX", "0");
    TempDir cache("compile-uid-cache");
    const fs::path build = cache.path / "build-probe";
    fs::create_directories(build);
    const compile_parts::CompilerJail jail = compile_parts::compiler_jail(Sandbox{build, {}}, cache.path);
    REQUIRE_MESSAGE(jail.refused.empty(), jail.refused);
    CHECK(jail.sandbox == nullptr);
    CHECK(jail.uid >= 1'900'000'000u);
    const RunResult id = compile_parts::run_compiler({"id", "-u"}, build, compiler_limits(), jail);
    REQUIRE_MESSAGE(id.status == RunStatus::exited, id.error);
    CHECK(id.out != "0\n");
    CHECK(id.out == std::to_string(jail.uid) + "\n");
    // The build folder is the uid's to write in.
    const RunResult touch = compile_parts::run_compiler({"touch", "written"}, build, compiler_limits(), jail);
    CHECK(touch.exit_code == 0);
    struct stat st {};
    REQUIRE(::stat((build / "written").c_str(), &st) == 0);
    CHECK(st.st_uid == jail.uid);
}

TEST_CASE("compile uid: as root with bubblewrap, the compiler runs inside it as a throw-away uid") {
    if (!root_or_skip()) return;
    if (!Sandbox::available()) {
        MESSAGE("skipped: bubblewrap does not work here");
        return;
    }
    TempDir cache("compile-uid-cache");
    const fs::path build = cache.path / "build-probe";
    fs::create_directories(build);
    const Sandbox sandbox{build, {}};
    const compile_parts::CompilerJail jail = compile_parts::compiler_jail(sandbox, cache.path);
    REQUIRE_MESSAGE(jail.refused.empty(), jail.refused);
    CHECK(jail.sandbox == &sandbox);
    REQUIRE(jail.uid >= 1'900'000'000u);
    const RunResult id = compile_parts::run_compiler({"id", "-u"}, build, compiler_limits(), jail);
    REQUIRE_MESSAGE(id.status == RunStatus::exited, (id.error + id.err));
    CHECK(id.out == std::to_string(jail.uid) + "\n");
}

TEST_CASE("compile uid: as root, a folder the throw-away uid cannot read refuses the compile without bubblewrap") {
    if (!root_or_skip()) return;
    ScopedEnv no_bwrap("BLOCKCHECK_COMPILE_SANDBOX", "0");
    TempDir closed("compile-uid-closed"), cache("compile-uid-cache");
    const fs::path include = closed.path / "include";
    fs::create_directories(include);
    write_file(include / "blockcheck.hpp", "#pragma once\ninline int answer() { return 42; }\n");
    write_file(closed.path / "uses.cpp", "#include \"blockcheck.hpp\"\nint main() { return answer() - 42; }\n");
    REQUIRE(::chmod(closed.path.c_str(), 0700) == 0);

    const CompileResult refused = compile_program(closed.path / "uses.cpp", include, cache.path, compiler_limits(),
                                                  CompileWay::classic);
    CHECK(refused.status == CompileStatus::grader_fault);
    CHECK_MESSAGE(refused.diagnostics.find("refusing to compile a student's program as root without bubblewrap") !=
                      std::string::npos,
                  refused.diagnostics);
    CHECK_MESSAGE(refused.diagnostics.find(closed.path.string()) != std::string::npos, refused.diagnostics);
}
