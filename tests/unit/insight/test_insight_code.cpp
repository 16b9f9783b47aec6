// The normal form of a program: the same after comments, whitespace and names change, different
// when the structure or a literal does.
#include "bench/grading_bench.hpp"
#include "checker/insight/insight_code.hpp"
#include "source_tree.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;

TEST_CASE("code_shape ignores comments, whitespace and renamed identifiers, keeps keywords and library names") {
    const std::string a = "#include <cmath>\n// mine\nint main() { double total = 0; for (int i = 0; i < 3; ++i) total += std::sqrt(i); "
                          "printf(\"%g\", total); }\n";
    const std::string b = "#include <cmath>\n/* a different\n comment */ int main()\n{\n\tdouble sum=0;\n\tfor(int k=0;k<3;++k) sum+=std::sqrt(k);\n"
                          "  printf(\"%g\",sum);\n}\n";
    CHECK(code_shape(a) == code_shape(b));
    CHECK(normalised_tokens(a) == normalised_tokens(b));
    const std::vector<std::string> tokens = normalised_tokens("double x = y * x; std::exp(x); z.exp;");
    CHECK(tokens == std::vector<std::string>{"double", "$1", "=", "$2", "*", "$1", ";", "std", "::", "exp", "(", "$1", ")", ";",
                                             "$3", ".", "exp", ";"});
    // a changed literal, an extra statement, a different library call: different programs
    CHECK(code_shape(a) != code_shape("#include <cmath>\nint main() { double t = 0; for (int i = 0; i < 4; ++i) t += std::sqrt(i); printf(\"%g\", t); }"));
    CHECK(code_shape(a) != code_shape("#include <cmath>\nint main() { double t = 0; for (int i = 0; i < 3; ++i) t += std::exp(i); printf(\"%g\", t); }"));
    // a comment marker inside a string is text, and a raw string is one token
    CHECK(normalised_tokens("s = \"// not a comment\"; r = R\"x(a \" b)x\";").size() == 8);
    CHECK(shape_tokens(code_shape(a)) == normalised_tokens(a).size());
    CHECK(shape_tokens("") == 0);
}

TEST_CASE("the benchmark generator's personalised copies of one program share its shape; its helper keeps them apart otherwise") {
    const std::string solved = testing::file_text(testing::repository() / "tests/solved/ch25/swiglu_ffn_2d.cpp");
    REQUIRE(!solved.empty());
    // students 7 and 12: other names, comments and indentation, the same helper (k % 5 + 1)
    CHECK(personalised_program(solved, 7) != personalised_program(solved, 12));
    CHECK(code_shape(personalised_program(solved, 7)) == code_shape(personalised_program(solved, 12)));
    CHECK(code_shape(personalised_program(solved, 7)) != code_shape(personalised_program(solved, 8)));
}
