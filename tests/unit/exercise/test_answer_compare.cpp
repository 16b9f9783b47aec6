// Grading answer parts against real references computed at 50 digits.
#include "checker/exercise/answer_compare.hpp"
#include "solutions/block/ffn.hpp"
#include "solutions/block/real.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>

using namespace blockcheck;

namespace {

// 3 / sqrt(12.5) = sqrt(0.72): RMSNorm of [3, 4], first element.
Real rms_first() {
    using std::sqrt;
    return sqrt(parse_real<Real>("0.72"));
}

// The same at 100 digits, printed to `digits` significant digits.
std::string rms_first_text(int digits) {
    using std::sqrt;
    return to_decimal(sqrt(parse_real<Mpfr100>("0.72")), digits);
}

// What an honest double computation prints with %.17g.
std::string double_text(double x) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    return buffer;
}

// `text` with its `n`th significant digit (1-based) changed.
std::string change_significant_digit(std::string text, int n) {
    int seen = 0;
    bool leading = true;
    for (char& c : text) {
        if (c < '0' || c > '9') continue;
        if (leading && c == '0') continue;
        leading = false;
        if (++seen == n) {
            c = c == '9' ? '8' : static_cast<char>(c + 1);
            break;
        }
    }
    return text;
}

ProgramLine line_of(const std::string& value_text, int line = 3) {
    return ProgramLine{"x", parse_reading(value_text), line, "x = " + value_text};
}

AnswerSpec spec_of(AnswerKind kind, int decimals = 6) {
    return AnswerSpec{"x", kind, 2, Precision{Precision::decimals, decimals}, {}};
}

PartResult grade(const std::string& given, const Value& expected, AnswerKind kind = AnswerKind::number,
                 bool reveal = false, Precision precision = {}) {
    ProgramLine line = line_of(given);
    AnswerSpec spec = spec_of(kind);
    spec.precision = precision;
    return grade_part(spec, &line, expected, AnswerCompareOptions{reveal});
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Vector<Real> silu_values() {
    return {silu(Real(1)), silu(Real(-2)), silu(parse_real<Real>("0.5"))};
}

}  // namespace

