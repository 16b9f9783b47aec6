// Solved: rotated pairs in place against two halves, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

// Turns every head's pairs (2i, 2i+1) of row t in place; halves = true writes x's then y's.
static Matrix rope_embed(const Matrix& m, long heads, long d, double base, bool halves) {
    Matrix out = m;
    for (size_t t = 0; t < m.size(); ++t)
        for (long h = 0; h < heads; ++h)
            for (long i = 0; i < d / 2; ++i) {
                double a = t * std::pow(base, -2.0 * i / d), c = std::cos(a), s = std::sin(a);
                double x = m[t][h * d + 2 * i], y = m[t][h * d + 2 * i + 1];
                long first = halves ? i : 2 * i, second = halves ? d / 2 + i : 2 * i + 1;
                out[t][h * d + first] = x * c - y * s;
                out[t][h * d + second] = x * s + y * c;
            }
    return out;
}

static Matrix attention(const Matrix& q, const Matrix& k, const Matrix& v, long heads, long d) {
    Matrix out(q.size(), std::vector<double>(q[0].size(), 0.0));
    for (long h = 0; h < heads; ++h)
        for (size_t t = 0; t < q.size(); ++t) {
            std::vector<double> w(k.size());
            double top = -1e300, sum = 0;
            for (size_t s = 0; s < k.size(); ++s) {
                double dot = 0;
                for (long c = 0; c < d; ++c) dot += q[t][h * d + c] * k[s][h * d + c];
                w[s] = dot / std::sqrt(double(d));
                top = std::max(top, w[s]);
            }
            for (double& x : w) sum += x = std::exp(x - top);
            for (size_t s = 0; s < k.size(); ++s)
                for (long c = 0; c < d; ++c) out[t][h * d + c] += w[s] / sum * v[s][h * d + c];
        }
    return out;
}

static bool differ(const Matrix& a, const Matrix& b) {
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = 0; j < a[i].size(); ++j)
            if (std::fabs(a[i][j] - b[i][j]) > 1e-9) return true;
    return false;
}

int main() {
    long heads = input_integer("heads"), d = input_integer("head_dim");
    double base = input_number("base");
    Matrix q = input_matrix("q"), k = input_matrix("k"), v = input_matrix("v");
    Matrix q_in_place = rope_embed(q, heads, d, base, false), k_in_place = rope_embed(k, heads, d, base, false);
    Matrix q_halves = rope_embed(q, heads, d, base, true), k_halves = rope_embed(k, heads, d, base, true);
    Matrix out_in_place = attention(q_in_place, k_in_place, v, heads, d);
    Matrix out_halves = attention(q_halves, k_halves, v, heads, d);
    answer("q_interleaved", q_in_place);
    answer("attention_output_interleaved", out_in_place);
    answer("q_changes", differ(q_in_place, q_halves));
    answer("output_changes", differ(out_in_place, out_halves));
    answer_choice("why", "A");
}
