// `rerun`: the worked examples' steps, their values at the book's six decimals and at more
// digits, and their shapes.
#include "checker/verify/rerun_catalog.hpp"
#include "checker/verify/rerun_format.hpp"
#include "source_tree.hpp"

#include <doctest/doctest.h>

#include <set>

using namespace blockcheck;

namespace {

using testing::repository;

template <class T>
std::string book(const Worked<T>& w, const std::string& step) {
    return format_inline(w.step(step), 0);
}

}  // namespace

TEST_CASE("rerun --digits 40 shows SiLU(1) = e / (1 + e) to 40 digits") {
    const Worked<Mpfr100> w = compute_worked<Mpfr100>("25.3", repository());
    using std::exp;
    const Mpfr100 e = exp(Mpfr100(1));
    CHECK(format_inline(w.step("silu-at-1"), 40) == to_decimal(Mpfr100(e / (Mpfr100(1) + e)), 40));
    CHECK(format_inline(w.step("silu-at-1"), 40) == "0.7310585786300048792511592418218362743651");
}

TEST_CASE("rerun 25.1 replays table 25.1 at six decimals, then with the modern frequencies") {
    const Worked<Mpfr50> w = compute_worked<Mpfr50>("25.1", repository());
    CHECK(book(w, "row-2/key") == "[0.000000, 1.000000]");
    CHECK(book(w, "row-3/query") == "[0.000000, 1.000000]");
    CHECK(book(w, "row-3/key") == "[-1.000000, 0.000000]");
    CHECK(book(w, "row-1/dot") == "1.000000");
    CHECK(book(w, "row-4/dot") == "-1.000000");
    CHECK(book(w, "exercise-1/query") == "[-1.000000, 0.000000]");
    CHECK(book(w, "exercise-1/query-2-key-3") == "0.000000");
    CHECK(book(w, "multi/inverse-frequencies") == "[1.000000, 0.010000]");
    CHECK(book(w, "multi/row-2/dot") == book(w, "multi/row-3/dot"));
    CHECK(book(w, "multi/row-2/dot") == book(w, "multi/row-2/relative"));
}

TEST_CASE("rerun 25.2: squares, their mean, the root mean square, each quotient, LayerNorm, the zero row") {
    const Worked<Mpfr50> w = compute_worked<Mpfr50>("25.2", repository());
    CHECK(book(w, "row/squares") == "[9.000000, 16.000000]");
    CHECK(book(w, "row/mean-square") == "12.500000");
    CHECK(book(w, "row/rms") == "3.535534");
    CHECK(book(w, "row/rms-norm") == "[0.848528, 1.131371]");
    CHECK(book(w, "row/mean-square-after") == "1.000000");
    CHECK(book(w, "shifted/rms-norm") == "[0.883452, 1.104315]");
    CHECK(book(w, "row/layer-norm") == "[-1.000000, 1.000000]");
    CHECK(book(w, "shifted/layer-norm") == "[-1.000000, 1.000000]");
    CHECK(w.step("zero-row/eps-0").kind == StepKind::undefined);
    CHECK(book(w, "zero-row/eps-0") == "undefined");
    CHECK(book(w, "zero-row/eps-positive") == "[0.000000, 0.000000]");
    CHECK(book(w, "exercise-2/rms-norm") == "[0.000000, 1.414214]");
}

TEST_CASE("rerun 25.3: projections, SiLU, the product, the down projection, and W_d the identity") {
    const Worked<Mpfr50> w = compute_worked<Mpfr50>("25.3", repository());
    CHECK(book(w, "gate") == "[1.000000, -1.000000]");
    CHECK(book(w, "up") == "[2.000000, 3.000000]");
    CHECK(book(w, "silu") == "[0.731059, -0.268941]");
    CHECK(book(w, "hidden") == "[1.462117, -0.806824]");
    CHECK(book(w, "ffn") == "[0.655293, -0.806824]");
    CHECK(book(w, "identity-down/ffn") == "[1.462117, -0.806824]");
    CHECK(w.step("hidden").shape == "[1, 2]");
}

TEST_CASE("rerun table-25.2 prints counts as whole numbers") {
    const Worked<Mpfr50> w = compute_worked<Mpfr50>("table-25.2", repository());
    CHECK(book(w, "relu-12-48") == "1152");
    CHECK(book(w, "swiglu-12-48") == "1728");
    CHECK(book(w, "swiglu-12-32") == "1152");
    CHECK(book(w, "matching-width-48") == "32");
    CHECK(book(w, "exercise-5/matching-width") == "64");
}

