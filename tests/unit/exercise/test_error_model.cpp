// The error model's search (diagnosis.hpp: explain_by_error_model): a slip no catalogue entry
// declares is named when one change of the reference's recorded computation reproduces the whole
// program and does so again on the confirming variants; a program the change explains on the
// book's inputs alone is told nothing.
#include "checker/course/mistake_programs.hpp"
#include "checker/course/validate.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/exercise/protocol.hpp"

#include <doctest/doctest.h>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace error_model_test {

const Exercise& exercise(const std::string& id) { return testing::shipped_exercises().at(id); }

// The id of the change of `kind` on `e`'s book inputs whose words say `says`.
ModelChange change_saying(const Exercise& e, const std::string& kind, const std::string& says) {
    std::vector<ModelChange> found;
    for (ModelChange& c : e.expected->model_changes(e, e.inputs, {}, 100000))
        if (c.id.starts_with("tape:" + kind + ":") && c.words.en.find(says) != std::string::npos) found.push_back(std::move(c));
    REQUIRE(found.size() == 1);
    return found.front();
}

// What the judge named, each id once.
std::vector<std::string> named_ids(const ExerciseResult& r) {
    std::vector<std::string> ids;
    for (const PartResult& p : r.parts)
        for (const Diagnosis& d : named_diagnoses(p))
            if (std::find(ids.begin(), ids.end(), d.id) == ids.end()) ids.push_back(d.id);
    return ids;
}

}  // namespace error_model_test


TEST_CASE("error model: a slowdown computed upside down, declared nowhere, is named and confirmed") {
    const Exercise& e = error_model_test::exercise("ntk_aware_scaling");
    const ModelChange upside_down = error_model_test::change_saying(e, "swapped", "ntk_last_inverse_frequency / last_inverse_frequency");
    CHECK(!known_mistake(upside_down.id));
    // the program makes the same slip on every input it is given
    const ExerciseResult r = judge_made_program(
        e, e.inputs, [&](const InputList& in) { return *e.expected->model_change(e, in, upside_down.id); }, "test/error-model");
    REQUIRE(error_model_test::named_ids(r) == std::vector<std::string>{upside_down.id});
    for (const PartResult& p : r.parts) {
        CAPTURE(p.name);
        CHECK((p.verdict == Verdict::wrong) == (p.name == "last_pair_slowdown"));
        if (p.name != "last_pair_slowdown") continue;
        REQUIRE(p.diagnosis);
        CHECK(p.diagnosis->message.en.find("other way round") != std::string::npos);
        CHECK(p.diagnosis->message.zh.find("颠倒") != std::string::npos);
        CHECK(p.diagnosis->message.en.find("8") == std::string::npos);  // the slowdown it should be is never said
    }
}

TEST_CASE("error model: numbers a change gives on the book's inputs alone are not named") {
    const Exercise& e = error_model_test::exercise("ntk_aware_scaling");
    const ModelChange upside_down = error_model_test::change_saying(e, "swapped", "ntk_last_inverse_frequency / last_inverse_frequency");
    // the book's inputs: the change's numbers; every other input: right answers
    const ExerciseResult r = judge_made_program(
        e, e.inputs,
        [&](const InputList& in) { return in == e.inputs ? upside_down.answers : expected_answers(e, in); }, "test/error-model");
    CHECK(error_model_test::named_ids(r).empty());
    // and with no change at all fitting (a number off by an odd amount), nothing either
    Values odd = expected_answers(e, e.inputs);
    std::get<Real>(odd.at("last_pair_slowdown")) += Real("0.37");
    const ExerciseResult none = grade_output(e, e.inputs, synthetic_output(e, odd), {});
    CHECK(error_model_test::named_ids(none).empty());
}

