// The model families (issue 42): each family's config.json read into the switches of the one
// block, its porting mistakes made only where the layer has the mechanism and named by
// `compare --model` on a small folder of the family (case new --family), with no other name.
#include "small_checkpoint.hpp"

#include "checker/block/case_new.hpp"
#include "checker/block/mistake_match.hpp"

using namespace blockcheck;
using namespace blockcheck::testing;

namespace {

using Ids = std::vector<std::string>;

// The family mistakes of the catalogue, and the generic one a fused gate_up_proj split the other way is.
const Ids family_mistakes = {"norm_gain_one_dropped",  "qkv_bias_dropped",      "qk_norm_skipped",
                             "qk_norm_after_rope",     "qk_norm_other_span",    "sliding_window_ignored",
                             "sliding_window_off_by_one", "softcap_skipped",    "gelu_exact_for_tanh",
                             "fused_qkv_split_order",  "norms_pre_post_swapped", "local_global_shifted",
                             "gate_up_swapped"};

// The layer at double with `mistake` made (none: ""), as a port with that slip computes it.
Tensor family_port(const std::filesystem::path& dir, std::size_t layer, const std::string& mistake) {
    ModelFolder folder(dir);
    ModelLayer<double> l = load_model_layer<double>(folder, layer);
    if (!mistake.empty()) REQUIRE(make_layer_mistake(l.config, mistake));
    const Tensor x = read_npy(dir / "hidden.npy");
    Matrix<double> rows(x.shape[0], x.shape[1]);
    rows.values = x.values;
    const Matrix<double> y = block_forward(l.config, l.weights, rows);
    return {DType::float64, {y.rows, y.cols}, y.values};
}

Json compare_layer(const std::filesystem::path& dir, std::size_t layer, const Tensor& port) {
    write_npy(dir / "port.npy", port);
    run_blockcheck({"compare", "--model", dir.string(), "--layer", std::to_string(layer), "--input",
                    (dir / "hidden.npy").string(), "--json", (dir / "port.npy").string()},
                   dir / "compare.json");
    return Json::parse(text_of(dir / "compare.json"));
}

Ids named(const Json& report) {
    Ids ids;
    for (const Json& m : report["named_mistakes"]) ids.push_back(m["id"].get<std::string>());
    return ids;
}

// The family mistakes made on layer `layer` of `family`'s small folder.
Ids made_on_layer(const std::filesystem::path& dir, std::size_t layer) {
    ModelFolder folder(dir);
    const BlockConfig<double> c = load_model_layer<double>(folder, layer).config;
    Ids made;
    for (const std::string& id : family_mistakes) {
        BlockConfig<double> changed = c;
        if (make_layer_mistake(changed, id)) made.push_back(id);
    }
    return made;
}

}  // namespace

TEST_CASE("each family's config.json sets its switches, and each family mistake is made only where they are") {
    TempDir dir{"families"};
    const std::map<std::string, std::array<Ids, 2>> expected = {
        {"mistral", {Ids{"sliding_window_ignored", "sliding_window_off_by_one", "gate_up_swapped"},
                     Ids{"sliding_window_ignored", "sliding_window_off_by_one", "gate_up_swapped"}}},
        {"qwen2", {Ids{"qkv_bias_dropped", "local_global_shifted", "gate_up_swapped"},
                   Ids{"qkv_bias_dropped", "sliding_window_ignored", "sliding_window_off_by_one", "gate_up_swapped"}}},
        {"qwen3", {Ids{"qk_norm_skipped", "qk_norm_after_rope", "qk_norm_other_span", "local_global_shifted", "gate_up_swapped"},
                   Ids{"qk_norm_skipped", "qk_norm_after_rope", "qk_norm_other_span", "sliding_window_ignored",
                       "sliding_window_off_by_one", "gate_up_swapped"}}},
        {"gemma2", {Ids{"norm_gain_one_dropped", "sliding_window_ignored", "sliding_window_off_by_one", "softcap_skipped",
                        "gelu_exact_for_tanh", "norms_pre_post_swapped", "gate_up_swapped"},
                    Ids{"norm_gain_one_dropped", "softcap_skipped", "gelu_exact_for_tanh", "norms_pre_post_swapped",
                        "local_global_shifted", "gate_up_swapped"}}},
        {"gemma3_text", {Ids{"norm_gain_one_dropped", "qk_norm_skipped", "qk_norm_after_rope", "qk_norm_other_span",
                             "sliding_window_ignored", "sliding_window_off_by_one", "softcap_skipped", "gelu_exact_for_tanh",
                             "norms_pre_post_swapped", "local_global_shifted", "gate_up_swapped"},
                         Ids{"norm_gain_one_dropped", "qk_norm_skipped", "qk_norm_after_rope", "qk_norm_other_span",
                             "softcap_skipped", "gelu_exact_for_tanh", "norms_pre_post_swapped", "local_global_shifted",
                             "gate_up_swapped"}}},
        {"phi3", {Ids{"sliding_window_ignored", "sliding_window_off_by_one", "fused_qkv_split_order", "gate_up_swapped"},
                  Ids{"sliding_window_ignored", "sliding_window_off_by_one", "fused_qkv_split_order", "gate_up_swapped"}}},
        {"olmo2", {Ids{"qk_norm_skipped", "qk_norm_after_rope", "qk_norm_other_span", "norms_pre_post_swapped", "gate_up_swapped"},
                   Ids{"qk_norm_skipped", "qk_norm_after_rope", "qk_norm_other_span", "norms_pre_post_swapped",
                       "gate_up_swapped"}}},
    };
    for (const auto& [family, layers] : expected) {
        CAPTURE(family);
        write_family_folder(dir.path / family, {family});
        for (std::size_t layer = 0; layer < 2; ++layer) {
            CAPTURE(layer);
            CHECK(made_on_layer(dir.path / family, layer) == layers[layer]);
        }
    }
    // The LLaMA-only slips are not made where the family has no such thing to get wrong.
    ModelFolder gemma(dir.path / "gemma2");
    BlockConfig<double> c = load_model_layer<double>(gemma, 0).config;
    CHECK(c.gate_activation == GateActivation::gelu_tanh);
    CHECK(!make_layer_mistake(c, "gelu_for_silu"));
    CHECK(!make_layer_mistake(c, "norm_gain_plus_one"));
}

