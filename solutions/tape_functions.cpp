// The functions of one number a tape computes (tape_recording.hpp: TapeFunctions): SiLU written
// a / (1 + e^-a) is four nodes of the tape, all a function of a; evaluated again at other values of
// a, such a function is told for a known one (known_functions), which a change can take for the
// one people confuse it with, or apply to another number.
#include "solutions/tape_recording.hpp"

#include <cmath>
#include <unordered_map>

namespace blockcheck {
namespace {

Real sigmoid_of(const Real& x) {
    using std::exp;
    return Real(1) / (Real(1) + exp(-x));
}
Real tanh_of(const Real& x) {
    using std::tanh;
    return tanh(x);
}
Real silu_of(const Real& x) { return x * sigmoid_of(x); }
Real x_tanh_of(const Real& x) { return x * tanh_of(x); }
// GELU(x) = x/2 (1 + erf(x / sqrt 2))
Real gelu_of(const Real& x) {
    using std::erf, std::sqrt;
    return x / 2 * (Real(1) + erf(x / sqrt(Real(2))));
}
// GELU's tanh form: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
Real gelu_tanh_of(const Real& x) {
    using std::sqrt, std::tanh;
    return x / 2 * (Real(1) + tanh(sqrt(Real(2) / pi<Real>()) * (x + Real("0.044715") * x * x * x)));
}

// The values a function is evaluated at to tell which it is (none where two known ones meet).
const Real probes[] = {Real("-1.25"), Real("0.5"), Real("1.75")};

// Largest cone looked at: a function of one number written in more steps is no known one.
constexpr std::size_t largest_function = 64;

// Node `n` with source `s` taken as x: `memo` keeps the nodes between.
Real evaluate(const Tape& tape, const TapeFunctions& f, int n, int s, const Real& x, const std::vector<Real>& values,
              std::unordered_map<int, Real>& memo) {
    if (n == s) return x;
    if (f.source[n] != s) return values[n];  // made of constants alone
    if (auto it = memo.find(n); it != memo.end()) return it->second;
    const TapeNode& node = tape.nodes[n];
    const Real a = evaluate(tape, f, node.a, s, x, values, memo);
    const Real b = node.b >= 0 ? evaluate(tape, f, node.b, s, x, values, memo) : Real(0);
    return memo.emplace(n, tape_apply(node.op, a, b)).first->second;
}

bool alike(const Real& a, const Real& b) {
    using std::abs;
    return abs(a - b) <= Real("1e-30") * (Real(1) + abs(b));
}

// The known function top `n` computes of its source; -1 for none.
int known_at(const Tape& tape, const TapeFunctions& f, int n) {
    const auto& known = known_functions();
    std::vector<Real> at;
    for (const Real& x : probes) {
        std::unordered_map<int, Real> memo;
        at.push_back(evaluate(tape, f, n, f.source[n], x, tape.values, memo));
        if (memo.size() > largest_function) return -1;
    }
    for (std::size_t k = 0; k < known.size(); ++k) {
        bool all = true;
        for (std::size_t p = 0; all && p < at.size(); ++p) all = alike(at[p], known[k].of(probes[p]));
        if (all) return static_cast<int>(k);
    }
    return -1;
}

// True when a function whose top does `op` can be a known one (each involves exp, tanh or erf).
bool could_be_known(const Tape& tape, const TapeFunctions& f, int n) {
    for (int depth = 0; n >= 0 && depth < 4; ++depth) {
        const TapeOp op = tape.nodes[n].op;
        if (op == TapeOp::exp || op == TapeOp::tanh || op == TapeOp::erf) return true;
        const TapeNode& node = tape.nodes[n];
        // down the operand that is still the function's
        n = node.b >= 0 && f.source[node.b] == f.source[n] && node.b != f.source[n] ? node.b
            : node.a >= 0 && f.source[node.a] == f.source[n] && node.a != f.source[n] ? node.a
                                                                                     : -1;
    }
    return false;
}

}  // namespace

const std::vector<KnownFunction>& known_functions() {
    static const std::vector<KnownFunction> known = {
        {"x / (1 + e^-x)", "SiLU", "SiLU", silu_of, {1}},
        {"x tanh(x)", "x tanh(x)", "x tanh(x)", x_tanh_of, {0}},
        {"1 / (1 + e^-x)", "the sigmoid", "sigmoid", sigmoid_of, {3}},
        {"tanh(x)", "tanh", "tanh", tanh_of, {2}},
        {"x/2 (1 + erf(x / sqrt 2))", "GELU", "GELU", gelu_of, {5}},
        {"x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))", "GELU's tanh form", "GELU 的 tanh 近似", gelu_tanh_of, {4}},
    };
    return known;
}

TapeFunctions tape_functions(const Tape& tape, const std::vector<int>& answer_of) {
    const std::size_t n = tape.nodes.size();
    TapeFunctions f{std::vector<int>(n, -1), std::vector<char>(n, 0), std::vector<int>(n, -1)};
    for (std::size_t i = 0; i < n; ++i) {
        const TapeNode& node = tape.nodes[i];
        if (node.op == TapeOp::leaf) f.source[i] = static_cast<int>(i);
        if (node.op == TapeOp::leaf || node.op == TapeOp::constant) continue;
        const int a = f.source[node.a], b = node.b >= 0 ? f.source[node.b] : -1;
        f.source[i] = a < 0 ? b : b < 0 || a == b ? a : static_cast<int>(i);
    }
    auto mark = [&](int operand, int at) {
        if (operand >= 0 && f.source[operand] >= 0 && f.source[operand] != operand && f.source[at] != f.source[operand])
            f.top[operand] = 1;
    };
    for (std::size_t i = 0; i < n; ++i) {
        mark(tape.nodes[i].a, static_cast<int>(i)), mark(tape.nodes[i].b, static_cast<int>(i));
        if (answer_of[i] >= 0 && f.source[i] >= 0 && f.source[i] != static_cast<int>(i)) f.top[i] = 1;
    }
    for (std::size_t i = 0; i < n; ++i)
        if (f.top[i] && could_be_known(tape, f, static_cast<int>(i))) f.known[i] = known_at(tape, f, static_cast<int>(i));
    return f;
}

Real function_value(const Tape& tape, const TapeFunctions& f, int n, const Real& x, const std::vector<Real>& values) {
    std::unordered_map<int, Real> memo;
    return evaluate(tape, f, n, f.source[n], x, values, memo);
}

}  // namespace blockcheck
