// `blockcheck rope` reads a Hugging Face config.json as transformers does, through the case
// loader's rope_scaling reader, and gets the block's own frequencies from it.
#include "checker/block/block_case_files.hpp"
#include "checker/block/hf_config.hpp"
#include "checker/block/rope_check.hpp"
#include "source_tree.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;
using namespace blockcheck::testing;

namespace {

using Json = nlohmann::ordered_json;

RopeConfig<Mpfr50> hf_config(const std::string& text) { return read_hf_rope<Mpfr50>(parse_json_exact(text, "t"), "config.json"); }

std::string hf_refusal(const std::string& text) {
    try {
        hf_config(text);
    } catch (const InputFileError& e) {
        return e.what();
    }
    return "(accepted)";
}

// A block case's configuration written as a config.json: the names Hugging Face uses.
Json config_json_of_case(const Json& c) {
    Json hf = {{"hidden_size", c["hidden_size"]}, {"num_attention_heads", c["query_heads"]},
               {"num_key_value_heads", c["kv_heads"]}, {"head_dim", c["head_dim"]}, {"rope_theta", c["rope_theta"]}};
    for (const char* key : {"max_position_embeddings", "rope_scaling"})
        if (c.contains(key)) hf[key] = c[key];
    return hf;
}

}  // namespace

TEST_CASE("rope config: every long case's configuration, read as a config.json, gives the block's own RoPE") {
    for (const char* name : {"long-default.json", "long-cached.json", "long-dynamic.json", "long-yarn.json",
                             "long-longrope.json", "long-llama3.json"}) {
        CAPTURE(name);
        const auto path = repository() / "data/cases" / name;
        const Json json = read_json_exact(path);
        const BlockCase<Mpfr50> bc = read_case_file<Mpfr50>(path);
        const RopeConfig<Mpfr50> rc = read_hf_rope<Mpfr50>(config_json_of_case(json["config"]), name);
        CHECK(rc.rotary_dim == bc.config.head_dim);
        CHECK(rc.scaling.type == bc.config.rope_scaling.type);
        const std::size_t length = static_cast<std::size_t>(bc.start_position) + bc.input.rows;
        for (std::size_t l : {std::size_t(1), length, 4 * length}) {
            CAPTURE(l);
            const Rope<Mpfr50> block = bc.config.rope(l);
            const RopeTensors t = rope_tensors(rc, {0, static_cast<long>(l) - 1});
            REQUIRE(t.inv_freq.size() == block.inverse_frequencies.size());
            for (std::size_t i = 0; i < t.inv_freq.size(); ++i)
                CHECK(t.inv_freq[i] == block.inverse_frequencies[i] / block.position_divisor);  // exact at 50 digits
            CHECK(t.attention_factor == block.attention_factor);
            const RopeTurn<Mpfr50> turn = rope_turn(block, Mpfr50(static_cast<long>(l) - 1));
            for (std::size_t i = 0; i < t.inv_freq.size(); ++i) CHECK(t.cos(1, i) == turn.cos[i]);
        }
    }
}

