#include "checker/exercise/variants.hpp"

#include "checker/common/hashing.hpp"
#include "checker/common/json_exact.hpp"
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

struct Grid {  // min, min + step, ..., max
    Real min, step;
    std::uint64_t steps = 0;
};

Grid read_grid(const Json& spec, const std::string& where) {
    Grid g;
    g.min = parse_real<Real>(decimal_text(spec.at("min"), where + ".min"));
    const Real max = parse_real<Real>(decimal_text(spec.at("max"), where + ".max"));
    g.step = spec.contains("step") ? parse_real<Real>(decimal_text(spec["step"], where + ".step")) : Real(1);
    const Real count = (max - g.min) / g.step;
    using std::floor;
    if (g.step <= 0 || count < 0 || floor(count) != count)
        throw InputFileError(where + ": max - min must be a whole number of steps");
    g.steps = count.convert_to<std::uint64_t>();
    return g;
}

Real draw_from(const Grid& g, Draw& draw) { return g.min + Real(static_cast<long>(draw.up_to(g.steps))) * g.step; }

std::size_t draw_length(const Json& length, Draw& draw) {
    if (length.is_array()) {
        const auto lo = length[0].get<std::size_t>(), hi = length[1].get<std::size_t>();
        return lo + draw.up_to(hi - lo);
    }
    return length.get<std::size_t>();
}

Vector<Real> draw_vector(const Grid& g, std::size_t length, bool nonzero, Draw& draw) {
    for (int attempt = 0;; ++attempt) {
        Vector<Real> v(length);
        bool any = false;
        for (Real& x : v) any = (x = draw_from(g, draw)) != 0 || any;
        if (any || !nonzero || attempt > 100) return v;
    }
}

std::string draw_value(const std::string& kind, const Json& spec, const std::string& where, Draw& draw) {
    if (kind == "one_of") {
        if (!spec.is_array() || spec.empty()) throw InputFileError(where + ": expected a list of values");
        return spec[draw.up_to(spec.size() - 1)].get<std::string>();
    }
    if (kind == "integer") {
        const long min = spec.at("min").get<long>(), max = spec.at("max").get<long>();
        const long multiple = spec.value("multiple_of", 1L);
        const long first = (min + multiple - 1) / multiple * multiple;
        if (first > max) throw InputFileError(where + ": no multiple of " + std::to_string(multiple) + " in range");
        return std::to_string(first + multiple * static_cast<long>(draw.up_to((max - first) / multiple)));
    }
    if (kind == "number") return format_value(Value{draw_from(read_grid(spec, where), draw)}, 20);
    if (kind == "vector") {
        const Grid g = read_grid(spec, where);
        return format_value(Value{draw_vector(g, draw_length(spec.at("length"), draw), spec.value("nonzero", false), draw)}, 20);
    }
    if (kind == "matrix") {
        const Grid g = read_grid(spec, where);
        const std::size_t rows = draw_length(spec.at("rows"), draw), cols = draw_length(spec.at("cols"), draw);
        Matrix<Real> m(rows, cols);
        for (Real& x : m.values) x = draw_from(g, draw);
        return format_value(Value{m}, 20);
    }
    throw InputFileError(where + ": unknown range kind \"" + kind + "\"");
}

}  // namespace

std::uint64_t variant_seed(std::string_view student, std::string_view exercise_id) {
    return content_hash(std::string(student) + "/" + std::string(exercise_id));
}

InputList variant_inputs(const Exercise& exercise, std::uint64_t seed) {
    InputList inputs = exercise.inputs;
    for (auto& [name, value] : inputs) {
        auto it = exercise.variants.find(name);
        if (it == exercise.variants.end()) continue;
        const std::string where = exercise.file.filename().string() + ".variants." + name;
        if (!it->is_object() || it->size() != 1) throw InputFileError(where + ": expected one range kind");
        Draw draw(seed ^ content_hash(name));
        try {
            value = draw_value(it->begin().key(), it->begin().value(), where, draw);
        } catch (const Json::exception& e) {
            throw InputFileError(where + ": " + e.what());
        }
    }
    return inputs;
}

}  // namespace blockcheck
