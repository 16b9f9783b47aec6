// rope_attention_demo: turns clockwise
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

// Rotate every head of every row; write back as two halves (x' values, then y' values).
Matrix rope_embed(const Matrix& m, long heads, long d, double base) {
    Matrix out = m;
    for (size_t t = 0; t < m.size(); ++t)
        for (long h = 0; h < heads; ++h)
            for (long i = 0; i < d / 2; ++i) {
                double theta = t * std::pow(base, -2.0 * i / d);
                double x = m[t][h * d + 2 * i], y = m[t][h * d + 2 * i + 1];
                out[t][h * d + i] = x * std::cos(theta) + y * std::sin(theta);
                out[t][h * d + d / 2 + i] = -x * std::sin(theta) + y * std::cos(theta);
            }
    return out;
}

Matrix attention(const Matrix& q, const Matrix& k, const Matrix& v, long heads, long d) {
    size_t T = q.size();
    Matrix out(T, std::vector<double>(heads * d, 0.0));
    for (long h = 0; h < heads; ++h)
        for (size_t t = 0; t < T; ++t) {
            std::vector<double> score(T);
            double mx = -1e300;
            for (size_t s = 0; s < T; ++s) {
                double dot = 0;
                for (long j = 0; j < d; ++j) dot += q[t][h * d + j] * k[s][h * d + j];
                score[s] = dot / std::sqrt((double)d);
                if (score[s] > mx) mx = score[s];
            }
            double sum = 0;
            for (size_t s = 0; s < T; ++s) { score[s] = std::exp(score[s] - mx); sum += score[s]; }
            for (size_t s = 0; s < T; ++s)
                for (long j = 0; j < d; ++j) out[t][h * d + j] += score[s] / sum * v[s][h * d + j];
        }
    return out;
}

int main() {
    long heads = input_integer("heads");
    long d = input_integer("head_dim");
    double base = input_number("base");
    Matrix q = input_matrix("q"), k = input_matrix("k"), v = input_matrix("v");
    Matrix qr = rope_embed(q, heads, d, base);
    Matrix kr = rope_embed(k, heads, d, base);
    answer("q_rotated", qr);
    answer("k_rotated", kr);
    answer("attention_output", attention(qr, kr, v, heads, d));
}
