// Solved: both stamps moved along, as a student would write it.
#include "blockcheck.hpp"
using namespace bc;

static double step_radians;

static std::vector<double> stamp(const std::vector<double>& v, double position) {
    double r = position * step_radians, c = std::cos(r), s = std::sin(r);
    return {v[0] * c - v[1] * s, v[0] * s + v[1] * c};
}

static double dot(const std::vector<double>& a, const std::vector<double>& b) { return a[0] * b[0] + a[1] * b[1]; }

int main() {
    std::vector<double> q = input_vector("query"), k = input_vector("key");
    step_radians = input_number("angle_degrees") * std::acos(-1.0) / 180.0;
    long m = input_integer("query_position"), n = input_integer("key_position"), s = input_integer("shift");

    answer("dot", dot(stamp(q, m), stamp(k, n)));
    answer("shifted_dot", dot(stamp(q, m + s), stamp(k, n + s)));
    answer("relative_dot", dot(q, stamp(k, n - m)));
    answer_choice("dot_depends_on", "B");
}
