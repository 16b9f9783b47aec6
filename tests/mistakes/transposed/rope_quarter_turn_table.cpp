// A student who prints the table with rows and columns swapped.
// expect: rope_quarter_turn_table rope_query transposed
// inputs: book
#include "blockcheck.hpp"
using namespace bc;

static std::vector<double> turn(const std::vector<double>& v, double radians) {
    double c = std::cos(radians), s = std::sin(radians);
    return {v[0] * c - v[1] * s, v[0] * s + v[1] * c};
}

int main() {
    std::vector<double> q = input_vector("query");
    std::vector<double> k = input_vector("key");
    double step = input_number("angle_degrees") * std::acos(-1.0) / 180.0;
    std::vector<double> qpos = input_vector("query_positions");
    std::vector<double> kpos = input_vector("key_positions");

    Matrix turned_q, turned_k;
    std::vector<double> dots;
    for (size_t row = 0; row < qpos.size(); ++row) {
        std::vector<double> a = turn(q, qpos[row] * step);
        std::vector<double> b = turn(k, kpos[row] * step);
        turned_q.push_back(a);
        turned_k.push_back(b);
        dots.push_back(a[0] * b[0] + a[1] * b[1]);
    }
    Matrix columns(2, std::vector<double>(turned_q.size()));
    for (size_t r = 0; r < turned_q.size(); ++r) columns[0][r] = turned_q[r][0], columns[1][r] = turned_q[r][1];
    answer("rope_query", columns);  // one row per coordinate instead of one per table row
    answer("rope_key", turned_k);
    answer("dot", dots);
}
