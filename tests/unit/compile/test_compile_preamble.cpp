// What a program's text lets the fast compile precompile (compile_preamble.hpp), and what a
// compile with a precompiled preamble says and does: as the program compiled alone.
#include "checker/common/files.hpp"
#include "checker/compile/compile.hpp"
#include "checker/compile/compile_parts.hpp"
#include "checker/compile/compile_preamble.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "temp_dir.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> students = {"blockcheck.hpp"};

}  // namespace

TEST_CASE("preamble: the leading include lines, canonical, with the program's line numbers") {
    const Preamble p = leading_includes("// Exercise 3\n\n#include   \"blockcheck.hpp\"  // the header\n#include<cmath>\r\n"
                                        "  # include <vector>\nusing namespace bc;\n#include <numeric>\n",
                                        students);
    CHECK(p.lines == std::vector<std::string>{"#include \"blockcheck.hpp\"", "#include <cmath>", "#include <vector>"});
    CHECK(p.source_lines == std::vector<int>{3, 4, 5});
    CHECK(p.text() == "#include \"blockcheck.hpp\"\n#include <cmath>\n#include <vector>\n");
    CHECK(leading_includes("\xEF\xBB\xBF#include \"blockcheck.hpp\"\n", students).source_lines == std::vector<int>{1});
}

TEST_CASE("preamble: the run ends at anything it cannot vouch for") {
    // a block comment, a directive, a quoted header not in the include folder, a folder, a splice
    CHECK(leading_includes("/* mine */\n#include \"blockcheck.hpp\"\n", students).empty());
    CHECK(leading_includes("#include <cmath>\n#define N 3\n#include <vector>\n", students).lines.size() == 1);
    CHECK(leading_includes("#include \"mine.hpp\"\n#include \"blockcheck.hpp\"\n", students).empty());
    CHECK(leading_includes("#include <sys/mman.h>\n", students).empty());
    CHECK(leading_includes("#include <cmath>\n#include \\\n<vector>\n", students).lines.size() == 1);
    CHECK(leading_includes("int x;\n#include <cmath>\n", students).empty());
}

TEST_CASE("prebuilt header: a line splice sends the program to the inline header") {
    CHECK(prebuilt_header_safe("#include \"blockcheck.hpp\"\nint main() {}\n"));
    CHECK_FALSE(prebuilt_header_safe("#include \"blockcheck.hpp\"\nvoid b\\\nc::undefined(const char*) {}\n"));
    CHECK_FALSE(prebuilt_header_safe("#include \"blockcheck.hpp\"\nint x = 1; \\  \nint main() {}\n"));
    CHECK_FALSE(prebuilt_header_safe("#include \"blockcheck.hpp\"\n#define X 1\n"));
}

TEST_CASE("special functions: left out only where the program cannot tell") {
    const std::string head = "#include \"blockcheck.hpp\"\n";
    CHECK(special_functions_unused(head + "int main() { double beta_fast = 32, alpha = 1; return int(beta_fast + alpha); }\n"));
    CHECK(special_functions_unused(head + "int main() { return 1e5 > 0; }\n"));
    for (const char* body : {"double beta = 0.5;", "float x = std::riemann_zetaf(2.f);", "long double y = std::expintl(1);",
                             "// uses std::legendre\n", "int __x = 1;", "long v = __STDCPP_MATH_SPEC_FUNCS__;", "int _Y = 2;",
                             "double be\\u0074a = 1;", "double hyperg = 1;"})
        CHECK_MESSAGE(!special_functions_unused(head + body + "\nint main() {}\n"), body);
    CHECK_FALSE(special_functions_unused(head + "#include <tr1/cmath>\nint main() {}\n"));
    CHECK_FALSE(special_functions_unused(head + "double be\\\nta = 1;\nint main() {}\n"));  // a splice joins a name
    CHECK_FALSE(special_functions_unused("#define X 1\n" + head));
    CHECK(special_function_names().size() == 25);
}

TEST_CASE("preamble: a precompiled preamble compiles and words its messages as the program alone") {
    testing::TempDir dir("compile-preamble");
    const fs::path cache = dir.path / "cache", chapters = fs::path(BLOCKCHECK_SOURCE_DIR) / "chapters";
    // the header twice (g++ alone compiles it; a precompiled header found through -I once did not)
    write_file_atomically(dir.path / "twice.cpp", "// mine\n#include \"blockcheck.hpp\"\n#include \"blockcheck.hpp\"\n"
                                                  "int main() { bc::answer(\"x\", 1.5); }\n");
    const CompileResult twice = compile_program(dir.path / "twice.cpp", chapters, cache);
    CHECK_MESSAGE(twice.ok(), twice.diagnostics);
    // an error inside the header: "In file included from text.cpp:2", never the preamble's file
    write_file_atomically(dir.path / "text.cpp", "// mine\n#include \"blockcheck.hpp\"\nint main() { bc::answer(\"x\", \"no\"); }\n");
    const CompileResult text = compile_program(dir.path / "text.cpp", chapters, cache, compiler_limits(), CompileWay::fast,
                                               "chapters/ch25/text.cpp");
    REQUIRE_FALSE(text.ok());
    CHECK(text.diagnostics.find("chapters/ch25/text.cpp:2") != std::string::npos);
    CHECK(text.diagnostics.find("preamble") == std::string::npos);
    CHECK(text.diagnostics.find("static assertion failed") != std::string::npos);
}

