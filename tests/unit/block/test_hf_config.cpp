// One reader of Hugging Face config.json files: the block a LlamaConfig describes, its defaults,
// what it refuses by name, and the round trip through `case export`'s config.json.
#include "checker/block/block_case_files.hpp"
#include "checker/block/hf_config.hpp"
#include "source_tree.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;
using namespace blockcheck::testing;

namespace {

using Json = nlohmann::ordered_json;

const std::string small_llama = R"({"model_type": "llama", "hidden_size": 64, "intermediate_size": 96,
    "num_attention_heads": 8, "rms_norm_eps": 1e-05, "rope_theta": 500000.0,
    "max_position_embeddings": 8192, "hidden_act": "silu", "attention_bias": false, "mlp_bias": false,
    "tie_word_embeddings": true, "num_hidden_layers": 16, "vocab_size": 128256, "torch_dtype": "bfloat16",
    "bos_token_id": 1, "initializer_range": 0.02)";

// small_llama with num_key_value_heads 2 unless `extra` gives it.

HfConfig<Mpfr50> read_small_llama(const std::string& extra) {
    const std::string kv = extra.find("num_key_value_heads") == std::string::npos ? R"(, "num_key_value_heads": 2)" : "";
    return read_hf_config<Mpfr50>(parse_json_exact(small_llama + kv + extra + "}", "t"), "config.json");
}

std::string hf_block_refusal(const std::string& extra) {
    try {
        read_small_llama(extra);
    } catch (const InputFileError& e) {
        return e.what();
    }
    return "(accepted)";
}

}  // namespace

TEST_CASE("hf config: a LlamaConfig is read as the block, GQA heads, theta and its own decimals kept") {
    const HfConfig<Mpfr50> h = read_small_llama("");
    const BlockConfig<Mpfr50>& c = h.block;
    CHECK(c.hidden_size == 64);
    CHECK(c.ffn_hidden_size == 96);
    CHECK(c.query_heads == 8);
    CHECK(c.kv_heads == 2);
    CHECK(c.head_dim == 8);  // hidden_size / num_attention_heads
    CHECK(c.rope_theta == Mpfr50(500000));
    CHECK(c.rms_norm_eps == parse_real<Mpfr50>("0.00001"));  // the decimal, not the double nearest it
    CHECK(c.rope_layout == RopeLayout::half);
    CHECK(h.max_position_embeddings == 8192);
    CHECK(h.num_hidden_layers == 16);
    CHECK(h.vocab_size == 128256);
    CHECK(h.tie_word_embeddings);
    CHECK(h.torch_dtype == "bfloat16");
    CHECK(h.case_config["rms_norm_eps"] == "1e-05");
    CHECK(h.case_config["rope_theta"] == "500000.0");
    CHECK(h.notes.empty());
}

TEST_CASE("hf config: LlamaConfig's defaults, each said in a note") {
    const Json json = parse_json_exact(R"({"hidden_size": 32, "intermediate_size": 64, "num_attention_heads": 4})", "t");
    const HfConfig<Mpfr50> h = read_hf_config<Mpfr50>(json, "config.json");
    CHECK(h.block.kv_heads == 4);
    CHECK(h.block.rope_theta == Mpfr50(10000));
    CHECK(h.block.rms_norm_eps == parse_real<Mpfr50>("0.000001"));
    CHECK(h.max_position_embeddings == 2048);
    CHECK(h.notes.size() == 3);  // rope_theta, rms_norm_eps, max_position_embeddings
}

TEST_CASE("hf config: what would change the block is refused by name") {
    CHECK(hf_block_refusal(R"(, "attention_bias": true)") == "config.json: config.attention_bias: true: the block has no bias terms");
    CHECK(hf_block_refusal(R"(, "mlp_bias": true)") == "config.json: config.mlp_bias: true: the block has no bias terms");
    CHECK(hf_block_refusal(R"(, "hidden_act": "gelu_pytorch_tanh")") ==
          "config.json: config.hidden_act: \"gelu_pytorch_tanh\": the block's gate is SiLU (\"silu\")");
    CHECK(hf_block_refusal(R"(, "model_type": "bloom")").starts_with(
        "config.json: config.model_type: \"bloom\": not a family the block computes (llama, mistral, qwen2"));
    CHECK(hf_block_refusal(R"(, "partial_rotary_factor": 0.5)") ==
          "config.json: config.partial_rotary_factor: RoPE turns 4 of each head's 8 coordinates; the block turns them "
          "all but in a phi3 layer");
    CHECK(hf_block_refusal(R"(, "quantization_config": {"bits": 4})").starts_with("config.json: config.quantization_config:"));
    CHECK(hf_block_refusal(R"(, "num_key_value_heads": 3)") ==
          "config.json: config.num_key_value_heads: 3 does not divide num_attention_heads (8)");
    CHECK(hf_block_refusal(R"(, "hidden_act": "swish", "sliding_window": 4096)") == "(accepted)");
    CHECK(read_small_llama(R"(, "sliding_window": 4096)").sliding_window == 4096);
}

TEST_CASE("hf config: the config.json case export writes reads back to the case's block in half layout") {
    TempDir dir("hf-config");
    for (const char* name : {"modern-small.json", "long-default.json", "long-yarn.json", "long-llama3.json",
                             "long-dynamic.json", "long-longrope.json", "gqa-theta.json"}) {
        CAPTURE(name);
        const auto source = std::filesystem::path(BLOCKCHECK_SOURCE_DIR) / "data/cases" / name;
        const BlockCase<Mpfr50> bc = read_case_file<Mpfr50>(source);
        const auto files = export_case(source, dir.path / "layer.safetensors", {.force = true});
        const HfConfig<Mpfr50> h = read_hf_config_file<Mpfr50>(files[1]);
        const BlockConfig<Mpfr50>& a = bc.config;
        const BlockConfig<Mpfr50>& b = h.block;
        CHECK(b.hidden_size == a.hidden_size);
        CHECK(b.query_heads == a.query_heads);
        CHECK(b.kv_heads == a.kv_heads);
        CHECK(b.head_dim == a.head_dim);
        CHECK(b.ffn_hidden_size == a.ffn_hidden_size);
        CHECK(b.rope_scaling.type == a.rope_scaling.type);
        CHECK(b.rope_layout == RopeLayout::half);
        // The export writes doubles: equal to the case's decimals to a double's precision.
        CHECK(abs(b.rms_norm_eps - a.rms_norm_eps) <= a.rms_norm_eps * 1e-15);
        CHECK(abs(b.rope_theta - a.rope_theta) <= a.rope_theta * 1e-15);
        CHECK(abs(b.rope_scaling.factor - a.rope_scaling.factor) <= a.rope_scaling.factor * 1e-15);
        CHECK(b.rope_scaling.original_context == a.rope_scaling.original_context);
    }
}
