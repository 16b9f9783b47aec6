// The words of a change of the error model (tape_changes.hpp): which operation, where (the answer
// it first feeds), which way; operands named by input, by the answer they are, or by their
// operation. A number is said only when it is no right answer's (a constant typed in, a size).
#include "solutions/tape_recording.hpp"

#include <cmath>

namespace blockcheck {
namespace {

struct Words {
    std::string en, zh;
};

Words operation_words(TapeOp op) {
    switch (op) {
        case TapeOp::add: return {"addition", "加法"};
        case TapeOp::sub: return {"subtraction", "减法"};
        case TapeOp::mul: return {"multiplication", "乘法"};
        case TapeOp::div: return {"division", "除法"};
        case TapeOp::pow: return {"power", "乘方"};
        case TapeOp::sqrt: return {"square root", "平方根"};
        case TapeOp::exp: return {"exponential", "指数函数"};
        case TapeOp::log: return {"logarithm", "对数"};
        case TapeOp::sin: return {"sine", "正弦"};
        case TapeOp::cos: return {"cosine", "余弦"};
        case TapeOp::floor: return {"rounding down", "向下取整"};
        case TapeOp::ceil: return {"rounding up", "向上取整"};
        case TapeOp::neg: return {"minus sign", "负号"};
        case TapeOp::abs: return {"absolute value", "绝对值"};
        default: return {"function", "函数"};
    }
}

const char* symbol(TapeOp op) {
    switch (op) {
        case TapeOp::add: return "+";
        case TapeOp::sub: return "-";
        case TapeOp::mul: return "*";
        case TapeOp::div: return "/";
        case TapeOp::pow: return "^";
        default: return nullptr;
    }
}

class Describer {
public:
    Describer(const Tape& tape, const std::vector<int>& answer_of, const std::vector<std::string>& order,
              const std::vector<Real>& hidden)
        : tape_(tape), answer_of_(answer_of), order_(order), hidden_(hidden) {}

    // A number as text, when it is no right answer's; "a number" otherwise.
    std::string number(const Real& x) const {
        using std::abs;
        for (const Real& h : hidden_)
            if (abs(h - x) <= Real("1e-30") * (Real(1) + abs(h))) return "";
        using std::floor;
        if (floor(x) == x && abs(x) < Real("1e15")) return x.str(0);  // a whole number in full
        return x.str(8);
    }