TEST_CASE("error model: a change giving a catalogue mistake's numbers on the book's inputs is told apart from it, never named as it") {
    // llama_ffn_width: leaving `+ multiple_of` out of the rounding up gives rounded_down's numbers
    // except where two thirds of 4 C is a multiple already; a program making it is never told
    // rounded_down alone (validate's proof named it so before), and rounded_down keeps its name
    const Exercise& e = error_model_test::exercise("llama_ffn_width");
    const std::string dropped = "tape:term_dropped:3c038996a5";  // in llama_ffn_hidden (the id validate reported)
    REQUIRE(e.expected->model_change(e, e.inputs, dropped));
    const ExerciseResult r = judge_made_program(
        e, e.inputs, [&](const InputList& in) { return *e.expected->model_change(e, in, dropped); }, "test/error-model");
    const std::vector<std::string> named = error_model_test::named_ids(r);
    CHECK(!named.empty());
    CHECK(std::find(named.begin(), named.end(), "rounded_down") == named.end());
    for (const std::string& id : named) CHECK(id.find(dropped) != std::string::npos);
    const ExerciseResult declared = judge_made_program(
        e, e.inputs, [&](const InputList& in) { return made_program_answers(e, in, {"rounded_down"}); }, "test/error-model");
    CHECK(error_model_test::named_ids(declared) == std::vector<std::string>{"rounded_down"});
}

TEST_CASE("error model: validate's proof names no single change wrong where a catalogue mistake fits it on the book's inputs") {
    for (const char* id : {"stamp_relative_position", "ntk_vs_linear", "llama_ffn_width"}) {
        CAPTURE(id);
        CHECK(model_proof(error_model_test::exercise(id), ValidateSettings{}.mistake_seeds).wrong.empty());
    }
}

TEST_CASE("error model: changes that are one reading of a catalogue entry are said in its words, on their parts alone") {
    // the root left out of the norms' one helper (or its square added: the same node), the root
    // mean square itself printed right: root_omitted's own words on the four norms
    const Exercise& e = error_model_test::exercise("rms_norm_vs_layer_norm");
    const ModelChange no_root = error_model_test::change_saying(e, "root_dropped", "and the same wherever that step recurs");
    const ExerciseResult r = judge_made_program(
        e, e.inputs, [&](const InputList& in) { return *e.expected->model_change(e, in, no_root.id); }, "test/error-model");
    REQUIRE(error_model_test::named_ids(r) == std::vector<std::string>{"root_omitted"});
    for (const PartResult& p : r.parts) {
        CAPTURE(p.name);
        const bool norm = p.name.find("norm") != std::string::npos;
        CHECK((p.verdict == Verdict::wrong) == norm);
        CHECK(p.diagnosis.has_value() == norm);
        if (norm && p.diagnosis) CHECK(p.diagnosis->message.en == mistake_message("root_omitted").en);
    }
}

TEST_CASE("error model: a catalogue entry giving the same numbers is never said over a slip elsewhere") {
    // 3 / 2 in integers gives 1, as one matrix too few does: slips far apart, never matrix_missing
    const Exercise& width = error_model_test::exercise("llama_ffn_width");
    int integers = 0;
    for (const ModelChange& c : width.expected->model_changes(width, width.inputs, {}, 100000)) {
        if (!c.id.starts_with("tape:truncated:") || c.words.en.find("in `same_width_swiglu_ratio`") == std::string::npos) continue;
        ++integers;
        const ExerciseResult r = judge_made_program(
            width, width.inputs, [&](const InputList& in) { return *width.expected->model_change(width, in, c.id); },
            "test/error-model");
        for (const std::string& id : error_model_test::named_ids(r)) CHECK(id.find("matrix_missing") == std::string::npos);
    }
    CHECK(integers > 0);
    // the slowdown upside down gives factor_inverted's slowdown, but that slip would show in the
    // interpolated frequencies the program got right: the change is named, not the entry
    const Exercise& e = error_model_test::exercise("interpolation_every_frequency");
    const ModelChange upside_down =
        error_model_test::change_saying(e, "swapped", "the division inverse_frequencies / interpolated_inverse_frequencies");
    const ExerciseResult s = judge_made_program(
        e, e.inputs, [&](const InputList& in) { return *e.expected->model_change(e, in, upside_down.id); }, "test/error-model");
    CHECK(error_model_test::named_ids(s) == std::vector<std::string>{upside_down.id});
}
