// Solved: the rotating stamp, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

static const double kPi = std::acos(-1.0);

static std::vector<double> stamp(const std::vector<double>& v, double degrees) {
    double r = degrees * kPi / 180.0, c = std::cos(r), s = std::sin(r);
    return {v[0] * c - v[1] * s, v[0] * s + v[1] * c};
}

int main() {
    double step = input_number("angle_degrees");
    std::vector<double> positions = input_vector("positions");
    std::vector<double> query = input_vector("query"), key = input_vector("key");
    long m = input_integer("query_position"), n = input_integer("key_position");

    std::vector<double> angles;
    for (double p : positions) angles.push_back(p * step);
    std::vector<double> q = stamp(query, m * step), k = stamp(key, n * step);
    answer("stamp_angle_degrees", angles);
    answer("relative_angle_degrees", (n - m) * step);
    answer("rope_query", q);
    answer("rope_key", k);
    answer("dot", q[0] * k[0] + q[1] * k[1]);
}
