#include "checker/block/block_case.hpp"

#include "checker/common/json_fields.hpp"
#include "solutions/block/double_double.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

// A whole number in [1, limit].
std::size_t positive_integer(const Json& value, const std::string& where, std::size_t limit) {
    if (!value.is_number_integer() || value.get<long long>() <= 0)
        throw InputFileError(where + ": expected a positive whole number, found " + value.dump());
    if (value.get<unsigned long long>() > limit)
        throw InputFileError(fmt::format("{}: {} is beyond the limit of {}", where, value.dump(), limit));
    return value.get<std::size_t>();
}

// A whole number in [0, max_case_position].
long position(const Json& value, const std::string& where) {
    if (!value.is_number_integer() || value.get<long long>() < 0)
        throw InputFileError(where + ": expected a whole number >= 0, found " + value.dump());
    if (value.get<unsigned long long>() > static_cast<unsigned long long>(max_case_position))
        throw InputFileError(fmt::format("{}: {} is beyond the limit of {}", where, value.dump(), max_case_position));
    return value.get<long>();
}

// An array of `length` numbers; the length is checked before anything is read.
template <class T>
Vector<T> vector_of(const Json& value, std::size_t length, const std::string& where) {
    if (!value.is_array()) throw InputFileError(where + ": expected an array of " + std::to_string(length) + " numbers");
    if (value.size() != length)
        throw InputFileError(fmt::format("{}: expected {} numbers, found {}", where, length, value.size()));
    Vector<T> v;
    v.reserve(length);
    for (std::size_t i = 0; i < length; ++i) v.push_back(json_number<T>(value[i], fmt::format("{}[{}]", where, i)));
    return v;
}

// rows x cols, rows given as arrays; rows == 0 accepts 1 .. max_case_rows rows. Every row's
// length is checked before the matrix is allocated.
template <class T>
Matrix<T> matrix_of(const Json& value, std::size_t rows, std::size_t cols, const std::string& where) {
    if (!value.is_array() || value.empty())
        throw InputFileError(where + ": expected an array of rows");
    if (rows != 0 && value.size() != rows)
        throw InputFileError(fmt::format("{}: expected {} rows of {}, found {} rows", where, rows, cols, value.size()));
    if (value.size() > max_case_rows)
        throw InputFileError(fmt::format("{}: {} rows is beyond the limit of {}", where, value.size(), max_case_rows));
    for (std::size_t r = 0; r < value.size(); ++r)
        if (!value[r].is_array() || value[r].size() != cols)
            throw InputFileError(fmt::format("{}[{}]: expected {} numbers, found {}", where, r, cols,
                                             value[r].is_array() ? std::to_string(value[r].size())
                                                                 : std::string(value[r].type_name())));
    Matrix<T> m(value.size(), cols);
    for (std::size_t r = 0; r < value.size(); ++r)
        for (std::size_t c = 0; c < cols; ++c) m(r, c) = json_number<T>(value[r][c], fmt::format("{}[{}][{}]", where, r, c));
    return m;
}

// heads * head_dim, refused beyond max_case_width (each factor is already <= max_case_dimension,
// so the product cannot overflow).
std::size_t width(std::size_t heads, std::size_t head_dim, const std::string& where) {
    if (heads * head_dim > max_case_width)
        throw InputFileError(fmt::format("{}: {} heads x head_dim {} = {} is beyond the limit of {}", where, heads,
                                         head_dim, heads * head_dim, max_case_width));
    return heads * head_dim;
}

struct ScalingName {
    const char* name;
    RopeScalingType type;
    std::set<std::string> fields;  // besides "type" / "rope_type"
};

