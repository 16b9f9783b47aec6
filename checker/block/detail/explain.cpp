// The explainer's numbers, all from the block at double precision, and the page around them.
#include "checker/block/explain.hpp"

#include "checker/block/block_case.hpp"
#include "checker/exercise/exercise_set.hpp"
#include "checker/exercise/grading.hpp"
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/exercise/variants.hpp"
#include "solutions/block/counts.hpp"

#include <cmath>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

Json row_json(std::span<const double> row) { return Json(std::vector<double>(row.begin(), row.end())); }

Json matrix_json(const Matrix<double>& m) {
    Json rows = Json::array();
    for (std::size_t r = 0; r < m.rows; ++r) rows.push_back(row_json(m.row(r)));
    return rows;
}

// ---------------------------------------------------------------------------------------------
// 入门 basics

// The unit arrow [1, 0] stamped at positions 0..11 by a quarter turn and by 30 degrees.
Json stamps_json() {
    const Rope<double> quarter = fixed_angle_rope(pi<double>() / 2), deg30 = fixed_angle_rope(pi<double>() / 6);
    Json positions = Json::array(), q = Json::array(), d = Json::array();
    for (int p = 0; p < 12; ++p) {
        positions.push_back(p);
        q.push_back(rope_rotate<double>({1, 0}, quarter, p));
        d.push_back(rope_rotate<double>({1, 0}, deg30, p));
    }
    return {{"positions", positions}, {"quarter", q}, {"deg30", d}};
}

// Example 25.2: the row [3, 4], its squares, mean square, RMS and the rescaled row.
Json rms_json() {
    const Vector<double> row{3, 4}, ones{1, 1};
    const Vector<double> normed = rms_norm<double>(row, ones, 0.0);
    double normed_ms = (normed[0] * normed[0] + normed[1] * normed[1]) / 2;
    return {{"row", row},
            {"squares", {9.0, 16.0}},
            {"mean_square", (row[0] * row[0] + row[1] * row[1]) / 2},
            {"rms", root_mean_square<double>(row)},
            {"normed", normed},
            {"normed_mean_square", normed_ms}};
}

// ReLU, SiLU and the gated product SiLU(a) x u (u = 2, example 25.3's first up value) on a grid,
// and example 25.3 itself.
Json activations_json() {
    Json x = Json::array(), r = Json::array(), s = Json::array(), g = Json::array();
    const double up = 2;
    for (int i = -40; i <= 40; ++i) {
        const double a = i / 10.0;
        x.push_back(a);
        r.push_back(relu(a));
        s.push_back(silu(a));
        g.push_back(silu(a) * up);
    }
    const Matrix<double> xin = matrix_from_rows<double>({{1, -1}});
    const Matrix<double> wg = matrix_from_rows<double>({{1, 0}, {0, 1}}), wu = matrix_from_rows<double>({{2, 0}, {0, -3}}),
                         wd = matrix_from_rows<double>({{1, 0}, {1, 1}});
    const Matrix<double> gate = matmul(xin, wg), upv = matmul(xin, wu), hidden = swiglu_hidden(gate, upv);
    Json silu_gate = Json::array();
    for (double v : gate.values) silu_gate.push_back(silu(v));
    const Json example = {{"x", row_json(xin.row(0))},     {"gate", row_json(gate.row(0))},
                          {"up", row_json(upv.row(0))},    {"silu", silu_gate},
                          {"product", row_json(hidden.row(0))},
                          {"output", row_json(swiglu_ffn(xin, wg, wu, wd).row(0))}};
    return {{"x", x}, {"relu", r}, {"silu", s}, {"gated", g}, {"up", up}, {"silu_at_1", silu(1.0)}, {"example", example}};
}

// ---------------------------------------------------------------------------------------------
// 进阶 advanced

// One dial a pair of an 8-wide head at theta 10000: the angle of every pair at positions 0..63.
Json dials_json() {
    const std::size_t d = 8;
    const Rope<double> rope = make_rope<double>(10000, d, {}, RopeLayout::interleaved);
    Json angles = Json::array();
    for (int p = 0; p < 64; ++p) {
        Json row = Json::array();
        for (std::size_t i = 0; i < d / 2; ++i) row.push_back(rope_angle<double>(rope, i, p));
        angles.push_back(row);
    }
    return {{"head_dim", d}, {"theta", 10000}, {"inv_freq", rope.inverse_frequencies}, {"angles", angles}};
}

