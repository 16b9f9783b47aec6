// What a reference solution sees and returns: the exercise protocol's values at the
// reference precision (50 significant digits).
#pragma once

#include "base/value.hpp"
#include "solutions/block/counts.hpp"
#include "solutions/tape.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace blockcheck {

// An input missing or of the wrong kind: names the input.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Typed, named access to an exercise's inputs, and the classic mistake (if any) the reference is
// asked to make on purpose.
class Inputs {
public:
    // `mistake`: one catalogue id, or two made at once joined by '+' ("a+b").
    explicit Inputs(const Values& values, std::string mistake = {}, const Values* given = nullptr)
        : values_(values), mistakes_(split_mistakes(mistake)), given_(given) {}

    // A step from the student's own numbers: the value a student printed for answer `name`, given to
    // the reference so that the steps after it are computed from it (nullptr: compute it). A
    // reference routes each intermediate answer through given_or (or its block's Trace).
    const Value* given(const std::string& name) const {
        if (!given_) return nullptr;
        auto it = given_->find(name);
        return it == given_->end() ? nullptr : &it->second;
    }
    const Values* given_answers() const { return given_; }
    // The answer `name` as the student printed it, in the shape of `computed` ([1, n] takes a
    // vector of n), or `computed` when none was given; InputError for one of another shape.
    Matrix<Real> given_or(const std::string& name, Matrix<Real> computed) const;
    Vector<Real> given_or(const std::string& name, Vector<Real> computed) const;
    Real given_or(const std::string& name, Real computed) const;
    // A run on another scalar (the tape, for diagnosis) is never given a student's numbers.
    template <class T>
        requires(!std::is_same_v<T, Real> && !std::is_same_v<T, Vector<Real>> && !std::is_same_v<T, Matrix<Real>>)
    T given_or(const std::string&, T computed) const {
        if (given_) throw std::logic_error("a step from a student's numbers is judged at 50 digits, not on the tape");
        return computed;
    }

    // True when the answers are to be computed with this mistake made: exactly one thing changed
    // in the block (two, for a pair). Asking records that this reference knows the mistake.
    bool mistake(std::string_view id) const {
        if (probe_) probe_->asked.emplace(id);
        for (std::size_t i = 0; i < mistakes_.size(); ++i)
            if (id == mistakes_[i]) return consulted_[i] = true;
        return false;
    }
    // Hands each mistake asked for (if any) to a mechanism's switch, `make(id)`: true when the id is
    // one of that mechanism's and it made it. So a switch reaches every exercise running it.
    template <class Switch>
    bool mistake_on(Switch&& make) const {
        if (probe_)  // which candidates this switch makes (it changes what it switches: the probe's answers are dropped)
            for (const std::string& id : probe_->candidates)
                if (make(std::string_view(id))) probe_->asked.insert(id);
        bool made = false;
        for (std::size_t i = 0; i < mistakes_.size(); ++i)
            if (make(std::string_view(mistakes_[i]))) made = consulted_[i] = true;
        return made;
    }

    // A run that makes no mistake and records every id the reference asks about (and every
    // candidate a switch it runs makes): the mistakes worth a run of their own.
    struct Probe {
        std::vector<std::string> candidates;
        std::set<std::string, std::less<>> asked;
    };
    void probe(Probe* p) { probe_ = p; }
    // Whether the reference asked for every mistake it was given (so its answers show them all).
    bool mistake_consulted() const {
        return !mistakes_.empty() && consulted_[0] && (mistakes_.size() == 1 || consulted_[1]);
    }

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
    // "a+b" -> {a, b}; "a" -> {a}; "" -> {}.
    static std::vector<std::string> split_mistakes(const std::string& key) {
        if (key.empty()) return {};
        const auto plus = key.find('+');
        if (plus == std::string::npos) return {key};
        return {key.substr(0, plus), key.substr(plus + 1)};
    }
    const Values& values_;
    std::vector<std::string> mistakes_;  // none, one, or the two of a pair
    const Values* given_ = nullptr;
    Probe* probe_ = nullptr;
    mutable bool consulted_[2] = {false, false};
};

