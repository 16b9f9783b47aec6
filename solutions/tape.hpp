// The recorded computation: a scalar, Taped, that keeps the 50-digit value (Real) and records each
// arithmetic operation on a tape (the operation, its operands, the constants and the input leaves),
// so that a reference solution run once on it leaves the exercise's straight-line computation on
// these inputs. The references are generic over the scalar: Real computes the answers, Taped the
// tape the error model changes one operation of (solutions/tape_changes.cpp). Branches are taken
// on the recorded values; a replay changes numbers, never the path.
#pragma once

#include "base/real.hpp"
#include "base/tensor.hpp"
#include "solutions/block/real.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace blockcheck {

// What a node of the tape computes.
enum class TapeOp : std::uint8_t {
    leaf,      // an input's element
    constant,  // a number typed in or made from a size
    add, sub, mul, div, pow, atan2,
    neg, sqrt, exp, log, sin, cos, acos, erf, tanh, floor, ceil, abs,
};

// One recorded operation: its operands (node indices, -1 when none) and, for a leaf, which input.
struct TapeNode {
    TapeOp op = TapeOp::constant;
    int a = -1, b = -1;
    int input = -1;           // leaf: index into Tape::inputs
    std::size_t element = 0;  // leaf: the element of that input
};

// The tape: nodes in the order computed (operands always before their result) and their values.
class Tape {
public:
    std::vector<TapeNode> nodes;
    std::vector<Real> values;
    std::vector<std::string> inputs;  // the names of the inputs leaves come from

    int record(const TapeNode& node, const Real& value) {
        nodes.push_back(node);
        values.push_back(value);
        return static_cast<int>(nodes.size()) - 1;
    }
    // The leaf of element `element` of input `name`, recorded once.
    int leaf(const std::string& name, std::size_t element, const Real& value) {
        const auto key = std::make_pair(name, element);
        if (auto it = leaves_.find(key); it != leaves_.end()) return it->second;
        int input = 0;
        while (input < static_cast<int>(inputs.size()) && inputs[input] != name) ++input;
        if (input == static_cast<int>(inputs.size())) inputs.push_back(name);
        const int id = record({TapeOp::leaf, -1, -1, input, element}, value);
        leaves_.emplace(key, id);
        return id;
    }
    // The tape Taped operations record on in this thread (TapeScope sets it).
    static Tape*& current() {
        thread_local Tape* tape = nullptr;
        return tape;
    }

private:
    std::map<std::pair<std::string, std::size_t>, int> leaves_;
};

// Records on `tape` for as long as it lives.
class TapeScope {
public:
    explicit TapeScope(Tape& tape) : previous_(Tape::current()) { Tape::current() = &tape; }
    ~TapeScope() { Tape::current() = previous_; }
    TapeScope(const TapeScope&) = delete;
    TapeScope& operator=(const TapeScope&) = delete;

private:
    Tape* previous_;
};

// A number on the tape: its value and the node that computed it.
class Taped {
public:
    Taped() : Taped(Real(0)) {}
    Taped(int x) : Taped(Real(x)) {}
    Taped(long x) : Taped(Real(x)) {}
    Taped(long long x) : Taped(Real(x)) {}
    Taped(unsigned long x) : Taped(Real(x)) {}
    Taped(unsigned long long x) : Taped(Real(x)) {}
    Taped(double x) : Taped(Real(x)) {}
    explicit Taped(const char* text) : Taped(Real(text)) {}
    explicit Taped(const std::string& text) : Taped(Real(text)) {}
    explicit Taped(const Real& x) : value_(x), node_(tape().record({TapeOp::constant}, x)) {}

    // The result of `op` on operands `a` (and `b`).
    static Taped made(TapeOp op, const Real& value, int a, int b = -1) { return Taped(value, tape().record({op, a, b}, value)); }
    // Element `element` of input `name`.
    static Taped input(const std::string& name, std::size_t element, const Real& value) {
        return Taped(value, tape().leaf(name, element, value));
    }

    const Real& value() const { return value_; }
    int node() const { return node_; }
    template <class I>
    I convert_to() const {
        return value_.convert_to<I>();
    }
    std::string str(std::streamsize digits = 0, std::ios_base::fmtflags f = std::ios_base::fmtflags(0)) const {
        return value_.str(digits, f);
    }

