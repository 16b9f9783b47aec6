// block_position_shift: RMSNorm from the sum of squares
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

Matrix matmul(const Matrix& a, const Matrix& b) {
    Matrix c(a.size(), std::vector<double>(b[0].size(), 0.0));
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t k = 0; k < b.size(); ++k)
            for (size_t j = 0; j < b[0].size(); ++j) c[i][j] += a[i][k] * b[k][j];
    return c;
}

Matrix rms_norm_rows(const Matrix& x, const std::vector<double>& g, double eps) {
    Matrix y = x;
    for (size_t t = 0; t < x.size(); ++t) {
        double ms = 0;
        for (double v : x[t]) ms += v * v;
        double r = std::sqrt(ms + eps);
        for (size_t i = 0; i < x[t].size(); ++i) y[t][i] = g[i] * x[t][i] / r;
    }
    return y;
}

void rope(Matrix& m, long heads, long d, double theta, long start) {
    for (size_t t = 0; t < m.size(); ++t) {
        double pos = double(start + (long)t);
        for (long h = 0; h < heads; ++h)
            for (long i = 0; i < d / 2; ++i) {
                double a = pos * std::pow(theta, -2.0 * i / d);
                double x = m[t][h * d + 2 * i], y = m[t][h * d + 2 * i + 1];
                m[t][h * d + 2 * i] = x * std::cos(a) - y * std::sin(a);
                m[t][h * d + 2 * i + 1] = x * std::sin(a) + y * std::cos(a);
            }
    }
}

Matrix block_attention(const Matrix& Q, const Matrix& K, const Matrix& V, long qh, long kvh, long d) {
    size_t T = Q.size();
    long group = qh / kvh;
    Matrix heads(T, std::vector<double>(qh * d, 0.0));
    for (long h = 0; h < qh; ++h) {
        long kv = h / group;
        for (size_t t = 0; t < T; ++t) {
            std::vector<double> w;
            double mx = -1e300;
            for (size_t s = 0; s <= t; ++s) {
                double dot = 0;
                for (long j = 0; j < d; ++j) dot += Q[t][h * d + j] * K[s][kv * d + j];
                w.push_back(dot / std::sqrt(double(d)));
                mx = std::max(mx, w.back());
            }
            double sum = 0;
            for (double& e : w) { e = std::exp(e - mx); sum += e; }
            for (size_t s = 0; s <= t; ++s)
                for (long j = 0; j < d; ++j) heads[t][h * d + j] += w[s] / sum * V[s][kv * d + j];
        }
    }
    return heads;
}

int main() {
    long qh = input_integer("query_heads");
    long kvh = input_integer("kv_heads");
    long d = input_integer("head_dim");
    double eps = input_number("rms_norm_eps");
    double theta = input_number("rope_theta");
    Matrix x = input_matrix("x");
    std::vector<double> attn_norm = input_vector("attn_norm");
    Matrix wq = input_matrix("q"), wk = input_matrix("k"), wv = input_matrix("v"), wo = input_matrix("o");
    std::vector<double> ffn_norm = input_vector("ffn_norm");
    Matrix wg = input_matrix("w_gate"), wu = input_matrix("w_up"), wd = input_matrix("w_down");
    long start = input_integer("shift");

    Matrix N = rms_norm_rows(x, attn_norm, eps);
    Matrix Q = matmul(N, wq), K = matmul(N, wk), V = matmul(N, wv);
    rope(Q, qh, d, theta, start);
    rope(K, kvh, d, theta, start);
    Matrix A = matmul(block_attention(Q, K, V, qh, kvh, d), wo);
    Matrix R = x;
    for (size_t t = 0; t < R.size(); ++t)
        for (size_t i = 0; i < R[t].size(); ++i) R[t][i] += A[t][i];
    Matrix M = rms_norm_rows(R, ffn_norm, eps);
    Matrix G = matmul(M, wg), U = matmul(M, wu);
    for (size_t t = 0; t < G.size(); ++t)
        for (size_t j = 0; j < G[t].size(); ++j) G[t][j] = G[t][j] / (1.0 + std::exp(-G[t][j])) * U[t][j];
    Matrix F = matmul(G, wd);
    Matrix out = R;
    for (size_t t = 0; t < out.size(); ++t)
        for (size_t i = 0; i < out[t].size(); ++i) out[t][i] += F[t][i];
    answer("shifted_output", out);
    answer("output_changes", false);
    answer_choice("sees_position", "B");
    answer_choice("norm_placement", "C");
}
