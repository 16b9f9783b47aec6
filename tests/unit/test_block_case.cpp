// Block case files: every malformed case is refused with a message naming the field.
#include "checker/block/block_case.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace blockcheck;
using Json = nlohmann::ordered_json;

namespace {
Json modern_case() { return read_json_exact(std::string(BLOCKCHECK_SOURCE_DIR) + "/data/cases/modern-small.json"); }

std::string refusal(const Json& json) {
    try {
        read_block_case<Real50>(json, "case.json");
    } catch (const InputFileError& e) {
        return e.what();
    }
    return "accepted";
}
}  // namespace

TEST_CASE("the modern block case reads at every precision") {
    const auto bc = read_block_case<Real50>(modern_case(), "modern-small.json");
    CHECK(bc.config.hidden_size == 12);
    CHECK(bc.config.query_heads * bc.config.head_dim == 12);
    CHECK(bc.config.rms_norm_eps == parse_real<Real50>("0.000001"));
    CHECK(bc.input.rows == 4);
    CHECK(read_block_case<double>(modern_case(), "x").weights.down.rows == 32);
}

TEST_CASE("decimal strings and JSON numbers are read exactly") {
    const Json j = parse_json_exact(R"({"a": 0.1, "b": "0.1", "c": 3})", "t");
    CHECK(parse_real<Real50>(decimal_text(j["a"], "a")) == parse_real<Real50>("0.1"));
    CHECK(decimal_text(j["b"], "b") == "0.1");
    CHECK(decimal_text(j["c"], "c") == "3");
}

TEST_CASE("malformed cases are refused naming the field and the problem") {
    Json j = modern_case();
    SUBCASE("missing field") {
        j["weights"].erase("up");
        CHECK(refusal(j) == "case.json: weights.up: missing field");
    }
    SUBCASE("wrong shape") {
        j["weights"]["q"].erase(0);
        CHECK(refusal(j) == "case.json: weights.q: expected 12 rows of 12, found 11 rows");
    }
    SUBCASE("a row too short") {
        j["input"][2].erase(0);
        CHECK(refusal(j) == "case.json: input[2]: expected 12 numbers, found 11");
    }
    SUBCASE("kv_heads not dividing query_heads") {
        j["config"]["kv_heads"] = 2;
        CHECK(refusal(j) == "case.json: config.kv_heads: 2 does not divide query_heads (3)");
    }
    SUBCASE("odd head_dim") {
        j["config"]["head_dim"] = 3;
        CHECK(refusal(j) == "case.json: config.head_dim: 3 is odd; RoPE turns coordinate pairs");
    }
    SUBCASE("a number that does not parse") {
        j["weights"]["down"][4][7] = "0.5.1";
        CHECK(refusal(j) == "case.json: weights.down[4][7]: '0.5.1' is not a decimal number");
    }
    SUBCASE("a zero row with epsilon 0") {
        j["config"]["rms_norm_eps"] = 0;
        for (auto& v : j["input"][1]) v = 0;
        CHECK(refusal(j) == "case.json: input[1]: an all-zero row with rms_norm_eps 0 has no RMSNorm");
    }
    SUBCASE("an unknown scaling type") {
        j["config"]["rope_scaling"] = {{"type", "yarn2"}};
        CHECK(refusal(j) == "case.json: config.rope_scaling.type: expected \"none\", \"linear\" or \"ntk\", found \"yarn2\"");
    }
    SUBCASE("a misspelt field") {
        j["config"]["kv_head"] = 3;
        CHECK(refusal(j) == "case.json: config.kv_head: unknown field");
    }
}

TEST_CASE("bad JSON names the file and the line") {
    CHECK_THROWS_WITH(parse_json_exact("{\n  \"a\": [1, 2\n}", "bad.json"), doctest::Contains("bad.json: "));
    CHECK_THROWS_WITH(parse_json_exact("{\n  \"a\": [1, 2\n}", "bad.json"), doctest::Contains("line 3"));
}
