// The error model's sites (tape_recording.hpp: find_sites): which answers each node feeds, the
// nodes one change is made at (one line of a program run for every element, an input, a
// constant, a helper's step, a counter), and the ways each site's operation can change.
#include "solutions/tape_recording.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace blockcheck {
namespace {

// 64-bit FNV-1a, as hex: a site key short enough for an id, the same in every process.
std::string short_hash(const std::string& text) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (int i = 0; i < 10; ++i, h >>= 4) out += digits[h & 15];
    return out;
}

bool unary(TapeOp op) { return op >= TapeOp::neg; }

// The operation's shape `depth` operands deep: leaves by their input, constants alike.
std::string signature(const TapeRecording& r, int n, int depth) {
    const TapeNode& node = r.tape.nodes[n];
    if (node.op == TapeOp::leaf) return "L" + r.tape.inputs[node.input];
    if (node.op == TapeOp::constant) return "C";
    std::string s = tape_op_name(node.op);
    if (depth == 0) return s;
    s += "(" + signature(r, node.a, depth - 1);
    if (node.b >= 0) s += "," + signature(r, node.b, depth - 1);
    return s + ")";
}

bool whole(const Real& x) {
    using std::floor;
    return floor(x) == x;
}

// The neighbours people confuse a constant with.
std::vector<Real> confusable(const Real& c) {
    static const std::vector<std::pair<Real, Real>> pairs = {
        {Real(2), Real(1)},           {Real(1000000000), Real(1073741824)}, {Real(1000), Real(1024)},
        {Real(10000), Real(500000)},  {Real("1e-5"), Real("1e-6")},        {Real(180), pi<Real>()},
    };
    std::vector<Real> out;
    for (const auto& [a, b] : pairs) {
        if (c == a) out.push_back(b);
        if (c == b) out.push_back(a);
    }
    return out;
}

bool term(const TapeNode& node) { return node.op == TapeOp::add || node.op == TapeOp::sub; }

// True when node `p`, an operand of `n`, is a named step of one number that `n` mixes with another:
// a root, an exponential, a logarithm, a tanh or erf, or a known function (known_functions).
bool named_step(const TapeRecording& r, int p, int n) {
    const TapeFunctions& f = r.functions;
    if (!f.top[p] || f.source[n] == f.source[p]) return false;
    const TapeOp op = r.tape.nodes[p].op;
    return f.known[p] >= 0 || op == TapeOp::sqrt || op == TapeOp::exp || op == TapeOp::log || op == TapeOp::tanh ||
           op == TapeOp::erf;
}

// The changes of two steps' order or of one use of an operand: f(a op b) as f(a) op b (variant:
// how many first operands down f moves, 1 or 2); f(a) op b as f(a op b), where f is a named step
// of one number (a root, an exponential, a known function) and b another number (variant 3: f(a)
// the first operand, 4 the second); (a - m) op (a - m) as a op a (variant 0: both operands, 1 the
// first, 2 the second).
template <class Add>
void add_reorderings(const TapeRecording& r, int n, Add add) {
    const auto& nodes = r.tape.nodes;
    const TapeNode& node = nodes[n];
    if (unary(node.op) && node.op != TapeOp::neg && node.a >= 0 && !unary(nodes[node.a].op) && nodes[node.a].b >= 0) {
        add("steps_reordered", 1);
        const TapeNode& inner = nodes[nodes[node.a].a];
        if (inner.b >= 0 && !unary(inner.op)) add("steps_reordered", 2);
    }
    if (node.b < 0 || unary(node.op)) return;
    if (node.op != TapeOp::pow && node.op != TapeOp::atan2) {
        if (named_step(r, node.a, n)) add("steps_reordered", 3);
        if (named_step(r, node.b, n)) add("steps_reordered", 4);
    }
    const bool a = term(nodes[node.a]), b = term(nodes[node.b]);
    if (a && b && signature(r, node.a, 2) == signature(r, node.b, 2)) add("operand_term_dropped", 0);
    else if (a) add("operand_term_dropped", 1);
    else if (b) add("operand_term_dropped", 2);
}

