// rope_attention_demo: each key's weights normalised over the queries (softmax down the column)
#include "blockcheck.hpp"
using namespace bc;

static std::vector<double> rope_head(const std::vector<double>& x, double base, double t) {
    size_t d = x.size();
    std::vector<double> out(d);
    for (size_t i = 0; i < d / 2; ++i) {
        double a = t / std::pow(base, double(2 * i) / d), c = std::cos(a), s = std::sin(a);
        out[i] = x[2 * i] * c - x[2 * i + 1] * s;
        out[d / 2 + i] = x[2 * i] * s + x[2 * i + 1] * c;
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
    size_t T = q.size(), S = k.size();
    Matrix out(T, std::vector<double>(q[0].size(), 0.0));
    for (long h = 0; h < heads; ++h) {
        Matrix w(T, std::vector<double>(S));
        for (size_t t = 0; t < T; ++t)
            for (size_t s = 0; s < S; ++s) {
                double dot = 0;
                for (long c = 0; c < d; ++c) dot += q[t][h * d + c] * k[s][h * d + c];
                w[t][s] = std::exp(dot / std::sqrt(double(d)));
            }
        for (size_t s = 0; s < S; ++s) {  // softmax
            double sum = 0;
            for (size_t t = 0; t < T; ++t) sum += w[t][s];
            for (size_t t = 0; t < T; ++t) w[t][s] /= sum;
        }
        for (size_t t = 0; t < T; ++t)
            for (size_t s = 0; s < S; ++s)
                for (long c = 0; c < d; ++c) out[t][h * d + c] += w[t][s] * v[s][h * d + c];
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
