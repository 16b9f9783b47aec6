// The error model's kinds of change beyond one operation (solutions/tape_changes.hpp): a counter
// counted from 1, two steps in the other order, an operand's term left out in one use, and a
// step written once for several answers; each gives the slip's numbers, worked out here by hand
// on the book's inputs, and a program making it on every input is named by it. The search can be
// turned off for a whole process (bench --grading measures its cost so).
#include "checker/course/mistake_programs.hpp"
#include "checker/course/validate.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/exercise/grading.hpp"

#include <doctest/doctest.h>

#include "exercise_testing.hpp"

using namespace blockcheck;

namespace error_model_kinds_test {

const Exercise& exercise(const std::string& id) { return testing::shipped_exercises().at(id); }

// The changes of `kind` on `e`'s book inputs whose English words hold `says`.
std::vector<ModelChange> changes_saying(const Exercise& e, const std::string& kind, const std::string& says) {
    std::vector<ModelChange> found;
    for (ModelChange& c : e.expected->model_changes(e, e.inputs, {}, 100000))
        if (c.id.starts_with("tape:" + kind + ":") && c.words.en.find(says) != std::string::npos) found.push_back(std::move(c));
    return found;
}

bool near(const Real& a, const Real& b) {
    using std::abs;
    return abs(a - b) <= Real("1e-40") * (Real(1) + abs(b));
}

const Vector<Real>& vector_at(const Values& v, const std::string& name) { return std::get<Vector<Real>>(v.at(name)); }

// What the judge named on a program printing change `id`'s answers on every input it is given.
std::vector<std::string> named_on_every_input(const Exercise& e, const std::string& id) {
    const ExerciseResult r = judge_made_program(
        e, e.inputs, [&](const InputList& in) { return *e.expected->model_change(e, in, id); }, "test/error-model-kinds");
    std::vector<std::string> ids;
    for (const PartResult& p : r.parts)
        for (const Diagnosis& d : named_diagnoses(p))
            if (std::find(ids.begin(), ids.end(), d.id) == ids.end()) ids.push_back(d.id);
    return ids;
}

}  // namespace error_model_kinds_test

namespace kinds = error_model_kinds_test;

TEST_CASE("error model kinds: frequency pairs counted from 1 are the counter 0, 2, 4, 6 taken one step late") {
    // base 10000, head_dim 8: the slip's pair i turns at 10000^(-2(i+1)/8)
    const Exercise& e = kinds::exercise("interpolation_every_frequency");
    const std::vector<ModelChange> late = kinds::changes_saying(e, "counted_from_one", "in `inverse_frequencies`, the counter");
    REQUIRE(late.size() == 1);
    const Vector<Real>& speed = kinds::vector_at(late.front().answers, "inverse_frequencies");
    REQUIRE(speed.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
        using std::pow;
        CHECK(kinds::near(speed[i], pow(Real(10000), -Real(static_cast<long>(2 * (i + 1))) / Real(8))));
    }
    CHECK(kinds::named_on_every_input(e, late.front().id) == std::vector<std::string>{late.front().id});
    CHECK(late.front().words.en.find("0.0") == std::string::npos);  // no frequency it should be is said
}

TEST_CASE("error model kinds: LayerNorm divided by the RMS is the centring left out of the variance's product alone") {
    // row [3, 4], shift 1: (x - mean) / sqrt(mean(x^2)) for the row and for the row shifted, one
    // helper written once (the same step wherever it recurs)
    const Exercise& e = kinds::exercise("rms_norm_vs_layer_norm");
    const std::vector<ModelChange> by_rms =
        kinds::changes_saying(e, "operand_term_dropped", "belongs on both sides (that subtraction left out here only), and the same");
    REQUIRE(by_rms.size() == 1);
    using std::sqrt;
    const Vector<Real>& ln = kinds::vector_at(by_rms.front().answers, "layer_norm");
    CHECK(kinds::near(ln[0], Real("-0.5") / sqrt(Real("12.5"))));
    CHECK(kinds::near(ln[1], Real("0.5") / sqrt(Real("12.5"))));
    const Vector<Real>& shifted = kinds::vector_at(by_rms.front().answers, "shifted_layer_norm");
    CHECK(kinds::near(shifted[1], Real("0.5") / sqrt(Real("20.5"))));
    const Vector<Real>& rms = kinds::vector_at(by_rms.front().answers, "rms_norm");  // RMSNorm untouched: [3, 4] / sqrt(12.5)
    CHECK(kinds::near(rms[0], Real(3) / sqrt(Real("12.5"))));
    CHECK(kinds::near(rms[1], Real(4) / sqrt(Real("12.5"))));
    CHECK(kinds::named_on_every_input(e, by_rms.front().id) == std::vector<std::string>{by_rms.front().id});
}

TEST_CASE("error model kinds: the root taken before the mean's division is two steps in the other order") {
    // row [0, 2]: sqrt(0 + 4) / 2 = 1 where sqrt(4 / 2) is asked
    const Exercise& e = kinds::exercise("rms_norm_zero_row");
    bool found = false;
    for (const ModelChange& c : kinds::changes_saying(e, "steps_reordered", "in `root_mean_square`, the square root"))
        found = found || kinds::near(std::get<Real>(c.answers.at("root_mean_square")), Real(1));
    CHECK(found);
}

