// rope_write_back_layout: two slips: no scale and a causal mask
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

// Rotate every head of every row; each pair goes back where it came from.
Matrix rope_embed(const Matrix& m, long heads, long d, double base) {
    Matrix out = m;
    for (size_t t = 0; t < m.size(); ++t)
        for (long h = 0; h < heads; ++h)
            for (long i = 0; i < d / 2; ++i) {
                double theta = t * std::pow(base, -2.0 * i / d);
                double x = m[t][h * d + 2 * i], y = m[t][h * d + 2 * i + 1];
                out[t][h * d + 2 * i] = x * std::cos(theta) - y * std::sin(theta);
                out[t][h * d + 2 * i + 1] = x * std::sin(theta) + y * std::cos(theta);
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
                if (s > t) { score[s] = -1e300; continue; }
                double dot = 0;
                for (long j = 0; j < d; ++j) dot += q[t][h * d + j] * k[s][h * d + j];
                score[s] = dot;
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
    answer("q_interleaved", qr);
    answer("attention_output_interleaved", attention(qr, kr, v, heads, d));
    answer("q_changes", true);
    answer("output_changes", false);
    answer_choice("why", "A");
}
