// A slip no input can show earns full marks (issue 39 item 7): for every exercise, each catalogue
// mistake its mechanisms make must change an answer on the book's inputs or on some variant, or
// the exercise excludes it with the reason it cannot show (mistakes_excluded, listed in
// docs/mistake-coverage.md). A range that hides a mistake (one KV head, one RoPE pair a head, the
// default rope_theta) is fixed in the exercise's variants, not excused.
#include "checker/course/validate.hpp"
#include "checker/exercise/exercise_set.hpp"

#include <doctest/doctest.h>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace {

// The mistakes `e` makes that change no answer on the book's inputs nor on variants 1..seeds.
std::vector<std::string> never_shown(const Exercise& e, int seeds) {
    std::vector<std::string> hidden;
    for (const MistakeCoverage::Row& row : mistake_coverage(e, seeds).rows)
        if (!row.book && row.variants.empty()) hidden.push_back(row.id);
    return hidden;
}

}  // namespace

TEST_CASE("variants: every mistake an exercise makes shows on some input, or is excluded with its reason") {
    std::string unshown;
    for (const Exercise& e : testing::shipped_exercises().all()) {
        // the other tests' three variants first (cached); a mistake hidden there is looked for on twenty
        if (never_shown(e, 3).empty()) continue;
        for (const std::string& id : never_shown(e, 20)) unshown += e.id + ": " + id + "\n";
    }
    INFO("mistakes no variant of the exercise can show (draw inputs that show them, or exclude them with the reason):\n"
         << unshown);
    CHECK(unshown.empty());
}

TEST_CASE("variants: llama_block_tiny draws more than one KV head and more than one RoPE pair a head") {
    const Exercise& e = testing::shipped_exercises().at("llama_block_tiny");
    const MistakeCoverage coverage = mistake_coverage(e, 3);
    for (const std::string id : {"wrong_kv_head", "pairing_half_vs_interleaved", "rope_theta_default"}) {
        CAPTURE(id);
        auto row = std::find_if(coverage.rows.begin(), coverage.rows.end(), [&](const auto& r) { return r.id == id; });
        REQUIRE(row != coverage.rows.end());
        CHECK(row->variants.size() == 3);  // on every variant: the book's inputs cannot show it
    }
    // what no input can show is excluded, with the reason docs/mistake-coverage.md prints
    CHECK(e.mistakes_excluded.count("position_off_by_one") == 1);
    CHECK(e.mistakes_excluded.count("rope_scaling_not_applied") == 1);
}