    // Node `n` in words `depth` operations deep: an input by name, an answer by name, a constant by
    // its value, an operation by its operands ("…" below the depth).
    std::string operand(int n, int depth) const {
        const TapeNode& node = tape_.nodes[n];
        if (node.op == TapeOp::leaf) return tape_.inputs[node.input];
        if (answer_of_[n] >= 0) return order_[answer_of_[n]];
        if (node.op == TapeOp::constant) {
            const std::string text = number(tape_.values[n]);
            return text.empty() ? "…" : text;
        }
        if (depth == 0) return "…";
        if (const char* s = symbol(node.op)) return "(" + operand(node.a, depth - 1) + " " + s + " " + operand(node.b, depth - 1) + ")";
        if (node.op == TapeOp::neg) return "-" + operand(node.a, depth - 1);
        return std::string(op_word(node.op)) + "(" + operand(node.a, depth - 1) + ")";
    }
    // The operation at `n` with its operands one deep: "query_heads / kv_heads".
    std::string expression(int n, bool swapped = false) const {
        const TapeNode& node = tape_.nodes[n];
        const int a = swapped ? node.b : node.a, b = swapped ? node.a : node.b;
        if (const char* s = symbol(node.op)) return operand(a, 1) + " " + s + " " + operand(b, 1);
        if (node.op == TapeOp::neg) return "-" + operand(node.a, 1);
        return std::string(op_word(node.op)) + "(" + operand(node.a, 1) + ")";
    }

private:
    static const char* op_word(TapeOp op) {
        switch (op) {
            case TapeOp::sqrt: return "sqrt";
            case TapeOp::exp: return "exp";
            case TapeOp::log: return "log";
            case TapeOp::sin: return "sin";
            case TapeOp::cos: return "cos";
            case TapeOp::floor: return "floor";
            case TapeOp::ceil: return "ceil";
            case TapeOp::abs: return "abs";
            case TapeOp::erf: return "erf";
            case TapeOp::tanh: return "tanh";
            case TapeOp::acos: return "acos";
            case TapeOp::atan2: return "atan2";
            default: return "f";
        }
    }
    const Tape& tape_;
    const std::vector<int>& answer_of_;
    const std::vector<std::string>& order_;
    const std::vector<Real>& hidden_;
};

}  // namespace

std::pair<std::string, std::string> tape_change_words(const TapeRecording& r, const TapeSite& site, const TapeWay& way) {
    const Tape& tape = r.tape;
    const int node = site.nodes.front();
    const std::string& kind = way.kind;
    const int variant = way.variant;
    const Real& constant = way.constant;
    const Describer say(tape, r.answer_of, r.order, r.right_numbers);
    const TapeNode& at = tape.nodes[node];
    const std::string part = "`" + r.order[site.first_answer] + "`";
    const Words op = operation_words(at.op);
    if (at.op == TapeOp::leaf) {
        const std::string name = "`" + tape.inputs[at.input] + "`";
        return variant > 0 ? std::pair{"the input " + name + " is used one too large (each value + 1, as if counted from 1)",
                                       "输入 " + name + " 被用大了 1（每个值都加了 1，像是从 1 开始数）"}
                           : std::pair{"the input " + name + " is used one too small (each value - 1)",
                                       "输入 " + name + " 被用小了 1（每个值都减了 1）"};
    }
    if (kind == "counted_from_one") {
        const std::string step = say.number(constant);
        const std::string run = step.empty() ? "" : " (0, " + step + ", " + say.number(constant * 2) + ", …)";
        return {"in " + part + ", the counter" + run + " starts one step late, as if counted from 1 instead of 0",
                "在 " + part + " 中，计数" + run + " 晚了一步开始，像是从 1 而不是从 0 数起"};
    }
    if (at.op == TapeOp::constant) {
        const std::string was = say.number(tape.values[node]);
        const std::string now = kind == "off_by_one" ? say.number(tape.values[node] + Real(variant)) : say.number(constant);
        const std::string what_en = was.empty() ? "a whole number" : "the number " + was;
        const std::string what_zh = was.empty() ? "一个整数" : "数 " + was;
        if (kind == "off_by_one")
            return {"in " + part + ", " + what_en + " is taken one too " + (variant > 0 ? "large" : "small"),
                    "在 " + part + " 中，" + what_zh + (variant > 0 ? " 被用大了 1" : " 被用小了 1")};
        return {"in " + part + ", " + what_en + " is taken as " + (now.empty() ? "another constant" : now),
                "在 " + part + " 中，" + what_zh + " 被当成了 " + (now.empty() ? "另一个常数" : now)};
    }
    const std::string expr = say.expression(node);
    const std::string in_en = "in " + part + ", the " + op.en + " " + expr;
    const std::string in_zh = "在 " + part + " 中，" + op.zh + " " + expr;
    const std::string second = at.b >= 0 ? say.operand(at.b, 1) : "";
    const std::string first = say.operand(at.a, 1);
    if (kind == "swapped")
        return {in_en + " is done the other way round (" + say.expression(node, true) + ")",
                in_zh + " 的两边颠倒了（" + say.expression(node, true) + "）"};
    if (kind == "inverted") return {in_en + " is inverted (1 over it)", in_zh + " 的结果被取了倒数"};
    if (kind == "negated") return {in_en + " has the wrong sign", in_zh + " 的结果符号反了"};
    if (kind == "exponent_sign") return {in_en + " has its exponent's sign flipped", in_zh + " 的指数符号反了"};
    if (kind == "term_dropped")
        return {in_en + " leaves out the term " + (variant == 0 ? second : first),
                in_zh + " 漏掉了 " + (variant == 0 ? second : first) + " 这一项"};
    if (kind == "term_moved_out") {
        const std::string term = variant == 0 ? second : first, kept = variant == 0 ? first : second;
        return {"in " + part + ", " + term + " is added to the answer instead of to " + kept + " (" + expr + ")",
                "在 " + part + " 中，" + term + " 被加到了答案上，而不是加到 " + kept + " 上（" + expr + "）"};
    }
    if (kind == "factor_dropped") {
        if (at.op == TapeOp::div) return {in_en + " is left out: not divided by " + second, in_zh + " 被漏掉了：没有除以 " + second};
        return {in_en + " leaves out the factor " + (variant == 0 ? second : first),
                in_zh + " 漏掉了因子 " + (variant == 0 ? second : first)};
    }
    if (kind == "square_dropped") return {in_en + " is left out: " + first + " is not squared", in_zh + " 被漏掉了：" + first + " 没有平方"};
    if (kind == "square_added") return {in_en + " is squared where it should not be", in_zh + " 的结果被多平方了一次"};
    if (kind == "root_added") return {in_en + " has a square root taken where none belongs", in_zh + " 的结果被多开了一次平方根"};
    if (kind == "root_dropped") return {in_en + " is left out: " + first + " is used as it is", in_zh + " 被漏掉了：直接用了 " + first};
    if (kind == "step_skipped") return {in_en + " is skipped: its input is used as it is", in_zh + " 被跳过了：直接用了它的输入"};
    if (kind == "function_swapped") {
        const Words other = operation_words(at.op == TapeOp::sin ? TapeOp::cos : at.op == TapeOp::cos ? TapeOp::sin
                                            : at.op == TapeOp::floor ? TapeOp::ceil : TapeOp::floor);
        return {in_en + " is taken as the " + other.en, in_zh + " 被换成了" + other.zh};
    }
    if (kind == "function_confused") {
        const KnownFunction& was = known_functions()[r.functions.known[node]];
        const KnownFunction& now = known_functions()[variant];
        const std::string of = say.operand(r.functions.source[node], 1);
        return {"in " + part + ", " + was.en + " of " + of + " (" + was.name + ") is computed as " + now.name,
                "在 " + part + " 中，" + of + " 的 " + was.zh + "（" + was.name + "）被算成了 " + now.name};
    }
    if (kind == "steps_reordered" && variant >= 3) {  // f(a) op b as f(a op b)
        const int f = variant == 3 ? at.a : at.b, other = variant == 3 ? at.b : at.a;
        const int known = r.functions.known[f];
        const Words step = known >= 0 ? Words{known_functions()[known].en, known_functions()[known].zh}
                                      : operation_words(tape.nodes[f].op);
        const std::string of = say.operand(r.functions.source[f], 1), with = say.operand(other, 1);
        const std::string inner = variant == 3 ? of + " " + symbol(at.op) + " " + with : with + " " + symbol(at.op) + " " + of;
        return {"in " + part + ", the " + step.en + " of " + of + " is taken too late: of " + inner + ", after the " + op.en +
                    " instead of before it",
                "在 " + part + " 中，" + of + " 的" + step.zh + "做晚了：对 " + inner + " 做，即在" + op.zh + "之后而不是之前"};
    }
    if (kind == "steps_reordered") {  // f(a op b) as f(a) op b
        const int inner = variant == 2 ? tape.nodes[at.a].a : at.a;
        const Words before = operation_words(tape.nodes[inner].op);
        return {in_en + " is taken too early: of " + say.operand(tape.nodes[inner].a, 1) + ", before the " + before.en + " " +
                    say.expression(inner) + " instead of after it",
                in_zh + " 做早了：先对 " + say.operand(tape.nodes[inner].a, 1) + " 做，再做" + before.zh + " " + say.expression(inner) +
                    "，而不是之后"};
    }
    if (kind == "operand_term_dropped") {
        const int operand = variant == 2 ? at.b : at.a;
        const std::string whole = say.operand(operand, 1), part_of = say.operand(tape.nodes[operand].a, 1);
        const std::string which_en = variant == 0 ? " on both sides" : "", which_zh = variant == 0 ? "（两边都是）" : "";
        return {in_en + " uses " + part_of + " where " + whole + " belongs" + which_en + " (that " +
                    operation_words(tape.nodes[operand].op).en + " left out here only)",
                in_zh + " 用了 " + part_of + "，应当用 " + whole + which_zh + "（只在这里漏了那一步" +
                    operation_words(tape.nodes[operand].op).zh + "）"};
    }
    if (kind == "truncated")
        return {in_en + " is done in integers (the remainder dropped)", in_zh + " 按整数做了（余数被丢掉）"};
    return {in_en + " is changed", in_zh + " 被改变了"};
}

}  // namespace blockcheck
