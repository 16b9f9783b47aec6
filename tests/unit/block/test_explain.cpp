// The explainer's embedded values are the block's: each is checked against the block functions
// directly, and the page keeps its data blob inert and its assets inline.
#include "checker/block/explain.hpp"
#include "solutions/block/block.hpp"
#include "solutions/block/counts.hpp"
#include "solutions/block/real.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace blockcheck;
using Json = nlohmann::ordered_json;

namespace {

const Json& page_data() {
    static const Json data = explain_data(BLOCKCHECK_SOURCE_DIR, Lang::en);
    return data;
}

}  // namespace

TEST_CASE("the basics carry SiLU(1), the RMSNorm of [3, 4] and the stamps as the block computes them") {
    const Json& b = page_data()["basics"];
    CHECK(b["activations"]["silu_at_1"].get<double>() == doctest::Approx(std::exp(1.0) / (1 + std::exp(1.0))).epsilon(1e-15));
    CHECK(b["activations"]["silu_at_1"].get<double>() == silu(1.0));
    const Json& example = b["activations"]["example"];
    CHECK(example["product"][0].get<double>() == doctest::Approx(1.462117).epsilon(1e-6));
    CHECK(example["output"][1].get<double>() == doctest::Approx(-0.806824).epsilon(1e-6));
    const Vector<double> normed = rms_norm<double>(Vector<double>{3, 4}, Vector<double>{1, 1}, 0.0);
    CHECK(b["rms"]["normed"][0].get<double>() == normed[0]);
    CHECK(b["rms"]["normed"][1].get<double>() == doctest::Approx(1.131371).epsilon(1e-6));
    CHECK(b["rms"]["mean_square"].get<double>() == 12.5);
    CHECK(b["rms"]["rms"].get<double>() == doctest::Approx(std::sqrt(12.5)));
    // Quarter turn: position 1 points to [0, 1], position 2 to [-1, 0].
    CHECK(b["stamps"]["quarter"][1][1].get<double>() == doctest::Approx(1.0));
    CHECK(b["stamps"]["quarter"][2][0].get<double>() == doctest::Approx(-1.0));
    CHECK(b["stamps"]["deg30"][3][1].get<double>() == doctest::Approx(1.0));
}

TEST_CASE("the advanced mode's score depends only on the distance, and LayerNorm ignores the shift") {
    const Json& a = page_data()["advanced"];
    const Json& d = a["distance"];
    for (std::size_t n = 0; n < d["distances"].size(); ++n)
        CHECK(d["dot_from_0"][n].get<double>() == doctest::Approx(d["dot_from_10"][n].get<double>()).epsilon(1e-12));
    CHECK(d["dot_from_0"][0].get<double>() == doctest::Approx(8.0));  // eight unit pairs, no angle
    for (const Json& row : a["shift"]["layer"]) {
        CHECK(row[0].get<double>() == doctest::Approx(-1.0));
        CHECK(row[1].get<double>() == doctest::Approx(1.0));
    }
    CHECK(a["shift"]["rms"][1][0].get<double>() == doctest::Approx(0.883452).epsilon(1e-6));  // [4, 5]
    const Vector<double> inv = inverse_frequencies<double>(10000, 8);
    CHECK(a["dials"]["inv_freq"][3].get<double>() == inv[3]);
    CHECK(a["dials"]["angles"][5][1].get<double>() == doctest::Approx(5 * inv[1]));
}

TEST_CASE("the practice mode's stages are the block's trace on modern-small.json") {
    const Json& blk = page_data()["practice"]["block"];
    const Json& stages = blk["stages"];
    REQUIRE(stages.size() == 16);
    CHECK(stages[0]["key"] == "X");
    CHECK(stages[0]["shape"] == "[1, 4, 12]");
    CHECK(stages[2]["shape"] == "[1, 4, 3×4]");
    CHECK(stages[11]["shape"] == "[1, 4, 32]");
    const Json& output = stages.back();
    CHECK(output["key"] == "output");
    CHECK(output["values"][0][0].get<double>() == doctest::Approx(-2.068955273844271706).epsilon(1e-14));
    // R = X + attention output, Y = R + down projection, element by element.
    for (std::size_t c = 0; c < 12; ++c) {
        CHECK(stages[9]["values"][2][c].get<double>() ==
              doctest::Approx(stages[0]["values"][2][c].get<double>() + stages[8]["values"][2][c].get<double>()));
        CHECK(output["values"][1][c].get<double>() ==
              doctest::Approx(stages[9]["values"][1][c].get<double>() + stages[14]["values"][1][c].get<double>()));
    }
    // Causal weights: rows sum to one, no weight on later keys.
    for (const Json& head : blk["attention"])
        for (std::size_t q = 0; q < head.size(); ++q) {
            double sum = 0;
            for (std::size_t k = 0; k < head[q].size(); ++k) {
                sum += head[q][k].get<double>();
                if (k > q) CHECK(head[q][k].get<double>() == 0.0);
            }
            CHECK(sum == doctest::Approx(1.0));
        }
    CHECK(page_data()["practice"]["check"].is_null());
}

