// Exercise definitions and variants: loading, chapter selection, reproducible draws.
#include "checker/exercise/exercise_set.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/exercise/protocol.hpp"
#include "checker/exercise/variants.hpp"
#include "exercise_testing.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;

namespace {
using testing::shipped_exercises;
}  // namespace

TEST_CASE("both chapters load, chapter 25 first, each exercise with a reference solution") {
    const auto& all = shipped_exercises().all();
    REQUIRE(all.size() == 27);
    CHECK(all.front().chapter == "ch25");
    CHECK(all.back().chapter == "gqa_long_context");
    CHECK(shipped_exercises().chapter_title("ch25").en == "Chapter 25: RoPE, RMSNorm and SwiGLU");
    CHECK(shipped_exercises().at("rms_norm_zero_row").max_score() == 5);
}

TEST_CASE("only_chapters keeps one chapter and refuses an unknown one") {
    const ExerciseSet ch25 = shipped_exercises().only_chapters({"ch25"});
    CHECK(ch25.all().size() == 10);
    CHECK(ch25.find("rotating_stamp") == nullptr);
    CHECK(shipped_exercises().only_chapters({}).all().size() == 27);
    CHECK_THROWS_WITH(shipped_exercises().only_chapters({"ch99"}), doctest::Contains("the chapters are: ch25, gqa_long_context"));
}

TEST_CASE("an unknown exercise id names the ids there are") {
    CHECK_THROWS_WITH(shipped_exercises().at("nope"), doctest::Contains("rms_norm_zero_row"));
}

TEST_CASE("variants are reproducible, stay in their ranges, and differ between students") {
    const Exercise& e = shipped_exercises().at("swiglu_matched_budget");
    const std::uint64_t ada = variant_seed("ada", e.id), bob = variant_seed("bob", e.id);
    CHECK(ada == variant_seed("ada", e.id));
    CHECK(ada != bob);
    CHECK(variant_inputs(e, ada) == variant_inputs(e, ada));
    bool any_differs = false;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const InputList inputs = variant_inputs(e, seed);
        any_differs = any_differs || inputs != e.inputs;
        const Values values = parse_inputs(input_text(inputs), "variant");
        const Real relu_hidden = std::get<Real>(values.at("ffn_hidden_size"));
        CHECK(relu_hidden >= 12);
        CHECK(relu_hidden <= 240);
        CHECK(std::get<Real>(values.at("ffn_hidden_size")).convert_to<long>() % 3 == 0);  // multiple_of 3
    }
    CHECK(any_differs);
}
