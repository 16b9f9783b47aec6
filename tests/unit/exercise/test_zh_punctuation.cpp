// Chinese prose never puts a space after full-width punctuation ("可能的错误： 这是" reads as a
// stray gap): every zh text of the mistake catalogue, and every zh message grading and the board
// assemble for the shipped exercises' right, mistaken, short and wrong answers, is scanned.
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/student/board.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace {

using testing::shipped_exercises;

// The first stray space after a full-width colon, comma, full stop or semicolon, or npos.
std::size_t stray_space(const std::string& zh) {
    std::size_t first = std::string::npos;
    for (const char* mark : {"： ", "， ", "。 ", "； "}) first = std::min(first, zh.find(mark));
    return first;
}

void check_zh(const std::string& zh, const std::string& where) {
    const std::size_t at = stray_space(zh);
    CHECK_MESSAGE(at == std::string::npos, where << ": " << zh.substr(at == std::string::npos ? 0 : at > 30 ? at - 30 : 0, 80));
}

// A program's output printing `values` to 17 digits, the integers whole; each number times `scale`.
std::string scaled_output(const Exercise& e, const Values& values, const char* scale) {
    std::string out;
    for (const AnswerSpec& spec : e.answers)
        if (auto it = values.find(spec.name); it != values.end()) {
            Value v = it->second;
            auto times = [&](Real& x) { x *= parse_real<Real>(scale); };
            if (auto* x = std::get_if<Real>(&v)) times(*x);
            if (auto* vec = std::get_if<Vector<Real>>(&v)) for (Real& x : *vec) times(x);
            if (auto* m = std::get_if<Matrix<Real>>(&v)) for (Real& x : m->values) times(x);
            out += spec.name + " = " + format_value(v, spec.kind == AnswerKind::integer ? 40 : 17) + "\n";
        }
    return out;
}

}  // namespace

TEST_CASE("Chinese messages: the catalogue's texts have no space after full-width punctuation") {
    for (const MistakeEntry& m : mistake_catalogue()) {
        check_zh(m.changes.zh, m.id + ".changes");
        check_zh(m.message.zh, m.id + ".message");
        check_zh(mistake_message(m.id + "/2").zh, m.id + " filled");
    }
}

TEST_CASE("Chinese messages: grading and the board never put a space after full-width punctuation") {
    const BoardStyle zh{Lang::zh, false};
    for (const Exercise& e : shipped_exercises().all()) {
        const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);
        std::vector<std::string> outputs = {scaled_output(e, c.answers, "1"), scaled_output(e, c.answers, "1.001"),
                                            scaled_output(e, c.answers, "-1"), ""};
        for (const auto& [id, values] : c.mistakes) outputs.push_back(scaled_output(e, values, "1"));
        for (const std::string& output : outputs)
            for (bool reveal : {false, true}) {
                const ExerciseResult r = grade_output(e, e.inputs, output, {reveal});
                for (const PartResult& p : r.parts) {
                    check_zh(p.message.zh, e.id + "." + p.name);
                    if (p.diagnosis) check_zh(p.diagnosis->message.zh, e.id + "." + p.name + " diagnosis");
                }
                check_zh(render_parts(e, r, zh), e.id + " board");
            }
    }
}
