// A student who pairs each coordinate with the one half a head away, (i, i + d/2), where the
// demo pairs neighbours (2i, 2i+1).
// expect: rope_attention_demo q_rotated pairing_half_vs_interleaved
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

// rope_embed on one head of one row: pairs (i, i + d/2) in (the slip), halves out.
static std::vector<double> rope_head(const std::vector<double>& x, double base, double t) {
    size_t d = x.size();
    std::vector<double> out(d);
    for (size_t i = 0; i < d / 2; ++i) {
        double a = t / std::pow(base, double(2 * i) / d), c = std::cos(a), s = std::sin(a);
        out[i] = x[i] * c - x[d / 2 + i] * s;
        out[d / 2 + i] = x[i] * s + x[d / 2 + i] * c;
    }
    return out;
}

static Matrix rope_embed(const Matrix& m, long heads, long d, double base) {
    Matrix out = m;
    for (size_t t = 0; t < m.size(); ++t)
        for (long h = 0; h < heads; ++h) {
            std::vector<double> head(m[t].begin() + h * d, m[t].begin() + (h + 1) * d);
            std::vector<double> turned = rope_head(head, base, double(t));
            std::copy(turned.begin(), turned.end(), out[t].begin() + h * d);
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

int main() {
    long heads = input_integer("heads"), d = input_integer("head_dim");
    double base = input_number("base");
    Matrix q = rope_embed(input_matrix("q"), heads, d, base);
    Matrix k = rope_embed(input_matrix("k"), heads, d, base);
    answer("q_rotated", q);
    answer("k_rotated", k);
    answer("attention_output", attention(q, k, input_matrix("v"), heads, d));
}