TEST_CASE("rerun figure-25.1 follows block_forward's trace with the shape at each step") {
    const Worked<Mpfr50> w = compute_worked<Mpfr50>("figure-25.1", repository());
    std::vector<std::string> names;
    for (const Step<Mpfr50>& s : w.steps) names.push_back(s.id.substr(s.id.find('/') + 1));
    const std::vector<std::string> order = {"X", "N", "Q", "K", "V", "Q-rotated", "K-rotated", "weights/head-0", "heads",
                                            "attention-output", "R", "M", "gate", "up", "hidden", "down", "output"};
    std::size_t at = 0;
    for (const std::string& name : names)
        if (at < order.size() && name == order[at]) ++at;
    CHECK(at == order.size());
    CHECK(w.step("X").shape == "[1, 4, 12]");
    CHECK(w.step("Q").shape == "[1, 4, 3×4]");
    CHECK(w.step("gate").shape == "[1, 4, 32]");
    CHECK(w.step("output").shape == "[1, 4, 12]");
    const Matrix<Mpfr50>& weights = w.step("weights/head-0").value;
    for (std::size_t t = 0; t < weights.rows; ++t)
        for (std::size_t j = t + 1; j < weights.cols; ++j) CHECK(weights(t, j) == 0);
    CHECK(book(w, "heads-recomputed") == "0");
}

TEST_CASE("rerun of the article: the stamp, the squeeze, the groups, the demo's shape") {
    const Worked<Mpfr50> stamp = compute_worked<Mpfr50>("gqa_long_context-stamp", repository());
    CHECK(book(stamp, "angles-1-to-8") == "[30.000000, 60.000000, 90.000000, 120.000000, 150.000000, 180.000000, 210.000000, 240.000000]");
    CHECK(book(stamp, "period") == "12");
    CHECK(book(stamp, "package-100-looks-like") == "4");
    const Worked<Mpfr50> pi = compute_worked<Mpfr50>("gqa_long_context-pi", repository());
    CHECK(book(pi, "factor") == "12.500000");
    CHECK(book(pi, "neighbour-degrees-after") == "2.400000");
    CHECK(book(pi, "angle-at-100") == "240.000000");
    const Worked<Mpfr50> gqa = compute_worked<Mpfr50>("gqa_long_context-gqa", repository());
    CHECK(book(gqa, "group-size") == "6");
    CHECK(book(gqa, "kv-cache-ratio") == "[48, 8, 1]");
    const Worked<Mpfr50> demo = compute_worked<Mpfr50>("gqa_long_context-rope-demo", repository());
    CHECK(book(demo, "output-shape") == "[1, 2, 8, 16]");
    CHECK(book(demo, "output/layout-gap").size() < 10);  // "0" or a rounding-level "1.2e-50"
}

TEST_CASE("every worked example computes; step ids are unique and start with the example's id") {
    std::set<std::string> ids;
    for (const std::string& id : worked_ids()) {
        const Worked<Mpfr50> w = compute_worked<Mpfr50>(id, repository());
        CHECK(w.id == id);
        CHECK(!w.steps.empty());
        for (const Step<Mpfr50>& s : w.steps) {
            INFO(s.id);
            CHECK(s.id.rfind(id + "/", 0) == 0);
            CHECK(ids.insert(s.id).second);
            CHECK(!s.what.en.empty());
            CHECK(!s.what.zh.empty());
        }
    }
}

TEST_CASE("50 and 100 digits agree on every step to 45 digits") {
    for (const std::string& id : worked_ids()) {
        const Worked<Mpfr50> a = compute_worked<Mpfr50>(id, repository());
        const Worked<Mpfr100> b = compute_worked<Mpfr100>(id, repository());
        REQUIRE(a.steps.size() == b.steps.size());
        for (std::size_t i = 0; i < a.steps.size(); ++i) {
            INFO(a.steps[i].id);
            REQUIRE(a.steps[i].value.values.size() == b.steps[i].value.values.size());
            for (std::size_t j = 0; j < a.steps[i].value.values.size(); ++j) {
                using std::abs;
                const Mpfr100 x(a.steps[i].value.values[j]), y = b.steps[i].value.values[j];
                CHECK(abs(x - y) <= parse_real<Mpfr100>("1e-44") * std::max(abs(y), Mpfr100(1)));
            }
        }
    }
}

TEST_CASE("rerun accepts ids and aliases, and nothing else") {
    CHECK(resolve_worked_id("25.2") == "25.2");
    CHECK(resolve_worked_id("table-25.1") == "25.1");
    CHECK(resolve_worked_id("swiglu_ffn_2d") == "25.3");
    CHECK(resolve_worked_id("25.9").empty());
    CHECK_THROWS_AS(compute_worked<Mpfr50>("25.9", repository()), std::out_of_range);
}