// Hugging Face's rope_type names (and "ntk", ours), with the fields each reads.
const std::vector<ScalingName>& scaling_names() {
    static const std::vector<ScalingName> names = {
        {"none", RopeScalingType::none, {}},
        {"default", RopeScalingType::none, {}},
        {"linear", RopeScalingType::linear, {"factor"}},
        {"ntk", RopeScalingType::ntk, {"factor"}},
        {"dynamic", RopeScalingType::dynamic, {"factor", "original_max_position_embeddings"}},
        {"yarn", RopeScalingType::yarn,
         {"factor", "original_max_position_embeddings", "beta_fast", "beta_slow", "attention_factor", "mscale",
          "mscale_all_dim", "truncate"}},
        {"longrope", RopeScalingType::longrope,
         {"factor", "original_max_position_embeddings", "long_factor", "short_factor", "attention_factor"}},
        {"llama3", RopeScalingType::llama3,
         {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"}},
    };
    return names;
}

const ScalingName& scaling_name(const Json& s, const std::string& at) {
    const bool has_rope_type = s.contains("rope_type"), has_type = s.contains("type");
    if (has_rope_type && has_type && s["rope_type"] != s["type"])
        throw InputFileError(at + ": \"type\" " + s["type"].dump() + " and \"rope_type\" " + s["rope_type"].dump() +
                             " disagree");
    const Json& type = has_rope_type ? s["rope_type"] : required_field(s, "type", at);
    const std::string key = at + (has_rope_type ? ".rope_type" : ".type");
    for (const ScalingName& n : scaling_names())
        if (type == n.name) return n;
    throw InputFileError(key + ": expected \"none\", \"default\", \"linear\", \"ntk\", \"dynamic\", \"yarn\", "
                               "\"longrope\" or \"llama3\", found " + type.dump());
}

template <class T>
T at_least(const Json& value, const T& low, const std::string& where) {
    T x = json_number<T>(value, where);
    if (x < low) throw InputFileError(where + ": must be at least " + to_decimal(low));
    return x;
}

template <class T>
T positive(const Json& value, const std::string& where) {
    T x = json_number<T>(value, where);
    if (x <= 0) throw InputFileError(where + ": must be greater than 0");
    return x;
}

// L0: rope_scaling.original_max_position_embeddings, else config.max_position_embeddings.
// When both are given, max / original is the factor (Hugging Face derives it so for YaRN and
// LongRoPE), so it must agree with a given factor.
template <class T>
std::size_t original_context(const Json& config, const Json& s, RopeScaling<T>& scaling, const std::string& where,
                             bool factor_given) {
    const std::string at = where + ".rope_scaling";
    const bool has_original = s.contains("original_max_position_embeddings");
    const bool has_max = config.contains("max_position_embeddings");
    const auto limit = static_cast<std::size_t>(max_case_position);
    if (!has_original && !has_max)
        throw InputFileError(at + ": needs the original context length (rope_scaling.original_max_position_embeddings "
                                  "or config.max_position_embeddings)");
    if (!has_original) return positive_integer(config["max_position_embeddings"], where + ".max_position_embeddings", limit);
    const std::size_t original =
        positive_integer(s["original_max_position_embeddings"], at + ".original_max_position_embeddings", limit);
    if (has_max && scaling.type == RopeScalingType::dynamic) {  // Hugging Face grows the base from max_position_embeddings
        if (positive_integer(config["max_position_embeddings"], where + ".max_position_embeddings", limit) != original)
            throw InputFileError(at + ".original_max_position_embeddings: differs from max_position_embeddings; dynamic "
                                      "NTK takes its original context from both, so they must be equal");
    } else if (has_max && scaling.type != RopeScalingType::llama3) {
        const std::size_t max = positive_integer(config["max_position_embeddings"], where + ".max_position_embeddings", limit);
        const T ratio = T(static_cast<long>(max)) / T(static_cast<long>(original));
        if (factor_given && ratio != scaling.factor)
            throw InputFileError(fmt::format("{}.factor: {} disagrees with max_position_embeddings / "
                                             "original_max_position_embeddings = {} / {}",
                                             at, to_decimal(scaling.factor), max, original));
        scaling.factor = ratio;
    }
    return original;
}

}  // namespace

template <class T>
T json_number(const Json& value, const std::string& where) {
    using std::isfinite;
    T x;
    try {
        x = parse_real<T>(decimal_text(value, where));
    } catch (const std::invalid_argument& e) {
        throw InputFileError(where + ": " + e.what());
    }
    if (!isfinite(x)) throw InputFileError(where + ": '" + decimal_text(value, where) + "' is out of range");
    return x;
}

template <class T>
RopeScaling<T> read_rope_scaling(const Json& config, std::size_t head_dim, const std::string& where,
                                 const std::string& key) {
    const Json& s = config[key];
    const std::string at = where + "." + key;
    if (s.is_null()) return {};  // Hugging Face writes "rope_scaling": null for none
    if (!s.is_object()) throw InputFileError(at + ": expected an object");
    const ScalingName& name = scaling_name(s, at);
    std::set<std::string> known = name.fields;
    known.insert({"type", "rope_type"});
    reject_unknown_fields(s, known, at);
    RopeScaling<T> r;
    r.type = name.type;
    if (r.type == RopeScalingType::none) return r;
    const bool factor_given = s.contains("factor");
    if (r.type != RopeScalingType::longrope || factor_given) r.factor = at_least<T>(required_field(s, "factor", at), T(1), at + ".factor");
    if (r.type == RopeScalingType::linear || r.type == RopeScalingType::ntk) return r;
    if (r.type == RopeScalingType::llama3) required_field(s, "original_max_position_embeddings", at);
    r.original_context = original_context(config, s, r, where, factor_given);
    if (r.type == RopeScalingType::yarn) {
        if (s.contains("beta_fast")) r.beta_fast = positive<T>(s["beta_fast"], at + ".beta_fast");
        if (s.contains("beta_slow")) r.beta_slow = positive<T>(s["beta_slow"], at + ".beta_slow");
        if (s.contains("mscale")) r.mscale = json_number<T>(s["mscale"], at + ".mscale");
        if (s.contains("mscale_all_dim")) r.mscale_all_dim = json_number<T>(s["mscale_all_dim"], at + ".mscale_all_dim");
        if (s.contains("truncate")) {
            if (!s["truncate"].is_boolean()) throw InputFileError(at + ".truncate: expected true or false");
            r.truncate = s["truncate"].get<bool>();
        }
    }
    if (s.contains("attention_factor")) r.attention_factor = positive<T>(s["attention_factor"], at + ".attention_factor");
    if (r.type == RopeScalingType::longrope) {
        r.long_factor = vector_of<T>(required_field(s, "long_factor", at), head_dim / 2, at + ".long_factor");
        r.short_factor = vector_of<T>(required_field(s, "short_factor", at), head_dim / 2, at + ".short_factor");
        for (const Vector<T>* list : {&r.long_factor, &r.short_factor})
            for (const T& f : *list)
                if (f <= 0) throw InputFileError(at + (list == &r.long_factor ? ".long_factor" : ".short_factor") +
                                                 ": every factor must be greater than 0");
    }
    if (r.type == RopeScalingType::llama3) {
        r.low_freq_factor = positive<T>(required_field(s, "low_freq_factor", at), at + ".low_freq_factor");
        r.high_freq_factor = positive<T>(required_field(s, "high_freq_factor", at), at + ".high_freq_factor");
        if (r.high_freq_factor <= r.low_freq_factor)
            throw InputFileError(at + ".high_freq_factor: must be greater than low_freq_factor");
    }
    return r;
}

namespace {

// The "cached" block: earlier rotated keys and values with their positions, increasing and
// all before start_position.
template <class T>
KvCache<T> read_cached(const Json& cached, std::size_t kv_width, long start_position, const std::string& where) {
    reject_unknown_fields(cached, {"positions", "k", "v"}, where);
    const Json& positions = required_field(cached, "positions", where);
    if (!positions.is_array() || positions.empty() || positions.size() > max_case_rows)
        throw InputFileError(fmt::format("{}.positions: expected an array of 1 to {} positions", where, max_case_rows));
    const std::size_t rows = positions.size();
    const Matrix<T> k = matrix_of<T>(required_field(cached, "k", where), rows, kv_width, where + ".k");
    const Matrix<T> v = matrix_of<T>(required_field(cached, "v", where), rows, kv_width, where + ".v");
    KvCache<T> cache;
    for (std::size_t j = 0; j < rows; ++j) {
        const std::string at = fmt::format("{}.positions[{}]", where, j);
        const long p = position(positions[j], at);
        if (p >= start_position)
            throw InputFileError(fmt::format("{}: {} is not before start_position ({})", at, p, start_position));
        if (j > 0 && p <= cache.positions.back())
            throw InputFileError(fmt::format("{}: {} does not follow {}; positions must increase", at, p,
                                             cache.positions.back()));
        cache.append(k.row(j), v.row(j), p);
    }
    return cache;
}

}  // namespace

template <class T>
BlockConfig<T> read_block_config(const Json& json, const std::string& where) {
    reject_unknown_fields(json,
                   {"hidden_size", "query_heads", "kv_heads", "head_dim", "ffn_hidden_size", "rms_norm_eps",
                    "rope_theta", "rope_layout", "rope_scaling", "pre_norm", "bias", "max_sequence_slots",
                    "max_position_embeddings"},
                   where);
    BlockConfig<T> c;
    auto dimension = [&](const std::string& key) {
        return positive_integer(required_field(json, key, where), where + "." + key, max_case_dimension);
    };
    c.hidden_size = dimension("hidden_size");
    c.query_heads = dimension("query_heads");
    c.kv_heads = json.contains("kv_heads") ? dimension("kv_heads") : c.query_heads;
    if (c.query_heads % c.kv_heads != 0)
        throw InputFileError(fmt::format("{}.kv_heads: {} does not divide query_heads ({})", where, c.kv_heads,
                                         c.query_heads));
    c.head_dim = dimension("head_dim");
    if (c.head_dim % 2 != 0)
        throw InputFileError(fmt::format("{}.head_dim: {} is odd; RoPE turns coordinate pairs", where, c.head_dim));
    width(c.query_heads, c.head_dim, where + ".query_heads");
    c.ffn_hidden_size = dimension("ffn_hidden_size");
    c.rms_norm_eps = json_number<T>(required_field(json, "rms_norm_eps", where), where + ".rms_norm_eps");
    if (c.rms_norm_eps < 0) throw InputFileError(where + ".rms_norm_eps: must not be negative");
    c.rope_theta = json_number<T>(required_field(json, "rope_theta", where), where + ".rope_theta");
    if (c.rope_theta <= 1) throw InputFileError(where + ".rope_theta: must be greater than 1");
    if (json.contains("rope_layout")) {
        const Json& layout = json["rope_layout"];
        if (layout == "interleaved") c.rope_layout = RopeLayout::interleaved;
        else if (layout == "half") c.rope_layout = RopeLayout::half;
        else throw InputFileError(where + ".rope_layout: expected \"interleaved\" or \"half\", found " + layout.dump());
    }
    if (json.contains("max_position_embeddings"))
        positive_integer(json["max_position_embeddings"], where + ".max_position_embeddings",
                         static_cast<std::size_t>(max_case_position));
    if (json.contains("rope_scaling")) c.rope_scaling = read_rope_scaling<T>(json, c.head_dim, where);
    if (json.contains("pre_norm")) {
        if (!json["pre_norm"].is_boolean()) throw InputFileError(where + ".pre_norm: expected true or false");
        c.pre_norm = json["pre_norm"].get<bool>();
    }
    if (json.contains("bias") && json["bias"] != false)
        throw InputFileError(where + ".bias: only false is supported (the block has no bias terms)");
    if (json.contains("max_sequence_slots"))
        positive_integer(json["max_sequence_slots"], where + ".max_sequence_slots",
                         static_cast<std::size_t>(max_case_position));
    return c;
}

template <class T>
BlockCase<T> read_block_case(const Json& json, const std::string& source) {
    if (!json.is_object()) throw InputFileError(source + ": expected a JSON object");
    reject_unknown_fields(json, {"config", "weights", "start_position", "input", "cached"}, source + ":");
    BlockCase<T> bc;
    bc.config = read_block_config<T>(required_field(json, "config", source + ":"), source + ": config");
    const BlockConfig<T>& c = bc.config;
    const std::string w = source + ": weights";
    const Json& weights = required_field(json, "weights", source + ":");
    reject_unknown_fields(weights, {"attn_norm", "q", "k", "v", "o", "ffn_norm", "gate", "up", "down"}, w);
    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size;
    const std::size_t qd = width(c.query_heads, c.head_dim, source + ": config.query_heads");
    const std::size_t kvd = width(c.kv_heads, c.head_dim, source + ": config.kv_heads");
    bc.weights.attn_norm = vector_of<T>(required_field(weights, "attn_norm", w), C, w + ".attn_norm");
    bc.weights.q = matrix_of<T>(required_field(weights, "q", w), C, qd, w + ".q");
    bc.weights.k = matrix_of<T>(required_field(weights, "k", w), C, kvd, w + ".k");
    bc.weights.v = matrix_of<T>(required_field(weights, "v", w), C, kvd, w + ".v");
    bc.weights.o = matrix_of<T>(required_field(weights, "o", w), qd, C, w + ".o");
    bc.weights.ffn_norm = vector_of<T>(required_field(weights, "ffn_norm", w), C, w + ".ffn_norm");
    bc.weights.gate = matrix_of<T>(required_field(weights, "gate", w), C, F, w + ".gate");
    bc.weights.up = matrix_of<T>(required_field(weights, "up", w), C, F, w + ".up");
    bc.weights.down = matrix_of<T>(required_field(weights, "down", w), F, C, w + ".down");
    if (json.contains("start_position")) bc.start_position = position(json["start_position"], source + ": start_position");
    bc.input = matrix_of<T>(required_field(json, "input", source + ":"), 0, C, source + ": input");
    if (json.contains("cached"))
        bc.cached = read_cached<T>(json["cached"], kvd, bc.start_position, source + ": cached");
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
    template BlockCase<T> read_block_case<T>(const Json&, const std::string&);             \
    template RopeScaling<T> read_rope_scaling<T>(const Json&, std::size_t, const std::string&, const std::string&); \
    template T json_number<T>(const Json&, const std::string&);
BLOCKCHECK_INSTANTIATE(float)
BLOCKCHECK_INSTANTIATE(double)
BLOCKCHECK_INSTANTIATE(Mpfr50)
BLOCKCHECK_INSTANTIATE(Mpfr100)
BLOCKCHECK_INSTANTIATE(DoubleDouble)

}  // namespace blockcheck
