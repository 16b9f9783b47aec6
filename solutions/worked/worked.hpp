// Worked examples replayed as named steps: every intermediate value of the chapter's and the
// companion article's examples, computed through the block. `blockcheck rerun` prints the steps;
// `blockcheck verify` compares the sources' printed numbers with them. One source of numbers.
#pragma once

#include "solutions/block/block.hpp"
#include "solutions/block/counts.hpp"
#include "solutions/block/real.hpp"
#include "base/text.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace blockcheck {

enum class StepKind {
    real,        // a computed number, shown at the book's six decimals
    integer,     // a count, a width or an index: exact
    boolean,     // 1 is true, 0 is false
    undefined,   // the quantity has no value (RMSNorm of a zero row with epsilon 0)
    difference,  // a measured discrepancy between two computations, shown in scientific notation
};

enum class StepForm { scalar, vector, matrix };

// One named intermediate value.
template <class T>
struct Step {
    std::string id;  // "<example>/<name>", e.g. "25.2/row/rms"
    Text what;      // what the step computes
    StepKind kind = StepKind::real;
    StepForm form = StepForm::scalar;
    Matrix<T> value;    // scalar [1, 1], vector [1, N], matrix [R, C]; empty when undefined
    std::string shape;  // the tensor's shape where it applies, e.g. "[1, 4, 3×4]"
};

// One worked example: where it comes from and its steps in the order they are computed.
template <class T>
struct Worked {
    std::string id;  // "25.3", "figure-25.1", "gqa_long_context-pi", ...
    Text title;
    Text source;  // document and section
    std::vector<Step<T>> steps;

    void add(const std::string& name, Text what, StepKind kind, StepForm form, Matrix<T> value,
             std::string shape = {}) {
        steps.push_back({id + "/" + name, std::move(what), kind, form, std::move(value), std::move(shape)});
    }
    void number(const std::string& name, Text what, const T& x) {
        add(name, std::move(what), StepKind::real, StepForm::scalar, one(x));
    }
    void vector(const std::string& name, Text what, const Vector<T>& x, std::string shape = {}) {
        add(name, std::move(what), StepKind::real, StepForm::vector, matrix_from_rows<T>({x}), std::move(shape));
    }
    void matrix(const std::string& name, Text what, const Matrix<T>& m, std::string shape = {}) {
        add(name, std::move(what), StepKind::real, StepForm::matrix, m, std::move(shape));
    }
    void integer(const std::string& name, Text what, Count n) {
        add(name, std::move(what), StepKind::integer, StepForm::scalar, one(T(static_cast<unsigned long long>(n))));
    }
    void integers(const std::string& name, Text what, const std::vector<Count>& ns) {
        Matrix<T> m(1, ns.size());
        for (std::size_t i = 0; i < ns.size(); ++i) m.values[i] = T(static_cast<unsigned long long>(ns[i]));
        add(name, std::move(what), StepKind::integer, StepForm::vector, std::move(m));
    }
    void integer_matrix(const std::string& name, Text what, const std::vector<std::vector<Count>>& rows) {
        Matrix<T> m(rows.size(), rows.empty() ? 0 : rows.front().size());
        for (std::size_t r = 0; r < m.rows; ++r)
            for (std::size_t c = 0; c < m.cols; ++c) m(r, c) = T(static_cast<unsigned long long>(rows[r][c]));
        add(name, std::move(what), StepKind::integer, StepForm::matrix, std::move(m));
    }
    void boolean(const std::string& name, Text what, bool b) {
        add(name, std::move(what), StepKind::boolean, StepForm::scalar, one(T(b ? 1 : 0)));
    }
    void undefined(const std::string& name, Text what) {
        add(name, std::move(what), StepKind::undefined, StepForm::scalar, Matrix<T>());
    }
    void difference(const std::string& name, Text what, const T& x) {
        add(name, std::move(what), StepKind::difference, StepForm::scalar, one(x));
    }

    // The step named `name` in this example ("rms" finds "25.2/rms").
    const Step<T>& step(const std::string& name) const {
        for (const Step<T>& s : steps)
            if (s.id == id + "/" + name) return s;
        throw std::logic_error("worked example " + id + " has no step " + name);
    }

private:
    static Matrix<T> one(const T& x) {
        Matrix<T> m(1, 1);
        m(0, 0) = x;
        return m;
    }
};

// The modern configuration as the chapter reads it: the block's geometry plus the two
// teaching fields the block itself does not use.
template <class T>
struct ConfigFacts {
    BlockConfig<T> config;
    bool bias = false;
    Count max_sequence_slots = 0;
};

// ---- chapter 25 (solutions/worked/chapter25.cpp) ----

// Example 25.1 and table 25.1 (a quarter turn per position), exercise 25.6-1, and the same
// comparisons with the multi-frequency plan of `modern`.
template <class T>
Worked<T> rope_quarter_turn_example(const BlockConfig<T>& modern);

// Example 25.2: RMSNorm of [3, 4] and [4, 5], LayerNorm for contrast, the zero row,
// exercises 25.6-2 and 25.6-3.
template <class T>
Worked<T> rms_norm_example();

// Example 25.3: the two-dimensional SwiGLU FFN, and exercise 25.6-4 (W_d the identity).
template <class T>
Worked<T> swiglu_example();

