// Never a false word: for every mistake an exercise declares, the reference's answers with that
// mistake made, fed back as a program's output, never get another mistake's name; they get their
// own unless another declared mistake gives the same answers there. The mistake docs stay what the
// data says.
#include "base/errors.hpp"
#include "checker/course/mistake_programs.hpp"
#include "checker/course/validate.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/variants.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "exercise_testing.hpp"

using namespace blockcheck;
namespace fs = std::filesystem;

namespace {

using testing::file_text;
using testing::repository;
using testing::shipped_exercises;

// The first case (book, then variants 1-20) where the mistake (key `key`) changes an answer.
std::optional<std::pair<InputList, Values>> showing_case(const Exercise& e, const std::string& id) {
    for (int s = 0; s <= 20; ++s) {
        const InputList inputs = s ? variant_inputs(e, std::uint64_t(s)) : e.inputs;
        const ExpectedCase c = expected_answers_and_mistakes(e, inputs);
        for (const auto& [key, values] : c.mistakes) {
            if (mistake_id(key) != id) continue;
            for (const auto& [name, value] : values)
                if (format_value(value, 30) != format_value(c.answers.at(name), 30)) return std::pair{inputs, values};
        }
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("mistake pairs: a program with one mistake never gets another's name") {
    int named_right = 0, checked = 0;
    for (const Exercise& e : shipped_exercises().all()) {
        const MistakeCoverage coverage = mistake_coverage(e, 3);
        for (const MistakeCoverage::Row& row : coverage.rows) {
            const std::string& id = row.id;
            const bool twin = std::any_of(coverage.identical.begin(), coverage.identical.end(),
                                          [&](const auto& pair) { return pair.first == id || pair.second == id; });
            if (twin || (!row.book && row.variants.empty())) continue;
            CAPTURE(e.id);
            CAPTURE(id);
            const auto shown = showing_case(e, id);
            REQUIRE_MESSAGE(shown, "the mistake never shows on the book's inputs or variants 1-20");
            const ExerciseResult r = grade_output(e, shown->first, synthetic_output(e, shown->second), {});
            bool named = false;
            for (const PartResult& p : r.parts) {
                CAPTURE(p.name);
                if (!p.diagnosis) continue;
                CHECK(p.diagnosis->id == id);
                named = named || p.diagnosis->id == id;
            }
            ++checked;
            named_right += named;
        }
    }
    MESSAGE(named_right << " of " << checked << " mistakes named on their own answers");
    CHECK(named_right * 10 >= checked * 9);
}

TEST_CASE("mistake pairs: ntk_aware_scaling with -2i/d in integers is never told the factor was not applied") {
    const Exercise& e = shipped_exercises().at("ntk_aware_scaling");
    const ExpectedCase c = expected_answers_and_mistakes(e, e.inputs);
    const ExerciseResult r = grade_output(e, e.inputs, synthetic_output(e, c.mistakes.at("integer_exponent")), {});
    bool named = false;
    for (const PartResult& p : r.parts) {
        CAPTURE(p.name);
        if (p.diagnosis) CHECK(p.diagnosis->id == "integer_exponent");
        named = named || p.diagnosis.has_value();
    }
    CHECK(named);
    const auto& slowdown = r.parts.at(5);
    CHECK(slowdown.name == "last_pair_slowdown");
    CHECK(slowdown.verdict == Verdict::wrong);
}

TEST_CASE("mistake docs: docs/mistakes.md and docs/mistake-coverage.md are what validate writes from the data") {
    CHECK(file_text(repository() / "docs/mistakes.md") == mistakes_doc());
    std::vector<const Exercise*> all;
    for (const Exercise& e : shipped_exercises().all()) all.push_back(&e);
    CHECK(file_text(repository() / "docs/mistake-coverage.md") == coverage_doc(all, ValidateSettings{}.mistake_seeds));
}

TEST_CASE("mistake catalogue: an unknown id names the file and the id most likely meant") {
    try {
        require_known_mistake("integer_exponant", "ntk_aware_scaling.json: mistakes");
        FAIL("no error");
    } catch (const InputFileError& error) {
        const std::string what = error.what();
        CHECK(what.find("ntk_aware_scaling.json") != std::string::npos);
        CHECK(what.find("did you mean \"integer_exponent\"") != std::string::npos);
    }
    for (const MistakeEntry& m : mistake_catalogue()) {
        CAPTURE(m.id);
        CHECK(m.message.en.find(m.id) == std::string::npos);  // the words speak of the slip, not the id
    }
}

TEST_CASE("mistake coverage: the GQA head mapping shows only on variants with two KV heads") {
    Exercise e = shipped_exercises().at("llama_block_tiny");
    auto row_of = [](const MistakeCoverage& c, const std::string& id) {
        for (const MistakeCoverage::Row& row : c.rows)
            if (row.id == id) return row;
        FAIL("no row for " << id);
        return MistakeCoverage::Row{};
    };
    const MistakeCoverage drawn = mistake_coverage(e, 3);
    CHECK_FALSE(row_of(drawn, "wrong_kv_head").book);  // 2 query heads over 1 KV head: no mapping to get wrong
    CHECK(row_of(drawn, "wrong_kv_head").variants == std::vector<int>{1, 2, 3});
    CHECK(row_of(drawn, "rope_on_v").book);
    CHECK(drawn.identical.empty());
    e.variants = {};  // the book's inputs alone: the slip is invisible, and so alike to any other invisible one
    e.mistakes = {"wrong_kv_head", "eps_omitted"};
    const MistakeCoverage book_only = mistake_coverage(e, 3);
    CHECK(row_of(book_only, "wrong_kv_head").variants.empty());
    CHECK(book_only.identical.empty());  // eps_omitted still shows
}
