// rotating_stamp: only the gap matters, so the query stays put and the key turns by (n - m) steps
#include "blockcheck.hpp"
using namespace bc;

static const double kPi = std::acos(-1.0);

static std::vector<double> turn(const std::vector<double>& v, double degrees) {
    double r = degrees * kPi / 180.0;
    return {v[0] * std::cos(r) - v[1] * std::sin(r), v[0] * std::sin(r) + v[1] * std::cos(r)};
}

int main() {
    double step = input_number("angle_degrees");
    std::vector<double> positions = input_vector("positions");
    std::vector<double> query = input_vector("query"), key = input_vector("key");
    long m = input_integer("query_position"), n = input_integer("key_position");

    std::vector<double> angles;
    for (double p : positions) angles.push_back(p * step);
    double gap = (n - m) * step;
    std::vector<double> q = query;          // relative position: nothing to do for the query
    std::vector<double> k = turn(key, gap);  // the key carries the whole gap
    answer("stamp_angle_degrees", angles);
    answer("relative_angle_degrees", gap);
    answer("rope_query", q);
    answer("rope_key", k);
    answer("dot", q[0] * k[0] + q[1] * k[1]);
}
