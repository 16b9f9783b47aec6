// Solved: the tiny LLaMA block, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

static Matrix matmul(const Matrix& a, const Matrix& b) {
    Matrix y(a.size(), std::vector<double>(b[0].size(), 0.0));
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t k = 0; k < b.size(); ++k)
            for (size_t j = 0; j < b[0].size(); ++j) y[i][j] += a[i][k] * b[k][j];
    return y;
}

static Matrix add(Matrix a, const Matrix& b) {
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = 0; j < a[i].size(); ++j) a[i][j] += b[i][j];
    return a;
}

static Matrix rms_norm(Matrix x, const std::vector<double>& g, double eps) {
    for (auto& row : x) {
        double ms = 0;
        for (double v : row) ms += v * v;
        double denom = std::sqrt(ms / row.size() + eps);
        for (size_t i = 0; i < row.size(); ++i) row[i] = g[i] * row[i] / denom;
    }
    return x;
}

struct Block {
    long query_heads, kv_heads, head_dim;
    double eps, theta;
    std::vector<double> attn_norm, ffn_norm;
    Matrix w_q, w_k, w_v, w_o, w_gate, w_up, w_down;
};

// Turns every head of a row: pairs (2i, 2i+1) by position * theta^(-2i/d).
static void rope(std::vector<double>& row, long d, double theta, double position) {
    for (size_t head = 0; head < row.size(); head += d)
        for (long i = 0; i < d / 2; ++i) {
            double a = position * std::pow(theta, -2.0 * i / d), c = std::cos(a), s = std::sin(a);
            double x = row[head + 2 * i], y = row[head + 2 * i + 1];
            row[head + 2 * i] = x * c - y * s;
            row[head + 2 * i + 1] = x * s + y * c;
        }
}

static Matrix forward(const Block& b, const Matrix& x, long start, Matrix* n_out, Matrix* r_out, Matrix* m_out) {
    Matrix n = rms_norm(x, b.attn_norm, b.eps);
    Matrix q = matmul(n, b.w_q), k = matmul(n, b.w_k), v = matmul(n, b.w_v);
    for (size_t t = 0; t < x.size(); ++t) {
        rope(q[t], b.head_dim, b.theta, double(start + t));
        rope(k[t], b.head_dim, b.theta, double(start + t));
    }
    long d = b.head_dim, group = b.query_heads / b.kv_heads;
    Matrix heads(x.size(), std::vector<double>(b.query_heads * d, 0.0));
    for (long h = 0; h < b.query_heads; ++h) {
        long kv = h / group;
        for (size_t t = 0; t < x.size(); ++t) {
            std::vector<double> scores;
            for (size_t s = 0; s <= t; ++s) {
                double dot = 0;
                for (long c = 0; c < d; ++c) dot += q[t][h * d + c] * k[s][kv * d + c];
                scores.push_back(dot / std::sqrt(double(d)));
            }
            double top = scores[0], sum = 0;
            for (double sc : scores) top = std::max(top, sc);
            for (double& sc : scores) sum += sc = std::exp(sc - top);
            for (size_t s = 0; s <= t; ++s)
                for (long c = 0; c < d; ++c) heads[t][h * d + c] += scores[s] / sum * v[s][kv * d + c];
        }
    }
    Matrix r = add(x, matmul(heads, b.w_o));
    Matrix m = rms_norm(r, b.ffn_norm, b.eps);
    Matrix gate = matmul(m, b.w_gate), up = matmul(m, b.w_up);
    for (size_t t = 0; t < gate.size(); ++t)
        for (size_t j = 0; j < gate[t].size(); ++j) gate[t][j] = gate[t][j] / (1 + std::exp(-gate[t][j])) * up[t][j];
    if (n_out) *n_out = n;
    if (r_out) *r_out = r;
    if (m_out) *m_out = m;
    return add(r, matmul(gate, b.w_down));
}

int main() {
    Block b{input_integer("query_heads"), input_integer("kv_heads"), input_integer("head_dim"),
            input_number("rms_norm_eps"), input_number("rope_theta"), input_vector("attn_norm"),
            input_vector("ffn_norm"), input_matrix("q"), input_matrix("k"), input_matrix("v"),
            input_matrix("o"), input_matrix("w_gate"), input_matrix("w_up"), input_matrix("w_down")};
    Matrix x = input_matrix("x");
    Matrix n, r, m;
    Matrix y = forward(b, x, 0, &n, &r, &m);
    answer("attention_input", n);
    answer("residual", r);
    answer("ffn_input", m);
    answer("output", y);
}
