// What a reference solution sees and returns: the exercise protocol's values at the
// reference precision (50 significant digits).
#pragma once

#include "checker/common/value.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <variant>

namespace blockcheck {

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

// A reference solution: inputs -> answers by name, computed through the block.
using ReferenceSolution = Values (*)(const Inputs&);

// Every reference solution, by exercise id.
const std::map<std::string, ReferenceSolution>& reference_solutions();

}  // namespace blockcheck
