// `compare` reads like a numerical analyst: a faithful float32 block passes --dtype float32,
// planted bugs fail and are located at the stage that computes them wrongly.
#include "checker/block/block_case_files.hpp"
#include "checker/block/block_output.hpp"
#include "checker/block/error_report.hpp"
#include "plain_float32_block.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace blockcheck;
using namespace blockcheck::testing;

namespace {

std::string case_path(const std::string& name) { return std::string(BLOCKCHECK_SOURCE_DIR) + "/data/cases/" + name; }

struct Verdict {
    bool within = false;
    std::string first_outside;  // empty when every stage is within
    double output_normwise = 0;
};

Verdict grade(const std::string& name, PlantedBugs bugs) {
    const auto json = read_json_exact(case_path(name));
    const BlockCase<Mpfr50> bc = read_block_case<Mpfr50>(json, name);
    Trace<Mpfr50> reference;
    block_case_forward(bc, &reference);
    const Trace<Mpfr50> given = plain_float32_forward(read_block_case<double>(json, name), bugs);
    const auto stages = compare_stages(given, reference, bc.config, bc.input.rows, DType::float32);
    REQUIRE(stages.size() == given.size());
    const StageErrors* first = first_stage_outside(stages);
    return {first == nullptr, first ? first->name : "", stages.back().normwise};
}

}  // namespace

TEST_CASE("a faithful float32 block passes --dtype float32 at every stage") {
    for (const char* name : {"modern-small.json", "long-default.json"}) {
        const Verdict v = grade(name, {});
        CHECK_MESSAGE(v.within, name, " first outside: ", v.first_outside);
        CHECK(v.output_normwise < 1e-6);
        CHECK(v.output_normwise > 0);  // float32 really did round
    }
}

TEST_CASE("planted bugs fail and are located at the stage that computes them") {
    for (const char* name : {"modern-small.json", "long-default.json"}) {
        CAPTURE(name);
        PlantedBugs pairs;
        pairs.other_pairing = true;
        CHECK(grade(name, pairs).first_outside == "Q_rotated");
        PlantedBugs scale;
        scale.no_score_scale = true;
        CHECK(grade(name, scale).first_outside == "heads");
    }
    // eps outside the square root shifts N by about eps / sqrt(mean x^2) relative: visible in
    // float32 when that is well above float32's rounding (long-default: eps 1e-5, rows of size ~1).
    PlantedBugs eps;
    eps.eps_outside_sqrt = true;
    CHECK(grade("long-default.json", eps).first_outside == "N");
}

TEST_CASE("a Hugging Face-layout port of an interleaved case: its Q/K stages mapped pass, a wrong pairing never does") {
    TempDir dir("hf-port");
    const auto files = export_case(case_path("modern-small.json"), dir.path / "layer.safetensors");
    const BlockCase<Mpfr50> bc = read_case_file<Mpfr50>(case_path("modern-small.json"));
    Trace<Mpfr50> reference;
    block_case_forward(bc, &reference);
    // The port computes on the exported weights with rotate_half: the export's own case.
    const BlockCase<double> hf = read_case_file<double>(files[2]);
    REQUIRE(hf.config.rope_layout == RopeLayout::half);
    auto first_outside = [&](const Trace<Mpfr50>& given) {
        const StageErrors* s = first_stage_outside(compare_stages(given, reference, bc.config, 4, DType::float32));
        return s ? s->name : std::string("(none)");
    };
    auto as_interleaved = [&](const Trace<Mpfr50>& t) {
        return in_pair_layout(t, bc.config.head_dim, RopeLayout::half, RopeLayout::interleaved);
    };
    const Trace<Mpfr50> port = plain_float32_forward(hf, {});
    CHECK(first_outside(port) == "Q");                 // read as it is: the other layout
    CHECK(first_outside(as_interleaved(port)) == "(none)");
    // Against the export's own case, no mapping is needed.
    const BlockCase<Mpfr50> own = read_case_file<Mpfr50>(files[2]);
    Trace<Mpfr50> own_reference;
    block_case_forward(own, &own_reference);
    CHECK(first_stage_outside(compare_stages(port, own_reference, own.config, 4, DType::float32)) == nullptr);
    // The same port pairing neighbours on Hugging Face's weights: mapped, still outside.
    PlantedBugs flipped;
    flipped.other_pairing = true;
    const Trace<Mpfr50> wrong = as_interleaved(plain_float32_forward(hf, flipped));
    CHECK(first_outside(wrong) == "Q_rotated");
    CHECK_FALSE(compare_stages(wrong, reference, bc.config, 4, DType::float32).back().within());
}

