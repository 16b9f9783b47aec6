// stamp_relative_position: right, float arrows, own printf
#include "blockcheck.hpp"
#include <cmath>
#include <cstdio>
using namespace bc;

int main() {
    std::vector<double> q = input_vector("query"), k = input_vector("key");
    double step = input_number("angle_degrees") * 3.141592653589793 / 180;
    double qp = input_number("query_position"), kp = input_number("key_position"), sh = input_number("shift");
    auto stamped_dot = [&](double a, double b) {
        float qx = q[0] * std::cos(a) - q[1] * std::sin(a), qy = q[0] * std::sin(a) + q[1] * std::cos(a);
        float kx = k[0] * std::cos(b) - k[1] * std::sin(b), ky = k[0] * std::sin(b) + k[1] * std::cos(b);
        return qx * kx + qy * ky;
    };
    std::printf("dot = %.7f\n", stamped_dot(qp * step, kp * step));
    std::printf("shifted_dot = %.7f\n", stamped_dot((qp + sh) * step, (kp + sh) * step));
    std::printf("relative_dot = %.7f\n", stamped_dot(0, (kp - qp) * step));
    std::printf("dot_depends_on = B\n");
}
