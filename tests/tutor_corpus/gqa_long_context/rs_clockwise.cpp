// rotating_stamp: turns clockwise
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

const double PI = std::acos(-1.0);

std::vector<double> stamp(const std::vector<double>& v, double degrees) {
    double t = degrees * PI / 180.0;
    return {v[0] * std::cos(t) + v[1] * std::sin(t), -v[0] * std::sin(t) + v[1] * std::cos(t)};
}

int main() {
    double step = input_number("angle_degrees");
    std::vector<double> positions = input_vector("positions");
    std::vector<double> query = input_vector("query");
    std::vector<double> key = input_vector("key");
    double qpos = input_number("query_position");
    double kpos = input_number("key_position");

    std::vector<double> angles;
    for (double p : positions) angles.push_back(p * step);
    answer("stamp_angle_degrees", angles);
    answer("relative_angle_degrees", (kpos - qpos) * step);
    std::vector<double> q = stamp(query, qpos * step);
    std::vector<double> k = stamp(key, kpos * step);
    answer("rope_query", q);
    answer("rope_key", k);
    answer("dot", q[0] * k[0] + q[1] * k[1]);
}
