// Fuzz target: the comparison of a given answer with a reference value. The input is
//   <kind byte><precision byte><reveal byte><reference value text>\n<program output>
// so that any reference the protocol can express (empty lists included) meets any answer.
#include "checker/exercise/answer_compare.hpp"
#include "checker/exercise/protocol.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace blockcheck;
    if (size < 3) return 0;
    constexpr AnswerKind kinds[] = {AnswerKind::number, AnswerKind::integer, AnswerKind::vector, AnswerKind::matrix,
                                    AnswerKind::boolean, AnswerKind::choice, AnswerKind::angle};
    AnswerSpec spec;
    spec.name = "x";
    spec.kind = kinds[data[0] % 7];
    // the precision byte: high bit picks significant digits (1..40), else decimal places (0..40)
    spec.precision = data[1] & 0x80 ? Precision{Precision::significant, 1 + (data[1] & 0x7f) % 40}
                                    : Precision{Precision::decimals, data[1] % 41};
    const AnswerCompareOptions options{(data[2] & 1) != 0};
    std::string_view rest(reinterpret_cast<const char*>(data + 3), size - 3);
    const auto newline = rest.find('\n');
    const std::string_view reference = rest.substr(0, newline);
    const std::string_view output = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
    Value expected;
    try {
        expected = to_value(parse_reading(reference));
    } catch (const ProtocolError&) {
        return 0;  // not a value: there is no reference to compare with
    }
    const ProgramOutput parsed = parse_program_output(output);
    const auto given = parsed.answers.find("x");
    grade_part(spec, given == parsed.answers.end() ? nullptr : &given->second, expected, options);
    for (const ProtocolIssue& issue : parsed.issues) unparseable_part(spec, issue);
    return 0;
}