TEST_CASE("error model kinds: SiLU written x tanh(x) is the known function taken for its neighbour") {
    // x [1, -1], W_gate = I, W_up [[2, 0], [0, -3]]: gate [1, -1], up [2, 3]; g tanh(g) u
    const Exercise& e = kinds::exercise("swiglu_identity_down");
    const std::vector<ModelChange> tanh_for_silu = kinds::changes_saying(e, "function_confused", "SiLU of");
    REQUIRE(tanh_for_silu.size() == 1);
    CHECK(tanh_for_silu.front().words.en.find("is computed as x tanh(x)") != std::string::npos);
    using std::tanh;
    const Vector<Real>& out = kinds::vector_at(tanh_for_silu.front().answers, "swiglu_ffn");
    CHECK(kinds::near(out[0], Real(2) * tanh(Real(1))));
    CHECK(kinds::near(out[1], Real(3) * tanh(Real(1))));
    CHECK(kinds::named_on_every_input(e, tanh_for_silu.front().id) == std::vector<std::string>{tanh_for_silu.front().id});
}

TEST_CASE("error model kinds: the sigmoid written tanh is the known function taken for its neighbour") {
    const Exercise& e = kinds::exercise("misconceptions_by_numbers");
    const std::vector<ModelChange> tanh_for_sigmoid = kinds::changes_saying(e, "function_confused", "the sigmoid of");
    REQUIRE(tanh_for_sigmoid.size() == 1);
    using std::tanh;
    const Vector<Real>& ratio = kinds::vector_at(tanh_for_sigmoid.front().answers, "sigmoid");
    const Real gate[] = {Real(-2), Real(-1), Real("0.5"), Real(3)};
    for (std::size_t i = 0; i < 4; ++i) CHECK(kinds::near(ratio[i], tanh(gate[i])));
    using std::exp;
    const Vector<Real>& silu = kinds::vector_at(tanh_for_sigmoid.front().answers, "silu");  // SiLU untouched
    for (std::size_t i = 0; i < 4; ++i) CHECK(kinds::near(silu[i], gate[i] / (Real(1) + exp(-gate[i]))));
}

TEST_CASE("error model kinds: SiLU of gate times up is a named step taken after the product instead of before it") {
    // gate [1, -1], up [2, 3]: SiLU(2), SiLU(-3) where SiLU(1) 2, SiLU(-1) 3 is asked
    const Exercise& e = kinds::exercise("swiglu_identity_down");
    const std::vector<ModelChange> late = kinds::changes_saying(e, "steps_reordered", "is taken too late");
    REQUIRE(late.size() == 1);
    CHECK(late.front().words.en.find("SiLU of") != std::string::npos);
    using std::exp;
    const Vector<Real>& out = kinds::vector_at(late.front().answers, "swiglu_ffn");
    CHECK(kinds::near(out[0], Real(2) / (Real(1) + exp(Real(-2)))));
    CHECK(kinds::near(out[1], Real(-3) / (Real(1) + exp(Real(3)))));
    CHECK(kinds::named_on_every_input(e, late.front().id) == std::vector<std::string>{late.front().id});
}

TEST_CASE("error model kinds: the shift added to the normalised output is the term moved from the input to the answer") {
    // row [3, 4], shift 1: [3, 4] / sqrt(12.5) + 1 where the RMSNorm of [4, 5] is asked; LayerNorm
    // of the row unshifted is its LayerNorm shifted
    const Exercise& e = kinds::exercise("rms_norm_vs_layer_norm");
    const std::vector<ModelChange> moved = kinds::changes_saying(e, "term_moved_out", "shift is added to the answer instead of to row");
    REQUIRE(moved.size() == 1);
    using std::sqrt;
    const Vector<Real>& out = kinds::vector_at(moved.front().answers, "shifted_rms_norm");
    CHECK(kinds::near(out[0], Real(3) / sqrt(Real("12.5")) + Real(1)));
    CHECK(kinds::near(out[1], Real(4) / sqrt(Real("12.5")) + Real(1)));
    CHECK(kinds::named_on_every_input(e, moved.front().id) == std::vector<std::string>{moved.front().id});
}

TEST_CASE("error model kinds: validate's proof names none of the new kinds wrong where they are made") {
    for (const char* id : {"interpolation_every_frequency", "rms_norm_vs_layer_norm", "rms_norm_zero_row", "swiglu_identity_down"}) {
        CAPTURE(id);
        const ModelProof proof = model_proof(kinds::exercise(id), ValidateSettings{}.mistake_seeds);
        CHECK(proof.wrong.empty());
        bool new_kind = false;
        for (const char* kind : {"counted_from_one", "steps_reordered", "operand_term_dropped", "function_confused", "term_moved_out"})
            new_kind = new_kind || proof.by_kind.count(kind) > 0;
        CHECK(new_kind);
    }
}

TEST_CASE("error model kinds: with the search off, an undeclared slip is named nothing, as before the search") {
    const Exercise& e = kinds::exercise("ntk_aware_scaling");
    const std::vector<ModelChange> upside_down = kinds::changes_saying(e, "swapped", "ntk_last_inverse_frequency / last_inverse_frequency");
    REQUIRE(upside_down.size() == 1);
    set_error_model_search(false);
    const std::vector<std::string> off = kinds::named_on_every_input(e, upside_down.front().id);
    set_error_model_search(true);
    CHECK(off.empty());
    CHECK(kinds::named_on_every_input(e, upside_down.front().id) == std::vector<std::string>{upside_down.front().id});
}