// q = k = [1, 0, 1, 0, ...] in a 16-wide head: the dot product of q rotated to m and k rotated to
// m + distance, for m = 0 and m = 10 (the curves coincide: only the distance matters).
Json distance_json() {
    const std::size_t d = 16;
    const Rope<double> rope = make_rope<double>(10000, d, {}, RopeLayout::interleaved);
    Vector<double> unit(d, 0.0);
    for (std::size_t i = 0; i < d; i += 2) unit[i] = 1;
    Json distances = Json::array(), from0 = Json::array(), from10 = Json::array();
    for (int n = 0; n <= 64; ++n) {
        distances.push_back(n);
        for (auto [m, out] : {std::pair{0, &from0}, std::pair{10, &from10}}) {
            const Vector<double> q = rope_rotate<double>(unit, rope, m), k = rope_rotate<double>(unit, rope, m + n);
            out->push_back(dot<double>(q, k));
        }
    }
    return {{"head_dim", d}, {"distances", distances}, {"dot_from_0", from0}, {"dot_from_10", from10}};
}

// Example 25.2 continued: [3, 4] + s for s = 0..10 through RMSNorm and LayerNorm (gains one,
// epsilon zero, no bias).
Json shift_json() {
    const Vector<double> ones{1, 1}, zeros{0, 0};
    Json shifts = Json::array(), rows = Json::array(), rms = Json::array(), layer = Json::array();
    for (int s = 0; s <= 10; ++s) {
        const Vector<double> row{3.0 + s, 4.0 + s};
        shifts.push_back(s);
        rows.push_back(row);
        rms.push_back(rms_norm<double>(row, ones, 0.0));
        layer.push_back(layer_norm<double>(row, ones, zeros, 0.0));
    }
    return {{"shifts", shifts}, {"rows", rows}, {"rms", rms}, {"layer", layer}};
}

// ---------------------------------------------------------------------------------------------
// 实战 practice

// Figure 25.1 on data/cases/modern-small.json: every stage's values and shape, and each head's
// causal attention weights.
Json block_json(const std::filesystem::path& root) {
    const std::filesystem::path file = root / "data" / "cases" / "modern-small.json";
    const BlockCase<double> bc = read_block_case<double>(read_json_exact(file), file.string());
    const BlockConfig<double>& c = bc.config;
    Trace<double> trace;
    const Matrix<double> y = block_forward(c, bc.weights, bc.input, bc.start_position, &trace);
    const std::size_t t = bc.input.rows;
    const std::string bt = "[1, " + std::to_string(t) + ", ";
    const std::string width = bt + std::to_string(c.hidden_size) + "]";
    const std::string heads = bt + std::to_string(c.query_heads) + "×" + std::to_string(c.head_dim) + "]";
    const std::string kv = bt + std::to_string(c.kv_heads) + "×" + std::to_string(c.head_dim) + "]";
    const std::string ffn = bt + std::to_string(c.ffn_hidden_size) + "]";

    Json attention = Json::array();
    for (std::size_t h = 0; h < c.query_heads; ++h) attention.push_back(matrix_json(trace.at("attention_weights/" + std::to_string(h))));

    Json stages = Json::array();
    auto stage = [&](const std::string& key, const std::string& shape, const Matrix<double>& m) {
        stages.push_back({{"key", key}, {"shape", shape}, {"values", matrix_json(m)}});
    };
    stage("X", width, bc.input);
    stage("N", width, trace.at("N"));
    stage("Q", heads, trace.at("Q"));
    stage("K", kv, trace.at("K"));
    stage("V", kv, trace.at("V"));
    stage("Q_rotated", heads, trace.at("Q_rotated"));
    stage("K_rotated", kv, trace.at("K_rotated"));
    stage("heads", heads, trace.at("heads"));
    stage("attention_output", width, trace.at("attention_output"));
    stage("R", width, trace.at("R"));
    stage("M", width, trace.at("M"));
    stage("gate", ffn, trace.at("gate"));
    stage("up", ffn, trace.at("up"));
    stage("hidden", ffn, trace.at("hidden"));
    stage("down", width, trace.at("down"));
    stage("output", width, y);
    return {{"case", "data/cases/modern-small.json"},
            {"config",
             {{"hidden_size", c.hidden_size}, {"query_heads", c.query_heads}, {"kv_heads", c.kv_heads},
              {"head_dim", c.head_dim}, {"ffn_hidden_size", c.ffn_hidden_size}, {"tokens", t}}},
            {"stages", stages},
            {"attention", attention}};
}

