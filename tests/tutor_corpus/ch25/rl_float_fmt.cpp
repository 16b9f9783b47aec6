// 25.6-1, float arithmetic, my own printing.
#include "blockcheck.hpp"
#include <cstdio>
using namespace bc;

static void rot(float x, float y, float a, float out[2]) {
    out[0] = x * std::cos(a) - y * std::sin(a);
    out[1] = x * std::sin(a) + y * std::cos(a);
}

int main() {
    std::vector<double> q = input_vector("query"), k = input_vector("key");
    float step = float(input_number("angle_degrees")) / 180.0f * 3.14159265f;
    long m = input_integer("query_position"), n = input_integer("key_position");
    float a[2], b[2];
    rot(float(q[0]), float(q[1]), float(m) * step, a);
    rot(float(k[0]), float(k[1]), float(n) * step, b);
    std::printf("rope_query = [%.8f, %.8f]\n", a[0], a[1]);
    std::printf("rope_key = [%.8f, %.8f]\n", b[0], b[1]);
    std::printf("dot = %.8f\n", a[0] * b[0] + a[1] * b[1]);
    std::printf("relative_angle_degrees = %.6f\n", float(n - m) * float(input_number("angle_degrees")));
    std::printf("causal_can_use_key = %s\n", n <= m ? "true" : "false");
}
