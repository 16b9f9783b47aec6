// The error model on the tape (tape_changes.hpp): a reference recorded once per case, its sites,
// each change of each kind that fits a site, replayed from the site forward, and its words.
#include "solutions/tape_recording.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>

namespace blockcheck {
namespace {

// The node's value with the change made there, from the (replayed) values of its operands.
Real changed(const TapeRecording& r, const TapeWay& w, int n, const std::vector<Real>& v) {
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
    if (k == "term_dropped" || k == "term_moved_out") return w.variant == 0 ? a : b;
    if (k == "factor_dropped") return w.variant == 0 ? a : b;
    if (k == "square_dropped" || k == "root_dropped" || k == "step_skipped") return a;
    if (k == "square_added") return right * right;
    if (k == "root_added") return sqrt(right);
    if (k == "truncated") return floor(a / b);
    if (k == "off_by_one") return v[n] + Real(w.variant);
    if (k == "constant_swapped") return w.constant;
    if (k == "counted_from_one") return v[n] + w.constant;
    if (k == "function_confused") return known_functions()[w.variant].of(v[r.functions.source[n]]);
    if (k == "steps_reordered" && w.variant >= 3) {  // f(a) op b as f(a op b)
        const int f = w.variant == 3 ? node.a : node.b, other = w.variant == 3 ? node.b : node.a;
        const Real& of = v[r.functions.source[f]];
        const Real inner = w.variant == 3 ? tape_apply(node.op, of, v[other]) : tape_apply(node.op, v[other], of);
        return function_value(r.tape, r.functions, f, inner, v);
    }
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
std::optional<Values> replay(const TapeRecording& r, const TapeWay& way) {
    const TapeSite& site = r.sites[way.site];
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
    // term_moved_out: the term left out at the site is added to the first answer it feeds
    const TapeNode& front = r.tape.nodes[site.nodes.front()];
    const bool moved = way.kind == "term_moved_out";
    const Real term = moved ? v[way.variant == 0 ? front.b : front.a] : Real(0);
    Values answers;
    for (const TapeOutput& out : r.outputs) {
        Value value = out.value;
        std::size_t k = 0;
        const bool shifted = moved && out.name == r.order[site.first_answer];
        auto set = [&](Real& x) {
            const int n = out.nodes[k++];
            x = shifted ? Real(v[n] + term) : v[n];
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
TapeOutput output_of(const std::string& name, const ValueOf<Taped>& taped) {
    TapeOutput out{name, Value(Undefined{}), {}};
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

std::string values_cache_key(const std::string& id, const Values& inputs, const std::vector<std::string>& order) {
    std::string key = id + "\n" + values_key(inputs) + "\n";
    for (const std::string& name : order) key += name + ",";
    return key;
}

// The recording of exercise `id` on these inputs, made once (up to 256 kept).
std::shared_ptr<const TapeRecording> recording(const std::string& id, const Values& inputs, const std::vector<std::string>& order) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const TapeRecording>> kept;
    const std::string key = values_cache_key(id, inputs, order);
    {
        const std::lock_guard lock(mutex);
        if (auto it = kept.find(key); it != kept.end()) return it->second;
    }
    auto r = std::make_shared<TapeRecording>();
    r->order = order;
    {
        const TapeScope scope(r->tape);
        const Inputs in(inputs);
        for (const auto& [name, value] : taped_references().at(id)(in)) r->outputs.push_back(output_of(name, value));
    }
    for (const TapeOutput& out : r->outputs)
        for (int node : out.nodes) r->right_numbers.push_back(r->tape.values[node]);
    find_sites(*r);
    const std::lock_guard lock(mutex);
    if (kept.size() >= 256) kept.clear();
    return kept.emplace(key, std::move(r)).first->second;
}

std::optional<Values> replayed(const TapeRecording& r, const TapeWay& way) {
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
std::optional<TapeChange> described(const TapeRecording& r, const TapeWay& way) {
    {
        const std::lock_guard lock(r.mutex);
        if (auto it = r.described.find(way.id); it != r.described.end()) return it->second;
    }
    std::optional<TapeChange> change;
    if (std::optional<Values> answers = replayed(r, way)) {
        const TapeSite& site = r.sites[way.site];
        const TapeNode& at = r.tape.nodes[site.nodes.front()];
        change = TapeChange{way.id, way.kind, {}, {}, {}, std::move(*answers), {site.nodes.front(), at.a, at.b}};
        std::tie(change->en, change->zh) = tape_change_words(r, site, way);
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
    std::shared_ptr<const TapeRecording> r;
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
    // first the sites feeding those answers alone (a change there cannot disturb another), then the rest
    for (const bool alone : {true, false})
        for (const TapeWay& way : r->ways) {
            if (found.size() >= limit) return found;
            const TapeSite& site = r->sites[way.site];
            if ((site.reach & must) != must || (must && alone != ((site.reach & ~must) == 0))) continue;
            if (!must && !alone) break;  // nothing asked: one pass over every way
            if (std::optional<TapeChange> change = described(*r, way)) found.push_back(std::move(*change));
        }
    return found;
}

std::optional<Values> tape_change_answers(const std::string& id, const Values& inputs, const std::vector<std::string>& order,
                                          const std::string& change_id) {
    if (!taped_reference(id)) return std::nullopt;
    try {
        const std::shared_ptr<const TapeRecording> r = recording(id, inputs, order);
        for (const TapeWay& way : r->ways)
            if (way.id == change_id) return replayed(*r, way);  // the answers alone: no words needed
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

Values taped_answers(const std::string& id, const Values& inputs) {
    const std::shared_ptr<const TapeRecording> r = recording(id, inputs, {});
    Values answers;
    for (const TapeOutput& out : r->outputs) answers.emplace(out.name, out.value);
    return answers;
}

}  // namespace blockcheck