// The student's `check --json` results with the reference value of every part beside them
// (recomputed for the exercise's inputs, or its variant's).
Json check_json(const std::filesystem::path& root, const Json& check) {
    if (check.is_null()) return nullptr;
    const ExerciseSet set = ExerciseSet::load(root);
    Json out = Json::array();
    if (!check.contains("exercises") || !check["exercises"].is_array())
        throw InputFileError("check results: expected `check --json` output with an \"exercises\" array");
    for (const Json& e : check["exercises"]) {
        const std::string id = e.value("id", "");
        const Exercise* exercise = set.find(id);
        Values reference;
        if (exercise) {
            try {
                const InputList inputs =
                    e.contains("variant") ? variant_inputs(*exercise, seed_from_json(e["variant"])) : exercise->inputs;
                reference = expected_answers(*exercise, inputs);
            } catch (const std::exception&) {
                // no reference column for this exercise
            }
        }
        Json parts = Json::array();
        for (const Json& p : e.value("parts", Json::array())) {
            const std::string name = p.value("name", "");
            Json part = {{"name", name},
                         {"verdict", p.value("verdict", "")},
                         {"score", p.value("score", 0.0)},
                         {"max_score", p.value("max_score", 0.0)},
                         {"message", p.value("message", "")}};
            if (auto it = reference.find(name); it != reference.end()) part["reference"] = format_value(it->second, 7);
            parts.push_back(part);
        }
        out.push_back({{"id", id},
                       {"title_en", exercise ? exercise->title.en : id},
                       {"title_zh", exercise ? exercise->title.in(Lang::zh) : id},
                       {"status", e.value("status", "")},
                       {"score", e.value("score", 0.0)},
                       {"max_score", e.value("max_score", 0.0)},
                       {"parts", parts}});
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// 优化 optimisation

// KV cache bytes (fp16, batch 1) of LLaMA-like sizes for every kv_heads dividing query_heads.
Json kv_cache_json() {
    struct Preset {
        const char* name;
        Count layers, query_heads, head_dim;
    };
    const Preset presets[] = {{"LLaMA-2 7B", 32, 32, 128}, {"LLaMA-2 13B", 40, 40, 128}, {"LLaMA-2 70B", 80, 64, 128}};
    const std::vector<Count> sequences{2048, 4096, 8192, 32768, 131072};
    Json out = Json::array();
    for (const Preset& p : presets) {
        Json kv_heads = Json::array(), bytes = Json::array();
        for (Count g = p.query_heads; g >= 1; --g)
            if (p.query_heads % g == 0) kv_heads.push_back(g);
        for (Count s : sequences) {
            Json row = Json::array();
            for (const Json& g : kv_heads) row.push_back(kv_cache_bytes(p.layers, g.get<Count>(), p.head_dim, s, 1, 2));
            bytes.push_back(row);
        }
        out.push_back({{"name", p.name},
                       {"layers", p.layers},
                       {"query_heads", p.query_heads},
                       {"head_dim", p.head_dim},
                       {"kv_heads", kv_heads},
                       {"bytes", bytes}});
    }
    return {{"sequences", sequences}, {"batch", 1}, {"bytes_per_element", 2}, {"presets", out}};
}

// Radians per position of every pair of a 128-wide head (theta 10000): unscaled, linear
// (Position Interpolation) and NTK-aware, for factors 1..32.
Json scaling_json() {
    const std::size_t d = 128;
    const std::vector<double> factors{1, 2, 4, 8, 16, 32};
    auto per_position = [&](RopeScalingType type, double s) {
        const Rope<double> rope = make_rope<double>(10000, d, {type, s}, RopeLayout::interleaved);
        Json row = Json::array();
        for (std::size_t i = 0; i < d / 2; ++i) row.push_back(rope_angle<double>(rope, i, 1.0));
        return row;
    };
    Json linear = Json::array(), ntk = Json::array(), bases = Json::array();
    for (double s : factors) {
        linear.push_back(per_position(RopeScalingType::linear, s));
        ntk.push_back(per_position(RopeScalingType::ntk, s));
        bases.push_back(ntk_base<double>(10000, s, d));
    }
    return {{"head_dim", d}, {"theta", 10000}, {"factors", factors}, {"base", per_position(RopeScalingType::none, 1)},
            {"linear", linear}, {"ntk", ntk}, {"ntk_base", bases}};
}

// Table 25.2 and its relatives: ReLU (2CF) vs SwiGLU at the same width (3CF) and at the
// matched width 2F/3, and LLaMA's rounded width.
Json budget_json() {
    Json out = Json::array();
    for (auto [c, f] : {std::pair<Count, Count>{12, 48}, {24, 96}, {4096, 16384}}) {
        const Count matched = swiglu_width_matching_relu(f);
        out.push_back({{"hidden", c},
                       {"relu_hidden", f},
                       {"relu", relu_ffn_parameters(c, f)},
                       {"swiglu_same", swiglu_ffn_parameters(c, f)},
                       {"matched_hidden", matched},
                       {"swiglu_matched", swiglu_ffn_parameters(c, matched)},
                       {"llama_hidden", llama_ffn_hidden(c, c >= 256 ? 256 : 1)},
                       {"swiglu_llama", swiglu_ffn_parameters(c, llama_ffn_hidden(c, c >= 256 ? 256 : 1))}});
    }
    return out;
}

}  // namespace

Json explain_data(const std::filesystem::path& root, Lang lang, const Json& check_results) {
    return {{"lang", lang == Lang::zh ? "zh" : "en"},
            {"basics", {{"stamps", stamps_json()}, {"rms", rms_json()}, {"activations", activations_json()}}},
            {"advanced", {{"dials", dials_json()}, {"distance", distance_json()}, {"shift", shift_json()}}},
            {"practice", {{"block", block_json(root)}, {"check", check_json(root, check_results)}}},
            {"optimisation", {{"kv_cache", kv_cache_json()}, {"scaling", scaling_json()}, {"budget", budget_json()}}}};
}

std::string script_safe_json(const Json& json) {
    const std::string text = json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '<') out += "\\u003c";
        else if (c == '>') out += "\\u003e";
        else if (c == '&') out += "\\u0026";
        else out += c;
    }
    return out;
}

