// A synthetic block case for `compare`'s mistake search: shapes, positions, theta and epsilon
// chosen so that each porting mistake shows (or, on purpose, cannot), pseudo-random weights.
#pragma once

#include "checker/block/block_case.hpp"
#include "checker/block/mistake_match.hpp"
#include "plain_float32_block.hpp"

#include <cmath>
#include <string>

namespace blockcheck::testing {

struct PortingShape {
    std::size_t hidden = 16, query_heads = 4, kv_heads = 2, head_dim = 4, ffn = 24, rows = 3;
    long start = 5;
    double theta = 500000;
    std::string eps = "0.00001";
    std::string layout = "half";
    double input_rms = 0.05;   // small rows, so that epsilon shows in float32
    bool zero_output_projection = false;  // attention adds nothing: both norms see the input rows
};

// Uniform in [-1, 1), the same sequence for the same seed.
class Uniform {
public:
    explicit Uniform(unsigned long seed) : state_(seed * 2862933555777941757UL + 3037000493UL) {}
    double operator()() {
        state_ = state_ * 6364136223846793005UL + 1442695040888963407UL;
        return static_cast<double>(state_ >> 11) / 4503599627370496.0 - 1.0;
    }

private:
    unsigned long state_;
};

inline nlohmann::ordered_json porting_case(const PortingShape& s, unsigned long seed = 1) {
    using Json = nlohmann::ordered_json;
    Uniform u(seed);
    auto matrix = [&](std::size_t rows, std::size_t cols, double scale) {
        Json m = Json::array();
        for (std::size_t i = 0; i < rows; ++i) {
            Json row = Json::array();
            for (std::size_t j = 0; j < cols; ++j) row.push_back(scale * u());
            m.push_back(row);
        }
        return m;
    };
    auto gains = [&] {
        Json g = Json::array();
        for (std::size_t i = 0; i < s.hidden; ++i) g.push_back(1.0 + 0.3 * u());
        return g;
    };
    const double in_c = std::sqrt(3.0 / static_cast<double>(s.hidden));
    const std::size_t qd = s.query_heads * s.head_dim, kvd = s.kv_heads * s.head_dim;
    Json c = {{"hidden_size", s.hidden}, {"query_heads", s.query_heads}, {"kv_heads", s.kv_heads},
              {"head_dim", s.head_dim}, {"ffn_hidden_size", s.ffn}, {"rms_norm_eps", s.eps},
              {"rope_theta", s.theta}, {"rope_layout", s.layout}, {"rope_scaling", {{"type", "none"}}},
              {"pre_norm", true}, {"bias", false}};
    Json w = {{"attn_norm", gains()}, {"q", matrix(s.hidden, qd, 2 * in_c)}, {"k", matrix(s.hidden, kvd, 2 * in_c)},
              {"v", matrix(s.hidden, kvd, in_c)},
              {"o", matrix(qd, s.hidden, s.zero_output_projection ? 0.0 : std::sqrt(3.0 / static_cast<double>(qd)))},
              {"ffn_norm", gains()}, {"gate", matrix(s.hidden, s.ffn, in_c)}, {"up", matrix(s.hidden, s.ffn, in_c)},
              {"down", matrix(s.ffn, s.hidden, std::sqrt(3.0 / static_cast<double>(s.ffn)))}};
    Json input = matrix(s.rows, s.hidden, 1.0);
    for (Json& row : input) {  // every row at root mean square input_rms
        double sum = 0;
        for (const Json& x : row) sum += x.get<double>() * x.get<double>();
        const double scale = s.input_rms / std::sqrt(sum / static_cast<double>(s.hidden));
        for (Json& x : row) x = x.get<double>() * scale;
    }
    const Json json = {{"config", c}, {"weights", w}, {"start_position", s.start}, {"input", input}};
    return parse_json_exact(json.dump(), "porting case");  // numbers kept as their decimal text
}

// compare's search on the float32 port of `json` with `bugs` planted; the port's output alone, or
// its whole trace.
// The case's block run in float32 arithmetic (compare's faithful run), its stages at 50 digits.
inline Trace<Mpfr50> float32_run(const nlohmann::ordered_json& json) {
    Trace<float> trace;
    block_case_forward(read_block_case<float>(json, "porting case"), &trace);
    Trace<Mpfr50> wide;
    for (const auto& [name, value] : trace) wide.add(name, convert<Mpfr50>(value));
    return wide;
}

inline MistakeSearch search_port(const nlohmann::ordered_json& json, const PlantedBugs& bugs, bool whole_trace = false,
                                 const Trace<Mpfr50>* faithful = nullptr) {
    const BlockCase<Mpfr50> bc = read_block_case<Mpfr50>(json, "porting case");
    Trace<Mpfr50> reference;
    block_case_forward(bc, &reference);
    Trace<Mpfr50> given = plain_float32_forward(read_block_case<double>(json, "porting case"), bugs);
    if (!whole_trace) {
        Trace<Mpfr50> output;
        output.add("output", given.at("output"));
        given = output;
    }
    return search_porting_mistakes(bc, given, reference, DType::float32, {}, {}, faithful);
}

inline std::vector<std::string> named_ids(const MistakeSearch& s) {
    std::vector<std::string> ids;
    for (const NamedMistake& m : s.named) ids.push_back(m.mistake.key());
    return ids;
}

inline std::vector<std::string> not_visible_ids(const MistakeSearch& s) {
    std::vector<std::string> ids;
    for (const PortingMistake& m : s.not_visible) ids.push_back(m.key());
    return ids;
}

}  // namespace blockcheck::testing