TEST_CASE("preamble: a longer run of includes is precompiled from its second use, the header alone until then") {
    testing::TempDir dir("compile-preamble");
    const fs::path cache = dir.path / "cache", chapters = fs::path(BLOCKCHECK_SOURCE_DIR) / "chapters";
    fs::create_directories(cache);
    const std::string version = compile_parts::compiler_version("g++", cache);
    const std::string source = "#include \"blockcheck.hpp\"\n#include <cstdint>\nint main() { return 0; }\n";
    const auto first = compile_parts::recipe_for(CompileWay::fast, source, chapters, cache, version, compiler_limits());
    REQUIRE_FALSE(first.preamble.empty());
    CHECK(read_file(first.preamble) == "#include \"blockcheck.hpp\"\n");
    CHECK(first.preamble_lines == std::vector<int>{1});
    const auto second = compile_parts::recipe_for(CompileWay::fast, source, chapters, cache, version, compiler_limits());
    CHECK(read_file(second.preamble) == "#include \"blockcheck.hpp\"\n#include <cstdint>\n");
    CHECK(second.preamble_lines == std::vector<int>{1, 2});
    // a one-off that does not start with the header gets nothing precompiled; the reference way never does
    CHECK(compile_parts::recipe_for(CompileWay::fast, "#include <cstdint>\n#include <cmath>\nint main() {}\n", chapters, cache,
                                    version, compiler_limits())
              .preamble.empty());
    CHECK(compile_parts::recipe_for(CompileWay::classic, source, chapters, cache, version, compiler_limits()).preamble.empty());
    // headers of its own beside the program (one could name std::beta): nothing precompiled, nothing left out
    const auto own = compile_parts::recipe_for(CompileWay::fast, source, chapters, cache, version, compiler_limits(), true);
    CHECK(own.preamble.empty());
    CHECK(own.archive.empty());
    CHECK(std::find(own.flags.begin(), own.flags.end(), "-D_GLIBCXX_BITS_SPECFUN_H=1") == own.flags.end());
}

TEST_CASE("preamble: only a header wholly inside an include guard is precompiled before the program reads it again") {
    CHECK(include_guarded(read_file(fs::path(BLOCKCHECK_SOURCE_DIR) / "chapters" / "blockcheck.hpp")));
    CHECK(include_guarded("// mine\n#ifndef MINE_H\n#define MINE_H\nint x;\n#endif  // MINE_H\n\n"));
    CHECK_FALSE(include_guarded("constexpr int value = 1;\n"));
    CHECK_FALSE(include_guarded("#ifndef A\n#define B\nint x;\n#endif\n"));
    CHECK_FALSE(include_guarded("#ifndef A\n#define A\nint x;\n#endif\nint y;\n"));
    CHECK(leading_includes("#include \"value.hpp\"\n", {}, {"value.hpp"}).empty());
    CHECK(leading_includes("#include <value.hpp>\n", {}, {"value.hpp"}).empty());
}

TEST_CASE("preamble: a guard closed before the end of the header is no guard") {
    CHECK_FALSE(include_guarded("#ifndef A\n#define A\n#endif\nint x;\n#ifndef B\n#endif\n"));
    CHECK(include_guarded("#ifndef A\n#define A\n#ifdef X\nint y;\n#endif\n#if 1\n#endif\n#endif\n"));
    CHECK_FALSE(include_guarded("/* c */\n#ifndef A\n#define A\n#endif\n"));  // a block comment first: not recognised
}

TEST_CASE("prebuilt header: `bc` named anywhere but in its using-directive sends the program to the inline header") {
    const std::string head = "#include \"blockcheck.hpp\"\nusing namespace bc;\n";
    CHECK(prebuilt_header_safe(head + "// bc:: in a comment is fine\nint main() { answer(\"x\", 1); }\n"));
    CHECK(prebuilt_header_safe(head + "int main() { const char* s = \"http://x\"; answer(\"x\", s[0]); }\n"));
    for (const char* code : {"void bc/**/::undefined(const char*) {}", "namespace/**/bc { inline void undefined(const char*) {} }",
                             "namespace mine = bc;", "int main() { bc::answer(\"x\", 1); }", "using namespace bc ; int bc;",
                             "void f() asm(\"_ZN2bc9undefinedEPKc\");", "auto s = R\"(x)\";"})
        CHECK_MESSAGE(!prebuilt_header_safe(head + code + "\n"), code);
}

TEST_CASE("preamble: a line of tens of thousands of characters is never given to a regex (no stack overflow)") {
    // A red team's 30 KB comment line first in a source crashed a class run in std::regex.
    const std::string long_comment = "//" + std::string(200'000, 'a') + "\n";
    const std::string long_include = "#include <" + std::string(200'000, 'a') + ">\n";
    CHECK(leading_includes(long_comment + "#include \"blockcheck.hpp\"\n", students).empty());
    CHECK(leading_includes("#include <cmath>\n" + long_include, students).lines.size() == 1);
    CHECK_FALSE(include_guarded("#ifndef G\n#define G\n" + long_comment + "#endif\n"));
    CHECK_FALSE(prebuilt_header_safe("#include \"blockcheck.hpp\"\n" + long_include + "int main() {}\n"));
    CHECK_FALSE(special_functions_unused(long_include + "int main() {}\n"));
    CHECK(prebuilt_header_safe(long_comment + "#include \"blockcheck.hpp\"\nint main() {}\n"));
}