std::string explain_html(const std::filesystem::path& root, const Json& data, Lang lang) {
    const std::filesystem::path dir = root / "data" / "explain";
    const bool zh = lang == Lang::zh;
    std::string page = "<!DOCTYPE html>\n<html lang=\"" + std::string(zh ? "zh-CN" : "en") + "\">\n<head>\n<meta charset=\"utf-8\">\n";
    page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    page += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            "script-src 'unsafe-inline'; img-src data:\">\n";
    page += std::string("<title>") + (zh ? "RoPE、RMSNorm、SwiGLU 与 GQA：图解" : "RoPE, RMSNorm, SwiGLU and GQA, drawn") +
            "</title>\n<style>\n" + read_file(dir / "explain.css") + "</style>\n</head>\n";
    page += "<body data-ready=\"0\">\n<noscript>" +
            std::string(zh ? "此页面用 JavaScript 绘图；数值在页面内的 JSON 中。" : "This page draws with JavaScript; the values are in the JSON inside it.") +
            "</noscript>\n<div id=\"app\"></div>\n";
    page += "<script type=\"application/json\" id=\"explain-data\">" + script_safe_json(data) + "</script>\n";
    page += "<script>\n" + read_file(dir / "explain.js") + "</script>\n</body>\n</html>\n";
    return page;
}

}  // namespace blockcheck