// Table 25.2: FFN parameter counts, and exercise 25.6-5.
template <class T>
Worked<T> ffn_count_example();

// Section 25.4: the modern configuration's fields and how they fit together.
template <class T>
Worked<T> modern_config_example(const ConfigFacts<T>& facts);

// Figure 25.1: the block on x, step by step with the shape at each step.  x: [T, C]
template <class T>
Worked<T> block_trace_example(const BlockConfig<T>& config, const BlockWeights<T>& weights, const Matrix<T>& x,
                              long start_position);

// ---- the companion article (solutions/worked/gqa_long_context.cpp) ----

template <class T>
Worked<T> stamp_example();  // 30 degrees a position
template <class T>
Worked<T> position_interpolation_example(const BlockConfig<T>& modern);  // 100 positions into 8
template <class T>
Worked<T> ntk_example(const BlockConfig<T>& modern);  // NTK-aware base
template <class T>
Worked<T> gqa_example(const BlockConfig<T>& modern);  // 48 query heads in 8 groups, KV cache sizes
template <class T>
Worked<T> silu_gate_example();  // what the SiLU branch outputs; the FFN's parameter ratio
template <class T>
Worked<T> position_blind_attention_example();  // attention without RoPE ignores order
template <class T>
Worked<T> rope_demo_example();  // the article's NumPy RoPE-attention demo, redone

// ---- the block's properties on the modern configuration (solutions/worked/properties.cpp) ----

template <class T>
Worked<T> block_properties_example(const BlockConfig<T>& modern);

// ---- small helpers shared by the worked examples ----

namespace worked {

// A difference this small is rounding, not a change: 10^-(digits - 8) at T's precision.
template <class T>
T negligible() {
    using std::pow;
    return pow(T(10), T(-(decimal_digits<T>() - 8)));
}

template <class T>
T max_abs_difference(std::span<const T> a, std::span<const T> b) {
    using std::abs;
    if (a.size() != b.size()) throw std::logic_error("comparing values of different sizes");
    T worst(0);
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max<T>(worst, abs(a[i] - b[i]));
    return worst;
}

template <class T>
T max_abs_difference(const Matrix<T>& a, const Matrix<T>& b) {
    if (a.rows != b.rows || a.cols != b.cols) throw std::logic_error("comparing matrices of different shapes");
    return max_abs_difference<T>(std::span<const T>(a.values), std::span<const T>(b.values));
}

template <class T>
Vector<T> scaled(Vector<T> x, const T& factor) {
    for (T& v : x) v *= factor;
    return x;
}

// a / b for two counts, at T's precision.
template <class T>
T ratio(Count a, Count b) {
    return T(static_cast<unsigned long long>(a)) / T(static_cast<unsigned long long>(b));
}

// Columns [first, first + count) of m.  m: [R, C] -> [R, count]
template <class T>
Matrix<T> columns(const Matrix<T>& m, std::size_t first, std::size_t count) {
    Matrix<T> out(m.rows, count);
    for (std::size_t r = 0; r < m.rows; ++r)
        for (std::size_t c = 0; c < count; ++c) out(r, c) = m(r, first + c);
    return out;
}

// A deterministic stream of multiples of 1/64 in [-limit/64, limit/64]: exact in every
// precision, so double, 50 and 100 digits see the same inputs.
class SeededDyadic {
public:
    explicit SeededDyadic(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
    template <class T>
    T next(int limit = 64) {
        state_ ^= state_ << 13, state_ ^= state_ >> 7, state_ ^= state_ << 17;
        return T(static_cast<long>(state_ % (2 * limit + 1)) - limit) / T(64);
    }
    template <class T>
    Matrix<T> matrix(std::size_t rows, std::size_t cols, int limit = 64) {
        Matrix<T> m(rows, cols);
        for (T& v : m.values) v = next<T>(limit);
        return m;
    }
    template <class T>
    Vector<T> vector(std::size_t n, int limit = 64) {
        Vector<T> v(n);
        for (T& x : v) x = next<T>(limit);
        return v;
    }
    // Gains near one: 1 + multiples of 1/64 in [-1/4, 1/4].
    template <class T>
    Vector<T> gains(std::size_t n) {
        Vector<T> g = vector<T>(n, 16);
        for (T& v : g) v += T(1);
        return g;
    }

private:
    std::uint64_t state_;
};

// Weights for `config` from a seed: matrices in [-5/8, 5/8], gains in [3/4, 5/4].
template <class T>
BlockWeights<T> seeded_weights(const BlockConfig<T>& c, std::uint64_t seed) {
    SeededDyadic r(seed);
    const std::size_t C = c.hidden_size, F = c.ffn_hidden_size;
    const std::size_t qd = c.query_heads * c.head_dim, kvd = c.kv_heads * c.head_dim;
    BlockWeights<T> w;
    w.attn_norm = r.gains<T>(C);
    w.q = r.matrix<T>(C, qd, 40);
    w.k = r.matrix<T>(C, kvd, 40);
    w.v = r.matrix<T>(C, kvd, 40);
    w.o = r.matrix<T>(qd, C, 40);
    w.ffn_norm = r.gains<T>(C);
    w.gate = r.matrix<T>(C, F, 40);
    w.up = r.matrix<T>(C, F, 40);
    w.down = r.matrix<T>(F, C, 40);
    return w;
}

}  // namespace worked
}  // namespace blockcheck
