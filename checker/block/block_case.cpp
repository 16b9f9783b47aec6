#include "checker/block/block_case.hpp"

#include <fmt/format.h>

#include <set>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

const Json& field(const Json& object, const std::string& key, const std::string& where) {
    if (!object.is_object()) throw InputFileError(where + ": expected an object");
    auto it = object.find(key);
    if (it == object.end()) throw InputFileError(where + "." + key + ": missing field");
    return *it;
}

std::size_t positive_integer(const Json& value, const std::string& where) {
    if (!value.is_number_integer() || value.get<long long>() <= 0)
        throw InputFileError(where + ": expected a positive whole number, found " + value.dump());
    return value.get<std::size_t>();
}

template <class T>
T number(const Json& value, const std::string& where) {
    return parse_real<T>(decimal_text(value, where));
}

template <class T>
Vector<T> vector_of(const Json& value, std::size_t length, const std::string& where) {
    if (!value.is_array()) throw InputFileError(where + ": expected an array of " + std::to_string(length) + " numbers");
    if (value.size() != length)
        throw InputFileError(fmt::format("{}: expected {} numbers, found {}", where, length, value.size()));
    Vector<T> v;
    for (std::size_t i = 0; i < length; ++i) v.push_back(number<T>(value[i], fmt::format("{}[{}]", where, i)));
    return v;
}

// rows x cols, rows given as arrays; rows == 0 accepts any positive number of rows.
template <class T>
Matrix<T> matrix_of(const Json& value, std::size_t rows, std::size_t cols, const std::string& where) {
    if (!value.is_array() || value.empty())
        throw InputFileError(where + ": expected an array of rows");
    if (rows != 0 && value.size() != rows)
        throw InputFileError(fmt::format("{}: expected {} rows of {}, found {} rows", where, rows, cols, value.size()));
    Matrix<T> m(value.size(), cols);
    for (std::size_t r = 0; r < value.size(); ++r) {
        Vector<T> row = vector_of<T>(value[r], cols, fmt::format("{}[{}]", where, r));
        std::copy(row.begin(), row.end(), m.row(r).begin());
    }
    return m;
}

void reject_unknown(const Json& object, const std::set<std::string>& known, const std::string& where) {
    for (auto& [key, value] : object.items())
        if (!known.count(key)) throw InputFileError(where + "." + key + ": unknown field");
}

}  // namespace

template <class T>
BlockConfig<T> read_block_config(const Json& json, const std::string& where) {
    reject_unknown(json,
                   {"hidden_size", "query_heads", "kv_heads", "head_dim", "ffn_hidden_size", "rms_norm_eps",
                    "rope_theta", "rope_layout", "rope_scaling", "pre_norm", "bias", "max_sequence_slots"},
                   where);
    BlockConfig<T> c;
    c.hidden_size = positive_integer(field(json, "hidden_size", where), where + ".hidden_size");
    c.query_heads = positive_integer(field(json, "query_heads", where), where + ".query_heads");
    c.kv_heads = json.contains("kv_heads") ? positive_integer(json["kv_heads"], where + ".kv_heads") : c.query_heads;
    if (c.query_heads % c.kv_heads != 0)
        throw InputFileError(fmt::format("{}.kv_heads: {} does not divide query_heads ({})", where, c.kv_heads,
                                         c.query_heads));
    c.head_dim = positive_integer(field(json, "head_dim", where), where + ".head_dim");
    if (c.head_dim % 2 != 0)
        throw InputFileError(fmt::format("{}.head_dim: {} is odd; RoPE turns coordinate pairs", where, c.head_dim));
    c.ffn_hidden_size = positive_integer(field(json, "ffn_hidden_size", where), where + ".ffn_hidden_size");
    c.rms_norm_eps = number<T>(field(json, "rms_norm_eps", where), where + ".rms_norm_eps");
    if (c.rms_norm_eps < 0) throw InputFileError(where + ".rms_norm_eps: must not be negative");
    c.rope_theta = number<T>(field(json, "rope_theta", where), where + ".rope_theta");
    if (c.rope_theta <= 1) throw InputFileError(where + ".rope_theta: must be greater than 1");
    if (json.contains("rope_layout")) {
        const Json& layout = json["rope_layout"];
        if (layout == "interleaved") c.rope_layout = RopeLayout::interleaved;
        else if (layout == "half") c.rope_layout = RopeLayout::half;
        else throw InputFileError(where + ".rope_layout: expected \"interleaved\" or \"half\", found " + layout.dump());
    }
    if (json.contains("rope_scaling")) {
        const Json& s = json["rope_scaling"];
        const std::string at = where + ".rope_scaling";
        reject_unknown(s, {"type", "factor"}, at);
        const Json& type = field(s, "type", at);
        if (type == "none") c.rope_scaling.type = RopeScalingType::none;
        else if (type == "linear") c.rope_scaling.type = RopeScalingType::linear;
        else if (type == "ntk") c.rope_scaling.type = RopeScalingType::ntk;
        else throw InputFileError(at + ".type: expected \"none\", \"linear\" or \"ntk\", found " + type.dump());
        if (c.rope_scaling.type != RopeScalingType::none) {
            c.rope_scaling.factor = number<T>(field(s, "factor", at), at + ".factor");
            if (c.rope_scaling.factor < 1) throw InputFileError(at + ".factor: must be at least 1");
        }
    }
    if (json.contains("pre_norm")) {
        if (!json["pre_norm"].is_boolean()) throw InputFileError(where + ".pre_norm: expected true or false");
        c.pre_norm = json["pre_norm"].get<bool>();
    }
    if (json.contains("bias") && json["bias"] != false)
        throw InputFileError(where + ".bias: only false is supported (the block has no bias terms)");
    if (json.contains("max_sequence_slots"))
        positive_integer(json["max_sequence_slots"], where + ".max_sequence_slots");
    return c;
}