// The ways a site's operation can change (tape_change_kinds), for a site whose nodes do `op`.
std::vector<TapeWay> ways_of(const TapeRecording& r, const TapeSite& site) {
    const TapeNode& node = r.tape.nodes[site.nodes.front()];
    std::vector<TapeWay> ways;
    auto add = [&](const char* kind, int variant = 0, Real constant = Real(0)) {
        ways.push_back({kind, variant, constant, 0, {}});
    };
    const bool all_whole = std::all_of(site.nodes.begin(), site.nodes.end(), [&](int n) { return whole(r.tape.values[n]); });
    if (site.key.starts_with("P")) return {{"counted_from_one", 0, site.step, 0, {}}};
    add_reorderings(r, site.nodes.front(), add);
    // a known function of one number taken for the one people confuse it with
    const int known = r.functions.known[site.nodes.front()];
    if (known >= 0 && std::all_of(site.nodes.begin(), site.nodes.end(), [&](int n) { return r.functions.known[n] == known; }))
        for (int other : known_functions()[known].confused_with) add("function_confused", other);
    switch (node.op) {
        case TapeOp::leaf:
            if (all_whole) add("off_by_one", 1), add("off_by_one", -1);
            return ways;
        case TapeOp::constant: {
            const Real& c = r.tape.values[site.nodes.front()];
            if (all_whole && c >= 2) add("off_by_one", 1), add("off_by_one", -1);
            for (const Real& other : confusable(c)) add("constant_swapped", 0, other);
            return ways;
        }
        case TapeOp::add:
            add("term_dropped", 0), add("term_dropped", 1), add("negated");
            // one number added to each element (a shift): added to the answer instead
            for (int operand : {1, 0})
                if (site.nodes.size() >= 2 && std::all_of(site.nodes.begin(), site.nodes.end(), [&](int n) {
                        const TapeNode& x = r.tape.nodes[n];
                        return (operand ? x.b : x.a) == (operand ? node.b : node.a);
                    }))
                    add("term_moved_out", operand ? 0 : 1);
            break;
        case TapeOp::sub: add("swapped"), add("term_dropped", 0); break;
        case TapeOp::mul:
            if (node.a == node.b) add("square_dropped");
            else add("factor_dropped", 0), add("factor_dropped", 1);
            add("inverted"), add("negated");
            break;
        case TapeOp::div: add("swapped"), add("factor_dropped", 0), add("truncated"), add("negated"); break;
        case TapeOp::pow: add("exponent_sign"), add("step_skipped"), add("inverted"); break;
        case TapeOp::sqrt: add("root_dropped"), add("inverted"); break;
        case TapeOp::sin:
        case TapeOp::cos:
        case TapeOp::floor:
        case TapeOp::ceil: add("function_swapped"), add("step_skipped"); break;
        default: add("step_skipped"); break;
    }
    add("square_added"), add("root_added");
    return ways;
}

// A step written once and used for several answers (a helper): the sites of one operation's shape,
// one operand deep, that feed different first answers or differ deeper, as one more site ("<shape>#*").
void add_shared_sites(TapeRecording& r) {
    std::map<std::string, std::vector<std::size_t>> by_shape;
    for (std::size_t s = 0; s < r.sites.size(); ++s)
        if (const std::string& key = r.sites[s].key; key[0] != 'L' && key[0] != 'C')
            by_shape[signature(r, r.sites[s].nodes.front(), 1)].push_back(s);
    for (const auto& [shape, sites] : by_shape) {
        if (sites.size() < 2) continue;
        TapeSite shared{shape + "#*", {}, 0, 64};
        for (std::size_t s : sites) {
            shared.nodes.insert(shared.nodes.end(), r.sites[s].nodes.begin(), r.sites[s].nodes.end());
            shared.reach |= r.sites[s].reach, shared.first_answer = std::min(shared.first_answer, r.sites[s].first_answer);
        }
        std::sort(shared.nodes.begin(), shared.nodes.end());
        r.sites.push_back(std::move(shared));
    }
}