TEST_CASE("an unknown model_type, or a family field the block does not compute, is refused by name") {
    auto refused = [](Json config) {
        return refusal([&] { read_hf_config<double>(parse_json_exact(config.dump(), "config.json"), "config.json"); });
    };
    Json llama = {{"hidden_size", 16}, {"intermediate_size", 24}, {"num_attention_heads", 4}};
    Json bloom = llama;
    bloom["model_type"] = "bloom";
    CHECK(refused(bloom).find("config.json: config.model_type: \"bloom\": not a family the block computes") == 0);
    Json qwen3 = llama;
    qwen3.update({{"model_type", "qwen3"}, {"head_dim", 4}, {"attention_bias", true}});
    CHECK(refused(qwen3).find("config.json: config.attention_bias: true") == 0);
    Json gemma = llama;
    gemma.update({{"model_type", "gemma2"}, {"head_dim", 4}, {"hidden_activation", "relu"}});
    CHECK(refused(gemma).find("config.json: config.hidden_activation: \"relu\"") == 0);
    Json gemma3 = llama;
    gemma3.update({{"model_type", "gemma3_text"}, {"head_dim", 4}, {"layer_types", {"sliding_attention", "chunked"}},
                   {"num_hidden_layers", 2}});
    CHECK(refused(gemma3).find("config.json: config.layer_types[1]: \"chunked\"") == 0);
    Json partial = llama;
    partial["partial_rotary_factor"] = 0.5;
    CHECK(refused(partial).find("config.json: config.partial_rotary_factor") == 0);
}

TEST_CASE("case new --family gemma3 writes gemma3_text's layers nested as Gemma3ForConditionalGeneration does") {
    TempDir dir{"gemma3-nested"};
    write_family_folder(dir.path / "nested", {"gemma3"});
    write_family_folder(dir.path / "text", {"gemma3_text"});
    const Json config = Json::parse(text_of(dir.path / "nested" / "config.json"));
    CHECK(config["model_type"] == "gemma3");
    CHECK(config["text_config"]["model_type"] == "gemma3_text");
    for (std::size_t layer = 0; layer < 2; ++layer) {
        CAPTURE(layer);
        const Tensor nested = family_port(dir.path / "nested", layer, ""), text = family_port(dir.path / "text", layer, "");
        CHECK(nested.values == text.values);  // the same seed: the same layer, read through text_config
    }
}

TEST_CASE("phi3: Phi3Config's defaults, LongRoPE's original context 4096 where config.json gives none") {
    const std::size_t d = 8;
    Json phi3 = {{"model_type", "phi3"},        {"hidden_size", 32},          {"intermediate_size", 48},
                 {"num_attention_heads", 4},    {"max_position_embeddings", 131072},
                 {"rope_scaling", {{"type", "longrope"}, {"short_factor", Json(std::vector<double>(d / 2, 1.0))},
                                   {"long_factor", Json(std::vector<double>(d / 2, 4.0))}}}};
    auto read = [](const Json& config) { return read_hf_config<double>(parse_json_exact(config.dump(), "config.json"), "config.json"); };
    auto noted = [](const HfConfig<double>& hf, const std::string& text) {
        return std::any_of(hf.notes.begin(), hf.notes.end(), [&](const Text& n) { return n.en == text; });
    };
    const HfConfig<double> long_context = read(phi3);
    CHECK(long_context.block.rope_scaling.original_context == 4096);  // not max_position_embeddings (131072)
    CHECK(long_context.block.rope_scaling.factor == 32.0);            // 131072 / 4096
    CHECK(long_context.block.rms_norm_eps == 1e-5);
    CHECK(noted(long_context, "original_max_position_embeddings is not given: 4096, Phi3Config's default"));
    // given, it is read as given; without max_position_embeddings both are Phi3Config's 4096 (factor 1)
    phi3["original_max_position_embeddings"] = 8192;
    CHECK(read(phi3).block.rope_scaling.original_context == 8192);
    phi3.erase("original_max_position_embeddings");
    phi3.erase("max_position_embeddings");
    const HfConfig<double> defaults = read(phi3);
    CHECK(defaults.block.rope_scaling.original_context == 4096);
    CHECK(defaults.block.rope_scaling.factor == 1.0);
    CHECK(noted(defaults, "max_position_embeddings is not given: 4096, Phi3Config's default"));
}

TEST_CASE("compare --model names each family mistake on its layers, and passes the honest layer") {
    TempDir dir{"family-compare"};
    for (const char* family : {"mistral", "qwen2", "qwen3", "gemma2", "gemma3_text", "phi3", "olmo2"}) {
        CAPTURE(family);
        const std::filesystem::path folder = dir.path / family;
        write_family_folder(folder, {family});
        for (std::size_t layer = 0; layer < 2; ++layer) {
            CAPTURE(layer);
            const Json honest = compare_layer(folder, layer, family_port(folder, layer, ""));
            CHECK(honest["within"] == true);
            CHECK(named(honest).empty());
            for (const std::string& id : made_on_layer(folder, layer)) {
                CAPTURE(id);
                CHECK(named(compare_layer(folder, layer, family_port(folder, layer, id))) == Ids{id});
            }
        }
    }
}