inline Matrix<Real> Inputs::given_or(const std::string& name, Matrix<Real> computed) const {
    const Value* v = given(name);
    if (!v) return computed;
    if (auto* m = std::get_if<Matrix<Real>>(v); m && m->rows == computed.rows && m->cols == computed.cols) return *m;
    if (auto* row = std::get_if<Vector<Real>>(v); row && row->size() == computed.values.size()) {
        computed.values = *row;
        return computed;
    }
    throw InputError("the given '" + name + "' has another shape");
}

inline Real Inputs::given_or(const std::string& name, Real computed) const {
    const Value* v = given(name);
    if (!v) return computed;
    if (auto* x = std::get_if<Real>(v)) return *x;
    throw InputError("the given '" + name + "' is not a number");
}

inline Vector<Real> Inputs::given_or(const std::string& name, Vector<Real> computed) const {
    const Value* v = given(name);
    if (!v) return computed;
    if (auto* row = std::get_if<Vector<Real>>(v); row && row->size() == computed.size()) return *row;
    throw InputError("the given '" + name + "' has another shape");
}

inline long Inputs::integer(const std::string& name) const {
    const Real& x = number(name);
    using std::floor;
    if (floor(x) != x) throw InputError("input '" + name + "' should be a whole number");
    return x.convert_to<long>();
}

// An answer computed on scalar S (Real: the protocol's Value; Taped: the tape's, for diagnosis).
template <class S>
using ValueOf = std::variant<S, Vector<S>, Matrix<S>, bool, Undefined, Choice>;
template <class S>
using ValuesOf = std::map<std::string, ValueOf<S>>;
static_assert(std::is_same_v<ValueOf<Real>, Value>);

// An answer's value at Real (on the tape: the value recorded).
inline const Real& real_of(const Real& x) { return x; }
inline const Real& real_of(const Taped& x) { return x.value(); }
template <class S>
Value real_value(const ValueOf<S>& v) {
    if constexpr (std::is_same_v<S, Real>) {
        return v;
    } else {
        return std::visit(
            [](const auto& x) -> Value {
                using X = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<X, S>) {
                    return real_of(x);
                } else if constexpr (std::is_same_v<X, Vector<S>>) {
                    Vector<Real> out;
                    for (const S& e : x) out.push_back(real_of(e));
                    return out;
                } else if constexpr (std::is_same_v<X, Matrix<S>>) {
                    Matrix<Real> out(x.rows, x.cols);
                    for (std::size_t i = 0; i < x.values.size(); ++i) out.values[i] = real_of(x.values[i]);
                    return out;
                } else {
                    return x;
                }
            },
            v);
    }
}

// Numbers at Real (on the tape: the values recorded), for a plain comparison.
template <class S>
Vector<Real> real_values(const Vector<S>& v) {
    Vector<Real> out;
    for (const S& x : v) out.push_back(real_of(x));
    return out;
}

// The inputs as scalar S: Real as they are, Taped as the tape's leaves.
template <class S>
S number_of(const Inputs& in, const std::string& name) {
    return ScalarInput<S>::of(name, 0, in.number(name));
}
template <class S>
Vector<S> vector_of(const Inputs& in, const std::string& name) {
    const Vector<Real>& v = in.vector(name);
    Vector<S> out;
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(ScalarInput<S>::of(name, i, v[i]));
    return out;
}
template <class S>
Matrix<S> matrix_of(const Inputs& in, const std::string& name) {
    const Matrix<Real>& m = in.matrix(name);
    Matrix<S> out;
    out.rows = m.rows, out.cols = m.cols;
    for (std::size_t i = 0; i < m.values.size(); ++i) out.values.push_back(ScalarInput<S>::of(name, i, m.values[i]));
    return out;
}