template <class T>
BlockCase<T> read_block_case(const Json& json, const std::string& source) {
    if (!json.is_object()) throw InputFileError(source + ": expected a JSON object");
    reject_unknown(json, {"config", "weights", "start_position", "input"}, source);
    BlockCase<T> bc;
    bc.config = read_block_config<T>(field(json, "config", source), source + ": config");
    const BlockConfig<T>& c = bc.config;
    const std::string w = source + ": weights";
    const Json& weights = field(json, "weights", source);
    reject_unknown(weights, {"attn_norm", "q", "k", "v", "o", "ffn_norm", "gate", "up", "down"}, w);
    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size;
    const std::size_t qd = c.query_heads * c.head_dim, kvd = c.kv_heads * c.head_dim;
    bc.weights.attn_norm = vector_of<T>(field(weights, "attn_norm", w), C, w + ".attn_norm");
    bc.weights.q = matrix_of<T>(field(weights, "q", w), C, qd, w + ".q");
    bc.weights.k = matrix_of<T>(field(weights, "k", w), C, kvd, w + ".k");
    bc.weights.v = matrix_of<T>(field(weights, "v", w), C, kvd, w + ".v");
    bc.weights.o = matrix_of<T>(field(weights, "o", w), qd, C, w + ".o");
    bc.weights.ffn_norm = vector_of<T>(field(weights, "ffn_norm", w), C, w + ".ffn_norm");
    bc.weights.gate = matrix_of<T>(field(weights, "gate", w), C, F, w + ".gate");
    bc.weights.up = matrix_of<T>(field(weights, "up", w), C, F, w + ".up");
    bc.weights.down = matrix_of<T>(field(weights, "down", w), F, C, w + ".down");
    if (json.contains("start_position")) {
        const Json& s = json["start_position"];
        if (!s.is_number_integer() || s.get<long long>() < 0)
            throw InputFileError(source + ": start_position: expected a whole number >= 0, found " + s.dump());
        bc.start_position = s.get<long>();
    }
    bc.input = matrix_of<T>(field(json, "input", source), 0, C, source + ": input");
    if (c.rms_norm_eps == 0)
        for (std::size_t t = 0; t < bc.input.rows; ++t) {
            bool zero = true;
            for (const T& x : bc.input.row(t)) zero = zero && x == 0;
            if (zero)
                throw InputFileError(fmt::format("{}: input[{}]: an all-zero row with rms_norm_eps 0 has no RMSNorm",
                                                 source, t));
        }
    return bc;
}

#define BLOCKCHECK_INSTANTIATE(T)                                                          \
    template BlockConfig<T> read_block_config<T>(const Json&, const std::string&);         \
    template BlockCase<T> read_block_case<T>(const Json&, const std::string&);
BLOCKCHECK_INSTANTIATE(double)
BLOCKCHECK_INSTANTIATE(Real50)
BLOCKCHECK_INSTANTIATE(Real100)

}  // namespace blockcheck