TEST_CASE("decimals counts digits after the point minus the exponent") {
    CHECK(scan_decimal("8.48528e-1")->decimals() == 6);
    CHECK(scan_decimal("0.848528")->decimals() == 6);
    CHECK(scan_decimal("1152")->decimals() == 0);
    CHECK(scan_decimal("1.5e3")->decimals() == -2);
    CHECK(scan_decimal("-0.5E+1")->decimals() == 0);
    CHECK(scan_decimal("1e-999999999999999")->decimals() == 1'000'000'000);  // clamped, no overflow
}

TEST_CASE("significant counts digits from the first nonzero one") {
    CHECK(scan_decimal("0.848528")->significant() == 6);
    CHECK(scan_decimal("0.00120")->significant() == 3);
    CHECK(scan_decimal("1152.0")->significant() == 5);
    CHECK(scan_decimal("-8.48528e-1")->significant() == 6);
    CHECK(scan_decimal("0.000")->significant() == 0);
    CHECK(scan_decimal("0.000")->digits() == 4);
}

TEST_CASE("whole accepts exact whole numbers only") {
    CHECK(scan_decimal("1152")->whole());
    CHECK(scan_decimal("1152.000")->whole());
    CHECK(scan_decimal("1.152e3")->whole());
    CHECK(scan_decimal("0e-5")->whole());
    CHECK_FALSE(scan_decimal("1152.5")->whole());
    CHECK_FALSE(scan_decimal("1.1525e3")->whole());
    CHECK_FALSE(scan_decimal("1e-400")->whole());
}

TEST_CASE("scan_decimal takes plain decimals only") {
    for (const char* text : {"1", "-1.5", "+.5", "5.", "1e5", "1E-5", "0.000"}) CHECK(scan_decimal(text));
    for (const char* text : {"", "nan", "inf", ".", "-", "1e", "1e+", "0x10", " 1", "1 ", "1.2.3", "1e5.0"})
        CHECK_FALSE(scan_decimal(text));
}

TEST_CASE("numbers against sqrt(0.72) = 0.848528137423857...") {
    struct Case {
        std::string given;
        Verdict verdict;
        const char* why;
    };
    const Case cases[] = {
        {"0.848528", Verdict::correct, "the book's six decimals"},
        {"8.48528e-1", Verdict::correct, "the same in scientific notation"},
        {double_text(3.0 / std::sqrt(12.5)), Verdict::correct, "an honest double computation, %.17g"},
        {double_text(std::sqrt(0.72)), Verdict::correct, "another honest double computation"},
        {"0.848529", Verdict::wrong, "the last required digit wrong"},
        {"0.848527", Verdict::wrong, "the last required digit wrong, below"},
        {"0.84852814", Verdict::correct, "more digits, all right"},
        {"0.84852824", Verdict::correct, "more digits than declared: still held to the six declared"},
        {"0.8485290", Verdict::wrong, "more digits, the declared sixth one wrong"},
        {"0.8485", Verdict::too_few_digits, "four decimals"},
        {"0.9", Verdict::too_few_digits, "too few digits, even if also off"},
        {rms_first_text(30), Verdict::correct, "30 correct digits"},
        {change_significant_digit(rms_first_text(30), 25), Verdict::wrong, "30 digits, the 25th wrong"},
        {rms_first_text(60), Verdict::correct, "60 digits, more than the reference holds"},
        {"nan", Verdict::wrong, "nan never matches"},
        {"-nan", Verdict::wrong, "nor does -nan"},
        {"inf", Verdict::wrong, "nor inf"},
        {"1e999999999999", Verdict::wrong, "beyond the range of numbers"},
        {"-0.848528", Verdict::wrong, "the sign matters"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.given);
        CAPTURE(c.why);
        CHECK(verdict_name(grade(c.given, Value(rms_first())).verdict) == verdict_name(c.verdict));
    }
}

TEST_CASE("a correct part scores its points and reports its line") {
    PartResult r = grade("0.848528", Value(rms_first()));
    CHECK(r.name == "x");
    CHECK(r.score == 2);
    CHECK(r.max_score == 2);
    CHECK(r.line == 3);
    CHECK(r.message.en == "correct to 6 decimal places");
    CHECK(!r.message.zh.empty());
    REQUIRE(r.abs_error);
    CHECK(*r.abs_error < 5e-7);
}

TEST_CASE("a wrong number gives absolute and relative errors and scores nothing") {
    PartResult r = grade("0.848529", Value(rms_first()));
    CHECK(r.score == 0);
    CHECK(r.max_score == 2);
    CHECK(r.message.en == "wrong: off by 8.6e-07; 6 decimal places asked, so up to 5.0e-07 is accepted");
    CHECK(r.message.zh == "错误：差了 8.6e-07；本题要求 6 位小数，误差不超过 5.0e-07 即算对");
    CHECK(r.abs_error.value() == doctest::Approx(8.626e-7).epsilon(1e-3));
    CHECK(r.rel_error.value() == doctest::Approx(8.626e-7 / 0.848528).epsilon(1e-3));
}

TEST_CASE("too few digits names the decimals given and asked for") {
    PartResult r = grade("0.8485", Value(rms_first()));
    CHECK(r.verdict == Verdict::too_few_digits);
    CHECK(r.score == 0);
    CHECK(r.message.en == "too few digits: `0.8485` is written to fewer than the 6 decimal places this answer asks for; "
                          "the digits written are right so far: write more of them");
    CHECK(r.message.zh.find("已写出的数字都是对的") != std::string::npos);
}

TEST_CASE("too few digits that are also off say so; digits cut short are right so far") {
    CHECK(contains(grade("0.9", Value(rms_first())).message.en, "also off by 5.1e-02"));
    CHECK_FALSE(contains(grade("0.9", Value(rms_first())).message.en, "right so far"));
    CHECK(contains(grade("0.848", Value(rms_first())).message.en, "right so far"));   // cut: 0.848|528
    CHECK(contains(grade("0.85", Value(rms_first())).message.en, "right so far"));    // rounded
    CHECK(contains(grade("0.847", Value(rms_first())).message.en, "also off by"));
    CHECK(contains(grade("-0.848", Value(rms_first())).message.en, "also off by"));
}

TEST_CASE("the inexact note gives the absolute error alone where the exact value is about zero") {
    const Value tiny(parse_real<Real>("1e-50"));
    const PartResult r = grade("3e-9", tiny);
    CHECK(r.verdict == Verdict::correct);
    CHECK(contains(r.message.en, "note: 3.0e-09 off the exact value, more than double rounding explains"));
    CHECK_FALSE(contains(r.message.en, "relative"));
    CHECK_FALSE(contains(r.message.zh, "相对误差"));
}

TEST_CASE("nan is wrong with a message saying why") {
    PartResult r = grade("nan", Value(rms_first()));
    CHECK(r.message.en == "wrong: `nan` (NaN, not a number: what 0/0 or inf - inf gives), which never matches a finite value");
    CHECK_FALSE(r.abs_error);
}

TEST_CASE("the expected value is shown only when asked") {
    CHECK_FALSE(contains(grade("0.848529", Value(rms_first())).message.en, "expected"));
    PartResult r = grade("0.848529", Value(rms_first()), AnswerKind::number, true);
    CHECK(contains(r.message.en, "; expected 0.848528137424"));
    CHECK(contains(r.message.zh, "0.848528137424"));
    CHECK_FALSE(contains(grade("0.848528", Value(rms_first()), AnswerKind::number, true).message.en, "expected"));
}

TEST_CASE("a number given to more digits than a double is held to them") {
    // 20 significant digits off by 1e-19: a double could not say this, so no double slack
    std::string text = change_significant_digit(rms_first_text(20), 19);
    CHECK(grade(text, Value(rms_first())).verdict == Verdict::wrong);
}

TEST_CASE("the double slack scales with the largest element of the part") {
    // 16 decimals declared; error 1e-13: beyond 64 eps for a lone 0.001, within 64 eps * 1000 next to a 1000
    const Precision sixteen{Precision::decimals, 16};
    Vector<Real> part{Real(1000), parse_real<Real>("0.001")};
    CHECK(grade("[1000.0000000000000000, 0.0010000000001000000]", Value(part), AnswerKind::vector, false, sixteen).verdict ==
          Verdict::correct);
    CHECK(grade("0.0010000000001000000", Value(parse_real<Real>("0.001")), AnswerKind::number, false, sixteen).verdict ==
          Verdict::wrong);
}

TEST_CASE("the score follows the declared precision, never the digits printed") {
    // a float computation printed with 17 digits: 3e-8 off, within 6 declared decimal places
    PartResult r = grade("0.84852817", Value(rms_first()));
    CHECK(r.verdict == Verdict::correct);
    CHECK(r.score == 2);
    CHECK(r.inexact);
    CHECK(contains(r.message.en, "correct to 6 decimal places; note: 3.3e-08 off the exact value"));
    CHECK(contains(r.message.en, "float (single precision)"));
    CHECK_FALSE(grade(double_text(std::sqrt(0.72)), Value(rms_first())).inexact);
    // six decimals printed on purpose: the rounding of the print explains the error, no note
    CHECK_FALSE(grade("0.848528", Value(rms_first())).inexact);
}

TEST_CASE("significant digits: the bound follows the value's own size") {
    const Precision four{Precision::significant, 4};
    const Value small(parse_real<Real>("0.000123456"));
    CHECK(grade("0.0001235", small, AnswerKind::number, false, four).verdict == Verdict::correct);
    CHECK(grade("1.235e-4", small, AnswerKind::number, false, four).verdict == Verdict::correct);
    CHECK(grade("1.234e-4", small, AnswerKind::number, false, four).verdict == Verdict::wrong);  // cut, not rounded: 5.6e-08 off
    CHECK(grade("1.23e-4", small, AnswerKind::number, false, four).verdict == Verdict::too_few_digits);
    PartResult r = grade("1.236e-4", small, AnswerKind::number, false, four);
    CHECK(r.message.en == "wrong: off by 1.4e-07; 4 significant digits asked, so up to 5.0e-08 is accepted");
}

TEST_CASE("an angle matches modulo a full turn") {
    const Value ninety(Real(90));
    CHECK(grade("450.000000", ninety, AnswerKind::angle).verdict == Verdict::correct);
    CHECK(grade("-270.000000", ninety, AnswerKind::angle).verdict == Verdict::correct);
    PartResult r = grade("-90.000000", ninety, AnswerKind::angle);
    CHECK(r.verdict == Verdict::wrong);
    CHECK(r.message.en == "wrong: off by 1.8e+02 (modulo a full turn); 6 decimal places asked, so up to 5.0e-07 is accepted");
    CHECK(grade("450.000000", ninety, AnswerKind::number).verdict == Verdict::wrong);
}

TEST_CASE("integers match exactly, in any decimal form") {
    Value expected(Real(1152));
    for (std::string text : {"1152", "1152.0", "1.152e3", "+1152", "11520e-1"}) {
        CAPTURE(text);
        CHECK(grade(text, expected, AnswerKind::integer).verdict == Verdict::correct);
    }
    for (std::string text : {"1152.5", "1153", "1.1520000001e3", "nan", "inf", "1e999999999999"}) {
        CAPTURE(text);
        CHECK(grade(text, expected, AnswerKind::integer).verdict == Verdict::wrong);
    }
    CHECK(grade("1152.5", expected, AnswerKind::integer).message.en == "wrong: `1152.5` is not a whole number");
    // never how far: beside the student's own value that would be the answer
    CHECK(grade("0", expected, AnswerKind::integer).message.en == "wrong");
    CHECK(grade("0", expected, AnswerKind::integer).message.zh == "错误");
    CHECK(grade("1153", expected, AnswerKind::integer, true).message.en == "wrong; expected 1152");
}

TEST_CASE("an integer answer has no digits requirement") {
    ProgramLine line = line_of("1152");
    CHECK(grade_part(spec_of(AnswerKind::integer, 6), &line, Value(Real(1152)), {}).verdict == Verdict::correct);
}

TEST_CASE("booleans match exactly") {
    CHECK(grade("true", Value(true), AnswerKind::boolean).verdict == Verdict::correct);
    CHECK(grade("false", Value(true), AnswerKind::boolean).verdict == Verdict::wrong);
    CHECK(grade("B", Value(true), AnswerKind::boolean).verdict == Verdict::wrong);
}

TEST_CASE("a boolean printed as 1 gets a hint about boolalpha") {
    PartResult r = grade("1", Value(true), AnswerKind::boolean);
    CHECK(r.verdict == Verdict::wrong);
    CHECK(contains(r.message.en, "std::boolalpha"));
}

TEST_CASE("the explanation of a boolean or choice appears once right, or with --reveal, never with a wrong answer") {
    AnswerSpec spec = spec_of(AnswerKind::boolean);
    spec.explain = {"RMSNorm does not subtract the mean.", "RMSNorm 不减去均值。"};
    ProgramLine line = line_of("true");
    PartResult wrong = grade_part(spec, &line, Value(false), {});
    CHECK(wrong.message.en == "wrong: the output says true");
    CHECK_FALSE(contains(wrong.message.zh, "RMSNorm"));
    CHECK(grade_part(spec, &line, Value(false), AnswerCompareOptions{true}).message.en ==
          "wrong: the output says true; expected false. RMSNorm does not subtract the mean.");
    CHECK(grade_part(spec, &line, Value(true), {}).message.en == "correct. RMSNorm does not subtract the mean.");
    AnswerSpec letter = spec_of(AnswerKind::choice);
    letter.explain = {"B: the squares average one.", "B：平方的平均为一。"};
    ProgramLine a = line_of("A");
    CHECK(grade_part(letter, &a, Value(Choice{"B"}), {}).message.en == "wrong: the output says `A`");
}

TEST_CASE("choices match as words, case-insensitively") {
    CHECK(grade("B", Value(Choice{"B"}), AnswerKind::choice).verdict == Verdict::correct);
    CHECK(grade("b", Value(Choice{"B"}), AnswerKind::choice).verdict == Verdict::correct);
    PartResult r = grade("A", Value(Choice{"B"}), AnswerKind::choice, true);
    CHECK(r.verdict == Verdict::wrong);
    CHECK(r.message.en == "wrong: the output says `A`; expected B");
}

TEST_CASE("undefined is correct exactly when the reference is undefined") {
    CHECK(grade("undefined", Value(Undefined{})).verdict == Verdict::correct);
    PartResult value_given = grade("0.5", Value(Undefined{}));
    CHECK(value_given.verdict == Verdict::wrong);
    CHECK(contains(value_given.message.en, "and that is not this part's answer"));
    CHECK_FALSE(contains(value_given.message.en, "undefined"));  // that would give the answer away
    PartResult undefined_given = grade("undefined", Value(rms_first()));
    CHECK(undefined_given.verdict == Verdict::wrong);
    CHECK(contains(undefined_given.message.en, "has a value here"));
    CHECK(grade("[1, 2]", Value(Undefined{}), AnswerKind::vector).verdict == Verdict::wrong);
}

TEST_CASE("a missing answer says which line to print") {
    PartResult r = grade_part(AnswerSpec{"dot", AnswerKind::number, 3, {}, {}}, nullptr, Value(rms_first()), {});
    CHECK(r.verdict == Verdict::missing);
    CHECK(r.message.en == "no line `dot = ...` in the output");
    CHECK(!r.message.zh.empty());
    CHECK(r.score == 0);
    CHECK(r.max_score == 3);
    CHECK(r.line == 0);
}

TEST_CASE("silu vector: all right is correct") {
    Value expected(silu_values());  // 0.7310585786..., -0.2384058440..., 0.3112296656...
    CHECK(grade("[0.731059, -0.238406, 0.311230]", expected, AnswerKind::vector).verdict == Verdict::correct);
}

TEST_CASE("silu vector: one wrong element is named with its errors") {
    PartResult r = grade("[0.731059, -0.238416, 0.311230]", Value(silu_values()), AnswerKind::vector);
    CHECK(r.verdict == Verdict::wrong);
    CHECK(r.message.en ==
          "element 1 is wrong: off by 1.0e-05; 6 decimal places asked, so up to 5.0e-07 is accepted; 1 of 3 elements wrong");
}

TEST_CASE("silu vector: the worst wrong element is named") {
    PartResult r = grade("[0.731058, -0.238416, 0.311230]", Value(silu_values()), AnswerKind::vector);
    CHECK(r.message.en.starts_with("element 1 is wrong"));
    CHECK(contains(r.message.en, "2 of 3 elements wrong"));
}

TEST_CASE("silu vector: too few digits names the element") {
    PartResult r = grade("[0.731059, -0.238406, 0.3112]", Value(silu_values()), AnswerKind::vector);
    CHECK(r.verdict == Verdict::too_few_digits);
    CHECK(r.message.en.starts_with("element 2 has too few digits: `0.3112` is written to fewer than the 6 decimal places"));
}

TEST_CASE("silu vector: a wrong element wins over too few digits") {
    PartResult r = grade("[0.7310, -0.238416, 0.311230]", Value(silu_values()), AnswerKind::vector);
    CHECK(r.verdict == Verdict::wrong);
    CHECK(r.message.en.starts_with("element 1 is wrong"));
}

TEST_CASE("silu vector: nan in an element is wrong and named") {
    PartResult r = grade("[0.731059, nan, 0.311230]", Value(silu_values()), AnswerKind::vector);
    CHECK(r.verdict == Verdict::wrong);
    CHECK(r.message.en.starts_with("element 1 is `nan` (NaN, not a number: what 0/0 or inf - inf gives), which never matches a "
                                   "finite value"));
}

TEST_CASE("a wrong matrix element is named by row and column") {
    Matrix<Real> expected = matrix_from_rows<Real>({{Real(1), Real(2)}, {silu(Real(1)), Real(4)}});
    PartResult r = grade("[[1.000000, 2.000000], [0.731060, 4.000000]]", Value(expected), AnswerKind::matrix);
    CHECK(r.verdict == Verdict::wrong);
    CHECK(r.message.en.starts_with("row 1, column 0 is wrong: off by 1.4e-06"));
}

TEST_CASE("shape mismatches state the shape given, never the count asked for") {
    Value vector3(silu_values());
    CHECK(grade("[0.848528, 1.0]", Value(rms_first())).message.en ==
          "wrong shape: expected a number, got a vector of 2 elements");
    // the length asked for may be an answer of the exercise (a group's heads): never stated
    CHECK(grade("[0.731059, -0.238406]", vector3, AnswerKind::vector).message.en ==
          "wrong shape: got a vector of 2 elements, and this answer has another length (the prompt states it)");
    CHECK(grade("0.731059", vector3, AnswerKind::vector).verdict == Verdict::wrong);
    Matrix<Real> m(2, 3);
    const PartResult r = grade("[[0, 0], [0, 0], [0, 0]]", Value(m), AnswerKind::matrix);
    CHECK(r.message.en == "wrong shape: got a 3x2 matrix, and this answer has another shape (the prompt states it)");
    CHECK_FALSE(contains(r.message.zh, "2x3"));
    Vector<Real> six(6, Real(1));
    const PartResult members = grade("[0, 1, 2, 3, 4]", Value(six), AnswerKind::vector);
    CHECK_FALSE(contains(members.message.en, "6"));
    CHECK_FALSE(contains(members.message.zh, "6"));
}

TEST_CASE("nan or inf where the quantity has no value is named as such, with the protocol's undefined") {
    const PartResult r = grade("nan", Value(Undefined{}));
    CHECK(r.verdict == Verdict::wrong);
    CHECK(contains(r.message.en, "`nan` (NaN, not a number: what 0/0 or inf - inf gives)"));
    CHECK(contains(r.message.en, "`undefined(\"x\")`"));
    CHECK_FALSE(contains(r.message.en, "not this part's answer"));
    CHECK(contains(r.message.zh, "NaN"));
    const PartResult inf = grade("[1, -inf]", Value(Undefined{}), AnswerKind::vector);
    CHECK(contains(inf.message.en, "`-inf` (infinity: a division by zero, or an overflow)"));
    // a finite value where there is none says nothing of undefined (that would give the answer away)
    CHECK_FALSE(contains(grade("0.5", Value(Undefined{})).message.en, "undefined"));
    // an integer part: named too
    CHECK(contains(grade("nan", Value(Real(3)), AnswerKind::integer).message.en, "NaN, not a number"));
}

TEST_CASE("a reference of the wrong kind is the grader's fault and costs nothing") {
    PartResult r = grade("0.5", Value(true), AnswerKind::number);
    CHECK(r.verdict == Verdict::grader_fault);
    CHECK(r.score == r.max_score);
    CHECK(grade("3", Value(parse_real<Real>("2.5")), AnswerKind::integer).verdict == Verdict::grader_fault);
}

TEST_CASE("a non-finite reference is the grader's fault") {
    Value nan_reference(Vector<Real>{Real(1), Real(0) / Real(0)});
    PartResult r = grade("[1.000000, 0.000000]", nan_reference, AnswerKind::vector);
    CHECK(r.verdict == Verdict::grader_fault);
    CHECK(r.message.en == "grader fault: the reference answer is not finite; this costs no points");
}

TEST_CASE("an unparseable part carries the issue's line and message") {
    ProgramOutput out = parse_program_output("\ndot = 0.5.1\n");
    REQUIRE(out.issues.size() == 1);
    PartResult r = unparseable_part(AnswerSpec{"dot", AnswerKind::number, 1, {}, {}}, out.issues.front());
    CHECK(r.verdict == Verdict::unparseable);
    CHECK(r.line == 2);
    CHECK(r.score == 0);
    CHECK(r.max_score == 1);
    CHECK(r.message.en == "line 2: `dot = 0.5.1`: '0.5.1' is not a number");
}

TEST_CASE("verdict and kind names are the contract's") {
    CHECK(verdict_name(Verdict::too_few_digits) == "too_few_digits");
    CHECK(verdict_name(Verdict::grader_fault) == "grader_fault");
    CHECK(verdict_name(Verdict::timed_out) == "timed_out");
    for (std::string name : {"number", "integer", "vector", "matrix", "boolean", "choice"}) {
        CAPTURE(name);
        REQUIRE(answer_kind_from_name(name));
        CHECK(answer_kind_name(*answer_kind_from_name(name)) == name);
    }
    CHECK_FALSE(answer_kind_from_name("Number"));
}