TEST_CASE("rope config: Hugging Face's spellings of the scaling are read alike") {
    const std::string head = R"({"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 10000.0, "max_position_embeddings": 4096, )";
    const RopeConfig<Mpfr50> by_type = hf_config(head + R"("rope_scaling": {"type": "dynamic", "factor": 2.0}})");
    const RopeConfig<Mpfr50> by_rope_type = hf_config(head + R"("rope_scaling": {"rope_type": "dynamic", "factor": 2.0}})");
    const RopeConfig<Mpfr50> with_original = hf_config(
        head + R"("rope_scaling": {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 4096}})");
    for (const RopeConfig<Mpfr50>* c : {&by_type, &by_rope_type, &with_original}) {
        CHECK(c->head_dim == 128);  // hidden_size / num_attention_heads
        CHECK(c->scaling.type == RopeScalingType::dynamic);
        CHECK(c->scaling.original_context == 4096);
        CHECK(c->longest_context() == 8192);
        CHECK(rope_tensors(*c, {0, 8191}).inv_freq == rope_tensors(by_type, {0, 8191}).inv_freq);
    }
    CHECK(hf_refusal(head + R"("rope_scaling": {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 2048}})") ==
          "config.json: config.rope_scaling.original_max_position_embeddings: differs from max_position_embeddings; "
          "dynamic NTK takes its original context from both, so they must be equal");

    // null scaling, no rope_theta (LlamaConfig's 10000), transformers 5's rope_parameters.
    const RopeConfig<Mpfr50> plain = hf_config(R"({"head_dim": 64, "max_position_embeddings": 2048, "rope_scaling": null})");
    CHECK(plain.scaling.type == RopeScalingType::none);
    CHECK(plain.theta == 10000);
    CHECK(plain.notes.size() == 1);
    CHECK(plain.default_positions() == std::vector<long>{0, 2047});
    const RopeConfig<Mpfr50> v5 = hf_config(R"({"head_dim": 128, "max_position_embeddings": 131072, "rope_parameters":
        {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
         "original_max_position_embeddings": 8192}})");
    CHECK(v5.theta == 500000);
    CHECK(v5.scaling.type == RopeScalingType::llama3);
    CHECK(v5.default_positions() == std::vector<long>{0, 8191, 8192, 131071});

    // partial_rotary_factor: RoPE turns int(head_dim * factor) coordinates.
    const RopeConfig<Mpfr50> partial = hf_config(R"({"hidden_size": 2560, "num_attention_heads": 32,
        "partial_rotary_factor": 0.4, "max_position_embeddings": 2048})");
    CHECK(partial.head_dim == 80);
    CHECK(partial.rotary_dim == 32);
    CHECK(rope_tensors(partial, {0}).inv_freq.size() == 16);

    // Phi-3: type "su" and a top-level original_max_position_embeddings; factor = max / original.
    Json phi = {{"hidden_size", 3072}, {"num_attention_heads", 32}, {"max_position_embeddings", 131072},
                {"original_max_position_embeddings", 4096}, {"rope_theta", 10000}};
    phi["rope_scaling"] = {{"type", "su"}, {"long_factor", std::vector<std::string>(48, "2.0")},
                           {"short_factor", std::vector<std::string>(48, "1.0")}};
    const RopeConfig<Mpfr50> phi3 = read_hf_rope<Mpfr50>(phi, "phi3.json");
    CHECK(phi3.scaling.type == RopeScalingType::longrope);
    CHECK(phi3.scaling.original_context == 4096);
    CHECK(phi3.scaling.factor == 32);
    CHECK(phi3.notes.size() == 2);
}

TEST_CASE("rope config: bad input names the file and the field") {
    CHECK(hf_refusal(R"({"max_position_embeddings": 2048})") ==
          "config.json: config: needs head_dim, or hidden_size and num_attention_heads");
    CHECK(hf_refusal(R"({"hidden_size": 100, "num_attention_heads": 3})") ==
          "config.json: config.hidden_size: 100 is not a multiple of num_attention_heads (3); give head_dim");
    CHECK(hf_refusal(R"({"head_dim": 63})") == "config.json: config: head_dim 63 is odd; RoPE turns coordinate pairs");
    CHECK(hf_refusal(R"({"head_dim": 64, "rope_theta": "ten"})") ==
          "config.json: config.rope_theta: 'ten' is not a decimal number");
    CHECK(hf_refusal(R"({"head_dim": 64, "partial_rotary_factor": 0.01})") ==
          "config.json: config.partial_rotary_factor: head_dim 64 x 0.01 gives 0 rotated coordinates; RoPE turns pairs, "
          "so it must be even and at least 2");
    CHECK(hf_refusal(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 2.0, "orignal_factor": 1}})") ==
          "config.json: config.rope_scaling.orignal_factor: unknown field");
    CHECK(hf_refusal(R"({"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 4.0}})") ==
          "config.json: config.rope_scaling: needs the original context length "
          "(rope_scaling.original_max_position_embeddings or config.max_position_embeddings)");
    CHECK(hf_refusal(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 2.0}, "rope_parameters": {"rope_type": "default"}})") ==
          "config.json: config.rope_parameters: given beside rope_scaling; transformers 5 reads the first, transformers 4 "
          "the second: keep the one your code reads");
    CHECK(hf_refusal(R"({"head_dim": 64, "rope_parameters": {"rope_type": "linear"}})") ==
          "config.json: config.rope_parameters.factor: missing field");
    CHECK(hf_refusal("[1]") == "config.json: expected a JSON object (a Hugging Face config.json)");
}
