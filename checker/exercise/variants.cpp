#include "checker/exercise/variants.hpp"

#include <algorithm>

#include "checker/common/hashing.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/common/json_fields.hpp"
#include "checker/exercise/protocol.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

using Json = nlohmann::ordered_json;

// splitmix64: a small generator whose output is fixed by the standard of the algorithm, not
// by a library's distribution classes (which differ between implementations).
class Draw {
public:
    explicit Draw(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // A whole number in [0, n].
    std::uint64_t up_to(std::uint64_t n) { return next() % (n + 1); }

private:
    std::uint64_t state_;
};

// Sane bounds for what a definition may ask of the generator: every draw stays exact, small
// and quick, whatever the file says.
constexpr long long max_magnitude = 1'000'000'000'000'000;  // 1e15: |min|, |max|, multiple_of
constexpr std::uint64_t max_grid_steps = std::uint64_t{1} << 53;
constexpr std::size_t max_length = 4096;            // elements of a vector, rows or columns of a matrix
constexpr std::size_t max_matrix_elements = 65536;
constexpr std::size_t max_choices = 1000;

struct Grid {  // min, min + step, ..., max
    Real min, step;
    std::uint64_t steps = 0;
};

Real grid_number(const Json& spec, const char* key, const std::string& where) {
    const std::string at = where + "." + key;
    const std::string text = decimal_text(required_field(spec, key, where), at);
    try {
        const Real x = parse_real<Real>(text);
        using boost::multiprecision::isfinite;
        if (!isfinite(x) || abs(x) > Real(max_magnitude)) throw InputFileError(at + ": " + text + " is not a number within 1e15");
        return x;
    } catch (const InputFileError&) {
        throw;
    } catch (const std::exception& e) {
        throw InputFileError(at + ": " + e.what());
    }
}

Grid read_grid(const Json& spec, const std::string& where) {
    Grid g;
    g.min = grid_number(spec, "min", where);
    const Real max = grid_number(spec, "max", where);
    g.step = spec.contains("step") ? grid_number(spec, "step", where) : Real(1);
    if (g.step <= 0) throw InputFileError(where + ".step: must be positive");
    if (max < g.min) throw InputFileError(where + ": max is below min");
    const Real count = (max - g.min) / g.step;
    using std::floor;
    if (floor(count) != count) throw InputFileError(where + ": max - min must be a whole number of steps");
    if (count > Real(max_grid_steps)) throw InputFileError(fmt::format("{}: more than 2^53 steps from min to max", where));
    g.steps = count.convert_to<std::uint64_t>();
    return g;
}

Real draw_from(const Grid& g, Draw& draw) { return g.min + Real(static_cast<long long>(draw.up_to(g.steps))) * g.step; }

// A length: a whole number, or [lo, hi] drawn from; each within 1..max_length.
struct LengthRange {
    std::size_t lo = 1, hi = 1;
    bool drawn = false;  // given as a range: one draw is taken even when lo == hi
};

LengthRange read_length(const Json& length, const std::string& where) {
    const long long top = static_cast<long long>(max_length);
    if (!length.is_array()) {
        const auto n = static_cast<std::size_t>(whole_number(length, where, 1, top));
        return {n, n, false};
    }
    if (length.size() != 2) throw InputFileError(where + ": expected a length or [shortest, longest]");
    const auto lo = static_cast<std::size_t>(whole_number(length[0], where + "[0]", 1, top));
    const auto hi = static_cast<std::size_t>(whole_number(length[1], where + "[1]", 1, top));
    if (hi < lo) throw InputFileError(where + ": the range is reversed (" + std::to_string(lo) + " > " + std::to_string(hi) + ")");
    return {lo, hi, true};
}

std::size_t draw_length(const LengthRange& range, Draw& draw) {
    return range.drawn ? range.lo + draw.up_to(range.hi - range.lo) : range.lo;
}

// `nonzero`: never all zeros; `distinct`: never all coordinates equal (a constant row has no
// LayerNorm with eps 0, and some shift makes it zero).
Vector<Real> draw_vector(const Grid& g, std::size_t length, bool nonzero, bool distinct, Draw& draw) {
    for (int attempt = 0;; ++attempt) {
        Vector<Real> v(length);
        bool any = false;
        for (Real& x : v) any = (x = draw_from(g, draw)) != 0 || any;
        const bool varied = std::any_of(v.begin(), v.end(), [&](const Real& x) { return x != v.front(); });
        if (((any || !nonzero) && (varied || !distinct)) || attempt > 100) return v;
    }
}

// `asymmetric`: a square matrix never equal to its transpose (a symmetric weight hides a
// transposed one).
Matrix<Real> draw_matrix(const Grid& g, std::size_t rows, std::size_t cols, bool asymmetric, Draw& draw) {
    for (int attempt = 0;; ++attempt) {
        Matrix<Real> m(rows, cols);
        for (Real& x : m.values) x = draw_from(g, draw);
        bool symmetric = rows == cols;
        for (std::size_t i = 0; symmetric && i < rows; ++i)
            for (std::size_t j = 0; symmetric && j < i; ++j) symmetric = m(i, j) == m(j, i);
        if (!asymmetric || !symmetric || attempt > 100) return m;
    }
}

bool flag(const Json& spec, const char* key, const std::string& where) {
    if (!spec.contains(key)) return false;
    if (!spec[key].is_boolean()) throw InputFileError(where + "." + key + ": expected true or false");
    return spec[key].get<bool>();
}

std::string draw_one_of(const Json& spec, const std::string& where, Draw& draw) {
    if (!spec.is_array() || spec.empty() || spec.size() > max_choices)
        throw InputFileError(where + ": expected a list of 1 to " + std::to_string(max_choices) + " values");
    for (std::size_t i = 0; i < spec.size(); ++i) {
        const std::string at = where + "[" + std::to_string(i) + "]";
        if (!spec[i].is_string()) throw InputFileError(at + ": expected protocol text");
        try {
            parse_reading(spec[i].get<std::string>());
        } catch (const ProtocolError& error) {
            throw InputFileError(at + ": " + error.what());
        }
    }
    return spec[draw.up_to(spec.size() - 1)].get<std::string>();
}

// ceil(a / b) for b > 0.
long long ceil_div(long long a, long long b) { return a / b + (a % b > 0 ? 1 : 0); }

std::string draw_integer(const Json& spec, const std::string& where, Draw& draw) {
    const long long min = whole_number(required_field(spec, "min", where), where + ".min", -max_magnitude, max_magnitude);
    const long long max = whole_number(required_field(spec, "max", where), where + ".max", -max_magnitude, max_magnitude);
    const long long multiple =
        spec.contains("multiple_of") ? whole_number(spec["multiple_of"], where + ".multiple_of", 1, max_magnitude) : 1;
    if (max < min) throw InputFileError(where + ": max is below min");
    const long long first = ceil_div(min, multiple) * multiple;  // |first| <= 2e15: no overflow
    if (first > max) throw InputFileError(where + ": no multiple of " + std::to_string(multiple) + " in range");
    const auto count = static_cast<std::uint64_t>((max - first) / multiple);
    return std::to_string(first + multiple * static_cast<long long>(draw.up_to(count)));
}

std::string draw_value(const std::string& kind, const Json& spec, const std::string& where, Draw& draw) {
    if (kind == "one_of") return draw_one_of(spec, where, draw);
    if (kind == "integer") return draw_integer(spec, where, draw);
    if (kind == "number") return format_value(Value{draw_from(read_grid(spec, where), draw)}, 20);
    if (kind == "vector") {
        const Grid g = read_grid(spec, where);
        const LengthRange length = read_length(required_field(spec, "length", where), where + ".length");
        const bool nonzero = flag(spec, "nonzero", where), distinct = flag(spec, "distinct", where);
        return format_value(Value{draw_vector(g, draw_length(length, draw), nonzero, distinct, draw)}, 20);
    }
    if (kind == "matrix") {
        const Grid g = read_grid(spec, where);
        const LengthRange rows = read_length(required_field(spec, "rows", where), where + ".rows");
        const LengthRange cols = read_length(required_field(spec, "cols", where), where + ".cols");
        if (rows.hi * cols.hi > max_matrix_elements)
            throw InputFileError(fmt::format("{}: up to {}x{} elements, more than {}", where, rows.hi, cols.hi, max_matrix_elements));
        const std::size_t r = draw_length(rows, draw), c = draw_length(cols, draw);
        return format_value(Value{draw_matrix(g, r, c, flag(spec, "asymmetric", where), draw)}, 20);
    }
    throw InputFileError(where + ": unknown range kind \"" + kind + "\"");
}

}  // namespace

std::uint64_t variant_seed(std::string_view student, std::string_view exercise_id) {
    return leading_u64(content_hash(std::string(student) + "/" + std::string(exercise_id)));
}

InputList variant_inputs(const Exercise& exercise, std::uint64_t seed) {
    InputList inputs = exercise.inputs;
    for (auto& [name, value] : inputs) {
        auto it = exercise.variants.find(name);
        if (it == exercise.variants.end()) continue;
        const std::string where = exercise.file.filename().string() + ".variants." + name;
        if (!it->is_object() || it->size() != 1) throw InputFileError(where + ": expected one range kind");
        Draw draw(seed ^ leading_u64(content_hash(name)));
        try {
            value = draw_value(it->begin().key(), it->begin().value(), where, draw);
        } catch (const Json::exception& e) {
            throw InputFileError(where + ": " + e.what());
        }
    }
    return inputs;
}

}  // namespace blockcheck
