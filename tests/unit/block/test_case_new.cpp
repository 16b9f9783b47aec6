// `case new`: a block case from options or a Hugging Face config.json, random weights from a
// seed, in the documented format; and the shipped GQA case it made, on which a head-mapping or
// theta bug is named.
#include "checker/block/block_case_files.hpp"
#include "checker/block/case_new.hpp"
#include "checker/block/tensor_files.hpp"
#include "checker/common/files.hpp"
#include "porting_case.hpp"
#include "source_tree.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

using namespace blockcheck;
using namespace blockcheck::testing;

namespace {

NewCaseOptions gqa_options() {
    NewCaseOptions o;
    o.hidden_size = 32;
    o.query_heads = 8;
    o.kv_heads = 2;
    o.head_dim = 4;
    o.rope_theta = "500000";
    o.rope_scaling = R"({"rope_type": "llama3", "factor": 8, "low_freq_factor": 1, "high_freq_factor": 4,
                         "original_max_position_embeddings": 64})";
    o.rows = 3;
    o.start_position = 70;
    return o;
}

}  // namespace

TEST_CASE("case new: the options' block, random weights the seed decides, read back as a case") {
    TempDir dir("case-new");
    const auto file = dir.path / "gqa.json";
    REQUIRE(write_new_case(file, gqa_options()).files == std::vector<std::filesystem::path>{file});
    const BlockCase<Mpfr50> bc = read_case_file<Mpfr50>(file);
    CHECK(bc.config.query_heads == 8);
    CHECK(bc.config.kv_heads == 2);
    CHECK(bc.config.head_dim == 4);
    CHECK(bc.config.ffn_hidden_size == 96);  // 3 x 32
    CHECK(bc.config.rope_theta == Mpfr50(500000));
    CHECK(bc.config.rope_scaling.type == RopeScalingType::llama3);
    CHECK(bc.config.rope_scaling.original_context == 64);
    CHECK(bc.config.rope_layout == RopeLayout::interleaved);
    CHECK(bc.start_position == 70);
    CHECK(bc.input.rows == 3);
    CHECK(bc.weights.k.cols == 8);  // kv_heads x head_dim
    // The same seed writes the same file; another seed other weights.
    const std::string first = read_file(file);
    CHECK_THROWS_WITH(write_new_case(file, gqa_options()),
                      (file.string() + ": already exists; give --force to overwrite it").c_str());
    NewCaseOptions again = gqa_options();
    again.force = true;
    write_new_case(file, again);
    CHECK(read_file(file) == first);
    again.seed = 2;
    write_new_case(file, again);
    CHECK(read_file(file) != first);
    // Rows at the root mean square asked for.
    again.input_rms = "0.05";
    write_new_case(file, again);
    const BlockCase<double> small = read_case_file<double>(file);
    double sum = 0;
    for (double x : small.input.row(0)) sum += x * x;
    CHECK(std::sqrt(sum / 32) == doctest::Approx(0.05).epsilon(1e-6));
}

TEST_CASE("case new: from a Hugging Face config.json, its heads, theta and scaling at a size of one's choice") {
    TempDir dir("case-new-hf");
    NewCaseOptions o;
    o.hf_config = (repository() / "tests/fixtures/rope/llama-3.1-8b-config.json").string();
    o.hidden_size = 64;
    o.head_dim = 8;
    o.ffn_hidden_size = 32;
    const auto file = dir.path / "llama.json";
    CHECK(write_new_case(file, o).notes.empty());  // the config.json gives every field
    const BlockCase<Mpfr50> bc = read_case_file<Mpfr50>(file);
    CHECK(bc.config.query_heads == 32);
    CHECK(bc.config.kv_heads == 8);
    CHECK(bc.config.rope_theta == Mpfr50(500000));
    CHECK(bc.config.rms_norm_eps == parse_real<Mpfr50>("1e-05"));
    CHECK(bc.config.rope_scaling.type == RopeScalingType::llama3);
    CHECK(bc.config.rope_scaling.original_context == 8192);
    CHECK(bc.config.rope_layout == RopeLayout::half);  // Hugging Face's rotate_half
    // A big case keeps its tensors in a .safetensors beside it.
    o.hidden_size = 256;
    o.ffn_hidden_size = 2048;
    const auto big = dir.path / "big.json";
    CHECK(write_new_case(big, o).files.size() == 2);
    CHECK(read_json_exact(big)["weights"] == "big.safetensors");
    const NamedTensors tensors = read_safetensors(dir.path / "big.safetensors");
    REQUIRE(tensors.size() == 10);
    CHECK(tensors[1].first == "q");
    CHECK(tensors[1].second.shape == std::vector<std::size_t>{256, 256});  // [in, out]: 32 heads of 8
    // What the block reader refuses is named.
    NewCaseOptions bad = gqa_options();
    bad.kv_heads = 3;
    CHECK_THROWS_WITH(write_new_case(dir.path / "bad.json", bad), "case new: config.kv_heads: 3 does not divide query_heads (8)");
    CHECK_FALSE(std::filesystem::exists(dir.path / "bad.json"));
}

TEST_CASE("the shipped GQA case (8 query heads on 2 KV heads, theta 500000) names a head-mapping and a theta bug") {
    const auto json = read_json_exact(repository() / "data/cases/gqa-theta.json");
    const BlockCase<Mpfr50> bc = read_block_case<Mpfr50>(json, "gqa-theta.json");
    REQUIRE(bc.config.kv_heads >= 2);
    REQUIRE(bc.config.kv_heads < bc.config.query_heads);
    REQUIRE(bc.config.rope_theta != Mpfr50(10000));
    CHECK(named_ids(search_port(json, {})).empty());
    const auto visible = not_visible_ids(search_port(json, {}));
    CHECK(std::find(visible.begin(), visible.end(), "wrong_kv_head") == visible.end());
    CHECK(std::find(visible.begin(), visible.end(), "rope_theta_default") == visible.end());
    PlantedBugs tiled;
    tiled.kv_tiled = true;
    CHECK(named_ids(search_port(json, tiled)) == std::vector<std::string>{"wrong_kv_head"});
    PlantedBugs theta;
    theta.theta_10000 = true;
    CHECK(named_ids(search_port(json, theta)) == std::vector<std::string>{"rope_theta_default"});
}
