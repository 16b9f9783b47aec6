// stamp_relative_position: turns clockwise (its variant turns by 540 degrees: either way the same)
#include "blockcheck.hpp"
#include <cmath>
using namespace bc;

double rad(double deg) { return deg * M_PI / 180.0; }

std::vector<double> turn(std::vector<double> v, double deg) {
    double c = std::cos(rad(deg)), s = std::sin(rad(deg));
    return {c * v[0] + s * v[1], -s * v[0] + c * v[1]};
}

double dot(const std::vector<double>& a, const std::vector<double>& b) { return a[0] * b[0] + a[1] * b[1]; }

int main() {
    std::vector<double> q = input_vector("query"), k = input_vector("key");
    double step = input_number("angle_degrees");
    double qp = input_number("query_position"), kp = input_number("key_position");
    double shift = input_number("shift");

    answer("dot", dot(turn(q, qp * step), turn(k, kp * step)));
    answer("shifted_dot", dot(turn(q, (qp + shift) * step), turn(k, (kp + shift) * step)));
    answer("relative_dot", dot(q, turn(k, (kp - qp) * step)));
    answer_choice("dot_depends_on", "B");
}