TEST_CASE("stage tolerances grow with eps and the square root of the depth") {
    CHECK(derived_tolerance(DType::float32, 100, 2.0).rtol == doctest::Approx(4 * std::ldexp(1.0, -23) * 10));
    CHECK(derived_tolerance(DType::float32, 100, 2.0).atol == doctest::Approx(8 * std::ldexp(1.0, -23) * 10));
    CHECK(derived_tolerance(DType::bfloat16, 1, 1.0).rtol == doctest::Approx(4 * std::ldexp(1.0, -7)));
    BlockConfig<Mpfr50> c;
    c.hidden_size = 12, c.head_dim = 4, c.query_heads = 3, c.ffn_hidden_size = 32;
    CHECK(stage_depth("N", c, 4) == 12);
    CHECK(stage_depth("Q", c, 4) < stage_depth("Q_rotated", c, 4));
    CHECK(stage_depth("heads", c, 4) < stage_depth("R", c, 4));
    CHECK(stage_depth("output", c, 4) == 12 + 12 + 2 + 4 + 4 + 4 + 12 + 1 + 12 + 12 + 1 + 32 + 1);
}

TEST_CASE("NaN and infinity in an output are findings, where they are") {
    Matrix<Mpfr50> ref(2, 2), given(2, 2);
    ref.values = {Mpfr50(1), Mpfr50(2), Mpfr50(3), Mpfr50(4)};
    given = ref;
    given(1, 0) = std::numeric_limits<Mpfr50>::quiet_NaN();
    given(1, 1) = std::numeric_limits<Mpfr50>::infinity();
    const StageErrors s = stage_errors("output", given, ref, derived_tolerance(DType::float32, 10, 4.0));
    CHECK_FALSE(s.within());
    CHECK(s.nonfinite == 2);
    REQUIRE(s.first_nonfinite);
    CHECK(s.first_nonfinite->row == 1);
    CHECK(s.first_nonfinite->col == 0);
    CHECK(s.max_abs == 0);  // the finite elements are exact
}

TEST_CASE("the worst relative element is named with its small reference") {
    Matrix<Mpfr50> ref(1, 3), given(1, 3);
    ref.values = {Mpfr50(10), Mpfr50("1e-12"), Mpfr50(-5)};
    given.values = {Mpfr50(10) + Mpfr50("1e-15"), Mpfr50("1e-12") + Mpfr50("8.9e-16"), Mpfr50(-5)};
    const StageErrors s = stage_errors("output", given, ref, derived_tolerance(DType::float64, 50, 10.0));
    CHECK(s.worst_rel.col == 1);
    CHECK(s.max_rel == doctest::Approx(8.9e-4));
    CHECK(s.worst_abs.col == 0);
    CHECK(s.normwise == doctest::Approx(1e-16));
    CHECK(s.within());  // norm-wise the error is a fraction of a double's epsilon
}

TEST_CASE("Python's json.dump NaN and Infinity are read as non-finite outputs") {
    CHECK(quote_python_nonfinite(R"({"output": [[NaN, -Infinity, Infinity, 1.5]], "n": "NaN x"})") ==
          R"({"output": [["NaN", "-Infinity", "Infinity", 1.5]], "n": "NaN x"})");
    TempDir dir("compare");
    const auto file = dir.path / "out.json";
    std::ofstream(file) << "{\"output\": [[NaN, 1.0], [2.0, -Infinity]]}";
    Trace<Mpfr50> reference;
    reference.add("output", Matrix<Mpfr50>(2, 2));
    const Trace<Mpfr50> given = read_block_output(file, reference);
    using std::isinf;
    using std::isnan;
    REQUIRE(given.size() == 1);
    CHECK(isnan(given.at("output")(0, 0)));
    CHECK(isinf(given.at("output")(1, 1)));
    CHECK(given.at("output")(1, 0) == 2);
}

TEST_CASE("an output carrying an unknown stage name is refused naming it") {
    TempDir dir("compare");
    const auto file = dir.path / "out.json";
    std::ofstream(file) << R"({"output": [[1]], "trace": {"Qrot": [[1]]}})";
    Trace<Mpfr50> reference;
    reference.add("Q", Matrix<Mpfr50>(1, 1));
    reference.add("output", Matrix<Mpfr50>(1, 1));
    CHECK_THROWS_WITH(read_block_output(file, reference), doctest::Contains("trace.Qrot: not a --trace name"));
}