// Answer values a reference solution returns.
inline Value boolean(bool b) { return Value(std::in_place_type<bool>, b); }
template <class S>
ValueOf<S> boolean_of(bool b) {
    return ValueOf<S>(std::in_place_type<bool>, b);
}
inline Value choice(const char* letter) { return Value(Choice{letter}); }
template <class S>
ValueOf<S> choice_of(const char* letter) {
    return ValueOf<S>(Choice{letter});
}
inline Value count(std::uint64_t n) { return Value(Real(static_cast<unsigned long long>(n))); }

// Checked inputs the references of both chapters read.

// A whole-number input that must be at least `least` (widths, sizes, positions).
inline long integer_at_least(const Inputs& in, const std::string& name, long least) {
    const long n = in.integer(name);
    if (n < least) throw InputError("input '" + name + "' should be a whole number of at least " + std::to_string(least));
    return n;
}

// The same as scalar S (a leaf of the tape: a count the arithmetic after it reads).
template <class S>
S whole_of(const Inputs& in, const std::string& name, long least) {
    return ScalarInput<S>::of(name, 0, Real(integer_at_least(in, name, least)));
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

// The same as scalar S (two leaves of the tape).
template <class S>
Vector<S> pair_of(const Inputs& in, const std::string& name) {
    pair_input(in, name);
    return vector_of<S>(in, name);
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

// The references written generic over the scalar, run on the tape (solutions/tape.hpp): the same
// function template as the one reference_solutions() holds at Real. A reference written for Real
// alone (one `blockcheck new` made, not yet made generic) is not here: the error model skips it.
using TapedReference = ValuesOf<Taped> (*)(const Inputs&);
const std::map<std::string, TapedReference>& taped_references();

// Instantiates reference template `name` at both scalars, in its own source file.
#define BLOCKCHECK_REFERENCE_AT_BOTH_SCALARS(name)   \
    template ValuesOf<Real> name<Real>(const Inputs&); \
    template ValuesOf<Taped> name<Taped>(const Inputs&);


// The answers of exercise `id` for `inputs`: its reference solution, run once per process for
// each case (and each mistake below), then remembered. Throws as the reference does.
Values reference_answers(const std::string& id, const Values& inputs);

// Every value of `values` written out in full, with its name: a cache key.
std::string values_key(const Values& values);

// Forgets every run this process remembered, so that a benchmark's second cold run computes as
// much as its first (bench --grading, with and without the tutor).
void forget_reference_runs();

// What a set of inputs gives: the expected answers and, for each mistake that changes
// anything, the answers the block gives with that one mistake made. Plain values, so that
// they can be stored as data as well as computed.
struct ReferenceAnswers {
    Values expected;
    std::map<std::string, Values> mistakes;  // mistake id -> answers
};

// Two mistakes made at once.
using MistakePair = std::pair<std::string, std::string>;

// The answers of exercise `id` for `inputs` with each pair of `pairs` made at once (Inputs given
// "a+b"), for the pairs the reference makes (it consults both switches); a pair that cannot be
// made on these inputs is left out.
std::map<MistakePair, Values> reference_pair_answers(const std::string& id, const Values& inputs,
                                                     const std::vector<MistakePair>& pairs);

// The answers of exercise `id` for `inputs`, with the mistakes listed (those the reference does
// not compute are left out) and the generic input mistakes when an input is in degrees (named
// *_degrees): degrees_as_radians, and pi_truncated/<pi> for pi typed as 3.1 .. 3.14159. Throws InputError for bad inputs and std::out_of_range for an
// unknown id.
// With `given`: every answer a reference routes through Inputs::given_or taken as the student
// printed it, so each later step is computed from the student's own numbers (the generic input
// mistakes are left out).
ReferenceAnswers reference_answers_with_mistakes(const std::string& id, const Values& inputs,
                                                 const std::vector<std::string>& mistakes, const Values& given = {});

}  // namespace blockcheck
