// A checkpoint folder read in place: sharded safetensors (BF16 and F32) with their index and a
// config.json, one layer's tensors by their Hugging Face names, the block run on them at dd equal
// to the same block on the case's matrices at 50 digits, and every bad folder refused by name.
#include "small_checkpoint.hpp"

using namespace blockcheck;
using namespace blockcheck::testing;

TEST_CASE("forward --model writes the dd output; compare --model passes a float32 port and names a planted bug") {
    SmallCheckpoint checkpoint;
    const std::filesystem::path dir = checkpoint.dir.path, hidden = dir / "hidden.npy";
    REQUIRE(run_blockcheck({"forward", "--model", dir.string(), "--layer", "1", "--input", hidden.string(),
                            "--precision", "dd", "--out", (dir / "dd.npy").string()},
                           dir / "stdout.txt") == 0);
    ModelFolder folder(dir);
    const LayerRun<DoubleDouble> run = run_model_layer<DoubleDouble>(folder, 1, {hidden, {}, 0}, "test", true);
    const Tensor written = read_npy(dir / "dd.npy");
    REQUIRE(written.values.size() == run.output.values.size());
    for (std::size_t i = 0; i < written.values.size(); ++i) CHECK(written.values[i] == run.output.values[i].hi);

    write_npy(dir / "f32.npy", port_output(checkpoint, "", DType::float32));
    const std::vector<std::string> compare = {"compare", "--model", dir.string(), "--layer", "1", "--input",
                                              hidden.string(), "--json"};
    auto with = [&](std::vector<std::string> args, const std::string& more) { args.push_back(more); return args; };
    CHECK(run_blockcheck(with(with(with(compare, "--dtype"), "float32"), (dir / "f32.npy").string()), dir / "f32.json") == 0);
    write_npy(dir / "bug.npy", port_output(checkpoint, "no_attention_scale", DType::float64));
    CHECK(run_blockcheck(with(compare, (dir / "bug.npy").string()), dir / "bug.json") == 1);
    const Json report = Json::parse(text_of(dir / "bug.json"));
    REQUIRE(report["named_mistakes"].size() == 1);
    CHECK(report["named_mistakes"][0]["id"] == "no_attention_scale");
}

TEST_CASE("a layer of a sharded BF16/F32 checkpoint runs at dd equal to its 50-digit block case to 30 digits") {
    SmallCheckpoint checkpoint;
    ModelFolder folder(checkpoint.dir.path);
    const ModelLayer<DoubleDouble> layer = load_model_layer<DoubleDouble>(folder, 1);
    CHECK(layer.config.kv_heads == 2);
    CHECK(layer.config.rope_layout == RopeLayout::half);
    CHECK(layer.weights.q.type == StoredType::bfloat16);
    CHECK(layer.weights.down.type == StoredType::float32);
    // W(i, j) of the chapter is q_proj's [j][i]: element (2, 5) is stored at 5 * C + 2
    CHECK(layer.weights.q(2, 5) == static_cast<double>(static_cast<long>(((5 * 16 + 2) * 37 + 2 * 101) % 257) - 128) / 256.0);

    const LayerRun<DoubleDouble> run =
        run_model_layer<DoubleDouble>(folder, 1, {checkpoint.dir.path / "hidden.npy", {}, 3}, "test", true);
    BlockCase<Mpfr50> bc = checkpoint.as_case(1);
    bc.start_position = 3;
    Trace<Mpfr50> reference;
    block_case_forward(bc, &reference);
    for (const auto& [name, value] : reference) {
        CAPTURE(name);
        Mpfr50 difference(0), norm(0);
        const Matrix<DoubleDouble>& dd = run.trace.at(name);
        for (std::size_t i = 0; i < value.values.size(); ++i) {
            const Mpfr50 e = static_cast<Mpfr50>(dd.values[i]) - value.values[i];
            difference += e * e, norm += value.values[i] * value.values[i];
        }
        CHECK(sqrt(difference / norm) < parse_real<Mpfr50>("1e-30"));
    }
}

TEST_CASE("a checkpoint folder that does not fit the block is refused naming the file and the field") {
    SmallCheckpoint checkpoint;
    auto load = [&] {
        ModelFolder folder(checkpoint.dir.path);
        load_model_layer<DoubleDouble>(folder, 1);
    };
    checkpoint.config["attention_bias"] = true;
    checkpoint.write_config();
    CHECK(refusal(load).find("config.attention_bias: true") != std::string::npos);
    checkpoint.config["attention_bias"] = false;
    checkpoint.config["hidden_act"] = "gelu";
    checkpoint.write_config();
    CHECK(refusal(load).find("config.hidden_act: \"gelu\"") != std::string::npos);
    checkpoint.config["hidden_act"] = "silu";
    checkpoint.config["num_key_value_heads"] = 1;
    checkpoint.write_config();
    CHECK(refusal(load).find("model.layers.1.self_attn.k_proj.weight: shape [8, 16], expected [4, 16]") !=
          std::string::npos);
    checkpoint.config["num_key_value_heads"] = 2;
    checkpoint.write_config();
    CHECK(refusal([&] {
              ModelFolder folder(checkpoint.dir.path);
              load_model_layer<DoubleDouble>(folder, 3);
          }).find("--layer 3: config.json has num_hidden_layers 3") != std::string::npos);
    std::filesystem::remove(checkpoint.dir.path / "model-00002-of-00002.safetensors");
    CHECK(refusal(load).find("model-00002-of-00002.safetensors: cannot open") != std::string::npos);
    CHECK(refusal([&] { read_hidden_states(checkpoint.dir.path / "config.json", 16); }).find(".npy or .safetensors") !=
          std::string::npos);
}
