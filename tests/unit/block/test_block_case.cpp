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
        read_block_case<Mpfr50>(json, "case.json");
    } catch (const InputFileError& e) {
        return e.what();
    }
    return "accepted";
}
}  // namespace

TEST_CASE("the modern block case reads at every precision") {
    const auto bc = read_block_case<Mpfr50>(modern_case(), "modern-small.json");
    CHECK(bc.config.hidden_size == 12);
    CHECK(bc.config.query_heads * bc.config.head_dim == 12);
    CHECK(bc.config.rms_norm_eps == parse_real<Mpfr50>("0.000001"));
    CHECK(bc.input.rows == 4);
    CHECK(read_block_case<double>(modern_case(), "x").weights.down.rows == 32);
}

TEST_CASE("decimal strings and JSON numbers are read exactly") {
    const Json j = parse_json_exact(R"({"a": 0.1, "b": "0.1", "c": 3})", "t");
    CHECK(parse_real<Mpfr50>(decimal_text(j["a"], "a")) == parse_real<Mpfr50>("0.1"));
    CHECK(decimal_text(j["b"], "b") == "0.1");
    CHECK(decimal_text(j["c"], "c") == "3");
}

TEST_CASE("malformed cases are refused naming the field and the problem") {
    Json j = modern_case();
    SUBCASE("missing field") {
        j["weights"].erase("up");
        CHECK(refusal(j) == "case.json: weights.up: missing field");
    }
    SUBCASE("missing top-level field") {
        j.erase("input");
        CHECK(refusal(j) == "case.json: input: missing field");
    }
    SUBCASE("unknown top-level field") {
        j["weigths"] = 1;
        CHECK(refusal(j) == "case.json: weigths: unknown field");
    }
    SUBCASE("a field that is not an object") {
        j["weights"] = Json::array();
        CHECK(refusal(j) == "case.json: weights: expected an object, got []");
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
        CHECK(refusal(j) == "case.json: config.rope_scaling.type: expected \"none\", \"default\", \"linear\", \"ntk\", "
                            "\"dynamic\", \"yarn\", \"longrope\" or \"llama3\", found \"yarn2\"");
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

TEST_CASE("sizes beyond the limits are refused before anything is allocated") {
    Json j = modern_case();
    SUBCASE("query_heads * head_dim that would overflow") {
        j["config"]["query_heads"] = 4611686018427387904ull;
        j["config"]["kv_heads"] = 4611686018427387904ull;
        CHECK(refusal(j) == "case.json: config.query_heads: 4611686018427387904 is beyond the limit of 65536");
    }
    SUBCASE("a width beyond the limit") {
        j["config"]["query_heads"] = 65536, j["config"]["kv_heads"] = 1, j["config"]["head_dim"] = 65536;
        CHECK(refusal(j) == "case.json: config.query_heads: 65536 heads x head_dim 65536 = 4294967296 is beyond the "
                            "limit of 1048576");
    }
    SUBCASE("rows checked before the matrix is allocated") {
        j["config"]["ffn_hidden_size"] = 65536;  // gate would be 12 x 65536: its rows are checked first
        CHECK(refusal(j) == "case.json: weights.gate[0]: expected 65536 numbers, found 32");
    }
    SUBCASE("start_position near the end of long") {
        j["start_position"] = 9223372036854775807ll;
        CHECK(refusal(j) == "case.json: start_position: 9223372036854775807 is beyond the limit of 1099511627776");
    }
}

TEST_CASE("a number beyond double's range is refused naming it at --precision double") {
    Json j = modern_case();
    j["input"][1][3] = "1e999";
    try {
        read_block_case<double>(j, "case.json");
        FAIL("accepted");
    } catch (const InputFileError& e) {
        CHECK(std::string(e.what()) == "case.json: input[1][3]: '1e999' is out of double's range");
    }
    CHECK(refusal(j) == "accepted");  // 50 digits have the exponent range for it
}

TEST_CASE("the block refuses positions that would overflow") {
    const BlockCase<double> bc = read_block_case<double>(modern_case(), "x");
    KvCache<double> cache;
    CHECK_THROWS_AS(block_step(bc.config, bc.weights, bc.input, std::numeric_limits<long>::max() - 1, cache),
                    std::invalid_argument);
}

TEST_CASE("rope_scaling reads as Hugging Face writes it, and the old spellings keep working") {
    Json j = modern_case();
    SUBCASE("rope_type llama3") {
        j["config"]["rope_scaling"] = parse_json_exact(R"({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
            "high_freq_factor": 4.0, "original_max_position_embeddings": 8192})", "t");
        const auto c = read_block_case<Mpfr50>(j, "x").config;
        CHECK(c.rope_scaling.type == RopeScalingType::llama3);
        CHECK(c.rope_scaling.original_context == 8192);
        CHECK(c.rope_scaling.high_freq_factor == 4);
    }
    SUBCASE("old type ntk") {
        j["config"]["rope_scaling"] = {{"type", "ntk"}, {"factor", 4}};
        CHECK(read_block_case<Mpfr50>(j, "x").config.rope_scaling.type == RopeScalingType::ntk);
    }
    SUBCASE("both spellings, agreeing") {
        j["config"]["rope_scaling"] = {{"type", "linear"}, {"rope_type", "linear"}, {"factor", 2}};
        CHECK(read_block_case<Mpfr50>(j, "x").config.rope_scaling.factor == 2);
    }
    SUBCASE("yarn's factor from max / original") {
        j["config"]["max_position_embeddings"] = 131072;
        j["config"]["rope_scaling"] = {{"rope_type", "yarn"}, {"factor", 4}, {"original_max_position_embeddings", 32768}};
        CHECK(read_block_case<Mpfr50>(j, "x").config.rope_scaling.factor == 4);
        j["config"]["rope_scaling"]["factor"] = 8;
        CHECK(refusal(j) == "case.json: config.rope_scaling.factor: 8 disagrees with max_position_embeddings / "
                            "original_max_position_embeddings = 131072 / 32768");
    }
    SUBCASE("dynamic without the original length") {
        j["config"]["rope_scaling"] = {{"rope_type", "dynamic"}, {"factor", 2}};
        CHECK(refusal(j) == "case.json: config.rope_scaling: needs the original context length "
                            "(rope_scaling.original_max_position_embeddings or config.max_position_embeddings)");
    }
    SUBCASE("a field another type reads") {
        j["config"]["rope_scaling"] = {{"rope_type", "linear"}, {"factor", 2}, {"beta_fast", 32}};
        CHECK(refusal(j) == "case.json: config.rope_scaling.beta_fast: unknown field");
    }
    SUBCASE("longrope lists of the wrong length") {
        j["config"]["max_position_embeddings"] = 64;
        j["config"]["rope_scaling"] = {{"rope_type", "longrope"}, {"long_factor", {1, 2, 3}}, {"short_factor", {1, 1}}};
        CHECK(refusal(j) == "case.json: config.rope_scaling.long_factor: expected 2 numbers, found 3");
    }
}

TEST_CASE("a cached block is a KV cache the new rows attend over") {
    const std::string file = std::string(BLOCKCHECK_SOURCE_DIR) + "/data/cases/long-cached.json";
    const BlockCase<Mpfr50> bc = read_block_case<Mpfr50>(read_json_exact(file), file);
    CHECK(bc.cached.positions == std::vector<long>{40, 70, 99});
    // The same rows without the cache give a different output: the cache is attended over.
    BlockCase<Mpfr50> fresh = bc;
    fresh.cached = {};
    CHECK(block_case_forward(bc).values != block_case_forward(fresh).values);
    Json j = read_json_exact(file);
    j["cached"]["positions"][2] = 100;
    CHECK(refusal(j) == "case.json: cached.positions[2]: 100 is not before start_position (100)");
}
