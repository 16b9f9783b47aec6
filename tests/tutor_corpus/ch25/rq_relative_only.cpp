// Table 25.1: turn the query and key by their positions, then dot them.
#include "blockcheck.hpp"
using namespace bc;

static const double PI = std::acos(-1.0);

std::vector<double> rotate(const std::vector<double>& v, double theta) {
    double c = std::cos(theta), s = std::sin(theta);
    return {v[0] * c - v[1] * s, v[0] * s + v[1] * c};
}

int main() {
    std::vector<double> query = input_vector("query");
    std::vector<double> key = input_vector("key");
    double angle_degrees = input_number("angle_degrees");
    std::vector<double> query_positions = input_vector("query_positions");
    std::vector<double> key_positions = input_vector("key_positions");

    double step = angle_degrees * PI / 180.0;
    Matrix rq, rk;
    std::vector<double> dots;
    for (size_t i = 0; i < query_positions.size(); ++i) {
        std::vector<double> a = query;
        std::vector<double> b = rotate(key, (key_positions[i] - query_positions[i]) * step);
        rq.push_back(a);
        rk.push_back(b);
        dots.push_back(a[0] * b[0] + a[1] * b[1]);
    }
    answer("rope_query", rq);
    answer("rope_key", rk);
    answer("dot", dots);
}
