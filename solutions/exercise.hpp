// What a reference solution sees and returns: the exercise protocol's values at the
// reference precision (50 significant digits).
#pragma once

#include "solutions/block/counts.hpp"
#include "solutions/block/real.hpp"
#include "solutions/block/tensor.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <variant>

namespace blockcheck {

using Real = Real50;

struct Undefined {};        // the quantity has no value (e.g. RMSNorm of a zero row, eps 0)
struct Choice {             // a bare word such as B or true-ish labels
    std::string word;
};

// One value of the protocol: number, vector, matrix, boolean, undefined or choice.
using Value = std::variant<Real, Vector<Real>, Matrix<Real>, bool, Undefined, Choice>;
using Values = std::map<std::string, Value>;

// An input missing or of the wrong kind: names the input.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Typed, named access to an exercise's inputs.
class Inputs {
public:
    explicit Inputs(const Values& values) : values_(values) {}

    const Real& number(const std::string& name) const { return get<Real>(name, "a number"); }
    long integer(const std::string& name) const;  // a number that must be a whole number
    const Vector<Real>& vector(const std::string& name) const { return get<Vector<Real>>(name, "a vector"); }
    const Matrix<Real>& matrix(const std::string& name) const { return get<Matrix<Real>>(name, "a matrix"); }
    bool boolean(const std::string& name) const { return get<bool>(name, "true or false"); }

private:
    template <class V>
    const V& get(const std::string& name, const char* what) const {
        auto it = values_.find(name);
        if (it == values_.end()) throw InputError("input '" + name + "' is missing");
        if (auto* v = std::get_if<V>(&it->second)) return *v;
        throw InputError("input '" + name + "' should be " + what);
    }
    const Values& values_;
};

inline long Inputs::integer(const std::string& name) const {
    const Real& x = number(name);
    using std::floor;
    if (floor(x) != x) throw InputError("input '" + name + "' should be a whole number");
    return x.convert_to<long>();
}

// Answer values a reference solution returns.
inline Value boolean(bool b) { return Value(std::in_place_type<bool>, b); }
inline Value choice(const char* letter) { return Value(Choice{letter}); }
inline Value count(std::uint64_t n) { return Value(Real(static_cast<unsigned long long>(n))); }

// Checked inputs the references of both chapters read.

// A whole-number input that must be at least `least` (widths, sizes, positions).
inline long integer_at_least(const Inputs& in, const std::string& name, long least) {
    const long n = in.integer(name);
    if (n < least) throw InputError("input '" + name + "' should be a whole number of at least " + std::to_string(least));
    return n;
}

// A positive whole-number input (widths and sizes).
inline Count positive_count(const Inputs& in, const std::string& name) {
    return static_cast<Count>(integer_at_least(in, name, 1));
}

// A 2-D arrow (one RoPE coordinate pair).
inline const Vector<Real>& pair_input(const Inputs& in, const std::string& name) {
    const Vector<Real>& v = in.vector(name);
    if (v.size() != 2) throw InputError("input '" + name + "' should be a vector of two coordinates");
    return v;
}

// Two results are the same when they agree far below any printed digit:
// |a_i - b_i| <= 10^-40 (1 + |a_i|) for every i.
inline bool same_values(const std::vector<Real>& a, const std::vector<Real>& b) {
    if (a.size() != b.size()) return false;
    using std::abs;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (abs(a[i] - b[i]) > Real("1e-40") * (Real(1) + abs(a[i]))) return false;
    return true;
}

// The same for two answers: vectors as above; two undefined answers are the same.
inline bool same_values(const Value& a, const Value& b) {
    const auto* x = std::get_if<Vector<Real>>(&a);
    const auto* y = std::get_if<Vector<Real>>(&b);
    if (!x || !y) return std::holds_alternative<Undefined>(a) && std::holds_alternative<Undefined>(b);
    return same_values(*x, *y);
}

// A reference solution: inputs -> answers by name, computed through the block.
using ReferenceSolution = Values (*)(const Inputs&);

// Every reference solution, by exercise id.
const std::map<std::string, ReferenceSolution>& reference_solutions();

}  // namespace blockcheck
