// A checkpoint's layer: the porting-bug families named by `compare --model` (each weight read in
// the other order, a rope_type taken as another, positions from 1 under dynamic NTK), each port
// written apart from the switch that models it; the search reusing the reference's products; and
// the rows' position_ids and cached keys and values read from .npy.
#include "small_checkpoint.hpp"

#include "checker/block/mistake_match.hpp"

using namespace blockcheck;
using namespace blockcheck::testing;

namespace {

Matrix<double> hidden_rows(const SmallCheckpoint& checkpoint) {
    const Tensor x = read_npy(checkpoint.dir.path / "hidden.npy");
    Matrix<double> rows(x.shape[0], x.shape[1]);
    rows.values = x.values;
    return rows;
}

// The layer at double as a port that reads `weight`'s file buffer [out, in] with a reshape to
// [in, out] computes it (numpy: x @ w.reshape(in, out) for x @ w.T), from the file's own values.
Tensor reshaping_port(const SmallCheckpoint& checkpoint, std::size_t weight) {
    ModelFolder folder(checkpoint.dir.path);
    const ModelLayer<double> layer = load_model_layer<double>(folder, 1);
    BlockWeights<double> w;
    w.attn_norm = layer.weights.attn_norm, w.ffn_norm = layer.weights.ffn_norm;
    const std::array<const StoredMatrix*, 7> stored = {&layer.weights.q,    &layer.weights.k,  &layer.weights.v,
                                                       &layer.weights.o,    &layer.weights.gate, &layer.weights.up,
                                                       &layer.weights.down};
    const std::array<Matrix<double>*, 7> dense = weight_matrices(w);
    for (std::size_t i = 0; i < 7; ++i) {
        const StoredMatrix& s = *stored[i];
        Matrix<double>& m = *dense[i];
        m = Matrix<double>(s.rows, s.cols);
        for (std::size_t r = 0; r < s.rows; ++r)
            for (std::size_t c = 0; c < s.cols; ++c)  // buffer element r * cols + c, or W(r, c) = buffer[c * rows + r]
                m(r, c) = i == weight ? s.element(r * s.cols + c) : s.element(c * s.rows + r);
    }
    const Matrix<double> y = block_forward(layer.config, w, hidden_rows(checkpoint));
    return {DType::float64, {y.rows, y.cols}, y.values};
}

Json compare_json(const SmallCheckpoint& checkpoint, const Tensor& port, std::vector<std::string> more = {}) {
    const std::filesystem::path dir = checkpoint.dir.path;
    write_npy(dir / "port.npy", port);
    std::vector<std::string> args = {"compare", "--model", dir.string(), "--layer", "1", "--input",
                                     (dir / "hidden.npy").string(), "--json", (dir / "port.npy").string()};
    args.insert(args.end(), more.begin(), more.end());
    run_blockcheck(args, dir / "compare.json");
    return Json::parse(text_of(dir / "compare.json"));
}

std::vector<std::string> ids_of(const Json& list) {
    std::vector<std::string> ids;
    for (const Json& m : list) ids.push_back(m.is_string() ? m.get<std::string>() : m["id"].get<std::string>());
    return ids;
}

bool has(const std::vector<std::string>& ids, const std::string& id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

TEST_CASE("compare --model names each weight read in the other order, square (transposed) or not (reshaped)") {
    SmallCheckpoint checkpoint;  // q_proj, o_proj square [16, 16]; k, v [8, 16]; gate, up [24, 16]; down [16, 24]
    for (std::size_t i = 0; i < block_weight_names.size(); ++i) {
        const std::string key = "weight_other_order/" + std::string(block_weight_names[i]);
        CAPTURE(key);
        const Json report = compare_json(checkpoint, reshaping_port(checkpoint, i));
        CHECK(ids_of(report["named_mistakes"]) == std::vector<std::string>{key});
    }
    const Json honest = compare_json(checkpoint, port_output(checkpoint, "", DType::float64));
    CHECK(honest["within"] == true);
    const std::vector<std::string> not_made = ids_of(honest["mistakes_not_made"]);
    CHECK(has(not_made, "rope_type_taken_as/linear"));  // no rope_scaling: no type to take for another
    CHECK(honest["mistakes_tried"].get<std::size_t>() + not_made.size() == porting_mistakes().size());
}

TEST_CASE("compare --model names a rope_type taken as another, and lists what the layer cannot show") {
    SmallCheckpoint checkpoint;
    checkpoint.config["rope_scaling"] = {{"rope_type", "llama3"},
                                         {"factor", 8.0},
                                         {"low_freq_factor", 1.0},
                                         {"high_freq_factor", 4.0},
                                         {"original_max_position_embeddings", 8192}};
    SmallCheckpoint linear_port;  // the same layer with config.json saying linear: a port computing llama3 so
    linear_port.config["rope_scaling"] = {{"rope_type", "linear"}, {"factor", 8.0}};
    linear_port.write_config();
    checkpoint.write_config();
    const Json report = compare_json(checkpoint, port_output(linear_port, "", DType::float64));
    CHECK(ids_of(report["named_mistakes"]) == std::vector<std::string>{"rope_type_taken_as/linear"});
    const std::vector<std::string> hidden = ids_of(report["mistakes_not_visible"]);
    CHECK(has(hidden, "position_off_by_one"));  // llama3's frequencies do not depend on the length
    CHECK(has(ids_of(report["mistakes_not_made"]), "rope_type_taken_as/llama3"));
}

TEST_CASE("under dynamic NTK past the original context, positions counted from 1 show in the output and are named") {
    SmallCheckpoint checkpoint;  // 5 rows at 0 .. 4, original context 4: the length sets the base
    checkpoint.config["max_position_embeddings"] = 4;
    checkpoint.config["rope_scaling"] = {{"rope_type", "dynamic"}, {"factor", 2.0}};
    checkpoint.write_config();
    const std::filesystem::path dir = checkpoint.dir.path;
    write_npy(dir / "from_one.npy", {DType::float64, {5}, {1, 2, 3, 4, 5}});
    REQUIRE(run_blockcheck({"forward", "--model", dir.string(), "--layer", "1", "--input", (dir / "hidden.npy").string(),
                            "--precision", "double", "--positions", (dir / "from_one.npy").string(), "--out",
                            (dir / "from_one_out.npy").string()},
                           dir / "stdout.txt") == 0);
    const Json report = compare_json(checkpoint, read_npy(dir / "from_one_out.npy"));
    CHECK(ids_of(report["named_mistakes"]) == std::vector<std::string>{"position_off_by_one"});
    CHECK_FALSE(has(ids_of(report["mistakes_not_visible"]), "position_off_by_one"));
}

TEST_CASE("the mistake search recomputes only the products a mistake changes, and stops once its stages decide") {
    SmallCheckpoint checkpoint;
    ModelFolder folder(checkpoint.dir.path);
    ProductMemo<DoubleDouble> memo;
    const LayerRun<DoubleDouble> run = run_model_layer<DoubleDouble>(
        folder, 1, {checkpoint.dir.path / "hidden.npy", {}, 0}, "test", true, &memo);
    CHECK(memo.computed == 7);
    memo.recording = false;
    const auto weights = remembered(run.layer.weights, memo);
    auto products_with = [&](const std::string& key) {
        BlockConfig<DoubleDouble> changed = run.layer.config;
        REQUIRE(make_porting_mistake(changed, key));
        const std::size_t before = memo.computed;
        block_forward(changed, weights, run.input);
        return memo.computed - before;
    };
    CHECK(products_with("gelu_for_silu") == 1);              // down
    CHECK(products_with("gate_up_swapped") == 1);            // gate and up found swapped; down
    CHECK(products_with("weight_other_order/down_proj") == 1);
    CHECK(products_with("weight_other_order/up_proj") == 2);  // up, down
    CHECK(products_with("no_attention_scale") == 4);         // o, gate, up, down
    CHECK(products_with("weight_other_order/k_proj") == 5);  // k, o, gate, up, down
    CHECK(products_with("eps_ten_times") == 7);

    // With the whole trace of a port whose q_proj is transposed given, gelu_for_silu departs at
    // `hidden`, where the port does not: its run stops there, before down.
    BlockConfig<DoubleDouble> port = run.layer.config;
    REQUIRE(make_porting_mistake(port, "weight_other_order/q_proj"));
    Trace<DoubleDouble> port_trace;
    block_forward(port, weights, run.input, 0, &port_trace);
    Trace<Mpfr50> given, reference;
    for (const auto& [name, value] : port_trace) given.add(name, convert<Mpfr50>(value));
    for (const auto& [name, value] : run.trace) reference.add(name, convert<Mpfr50>(value));
    const BlockConfig<Mpfr50> config = folder.hf_config<Mpfr50>().block;
    StageJudge judge(given, reference, config, run.input.rows, DType::float64, {}, {}, std::string("Q"));
    BlockConfig<DoubleDouble> gelu = run.layer.config;
    REQUIRE(make_porting_mistake(gelu, "gelu_for_silu"));
    const std::size_t before = memo.computed;
    std::vector<std::string> stages;
    CHECK(run_judged<DoubleDouble>(judge, [&](Trace<DoubleDouble>& trace) {
        auto judging = trace.on_add;
        trace.on_add = [&](const std::string& stage) { stages.push_back(stage); judging(stage); };
        block_forward(gelu, weights, run.input, 0, &trace);
    }));
    CHECK(judge.visible());
    CHECK_FALSE(judge.fits());
    CHECK(stages.back() == "hidden");
    CHECK(memo.computed == before);
}

TEST_CASE("a search over its budget lists the mistakes it did not try") {
    SmallCheckpoint checkpoint;
    const Json report = compare_json(checkpoint, port_output(checkpoint, "no_attention_scale", DType::float64),
                                     {"--search-budget", "0"});
    CHECK(report["mistakes_tried"] == 0);
    // the rope_type members (no rope_scaling) and the 12 model-family mistakes (a LLaMA layer has
    // none of their mechanisms) have nothing to change here: not made, budget or not
    CHECK(report["mistakes_not_made"].size() == 4 + 12);
    CHECK(report["mistakes_over_budget"].size() + 4 + 12 == porting_mistakes().size());
    CHECK(report["named_mistakes"].empty());
    write_npy(checkpoint.dir.path / "port.npy", port_output(checkpoint, "no_attention_scale", DType::float64));
    const std::filesystem::path text = checkpoint.dir.path / "compare.txt";
    run_blockcheck({"compare", "--model", checkpoint.dir.path.string(), "--layer", "1", "--input",
                    (checkpoint.dir.path / "hidden.npy").string(), (checkpoint.dir.path / "port.npy").string(),
                    "--search-budget", "0"},
                   text);
    CHECK(text_of(text).find("none of the 0 porting mistakes tried explains it; 29 were not tried (below)") !=
          std::string::npos);
    CHECK(text_of(text).find("not tried: compare's 0 s (--search-budget) ran out first (--search-mistakes tries them all):\n"
                             "    position_off_by_one, rope_on_v, eps_outside_sqrt,") != std::string::npos);
}

TEST_CASE("the rows' position_ids and the cached keys and values are read from .npy, and refused by name") {
    SmallCheckpoint checkpoint;
    const std::filesystem::path dir = checkpoint.dir.path, hidden = dir / "hidden.npy";
    ModelFolder folder(dir);
    const LayerRun<DoubleDouble> whole = run_model_layer<DoubleDouble>(folder, 1, {hidden, {}, 0}, "test", true);
    // rows 3 and 4 after the keys and values of rows 0 .. 2, as Hugging Face caches them [1, kv, P, d]
    const std::size_t kv = SmallCheckpoint::KV, d = SmallCheckpoint::d, past = 3;
    Tensor keys{DType::float64, {1, kv, past, d}, {}}, values = keys;
    for (std::size_t h = 0; h < kv; ++h)
        for (std::size_t p = 0; p < past; ++p)
            for (std::size_t c = 0; c < d; ++c) {
                keys.values.push_back(whole.trace.at("K_rotated")(p, h * d + c).hi);
                values.values.push_back(whole.trace.at("V")(p, h * d + c).hi);
            }
    write_npy(dir / "k.npy", keys);
    write_npy(dir / "v.npy", values);
    Tensor last{DType::float64, {2, SmallCheckpoint::C}, {}};
    const Tensor x = read_npy(hidden);
    last.values.assign(x.values.begin() + 3 * SmallCheckpoint::C, x.values.end());
    write_npy(dir / "last.npy", last);
    LayerInput input{dir / "last.npy"};
    input.past_keys = dir / "k.npy", input.past_values = dir / "v.npy";
    const LayerRun<DoubleDouble> step = run_model_layer<DoubleDouble>(folder, 1, input, "test", true);
    CHECK(step.positions == std::vector<long>{3, 4});
    for (std::size_t r = 0; r < 2; ++r)
        for (std::size_t c = 0; c < SmallCheckpoint::C; ++c) {
            const DoubleDouble a = step.output(r, c), b = whole.output(r + 3, c);
            CHECK(std::abs((a.hi - b.hi) + (a.lo - b.lo)) <= 1e-15 * std::abs(b.hi) + 1e-30);  // the cache rounded to double
        }
    // position_ids [1, T] (int64, as torch saves them) give the same rows
    write_npy(dir / "ids.npy", {DType::float64, {1, 2}, {3, 4}});
    input.positions = dir / "ids.npy";
    CHECK(run_model_layer<DoubleDouble>(folder, 1, input, "test", true).output.values == step.output.values);

    auto refused = [&](LayerInput in) {
        return refusal([&] { run_model_layer<DoubleDouble>(folder, 1, in, "test", true); });
    };
    write_npy(dir / "three.npy", {DType::float64, {3}, {3, 4, 5}});
    input.positions = dir / "three.npy";
    CHECK(refused(input).find("three.npy: shape [3], expected [2] or [1, 2]: one position a row") != std::string::npos);
    write_npy(dir / "down.npy", {DType::float64, {2}, {5, 4}});
    input.positions = dir / "down.npy";
    CHECK(refused(input).find("down.npy: position_ids must increase (5 then 4 at row 1)") != std::string::npos);
    write_npy(dir / "early.npy", {DType::float64, {2}, {2, 3}});
    input.positions = dir / "early.npy";
    CHECK(refused(input).find("early.npy: the first row is at position 2, not after the 3 cached keys (positions 0 .. 2)") !=
          std::string::npos);
    input.positions.clear();
    write_npy(dir / "short_v.npy", {DType::float64, {2, kv * d}, std::vector<double>(2 * kv * d, 0.0)});
    input.past_values = dir / "short_v.npy";
    CHECK(refused(input).find("short_v.npy: 2 cached positions, ") != std::string::npos);
    write_npy(dir / "bad_k.npy", {DType::float64, {past, d}, std::vector<double>(past * d, 0.0)});
    input.past_keys = dir / "bad_k.npy", input.past_values = dir / "v.npy";
    CHECK(refused(input).find("bad_k.npy: shape [3, 4], expected [1, 2, P, 4], [2, P, 4] or [P, 8]") != std::string::npos);
}