    Taped& operator+=(const Taped& o) { return *this = *this + o; }
    Taped& operator-=(const Taped& o) { return *this = *this - o; }
    Taped& operator*=(const Taped& o) { return *this = *this * o; }
    Taped& operator/=(const Taped& o) { return *this = *this / o; }
    Taped operator-() const { return made(TapeOp::neg, -value_, node_); }
    Taped operator+() const { return *this; }
    friend Taped operator+(const Taped& x, const Taped& y) { return made(TapeOp::add, x.value_ + y.value_, x.node_, y.node_); }
    friend Taped operator-(const Taped& x, const Taped& y) { return made(TapeOp::sub, x.value_ - y.value_, x.node_, y.node_); }
    friend Taped operator*(const Taped& x, const Taped& y) { return made(TapeOp::mul, x.value_ * y.value_, x.node_, y.node_); }
    friend Taped operator/(const Taped& x, const Taped& y) { return made(TapeOp::div, x.value_ / y.value_, x.node_, y.node_); }
    friend bool operator==(const Taped& x, const Taped& y) { return x.value_ == y.value_; }
    friend bool operator!=(const Taped& x, const Taped& y) { return x.value_ != y.value_; }
    friend bool operator<(const Taped& x, const Taped& y) { return x.value_ < y.value_; }
    friend bool operator<=(const Taped& x, const Taped& y) { return x.value_ <= y.value_; }
    friend bool operator>(const Taped& x, const Taped& y) { return x.value_ > y.value_; }
    friend bool operator>=(const Taped& x, const Taped& y) { return x.value_ >= y.value_; }

private:
    Taped(const Real& value, int node) : value_(value), node_(node) {}
    static Tape& tape() {
        Tape* t = Tape::current();
        if (!t) throw std::logic_error("a Taped number made with no tape recording (TapeScope)");
        return *t;
    }
    Real value_;
    int node_;
};

// The functions the block and the references call, recorded.
Real tape_apply(TapeOp op, const Real& a, const Real& b);  // the value of `op` (tape_ops.cpp)
const char* tape_op_name(TapeOp op);                        // "add", "sqrt", ... (tape_ops.cpp)
#define BLOCKCHECK_TAPED_UNARY(name)                                                                         \
    inline Taped name(const Taped& x) { return Taped::made(TapeOp::name, tape_apply(TapeOp::name, x.value(), Real(0)), x.node()); }
BLOCKCHECK_TAPED_UNARY(sqrt)
BLOCKCHECK_TAPED_UNARY(exp)
BLOCKCHECK_TAPED_UNARY(log)
BLOCKCHECK_TAPED_UNARY(sin)
BLOCKCHECK_TAPED_UNARY(cos)
BLOCKCHECK_TAPED_UNARY(acos)
BLOCKCHECK_TAPED_UNARY(erf)
BLOCKCHECK_TAPED_UNARY(tanh)
BLOCKCHECK_TAPED_UNARY(floor)
BLOCKCHECK_TAPED_UNARY(ceil)
BLOCKCHECK_TAPED_UNARY(abs)
#undef BLOCKCHECK_TAPED_UNARY
inline Taped pow(const Taped& x, const Taped& y) {
    return Taped::made(TapeOp::pow, tape_apply(TapeOp::pow, x.value(), y.value()), x.node(), y.node());
}
inline Taped atan2(const Taped& y, const Taped& x) {
    return Taped::made(TapeOp::atan2, tape_apply(TapeOp::atan2, y.value(), x.value()), y.node(), x.node());
}

// pi at 50 digits, a constant of each tape (the block's pi<T>() keeps one value for the process).
template <>
inline Taped pi<Taped>() {
    return Taped(pi<Real>());
}

// How a reference's scalar type takes an input's element: Real as it is, Taped as a leaf.
template <class S>
struct ScalarInput {
    static S of(const std::string&, std::size_t, const Real& value) { return S(value); }
};
template <>
struct ScalarInput<Taped> {
    static Taped of(const std::string& name, std::size_t element, const Real& value) { return Taped::input(name, element, value); }
};

}  // namespace blockcheck