// The counters: whole constants feeding one kind of operation (its shape one deep and what it feeds
// in turn), anywhere, whose values are 0, s, 2s, ..., (n-1)s with n >= 2: one site each, among
// the others in the order of its first node.
void add_counter_sites(TapeRecording& r, const std::vector<int>& consumer) {
    std::map<std::string, std::vector<int>> groups;
    for (std::size_t i = 0; i < r.tape.nodes.size(); ++i) {
        const int c = consumer[i];
        if (r.tape.nodes[i].op != TapeOp::constant || !r.reach[i] || c < 0 || !whole(r.tape.values[i]) || r.tape.values[i] < 0)
            continue;
        groups["P>" + signature(r, c, 1) + ">" + (consumer[c] >= 0 ? tape_op_name(r.tape.nodes[consumer[c]].op) : "")].push_back(int(i));
    }
    for (auto& [key, nodes] : groups) {
        std::vector<Real> values;
        for (int n : nodes) values.push_back(r.tape.values[n]);
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        bool counter = values.size() >= 2 && values.front() == 0;
        for (std::size_t k = 0; counter && k < values.size(); ++k) counter = values[k] == values[1] * Real(static_cast<long>(k));
        if (!counter) continue;
        TapeSite site{key, nodes, 0, 64, values[1]};
        for (int n : nodes) site.reach |= r.reach[n], site.first_answer = std::min(site.first_answer, std::countr_zero(r.reach[n]));
        r.sites.push_back(std::move(site));
    }
    std::stable_sort(r.sites.begin(), r.sites.end(), [](const TapeSite& a, const TapeSite& b) { return a.nodes.front() < b.nodes.front(); });
}

}  // namespace

// Which answers each node feeds, and the sites: op nodes by their shape two operands deep and the
// first answer they feed; leaves by their input; constants by value, consumer and first answer.
void find_sites(TapeRecording& r) {
    const std::size_t n = r.tape.nodes.size();
    r.reach.assign(n, 0);
    r.answer_of.assign(n, -1);
    for (std::size_t k = 0; k < r.order.size() && k < 64; ++k)
        for (const TapeOutput& out : r.outputs)
            if (out.name == r.order[k])
                for (int node : out.nodes) {
                    r.reach[node] |= std::uint64_t(1) << k;
                    if (r.answer_of[node] < 0) r.answer_of[node] = static_cast<int>(k);
                }
    std::vector<int> consumer(n, -1);
    for (std::size_t i = n; i-- > 0;) {
        const TapeNode& node = r.tape.nodes[i];
        for (int operand : {node.a, node.b})
            if (operand >= 0) r.reach[operand] |= r.reach[i], consumer[operand] = static_cast<int>(i);
    }
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < n; ++i) {
        if (!r.reach[i]) continue;
        const TapeNode& node = r.tape.nodes[i];
        const int first = std::countr_zero(r.reach[i]);
        std::string key;
        if (node.op == TapeOp::leaf) key = "L" + r.tape.inputs[node.input];
        else if (node.op == TapeOp::constant)
            key = "C" + r.tape.values[i].str(40) + ">" + (consumer[i] >= 0 ? signature(r, consumer[i], 1) : "") + "#" + r.order[first];
        else key = signature(r, static_cast<int>(i), 2) + "#" + r.order[first];
        auto [it, added] = index.emplace(key, r.sites.size());
        if (added) r.sites.push_back({key, {}, 0, first});
        TapeSite& site = r.sites[it->second];
        site.nodes.push_back(static_cast<int>(i));
        site.reach |= r.reach[i];
        site.first_answer = std::min(site.first_answer, first);
    }
    r.functions = tape_functions(r.tape, r.answer_of);
    add_shared_sites(r);
    add_counter_sites(r, consumer);
    for (std::size_t s = 0; s < r.sites.size(); ++s)
        for (TapeWay w : ways_of(r, r.sites[s])) {
            w.site = s;
            w.id = "tape:" + w.kind + ":" +
                   short_hash(r.sites[s].key + "|" + std::to_string(w.variant) + "|" + w.constant.str(20));
            r.ways.push_back(std::move(w));
        }
}

}  // namespace blockcheck
