// What a reference solution sees and returns: the exercise protocol's values at the
// reference precision (50 significant digits).
#pragma once

#include "block/real.hpp"
#include "block/tensor.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

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

// Typed, named access to an exercise's inputs, and the classic mistake (if any) the reference is
// asked to make on purpose.
class Inputs {
public:
    explicit Inputs(const Values& values, std::string mistake = {}) : values_(values), mistake_(std::move(mistake)) {}

    // True when the answers are to be computed with this mistake made: exactly one thing changed
    // in the block. Asking records that this reference knows the mistake.
    bool mistake(std::string_view id) const {
        if (mistake_.empty() || id != mistake_) return false;
        return consulted_ = true;
    }
    // Whether the reference asked for the mistake it was given (so its answers show it).
    bool mistake_consulted() const { return consulted_; }

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
    std::string mistake_;
    mutable bool consulted_ = false;
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

// The classic mistakes a reference can make on purpose, by mechanism (ids as the exercise
// definitions' "mistakes" list them), and the generic ones every exercise is checked for.
const std::vector<std::string>& mechanism_mistakes();
const std::vector<std::string>& generic_mistakes();

// What a set of inputs gives: the expected answers and, for each mistake that changes
// anything, the answers the block gives with that one mistake made. Plain values, so that
// they can be stored as data as well as computed.
struct ReferenceAnswers {
    Values expected;
    std::map<std::string, Values> mistakes;  // mistake id -> answers
};

// The answers of exercise `id` for `inputs`, with the mistakes listed (those the reference does
// not compute are left out) and the generic input mistakes: degrees_as_radians when an input is
// in degrees (named *_degrees). Throws InputError for bad inputs and std::out_of_range for an
// unknown id.
ReferenceAnswers reference_answers_with_mistakes(const std::string& id, const Values& inputs,
                                                 const std::vector<std::string>& mistakes);

}  // namespace blockcheck
