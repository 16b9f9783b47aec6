// The value and the name of each operation a tape records (tape.hpp).
#include "solutions/tape.hpp"

#include <cmath>

namespace blockcheck {

Real tape_apply(TapeOp op, const Real& a, const Real& b) {
    using std::abs, std::acos, std::atan2, std::ceil, std::cos, std::erf, std::exp, std::floor, std::log, std::pow,
        std::sin, std::sqrt, std::tanh;
    switch (op) {
        case TapeOp::add: return a + b;
        case TapeOp::sub: return a - b;
        case TapeOp::mul: return a * b;
        case TapeOp::div: return a / b;
        case TapeOp::pow: return pow(a, b);
        case TapeOp::atan2: return atan2(a, b);
        case TapeOp::neg: return -a;
        case TapeOp::sqrt: return sqrt(a);
        case TapeOp::exp: return exp(a);
        case TapeOp::log: return log(a);
        case TapeOp::sin: return sin(a);
        case TapeOp::cos: return cos(a);
        case TapeOp::acos: return acos(a);
        case TapeOp::erf: return erf(a);
        case TapeOp::tanh: return tanh(a);
        case TapeOp::floor: return floor(a);
        case TapeOp::ceil: return ceil(a);
        case TapeOp::abs: return abs(a);
        case TapeOp::leaf:
        case TapeOp::constant: return a;
    }
    return a;
}

const char* tape_op_name(TapeOp op) {
    switch (op) {
        case TapeOp::leaf: return "leaf";
        case TapeOp::constant: return "constant";
        case TapeOp::add: return "add";
        case TapeOp::sub: return "sub";
        case TapeOp::mul: return "mul";
        case TapeOp::div: return "div";
        case TapeOp::pow: return "pow";
        case TapeOp::atan2: return "atan2";
        case TapeOp::neg: return "neg";
        case TapeOp::sqrt: return "sqrt";
        case TapeOp::exp: return "exp";
        case TapeOp::log: return "log";
        case TapeOp::sin: return "sin";
        case TapeOp::cos: return "cos";
        case TapeOp::acos: return "acos";
        case TapeOp::erf: return "erf";
        case TapeOp::tanh: return "tanh";
        case TapeOp::floor: return "floor";
        case TapeOp::ceil: return "ceil";
        case TapeOp::abs: return "abs";
    }
    return "?";
}

}  // namespace blockcheck