TEST_CASE("the optimisation mode's KV cache bytes, NTK frequencies and budgets are the block's counts") {
    const Json& o = page_data()["optimisation"];
    const Json& p7 = o["kv_cache"]["presets"][0];
    CHECK(p7["name"] == "LLaMA-2 7B");
    CHECK(o["kv_cache"]["sequences"][1] == 4096);
    CHECK(p7["kv_heads"][0] == 32);
    CHECK(p7["bytes"][1][0].get<Count>() == kv_cache_bytes(32, 32, 128, 4096, 1, 2));
    CHECK(p7["bytes"][1][0].get<Count>() == Count(2) * 1024 * 1024 * 1024);  // 2 GiB
    const Json& p70 = o["kv_cache"]["presets"][2];
    CHECK(p70["kv_heads"].back() == 1);
    CHECK(p70["bytes"][1][3].get<Count>() == kv_cache_bytes(80, p70["kv_heads"][3].get<Count>(), 128, 4096, 1, 2));

    const Json& sc = o["scaling"];
    const std::size_t last = 63, k = 3;  // factor 8
    CHECK(sc["factors"][k].get<double>() == 8);
    const double s = 8;
    CHECK(sc["ntk"][k][0].get<double>() == doctest::Approx(sc["base"][0].get<double>()));  // pair 0 keeps its speed
    CHECK(sc["ntk"][k][last].get<double>() == doctest::Approx(sc["base"][last].get<double>() / s).epsilon(1e-12));
    CHECK(sc["linear"][k][10].get<double>() == doctest::Approx(sc["base"][10].get<double>() / s));
    const Vector<double> ntk = inverse_frequencies<double>(ntk_base<double>(10000, s, 128), 128);
    CHECK(sc["ntk"][k][20].get<double>() == doctest::Approx(ntk[20]).epsilon(1e-15));

    const Json& budget = o["budget"][0];
    CHECK(budget["relu"] == 1152);
    CHECK(budget["swiglu_same"] == 1728);
    CHECK(budget["matched_hidden"] == 32);
    CHECK(budget["swiglu_matched"] == 1152);
    CHECK(o["budget"][2]["llama_hidden"] == llama_ffn_hidden(4096, 256));
}

TEST_CASE("check results get the reference value of each part beside them") {
    const Json check = Json::parse(R"({"exercises": [{"id": "rms_norm_vs_layer_norm", "status": "failing", "score": 6,
        "max_score": 7, "parts": [{"name": "mean_square", "verdict": "correct", "score": 1, "max_score": 1, "message": "ok"},
        {"name": "root_mean_square", "verdict": "wrong", "score": 0, "max_score": 1, "message": "wrong"}]}]})");
    const Json data = explain_data(BLOCKCHECK_SOURCE_DIR, Lang::zh, check);
    CHECK(data["lang"] == "zh");
    const Json& ex = data["practice"]["check"][0];
    CHECK(ex["id"] == "rms_norm_vs_layer_norm");
    CHECK(ex["parts"][1]["verdict"] == "wrong");
    REQUIRE(ex["parts"][0].contains("reference"));
    CHECK(std::stod(ex["parts"][0]["reference"].get<std::string>()) == 12.5);
    CHECK(std::stod(ex["parts"][1]["reference"].get<std::string>()) == doctest::Approx(3.535534).epsilon(1e-6));
}

TEST_CASE("the page inlines its script and style and keeps the data blob inert") {
    CHECK(script_safe_json(Json{{"m", "</script><b>&"}}) == R"({"m":"\u003c/script\u003e\u003cb\u003e\u0026"})");
    const std::string page = explain_html(BLOCKCHECK_SOURCE_DIR, page_data(), Lang::en);
    CHECK(page.starts_with("<!DOCTYPE html>"));
    CHECK(page.find("<script type=\"application/json\" id=\"explain-data\">") != std::string::npos);
    CHECK(page.find("data-ready=\"0\"") != std::string::npos);
    CHECK(page.find("window.onerror") != std::string::npos);
    CHECK(page.find("<script src") == std::string::npos);
    CHECK(page.find("<link") == std::string::npos);
    CHECK(page.find("https://") == std::string::npos);
    // Exactly the two script elements: the blob cannot close its tag early.
    std::size_t closes = 0;
    for (std::size_t at = page.find("</script>"); at != std::string::npos; at = page.find("</script>", at + 1)) ++closes;
    CHECK(closes == 2);
}
