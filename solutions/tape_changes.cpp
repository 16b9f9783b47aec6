// The error model on the tape (tape_changes.hpp): a reference recorded once per case, its sites,
// each change of each kind that fits a site, replayed from the site forward, and its words.
#include "solutions/tape_changes.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>

namespace blockcheck {

// The words of a change (tape_change_words.cpp).
std::pair<std::string, std::string> tape_change_words(const Tape& tape, const std::vector<int>& answer_of,
                                                      const std::vector<std::string>& order, const std::vector<Real>& hidden,
                                                      int node, int first_answer, const std::string& kind, int variant,
                                                      const Real& constant);

namespace {

// One answer of the recording: its value at Real, and the node of each of its numbers.
struct Output {
    std::string name;
    Value value;
    std::vector<int> nodes;
};

// A site: the nodes one change is made at.
struct Site {
    std::string key;
    std::vector<int> nodes;
    std::uint64_t reach = 0;  // the answers (bits, in the exercise's order) its nodes feed
    int first_answer = -1;
    Real step{0};  // a counter's site ("P..."): the counter's step s
};

// One change a site can take: its kind and which of the kind's ways (an operand, a neighbour).
struct Way {
    std::string kind;
    int variant = 0;       // term/factor dropped: 0 the second operand, 1 the first; off_by_one: +1 / -1
    Real constant{0};      // constant_swapped: the neighbour
    std::size_t site = 0;  // index into Recording::sites
    std::string id;
};

struct Recording {
    Tape tape;
    std::vector<Output> outputs;
    std::vector<std::string> order;
    std::vector<std::uint64_t> reach;  // per node
    std::vector<int> answer_of;        // per node: the answer it is a number of (index in order), -1
    std::vector<Site> sites;
    std::vector<Way> ways;
    std::vector<Real> right_numbers;  // every number of the right answers: never said in words
    mutable std::mutex mutex;
    mutable std::map<std::string, std::optional<Values>> replayed;
    mutable std::map<std::string, std::optional<TapeChange>> described;
};

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
std::string signature(const Recording& r, int n, int depth) {
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

// The changes of two steps' order or of one use of an operand: f(a op b) as f(a) op b (variant:
// how many first operands down f moves, 1 or 2); (a - m) op (a - m) as a op a (variant 0: both
// operands, 1 the first, 2 the second).
template <class Add>
void add_reorderings(const Recording& r, const TapeNode& node, Add add) {
    const auto& nodes = r.tape.nodes;
    if (unary(node.op) && node.op != TapeOp::neg && node.a >= 0 && !unary(nodes[node.a].op) && nodes[node.a].b >= 0) {
        add("steps_reordered", 1);
        const TapeNode& inner = nodes[nodes[node.a].a];
        if (inner.b >= 0 && !unary(inner.op)) add("steps_reordered", 2);
    }
    if (node.b < 0 || unary(node.op)) return;
    const bool a = term(nodes[node.a]), b = term(nodes[node.b]);
    if (a && b && signature(r, node.a, 2) == signature(r, node.b, 2)) add("operand_term_dropped", 0);
    else if (a) add("operand_term_dropped", 1);
    else if (b) add("operand_term_dropped", 2);
}

// The ways a site's operation can change (tape_change_kinds), for a site whose nodes do `op`.
std::vector<Way> ways_of(const Recording& r, const Site& site) {
    const TapeNode& node = r.tape.nodes[site.nodes.front()];
    std::vector<Way> ways;
    auto add = [&](const char* kind, int variant = 0, Real constant = Real(0)) {
        ways.push_back({kind, variant, constant, 0, {}});
    };
    const bool all_whole = std::all_of(site.nodes.begin(), site.nodes.end(), [&](int n) { return whole(r.tape.values[n]); });
    if (site.key.starts_with("P")) return {{"counted_from_one", 0, site.step, 0, {}}};
    add_reorderings(r, node, add);
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
        case TapeOp::add: add("term_dropped", 0), add("term_dropped", 1), add("negated"); break;
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

// The node's value with the change made there, from the (replayed) values of its operands.
Real changed(const Recording& r, const Way& w, int n, const std::vector<Real>& v) {
    const TapeNode& node = r.tape.nodes[n];
    const Real& a = node.a >= 0 ? v[node.a] : v[n];
    const Real b = node.b >= 0 ? v[node.b] : Real(0);
    const Real right = node.a >= 0 ? tape_apply(node.op, a, b) : v[n];
    using std::floor, std::pow, std::sqrt;
    const std::string& k = w.kind;
    if (k == "swapped") return tape_apply(node.op, b, a);
    if (k == "inverted") return Real(1) / right;
    if (k == "negated") return -right;
    if (k == "exponent_sign") return pow(a, -b);
    if (k == "term_dropped") return w.variant == 0 ? a : b;
    if (k == "factor_dropped") return w.variant == 0 ? a : b;
    if (k == "square_dropped" || k == "root_dropped" || k == "step_skipped") return a;
    if (k == "square_added") return right * right;
    if (k == "root_added") return sqrt(right);
    if (k == "truncated") return floor(a / b);
    if (k == "off_by_one") return v[n] + Real(w.variant);
    if (k == "constant_swapped") return w.constant;
    if (k == "counted_from_one") return v[n] + w.constant;
    if (k == "steps_reordered") {  // f moved down `variant` first operands: the path's steps redone above it
        std::vector<int> path{node.a};
        if (w.variant == 2) path.push_back(r.tape.nodes[node.a].a);
        Real x = tape_apply(node.op, v[r.tape.nodes[path.back()].a], Real(0));
        for (auto p = path.rbegin(); p != path.rend(); ++p) x = tape_apply(r.tape.nodes[*p].op, x, v[r.tape.nodes[*p].b]);
        return x;
    }
    if (k == "operand_term_dropped") {
        auto first_of = [&](int operand, bool drop) { return drop ? v[r.tape.nodes[operand].a] : v[operand]; };
        return tape_apply(node.op, first_of(node.a, w.variant != 2), first_of(node.b, w.variant != 1));
    }
    if (k == "function_swapped") {
        const TapeOp other = node.op == TapeOp::sin ? TapeOp::cos : node.op == TapeOp::cos ? TapeOp::sin
                             : node.op == TapeOp::floor ? TapeOp::ceil : TapeOp::floor;
        return tape_apply(other, a, b);
    }
    return right;
}

bool finite(const Real& x) {
    using boost::multiprecision::isfinite;
    return isfinite(x);
}

// The answers with `way` made: every node from the site's first on recomputed where an operand
// changed. nullopt when a number is not finite (no program prints those as an answer).
std::optional<Values> replay(const Recording& r, const Way& way) {
    const Site& site = r.sites[way.site];
    std::vector<Real> v = r.tape.values;
    std::vector<char> dirty(v.size(), 0), at_site(v.size(), 0);
    for (int n : site.nodes) at_site[n] = 1;
    for (std::size_t i = static_cast<std::size_t>(site.nodes.front()); i < v.size(); ++i) {
        const TapeNode& node = r.tape.nodes[i];
        if (at_site[i]) {
            v[i] = changed(r, way, static_cast<int>(i), v);
            dirty[i] = 1;
        } else if (node.a >= 0 && (dirty[node.a] || (node.b >= 0 && dirty[node.b]))) {
            v[i] = tape_apply(node.op, v[node.a], node.b >= 0 ? v[node.b] : Real(0));
            dirty[i] = 1;
        }
    }
    Values answers;
    for (const Output& out : r.outputs) {
        Value value = out.value;
        std::size_t k = 0;
        auto set = [&](Real& x) {
            const int n = out.nodes[k++];
            x = v[n];
        };
        if (auto* x = std::get_if<Real>(&value)) set(*x);
        if (auto* vec = std::get_if<Vector<Real>>(&value))
            for (Real& x : *vec) set(x);
        if (auto* m = std::get_if<Matrix<Real>>(&value))
            for (Real& x : m->values) set(x);
        for (int n : out.nodes)
            if (!finite(v[n])) return std::nullopt;
        answers.emplace(out.name, std::move(value));
    }
    return answers;
}

// An answer of the tape: its value at Real and its nodes.
Output output_of(const std::string& name, const ValueOf<Taped>& taped) {
    Output out{name, Value(Undefined{}), {}};
    std::visit(
        [&](const auto& x) {
            using X = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<X, Taped>) {
                out.value = x.value();
                out.nodes.push_back(x.node());
            } else if constexpr (std::is_same_v<X, Vector<Taped>>) {
                Vector<Real> v;
                for (const Taped& t : x) v.push_back(t.value()), out.nodes.push_back(t.node());
                out.value = v;
            } else if constexpr (std::is_same_v<X, Matrix<Taped>>) {
                Matrix<Real> m(x.rows, x.cols);
                for (std::size_t i = 0; i < x.values.size(); ++i) m.values[i] = x.values[i].value(), out.nodes.push_back(x.values[i].node());
                out.value = m;
            } else {
                out.value = x;
            }
        },
        taped);
    return out;
}

// A step written once and used for several answers (a helper): the sites of one operation's shape,
// one operand deep, that feed different first answers or differ deeper, as one more site ("<shape>#*").
void add_shared_sites(Recording& r) {
    std::map<std::string, std::vector<std::size_t>> by_shape;
    for (std::size_t s = 0; s < r.sites.size(); ++s)
        if (const std::string& key = r.sites[s].key; key[0] != 'L' && key[0] != 'C')
            by_shape[signature(r, r.sites[s].nodes.front(), 1)].push_back(s);
    for (const auto& [shape, sites] : by_shape) {
        if (sites.size() < 2) continue;
        Site shared{shape + "#*", {}, 0, 64};
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
void add_counter_sites(Recording& r, const std::vector<int>& consumer) {
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
        Site site{key, nodes, 0, 64, values[1]};
        for (int n : nodes) site.reach |= r.reach[n], site.first_answer = std::min(site.first_answer, std::countr_zero(r.reach[n]));
        r.sites.push_back(std::move(site));
    }
    std::stable_sort(r.sites.begin(), r.sites.end(), [](const Site& a, const Site& b) { return a.nodes.front() < b.nodes.front(); });
}

// Which answers each node feeds, and the sites: op nodes by their shape two operands deep and the
// first answer they feed; leaves by their input; constants by value, consumer and first answer.
void find_sites(Recording& r) {
    const std::size_t n = r.tape.nodes.size();
    r.reach.assign(n, 0);
    r.answer_of.assign(n, -1);
    for (std::size_t k = 0; k < r.order.size() && k < 64; ++k)
        for (const Output& out : r.outputs)
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
        Site& site = r.sites[it->second];
        site.nodes.push_back(static_cast<int>(i));
        site.reach |= r.reach[i];
        site.first_answer = std::min(site.first_answer, first);
    }
    add_shared_sites(r);
    add_counter_sites(r, consumer);
    for (std::size_t s = 0; s < r.sites.size(); ++s)
        for (Way w : ways_of(r, r.sites[s])) {
            w.site = s;
            w.id = "tape:" + w.kind + ":" +
                   short_hash(r.sites[s].key + "|" + std::to_string(w.variant) + "|" + w.constant.str(20));
            r.ways.push_back(std::move(w));
        }
}

std::string values_cache_key(const std::string& id, const Values& inputs, const std::vector<std::string>& order) {
    std::string key = id + "\n" + values_key(inputs) + "\n";
    for (const std::string& name : order) key += name + ",";
    return key;
}

// The recording of exercise `id` on these inputs, made once (up to 256 kept).
std::shared_ptr<const Recording> recording(const std::string& id, const Values& inputs, const std::vector<std::string>& order) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const Recording>> kept;
    const std::string key = values_cache_key(id, inputs, order);
    {
        const std::lock_guard lock(mutex);
        if (auto it = kept.find(key); it != kept.end()) return it->second;
    }
    auto r = std::make_shared<Recording>();
    r->order = order;
    {
        const TapeScope scope(r->tape);
        const Inputs in(inputs);
        for (const auto& [name, value] : taped_references().at(id)(in)) r->outputs.push_back(output_of(name, value));
    }
    for (const Output& out : r->outputs)
        for (int node : out.nodes) r->right_numbers.push_back(r->tape.values[node]);
    find_sites(*r);
    const std::lock_guard lock(mutex);
    if (kept.size() >= 256) kept.clear();
    return kept.emplace(key, std::move(r)).first->second;
}

std::optional<Values> replayed(const Recording& r, const Way& way) {
    {
        const std::lock_guard lock(r.mutex);
        if (auto it = r.replayed.find(way.id); it != r.replayed.end()) return it->second;
    }
    std::optional<Values> made = replay(r, way);
    const std::lock_guard lock(r.mutex);
    return r.replayed.emplace(way.id, std::move(made)).first->second;
}

// The change `way` with its answers and words, made once a recording; nullopt when its numbers
// are not finite.
std::optional<TapeChange> described(const Recording& r, const Way& way) {
    {
        const std::lock_guard lock(r.mutex);
        if (auto it = r.described.find(way.id); it != r.described.end()) return it->second;
    }
    std::optional<TapeChange> change;
    if (std::optional<Values> answers = replayed(r, way)) {
        const Site& site = r.sites[way.site];
        change = TapeChange{way.id, way.kind, {}, {}, {}, std::move(*answers)};
        std::tie(change->en, change->zh) = tape_change_words(r.tape, r.answer_of, r.order, r.right_numbers, site.nodes.front(),
                                                             site.first_answer, way.kind, way.variant, way.constant);
        if (site.key.ends_with("#*")) {  // a helper's step: the answers it feeds
            std::string answers;
            for (std::size_t k = 0; k < r.order.size() && k < 64; ++k)
                if (site.reach >> k & 1) answers += (answers.empty() ? "`" : ", `") + r.order[k] + "`";
            change->en += ", and the same wherever that step recurs (it feeds " + answers + ")";
            change->zh += "，同一步骤出现的每一处都如此（它影响 " + answers + "）";
        }
        for (std::size_t k = 0; k < r.order.size() && k < 64; ++k)
            if (site.reach >> k & 1) change->reaches.push_back(r.order[k]);
    }
    const std::lock_guard lock(r.mutex);
    return r.described.emplace(way.id, std::move(change)).first->second;
}

}  // namespace


bool taped_reference(const std::string& id) { return taped_references().count(id) > 0; }

std::vector<TapeChange> tape_changes(const std::string& id, const Values& inputs, const std::vector<std::string>& order,
                                     const std::vector<std::string>& must_reach, std::size_t limit) {
    std::vector<TapeChange> found;
    if (!taped_reference(id)) return found;
    std::shared_ptr<const Recording> r;
    try {
        r = recording(id, inputs, order);
    } catch (const std::exception&) {
        return found;  // inputs the reference refuses
    }
    std::uint64_t must = 0;
    for (const std::string& name : must_reach) {
        auto at = std::find(order.begin(), order.end(), name);
        if (at != order.end() && at - order.begin() < 64) must |= std::uint64_t(1) << (at - order.begin());
    }
    for (const Way& way : r->ways) {
        if (found.size() >= limit) break;
        const Site& site = r->sites[way.site];
        if ((site.reach & must) != must) continue;
        if (std::optional<TapeChange> change = described(*r, way)) found.push_back(std::move(*change));
    }
    return found;
}

std::optional<Values> tape_change_answers(const std::string& id, const Values& inputs, const std::vector<std::string>& order,
                                          const std::string& change_id) {
    if (!taped_reference(id)) return std::nullopt;
    try {
        const std::shared_ptr<const Recording> r = recording(id, inputs, order);
        for (const Way& way : r->ways)
            if (way.id == change_id) return replayed(*r, way);  // the answers alone: no words needed
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

Values taped_answers(const std::string& id, const Values& inputs) {
    const std::shared_ptr<const Recording> r = recording(id, inputs, {});
    Values answers;
    for (const Output& out : r->outputs) answers.emplace(out.name, out.value);
    return answers;
}

}  // namespace blockcheck
